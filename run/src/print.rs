//! `--print ARG`: an argument's final value on every rank, readably.
//!
//! Arrays print as nested brackets, one innermost row per line, elements
//! right-aligned to a common width, like NumPy's `repr`. An array of more
//! than [`THRESHOLD`] elements is summarized: along every dimension longer
//! than `2 * EDGE_ITEMS`, only the first and last [`EDGE_ITEMS`] entries
//! are shown, with `...` between them.
//!
//! ```text
//! rank 1, argument 0 (window f16 [2, 3]):
//! [[0.0, 0.5, 1.0],
//!  [1.5, 2.0, 2.5]]
//! ```

use crate::values::Values;

/// Arrays with more elements than this are summarized.
pub const THRESHOLD: usize = 1000;

/// Entries shown at each end of a summarized dimension.
pub const EDGE_ITEMS: usize = 3;

/// Argument `arg` on every rank, each under a header line.
pub fn format_arg(values: &Values, arg: usize) -> String {
    (0..values.ranks())
        .map(|rank| format_rank(values, rank, arg))
        .collect()
}

/// Argument `arg` on one rank, under a header line, ending in a newline.
pub fn format_rank(values: &Values, rank: usize, arg: usize) -> String {
    let layout = values.layout(arg);
    let text = format_array(layout.shape(), &|flat| {
        layout.dtype().format(values.get(rank, arg, flat))
    });
    format!("rank {rank}, {}:\n{text}\n", layout.describe())
}

/// Formats a row-major array given each element's text.
pub fn format_array(shape: &[usize], element: &dyn Fn(usize) -> String) -> String {
    if shape.is_empty() {
        return element(0);
    }
    let len: usize = shape.iter().product();
    let shown: Vec<Vec<Option<usize>>> = shape
        .iter()
        .map(|&d| shown_indices(d, len > THRESHOLD))
        .collect();
    let mut width = 0;
    visit(&shown, shape, 0, 0, &mut |flat| {
        width = width.max(element(flat).chars().count());
    });
    let mut out = String::new();
    write_dim(&mut out, &shown, shape, 0, 0, width, element);
    out
}

/// The indices shown along a dimension of size `d`; `None` marks `...`.
fn shown_indices(d: usize, summarize: bool) -> Vec<Option<usize>> {
    if summarize && d > 2 * EDGE_ITEMS {
        (0..EDGE_ITEMS)
            .map(Some)
            .chain([None])
            .chain((d - EDGE_ITEMS..d).map(Some))
            .collect()
    } else {
        (0..d).map(Some).collect()
    }
}

/// Calls `f` with the flat index of every shown element.
fn visit(
    shown: &[Vec<Option<usize>>],
    shape: &[usize],
    dim: usize,
    base: usize,
    f: &mut dyn FnMut(usize),
) {
    for i in shown[dim].iter().flatten() {
        let flat = base * shape[dim] + i;
        if dim + 1 == shape.len() {
            f(flat);
        } else {
            visit(shown, shape, dim + 1, flat, f);
        }
    }
}

fn write_dim(
    out: &mut String,
    shown: &[Vec<Option<usize>>],
    shape: &[usize],
    dim: usize,
    base: usize,
    width: usize,
    element: &dyn Fn(usize) -> String,
) {
    out.push('[');
    let last = dim + 1 == shape.len();
    // Between sub-arrays: a comma, a newline, one blank line per extra
    // level (as NumPy does), then indentation to stand under the `[`.
    let separator = if last {
        ", ".to_owned()
    } else {
        format!(
            ",\n{}{}",
            "\n".repeat(shape.len() - dim - 2),
            " ".repeat(dim + 1)
        )
    };
    for (k, i) in shown[dim].iter().enumerate() {
        if k > 0 {
            out.push_str(&separator);
        }
        match i {
            None => out.push_str("..."),
            Some(i) if last => {
                out.push_str(&format!("{:>width$}", element(base * shape[dim] + i)));
            }
            Some(i) => write_dim(
                out,
                shown,
                shape,
                dim + 1,
                base * shape[dim] + i,
                width,
                element,
            ),
        }
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{ArgKind, ArgLayout};
    use crate::element::ElementType;
    use crate::expr::Expr;
    use std::collections::BTreeMap;

    fn show(shape: &[usize]) -> String {
        format_array(shape, &|flat| flat.to_string())
    }

    #[test]
    fn small_arrays_print_whole() {
        assert_eq!(show(&[]), "0");
        assert_eq!(show(&[3]), "[0, 1, 2]");
        assert_eq!(show(&[0]), "[]");
        assert_eq!(show(&[2, 0]), "[[],\n []]");
        assert_eq!(
            show(&[2, 6]),
            "[[ 0,  1,  2,  3,  4,  5],\n [ 6,  7,  8,  9, 10, 11]]"
        );
        assert_eq!(
            show(&[2, 2, 2]),
            "[[[0, 1],\n  [2, 3]],\n\n [[4, 5],\n  [6, 7]]]"
        );
        assert_eq!(show(&[1000]).matches(", ").count(), 999);
    }

    #[test]
    fn large_arrays_are_summarized() {
        let text = show(&[1001]);
        assert_eq!(text, "[   0,    1,    2, ...,  998,  999, 1000]");
        let text = show(&[100, 100]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[0], "[[   0,    1,    2, ...,   97,   98,   99],");
        assert_eq!(lines[3], " ...,");
        assert_eq!(lines[6], " [9900, 9901, 9902, ..., 9997, 9998, 9999]]");
        // Short dimensions of a large array are shown whole.
        let text = show(&[2000, 2]);
        assert!(
            text.starts_with(
                "[[   0,    1],\n [   2,    3],\n [   4,    5],\n ...,\n [3994, 3995],"
            ),
            "{text}"
        );
    }

    #[test]
    fn every_rank_gets_a_header() {
        let layouts = [ArgLayout::new(0, ArgKind::Window, ElementType::F16, vec![2, 3]).unwrap()];
        let exprs: BTreeMap<usize, Expr> = [(0, Expr::parse("r + i / 2.0").unwrap())]
            .into_iter()
            .collect();
        let values = Values::initial(&layouts, 2, &exprs, &BTreeMap::new()).unwrap();
        assert_eq!(
            format_arg(&values, 0),
            "rank 0, argument 0 (window f16 [2, 3]):\n[[0.0, 0.5, 1.0],\n [1.5, 2.0, 2.5]]\n\
             rank 1, argument 0 (window f16 [2, 3]):\n[[1.0, 1.5, 2.0],\n [2.5, 3.0, 3.5]]\n"
        );
    }
}
