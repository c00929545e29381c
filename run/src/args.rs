//! The entry function's arguments as pld-run handles them.
//!
//! pld-run reads the entry's MLIR signature into [`EntryArg`]s (one per
//! argument, in order): `!pld.dtensor` arguments are [`ArgKind::Window`]
//! (every rank's window holds one at the same offset), `memref` arguments
//! are [`ArgKind::Global`] (per-rank global memory), and integer, index and
//! float arguments are [`ArgKind::Scalar`]. [`resolve`] fills dynamic
//! dimensions from `--shape` into [`ArgLayout`]s, and [`validate`] checks
//! the options that name arguments against them, so that every such
//! mistake is reported before anything is compiled.

use crate::Error;
use crate::cli::{Arg, Options};
use crate::element::ElementType;
use crate::expr::Expr;
use crate::expr::MAX_DIMS;
use crate::npy::format_shape;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// Where an argument lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgKind {
    /// A `!pld.dtensor`: in every rank's window, at the same offset.
    Window,
    /// A `memref`: in the rank's own global memory.
    Global,
    /// An integer, index or float value passed by value.
    Scalar,
}

impl ArgKind {
    /// The job file's word for it.
    pub fn name(self) -> &'static str {
        match self {
            ArgKind::Window => "window",
            ArgKind::Global => "global",
            ArgKind::Scalar => "scalar",
        }
    }
}

impl fmt::Display for ArgKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One dimension of an argument's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    Static(usize),
    /// `?`: given by `--shape`.
    Dynamic,
}

/// An entry argument as its MLIR type describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryArg {
    /// 0-based position in the signature.
    pub index: usize,
    /// The SSA name the source gives it (without `%`), when pld-run could
    /// read it there.
    pub name: Option<String>,
    pub kind: ArgKind,
    pub dtype: ElementType,
    /// Empty for scalars (and 0-d arrays).
    pub dims: Vec<Dim>,
}

impl EntryArg {
    /// `0 %data: window f32 [4, ?]`, a line of the list errors print.
    pub fn listing(&self) -> String {
        let name = self
            .name
            .as_ref()
            .map(|name| format!(" %{name}"))
            .unwrap_or_default();
        if self.kind == ArgKind::Scalar {
            return format!("{}{name}: scalar {}", self.index, self.dtype);
        }
        let dims: Vec<String> = self
            .dims
            .iter()
            .map(|d| match d {
                Dim::Static(s) => s.to_string(),
                Dim::Dynamic => "?".to_owned(),
            })
            .collect();
        format!(
            "{}{name}: {} {} [{}]",
            self.index,
            self.kind,
            self.dtype,
            dims.join(", ")
        )
    }
}

/// An entry argument with its shape known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgLayout {
    index: usize,
    name: Option<String>,
    kind: ArgKind,
    dtype: ElementType,
    shape: Vec<usize>,
    len: usize,
}

impl ArgLayout {
    /// Checks that a scalar has no dimensions, that an array has at most
    /// [`MAX_DIMS`] (all EXPR can index, and all the harness takes), and
    /// that the byte size fits in memory.
    pub fn new(
        index: usize,
        kind: ArgKind,
        dtype: ElementType,
        shape: Vec<usize>,
    ) -> Result<ArgLayout, Error> {
        if kind == ArgKind::Scalar && !shape.is_empty() {
            return Err(Error::new(format!(
                "argument {index} is a scalar but has shape {}",
                format_shape(&shape)
            )));
        }
        if shape.len() > MAX_DIMS {
            return Err(Error::new(format!(
                "argument {index} has {} dimensions; at most {MAX_DIMS} are supported",
                shape.len()
            )));
        }
        let len = shape
            .iter()
            .try_fold(1usize, |n, &d| n.checked_mul(d))
            .filter(|n| n.checked_mul(dtype.size()).is_some())
            .ok_or_else(|| {
                Error::new(format!(
                    "argument {index}: shape {} of {dtype} is too large",
                    format_shape(&shape)
                ))
            })?;
        Ok(ArgLayout {
            index,
            name: None,
            kind,
            dtype,
            shape,
            len,
        })
    }

    /// The same layout for the argument the source names `name`.
    pub fn with_name(self, name: Option<String>) -> ArgLayout {
        ArgLayout { name, ..self }
    }

    pub fn index(&self) -> usize {
        self.index
    }

    /// The SSA name the source gives it, without `%`.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    pub fn kind(&self) -> ArgKind {
        self.kind
    }

    pub fn dtype(&self) -> ElementType {
        self.dtype
    }

    /// One size per dimension; empty for a scalar.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Number of elements (1 for a scalar).
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of one rank's copy in the element type.
    pub fn byte_len(&self) -> usize {
        self.len * self.dtype.size()
    }

    /// Window and global arguments are arrays the run may change; scalars
    /// are neither read back nor dumped.
    pub fn is_array(&self) -> bool {
        self.kind != ArgKind::Scalar
    }

    /// `argument 2 %x (window f16 [4, 17])`, for messages.
    pub fn describe(&self) -> String {
        let label = match &self.name {
            Some(name) => format!("{} %{name}", self.index),
            None => self.index.to_string(),
        };
        if self.is_array() {
            format!(
                "argument {label} ({} {} {})",
                self.kind,
                self.dtype,
                format_shape(&self.shape)
            )
        } else {
            format!("argument {label} (scalar {})", self.dtype)
        }
    }
}

/// Fills dynamic dimensions from `--shape` (given as `shapes`). A `--shape`
/// must give every dimension of the argument, agree with its static ones,
/// and not name a scalar; a dynamic dimension without one is an error.
pub fn resolve(
    args: &[EntryArg],
    shapes: &BTreeMap<usize, Vec<usize>>,
) -> Result<Vec<ArgLayout>, Error> {
    if let Some((i, arg)) = args.iter().enumerate().find(|(i, a)| a.index != *i) {
        return Err(Error::new(format!(
            "entry arguments must be listed in order: position {i} holds argument {}",
            arg.index
        )));
    }
    args.iter()
        .map(|arg| {
            let shape = match shapes.get(&arg.index) {
                Some(_) if arg.kind == ArgKind::Scalar => {
                    return Err(Error::new(format!(
                        "--shape {}: argument {} is a scalar ({}) and has no shape",
                        arg.index, arg.index, arg.dtype
                    )));
                }
                Some(given) => {
                    let fits = given.len() == arg.dims.len()
                        && given.iter().zip(&arg.dims).all(|(g, d)| match d {
                            Dim::Static(s) => g == s,
                            Dim::Dynamic => true,
                        });
                    if !fits {
                        return Err(Error::new(format!(
                            "--shape {}: {} does not fit argument {}'s type {}",
                            arg.index,
                            format_shape(given),
                            arg.index,
                            format_dims(&arg.dims, arg.dtype)
                        )));
                    }
                    given.clone()
                }
                None => arg
                    .dims
                    .iter()
                    .map(|d| match d {
                        Dim::Static(s) => Ok(*s),
                        Dim::Dynamic => Err(Error::new(format!(
                            "argument {} has type {} with dynamic dimensions: give its shape with --shape {}=D0x...",
                            arg.index,
                            format_dims(&arg.dims, arg.dtype),
                            arg.index
                        ))),
                    })
                    .collect::<Result<_, _>>()?,
            };
            Ok(ArgLayout::new(arg.index, arg.kind, arg.dtype, shape)?.with_name(arg.name.clone()))
        })
        .collect()
}

/// The shapes of the arguments with dynamic dimensions: each `--shape`,
/// and for an argument `--load` fills without one, the shape of its file
/// (rank 0's, where the path has `{rank}`): the array says it.
pub fn shapes_with_loads(
    args: &[EntryArg],
    bound: &Bound,
) -> Result<BTreeMap<usize, Vec<usize>>, Error> {
    let mut shapes = bound.shape.clone();
    for arg in args {
        let dynamic = arg.dims.contains(&Dim::Dynamic);
        if !dynamic || shapes.contains_key(&arg.index) {
            continue;
        }
        if let Some(template) = bound.load.get(&arg.index) {
            let array = crate::npy::Array::read(&crate::npy::rank_path(template, 0))?;
            shapes.insert(arg.index, array.shape);
        }
    }
    Ok(shapes)
}

/// `4x?xf32`, as MLIR writes a shaped type's dimensions.
fn format_dims(dims: &[Dim], dtype: ElementType) -> String {
    let mut out = String::new();
    for d in dims {
        match d {
            Dim::Static(s) => out.push_str(&s.to_string()),
            Dim::Dynamic => out.push('?'),
        }
        out.push('x');
    }
    out.push_str(dtype.mlir_name());
    out
}

/// The argument-naming options with every ARG resolved to a position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bound {
    pub init: BTreeMap<usize, Expr>,
    pub load: BTreeMap<usize, PathBuf>,
    pub shape: BTreeMap<usize, Vec<usize>>,
    pub expect: BTreeMap<usize, Expr>,
    /// In command-line order, each once.
    pub print: Vec<usize>,
}

/// The entry's arguments, one per line: position, name, kind and shape.
pub fn listing(args: &[EntryArg]) -> String {
    args.iter()
        .map(|arg| format!("\n  {}", arg.listing()))
        .collect()
}

/// How many arguments the entry has and which positions that allows.
fn count_text(count: usize) -> String {
    match count {
        0 => "no arguments".to_owned(),
        1 => "1 argument (position 0)".to_owned(),
        2 => "2 arguments (positions 0 and 1)".to_owned(),
        _ => format!("{count} arguments (positions 0 to {})", count - 1),
    }
}

/// The position `arg` names among `args`.
fn position(args: &[EntryArg], option: &str, arg: &Arg) -> Result<usize, Error> {
    let found = match arg {
        Arg::Position(position) => (*position < args.len()).then_some(*position),
        Arg::Name(name) => args
            .iter()
            .position(|candidate| candidate.name.as_deref() == Some(name.as_str())),
    };
    found.ok_or_else(|| {
        let what = match arg {
            Arg::Position(_) => format!("the entry has {}", count_text(args.len())),
            Arg::Name(name) if args.iter().all(|a| a.name.is_none()) => format!(
                "no argument is named %{name} (pld-run could not read the entry's argument names from the source: name them by position)"
            ),
            Arg::Name(name) => format!("the entry has no argument %{name}"),
        };
        let list = if args.is_empty() {
            String::new()
        } else {
            format!("; its arguments:{}", listing(args))
        };
        Error::new(format!("{option} {arg}: {what}{list}"))
    })
}

/// The options that name entry arguments: the command line's, or a
/// library caller's spec (the pld-run crate's `RunSpec`).
#[derive(Clone, Copy, Debug)]
pub struct Naming<'a> {
    pub init: &'a BTreeMap<Arg, Expr>,
    pub load: &'a BTreeMap<Arg, PathBuf>,
    pub shape: &'a BTreeMap<Arg, Vec<usize>>,
    pub expect: &'a BTreeMap<Arg, Expr>,
    pub print: &'a [Arg],
}

impl<'a> From<&'a Options> for Naming<'a> {
    fn from(options: &'a Options) -> Naming<'a> {
        Naming {
            init: &options.init,
            load: &options.load,
            shape: &options.shape,
            expect: &options.expect,
            print: &options.print,
        }
    }
}

/// Resolves every ARG of `options` against the entry's arguments: a
/// position must exist, a name must be one the source gives; one argument
/// named twice by one option (once by position, once by name), or given
/// both `--init` and `--load`, is an error.
pub fn bind<'a>(args: &[EntryArg], options: impl Into<Naming<'a>>) -> Result<Bound, Error> {
    let options = options.into();
    fn keyed<T: Clone>(
        args: &[EntryArg],
        option: &str,
        given: &BTreeMap<Arg, T>,
    ) -> Result<BTreeMap<usize, T>, Error> {
        let mut bound: BTreeMap<usize, (&Arg, T)> = BTreeMap::new();
        for (arg, value) in given {
            let index = position(args, option, arg)?;
            if let Some((first, _)) = bound.get(&index) {
                return Err(Error::new(format!(
                    "{option} {first} and {option} {arg} both name argument {}",
                    args[index].listing()
                )));
            }
            bound.insert(index, (arg, value.clone()));
        }
        Ok(bound
            .into_iter()
            .map(|(index, (_, value))| (index, value))
            .collect())
    }
    let mut print = Vec::new();
    for arg in options.print {
        let index = position(args, "--print", arg)?;
        if print.contains(&index) {
            return Err(Error::new(format!(
                "--print names argument {} more than once",
                args[index].listing()
            )));
        }
        print.push(index);
    }
    let bound = Bound {
        init: keyed(args, "--init", options.init)?,
        load: keyed(args, "--load", options.load)?,
        shape: keyed(args, "--shape", options.shape)?,
        expect: keyed(args, "--expect", options.expect)?,
        print,
    };
    if let Some(index) = bound.init.keys().find(|arg| bound.load.contains_key(arg)) {
        return Err(Error::new(format!(
            "argument {} has both --init and --load; give one",
            args[*index].listing()
        )));
    }
    Ok(bound)
}

/// Checks the argument-naming options against the entry: `--expect` and
/// `--print` name arrays (a scalar's value cannot change); expressions use
/// no `i<k>` beyond the argument's dimensions. (Every ARG exists: see
/// [`bind`]; `--shape` is checked by [`resolve`]; `--load` of a scalar
/// reads a 0-d array.)
pub fn validate(layouts: &[ArgLayout], bound: &Bound) -> Result<(), Error> {
    for (option, args) in [
        ("--expect", bound.expect.keys().collect::<Vec<_>>()),
        ("--print", bound.print.iter().collect()),
    ] {
        if let Some(arg) = args.into_iter().find(|&&a| !layouts[a].is_array()) {
            return Err(Error::new(format!(
                "{option} {arg}: {} keeps its value; only window and global arguments can be checked or printed",
                layouts[*arg].describe()
            )));
        }
    }
    for (option, exprs) in [("--init", &bound.init), ("--expect", &bound.expect)] {
        for (&arg, expr) in exprs {
            let dims = layouts[arg].shape().len();
            if let Some((k, column)) = expr.max_dimension()
                && k >= dims
            {
                let e = crate::expr::ExprError {
                    column,
                    message: format!(
                        "`i{k}` does not exist: {} has {dims} dimension{}",
                        layouts[arg].describe(),
                        if dims == 1 { "" } else { "s" }
                    ),
                };
                return Err(Error::new(format!(
                    "{option} {arg}={}: {}",
                    expr.source(),
                    e.render(expr.source())
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Command, parse};

    fn entry() -> Vec<EntryArg> {
        vec![
            EntryArg {
                index: 0,
                name: Some("data".into()),
                kind: ArgKind::Window,
                dtype: ElementType::F16,
                dims: vec![Dim::Static(4), Dim::Dynamic],
            },
            EntryArg {
                index: 1,
                name: Some("out".into()),
                kind: ArgKind::Global,
                dtype: ElementType::I32,
                dims: vec![Dim::Static(8)],
            },
            EntryArg {
                index: 2,
                name: None,
                kind: ArgKind::Scalar,
                dtype: ElementType::Index,
                dims: vec![],
            },
        ]
    }

    fn shapes(pairs: &[(usize, &[usize])]) -> BTreeMap<usize, Vec<usize>> {
        pairs.iter().map(|(a, s)| (*a, s.to_vec())).collect()
    }

    fn options(extra: &[&str]) -> Options {
        let mut args = vec!["a.mlir", "--ranks", "2"];
        args.extend_from_slice(extra);
        match parse(args) {
            Ok(Command::Run(o)) => o,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn resolves_dynamic_dimensions() {
        let layouts = resolve(&entry(), &shapes(&[(0, &[4, 17])])).unwrap();
        assert_eq!(layouts[0].shape(), [4, 17]);
        assert_eq!(layouts[0].len(), 68);
        assert_eq!(layouts[0].byte_len(), 136);
        assert_eq!(layouts[1].shape(), [8]);
        assert_eq!(layouts[2].shape(), [] as [usize; 0]);
        assert_eq!(layouts[2].len(), 1);
        assert!(!layouts[2].is_array() && layouts[1].is_array());
        assert_eq!(
            layouts[0].describe(),
            "argument 0 %data (window f16 [4, 17])"
        );
        assert_eq!(layouts[2].describe(), "argument 2 (scalar index)");
        // A --shape for a static argument is fine when it agrees.
        assert!(resolve(&entry(), &shapes(&[(0, &[4, 1]), (1, &[8])])).is_ok());
    }

    #[test]
    fn shape_errors() {
        let err = |s: &[(usize, &[usize])]| resolve(&entry(), &shapes(s)).unwrap_err().to_string();
        assert_eq!(
            err(&[]),
            "argument 0 has type 4x?xf16 with dynamic dimensions: give its shape with --shape 0=D0x..."
        );
        assert_eq!(
            err(&[(0, &[5, 17])]),
            "--shape 0: [5, 17] does not fit argument 0's type 4x?xf16"
        );
        assert_eq!(
            err(&[(0, &[4])]),
            "--shape 0: [4] does not fit argument 0's type 4x?xf16"
        );
        assert_eq!(
            err(&[(0, &[4, 1]), (2, &[1])]),
            "--shape 2: argument 2 is a scalar (index) and has no shape"
        );
        assert!(err(&[(0, &[4, usize::MAX])]).contains("too large"));
        let nine = ArgLayout::new(0, ArgKind::Global, ElementType::I8, vec![1; 9]).unwrap_err();
        assert_eq!(
            nine.to_string(),
            "argument 0 has 9 dimensions; at most 8 are supported"
        );
        assert!(ArgLayout::new(0, ArgKind::Global, ElementType::I8, vec![1; 8]).is_ok());
        let mut out_of_order = entry();
        out_of_order.swap(0, 1);
        assert!(resolve(&out_of_order, &BTreeMap::new()).is_err());
    }

    #[test]
    fn binds_positions_and_names() {
        let args = entry();
        let bound = |extra: &[&str]| bind(&args, &options(extra)).map_err(|e| e.to_string());
        let b = bound(&[
            "--init", "data=i0", "--init", "2=r", "--expect", "%out=1", "--print", "out",
            "--print", "0", "--shape", "data=4x2",
        ])
        .unwrap();
        assert_eq!(b.init.keys().copied().collect::<Vec<_>>(), [0, 2]);
        assert_eq!(b.expect.keys().copied().collect::<Vec<_>>(), [1]);
        assert_eq!(b.print, [1, 0]);
        assert_eq!(b.shape[&0], [4, 2]);
        let list = "; its arguments:\n  0 %data: window f16 [4, ?]\n  1 %out: global i32 [8]\n  2: scalar index";
        assert_eq!(
            bound(&["--init", "3=1"]),
            Err(format!(
                "--init 3: the entry has 3 arguments (positions 0 to 2){list}"
            ))
        );
        for option in ["--load", "--print", "--expect", "--shape"] {
            let value = if option == "--print" { "9" } else { "9=1" };
            assert!(
                bound(&[option, value])
                    .unwrap_err()
                    .starts_with(&format!("{option} 9: the entry has 3 arguments")),
                "{option}"
            );
        }
        assert_eq!(
            bound(&["--init", "signal=1"]),
            Err(format!(
                "--init signal: the entry has no argument %signal{list}"
            ))
        );
        assert_eq!(
            bound(&["--init", "0=1", "--init", "data=2"]),
            Err("--init 0 and --init data both name argument 0 %data: window f16 [4, ?]".into())
        );
        assert_eq!(
            bound(&["--print", "1", "--print", "out"]),
            Err("--print names argument 1 %out: global i32 [8] more than once".into())
        );
        assert_eq!(
            bound(&["--init", "data=1", "--load", "0=x.npy"]),
            Err("argument 0 %data: window f16 [4, ?] has both --init and --load; give one".into())
        );
        // Without names from the source, a name cannot be bound.
        let unnamed: Vec<EntryArg> = entry()
            .into_iter()
            .map(|arg| EntryArg { name: None, ..arg })
            .collect();
        assert!(
            bind(&unnamed, &options(&["--init", "data=1"]))
                .unwrap_err()
                .to_string()
                .starts_with("--init data: no argument is named %data (pld-run could not read")
        );
        let one = &entry()[..1];
        assert!(
            bind(one, &options(&["--init", "1=1"]))
                .unwrap_err()
                .to_string()
                .starts_with("--init 1: the entry has 1 argument (position 0)")
        );
        assert_eq!(
            bind(&[], &options(&["--init", "0=1"]))
                .unwrap_err()
                .to_string(),
            "--init 0: the entry has no arguments"
        );
    }

    #[test]
    fn validates_options_against_the_entry() {
        let layouts = resolve(&entry(), &shapes(&[(0, &[4, 2])])).unwrap();
        let check = |extra: &[&str]| {
            let bound = bind(&entry(), &options(extra)).map_err(|e| e.to_string())?;
            validate(&layouts, &bound).map_err(|e| e.to_string())
        };
        assert_eq!(
            check(&[
                "--init", "0=i0+i1", "--init", "2=r", "--expect", "1=i0", "--print", "0"
            ]),
            Ok(())
        );
        assert_eq!(check(&["--load", "2=s{rank}.npy"]), Ok(()));
        assert_eq!(
            check(&["--expect", "2=1"]),
            Err("--expect 2: argument 2 (scalar index) keeps its value; only window and global arguments can be checked or printed".into())
        );
        assert!(
            check(&["--print", "2"])
                .unwrap_err()
                .starts_with("--print 2: argument 2 (scalar index)")
        );
        assert_eq!(
            check(&["--expect", "out=i0 + i1"]),
            Err("--expect 1=i0 + i1: column 6: `i1` does not exist: argument 1 %out (global i32 [8]) has 1 dimension\n  i0 + i1\n       ^".into())
        );
        assert!(
            check(&["--init", "2=i0"])
                .unwrap_err()
                .contains("has 0 dimensions")
        );
    }

    #[test]
    fn a_loaded_file_gives_a_dynamic_shape() {
        let dir = std::env::temp_dir().join(format!("pld-run-core-args-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let array = crate::npy::Array::from_elements(ElementType::F16, &[4, 3], &[0; 24]);
        array.write(&dir.join("data0.npy")).unwrap();
        let bound = bind(
            &entry(),
            &options(&[
                "--load",
                &format!("data={}", dir.join("data{rank}.npy").display()),
            ]),
        )
        .unwrap();
        let shapes = shapes_with_loads(&entry(), &bound).unwrap();
        assert_eq!(shapes.get(&0), Some(&vec![4, 3]));
        assert_eq!(resolve(&entry(), &shapes).unwrap()[0].shape(), &[4, 3]);
        // A --shape wins; a static argument takes nothing from its file.
        let given = bind(
            &entry(),
            &options(&[
                "--load",
                &format!("data={}", dir.join("data{rank}.npy").display()),
                "--shape",
                "data=4x5",
            ]),
        )
        .unwrap();
        assert_eq!(
            shapes_with_loads(&entry(), &given).unwrap().get(&0),
            Some(&vec![4, 5])
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
