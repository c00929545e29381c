//! Every rank's data for every entry argument: what goes in (from
//! `--init`/`--load`), what `--expect` wants, what came out.
//!
//! Each (rank, argument) holds its elements' little-endian bytes in the
//! argument's element type, a scalar as one element; the harness's 8-byte
//! scalar encoding is [`crate::job`]'s business.

use crate::Error;
use crate::args::ArgLayout;
use crate::expr::{Env, Expr, Value};
use crate::npy::{self, Array, format_shape};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Per-rank, per-argument element bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    layouts: Vec<ArgLayout>,
    ranks: usize,
    /// `data[rank * layouts.len() + arg]`.
    data: Vec<Vec<u8>>,
}

impl Values {
    /// Every element of every argument 0 on every rank.
    pub fn zeros(layouts: &[ArgLayout], ranks: usize) -> Values {
        let data = (0..ranks)
            .flat_map(|_| layouts.iter().map(|l| vec![0; l.byte_len()]))
            .collect();
        Values {
            layouts: layouts.to_vec(),
            ranks,
            data,
        }
    }

    /// The inputs of a run: `--init` expressions and `--load` files, and 0
    /// for everything else. A value the element type cannot hold (an
    /// overflow, a fraction into an integer) is an error.
    pub fn initial(
        layouts: &[ArgLayout],
        ranks: usize,
        init: &BTreeMap<usize, Expr>,
        load: &BTreeMap<usize, PathBuf>,
    ) -> Result<Values, Error> {
        Values::initial_at(layouts, ranks, 0, init, load)
    }

    /// The inputs of launch `launch` (`l` in the expressions) of a run of
    /// several (`pld-run --launches`).
    pub fn initial_at(
        layouts: &[ArgLayout],
        ranks: usize,
        launch: usize,
        init: &BTreeMap<usize, Expr>,
        load: &BTreeMap<usize, PathBuf>,
    ) -> Result<Values, Error> {
        let mut values = Values::zeros(layouts, ranks);
        let mut bytes = Vec::new();
        evaluate(
            layouts,
            ranks,
            launch,
            init,
            "--init",
            |rank, arg, last, _, stored| {
                values.layout(arg).dtype().encode(stored, &mut bytes);
                if last {
                    *values.bytes_mut(rank, arg) = std::mem::take(&mut bytes);
                }
            },
        )?;
        for (&arg, template) in load {
            let layout = values.layout(arg).clone();
            for rank in 0..ranks {
                let path = npy::rank_path(template, rank);
                let array = Array::read(&path)?;
                if array.shape != layout.shape() {
                    return Err(Error::new(format!(
                        "--load {arg}: {} has shape {}, but {} has shape {}",
                        path.display(),
                        format_shape(&array.shape),
                        layout.describe(),
                        format_shape(layout.shape())
                    )));
                }
                let mut bytes = Vec::with_capacity(layout.byte_len());
                for flat in 0..array.len() {
                    let value = array.get(flat);
                    let stored = layout.dtype().represent(value).map_err(|why| {
                        Error::new(format!(
                            "--load {arg}: {} at index {}: {} cannot be represented as {}: {why}",
                            path.display(),
                            format_shape(&unflatten(flat, layout.shape())),
                            format_value(value),
                            layout.dtype()
                        ))
                    })?;
                    layout.dtype().encode(stored, &mut bytes);
                }
                *values.bytes_mut(rank, arg) = bytes;
            }
        }
        Ok(values)
    }

    pub fn ranks(&self) -> usize {
        self.ranks
    }

    pub fn layouts(&self) -> &[ArgLayout] {
        &self.layouts
    }

    /// Panics if `arg` is not an argument.
    pub fn layout(&self, arg: usize) -> &ArgLayout {
        &self.layouts[arg]
    }

    /// The bytes of one rank's argument. Panics on a rank or argument out
    /// of range.
    pub fn bytes(&self, rank: usize, arg: usize) -> &[u8] {
        &self.data[self.slot(rank, arg)]
    }

    /// Mutable access; the length must stay the layout's
    /// [`byte_len`](ArgLayout::byte_len).
    pub fn bytes_mut(&mut self, rank: usize, arg: usize) -> &mut Vec<u8> {
        let slot = self.slot(rank, arg);
        &mut self.data[slot]
    }

    fn slot(&self, rank: usize, arg: usize) -> usize {
        assert!(rank < self.ranks && arg < self.layouts.len());
        rank * self.layouts.len() + arg
    }

    /// One element, decoded.
    pub fn get(&self, rank: usize, arg: usize, flat: usize) -> Value {
        let dtype = self.layout(arg).dtype();
        dtype.decode(&self.bytes(rank, arg)[flat * dtype.size()..])
    }

    /// `--dump DIR`: every array argument of every rank to
    /// `DIR/rank<R>.arg<K>.npy`, creating DIR if needed.
    pub fn dump(&self, dir: &Path) -> Result<(), Error> {
        fs::create_dir_all(dir)
            .map_err(|e| Error::new(format!("cannot create {}: {e}", dir.display())))?;
        for rank in 0..self.ranks {
            for layout in self.layouts.iter().filter(|l| l.is_array()) {
                let arg = layout.index();
                Array::from_elements(layout.dtype(), layout.shape(), self.bytes(rank, arg))
                    .write(&npy::dump_path(dir, rank, arg))?;
            }
        }
        Ok(())
    }
}

/// What `--expect` wants of every element of the arguments it names, as
/// the expression gives it: not converted to the element type, so that the
/// comparison (in f64, or exactly for integers) is against the value the
/// run stored, and a value the type cannot hold is an error, never a
/// wrapped or infinite expectation that happens to match.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    layouts: Vec<ArgLayout>,
    ranks: usize,
    /// `values[rank * layouts.len() + arg]`; empty for an argument without
    /// an expectation.
    values: Vec<Vec<Value>>,
}

impl Expected {
    pub fn new(
        layouts: &[ArgLayout],
        ranks: usize,
        expect: &BTreeMap<usize, Expr>,
    ) -> Result<Expected, Error> {
        Expected::at(layouts, ranks, 0, expect)
    }

    /// What launch `launch` (`l` in the expressions) of a run of several
    /// must leave (`pld-run --launches`).
    pub fn at(
        layouts: &[ArgLayout],
        ranks: usize,
        launch: usize,
        expect: &BTreeMap<usize, Expr>,
    ) -> Result<Expected, Error> {
        let mut expected = Expected {
            layouts: layouts.to_vec(),
            ranks,
            values: vec![Vec::new(); layouts.len() * ranks],
        };
        let count = layouts.len();
        // An expectation keeps the value it computes, unrounded.
        evaluate(
            layouts,
            ranks,
            launch,
            expect,
            "--expect",
            |rank, arg, _, value, _| {
                expected.values[rank * count + arg].push(value);
            },
        )?;
        Ok(expected)
    }

    pub fn ranks(&self) -> usize {
        self.ranks
    }

    pub fn layouts(&self) -> &[ArgLayout] {
        &self.layouts
    }

    /// One element's expectation. Panics for an argument without one.
    pub fn get(&self, rank: usize, arg: usize, flat: usize) -> Value {
        self.values[rank * self.layouts.len() + arg][flat]
    }
}

/// Evaluates every expression of `exprs` on every rank and element, in
/// row-major order, checks that the argument's element type can hold the
/// value and hands it to `each(rank, arg, last element?, value, stored)`:
/// the value as computed and as the type stores it.
fn evaluate(
    layouts: &[ArgLayout],
    ranks: usize,
    launch: usize,
    exprs: &BTreeMap<usize, Expr>,
    option: &str,
    mut each: impl FnMut(usize, usize, bool, Value, Value),
) -> Result<(), Error> {
    for (&arg, expr) in exprs {
        let layout = &layouts[arg];
        for rank in 0..ranks {
            let mut index = vec![0; layout.shape().len()];
            for flat in 0..layout.len() {
                let env = Env {
                    rank,
                    ranks,
                    launch,
                    flat,
                    index: &index,
                };
                let at = || {
                    format!(
                        "{option} {arg}={} at rank {rank}, index {}",
                        expr.source(),
                        format_shape(&index)
                    )
                };
                let value = expr
                    .eval(&env)
                    .map_err(|e| Error::new(format!("{}: {}", at(), e.render(expr.source()))))?;
                let stored = layout.dtype().represent(value).map_err(|why| {
                    Error::new(format!(
                        "{}: {} cannot be represented as {} ({}): {why}",
                        at(),
                        format_value(value),
                        layout.dtype(),
                        layout.describe()
                    ))
                })?;
                each(rank, arg, flat + 1 == layout.len(), value, stored);
                next_index(&mut index, layout.shape());
            }
        }
    }
    Ok(())
}

/// A value as the user wrote it.
pub fn format_value(value: Value) -> String {
    match value {
        Value::Int(i) => i.to_string(),
        Value::Float(x) => format!("{x}"),
    }
}

/// Advances a row-major multi-index (the last dimension fastest).
pub fn next_index(index: &mut [usize], shape: &[usize]) {
    for (i, &d) in index.iter_mut().zip(shape).rev() {
        *i += 1;
        if *i < d {
            return;
        }
        *i = 0;
    }
}

/// The multi-index of a row-major flat index.
pub fn unflatten(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut index = vec![0; shape.len()];
    for (i, &d) in index.iter_mut().zip(shape).rev() {
        if d > 0 {
            *i = flat % d;
            flat /= d;
        }
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::ArgKind;
    use crate::element::ElementType;

    fn layouts() -> Vec<ArgLayout> {
        vec![
            ArgLayout::new(0, ArgKind::Window, ElementType::I32, vec![2, 3]).unwrap(),
            ArgLayout::new(1, ArgKind::Scalar, ElementType::F16, vec![]).unwrap(),
            ArgLayout::new(2, ArgKind::Global, ElementType::BF16, vec![2]).unwrap(),
        ]
    }

    fn exprs(pairs: &[(usize, &str)]) -> BTreeMap<usize, Expr> {
        pairs
            .iter()
            .map(|(a, s)| (*a, Expr::parse(s).unwrap()))
            .collect()
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pld-run-core-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn indices_walk_row_major() {
        let shape = [2, 3];
        let mut index = vec![0, 0];
        let mut seen = vec![];
        for flat in 0..6 {
            assert_eq!(unflatten(flat, &shape), index);
            seen.push(index.clone());
            next_index(&mut index, &shape);
        }
        assert_eq!(seen[4], [1, 1]);
        assert_eq!(index, [0, 0]);
        assert_eq!(unflatten(0, &[]), [] as [usize; 0]);
    }

    #[test]
    fn init_expressions_fill_every_rank_and_element() {
        let values = Values::initial(
            &layouts(),
            3,
            &exprs(&[(0, "100 * r + 10 * i0 + i1"), (1, "r / 2.0")]),
            &BTreeMap::new(),
        )
        .unwrap();
        assert_eq!(values.get(2, 0, 4), Value::Int(211));
        assert_eq!(values.get(0, 0, 5), Value::Int(12));
        assert_eq!(values.get(1, 1, 0), Value::Float(0.5));
        assert_eq!(values.bytes(1, 2), [0; 4]);
        assert_eq!(values.bytes(0, 0).len(), 24);
        assert_eq!(values.bytes(0, 1).len(), 2);
    }

    #[test]
    fn expression_errors_name_rank_and_index() {
        let err = Expected::new(&layouts(), 2, &exprs(&[(0, "1 / (i1 - 2)")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "--expect 0=1 / (i1 - 2) at rank 0, index [0, 2]: column 3: division by zero\n  1 / (i1 - 2)\n    ^"
        );
    }

    #[test]
    fn load_reads_per_rank_files_and_converts() {
        let dir = temp_dir("load");
        fs::create_dir_all(&dir).unwrap();
        for rank in 0..2 {
            let data: Vec<u8> = (0..6)
                .flat_map(|i| ((rank * 10 + i) as f64).to_le_bytes())
                .collect();
            Array {
                dtype: npy::Dtype::F8,
                shape: vec![2, 3],
                data,
            }
            .write(&dir.join(format!("x{rank}.npy")))
            .unwrap();
        }
        Array {
            dtype: npy::Dtype::I8,
            shape: vec![],
            data: 7i64.to_le_bytes().to_vec(),
        }
        .write(&dir.join("s.npy"))
        .unwrap();
        let load: BTreeMap<usize, PathBuf> = [(0, dir.join("x{rank}.npy")), (1, dir.join("s.npy"))]
            .into_iter()
            .collect();
        let values = Values::initial(&layouts(), 2, &BTreeMap::new(), &load).unwrap();
        assert_eq!(values.get(1, 0, 5), Value::Int(15));
        assert_eq!(values.get(0, 1, 0), Value::Float(7.0));

        let wrong: BTreeMap<usize, PathBuf> = [(2, dir.join("x{rank}.npy"))].into_iter().collect();
        let err = Values::initial(&layouts(), 1, &BTreeMap::new(), &wrong)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            format!(
                "--load 2: {} has shape [2, 3], but argument 2 (global bf16 [2]) has shape [2]",
                dir.join("x0.npy").display()
            )
        );
        let missing: BTreeMap<usize, PathBuf> =
            [(0, dir.join("x{rank}.npy"))].into_iter().collect();
        let err = Values::initial(&layouts(), 3, &BTreeMap::new(), &missing)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with(&format!("cannot read {}", dir.join("x2.npy").display())),
            "{err}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dump_writes_array_arguments_only() {
        let dir = temp_dir("dump");
        let values = Values::initial(
            &layouts(),
            2,
            &exprs(&[(0, "r + i"), (2, "1.0 / 3")]),
            &BTreeMap::new(),
        )
        .unwrap();
        values.dump(&dir.join("sub")).unwrap();
        let mut names: Vec<String> = fs::read_dir(dir.join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                "rank0.arg0.npy",
                "rank0.arg2.npy",
                "rank1.arg0.npy",
                "rank1.arg2.npy"
            ]
        );
        let a = Array::read(&dir.join("sub/rank1.arg0.npy")).unwrap();
        assert_eq!((a.dtype, a.shape.as_slice()), (npy::Dtype::I4, &[2, 3][..]));
        assert_eq!(a.get(5), Value::Int(6));
        let b = Array::read(&dir.join("sub/rank0.arg2.npy")).unwrap();
        assert_eq!(b.dtype, npy::Dtype::F4);
        assert_eq!(b.get(0), ElementType::BF16.round(Value::Float(1.0 / 3.0)));
        fs::remove_dir_all(&dir).unwrap();
    }
}
