//! `--expect`: comparing final values with expected ones on every rank.
//!
//! An element passes when `|got - expected| <= atol + rtol * |expected|`,
//! where `expected` is the value `--expect` computed, not converted to the
//! element type ([`Expected`]): in f64 for floats, exactly for integers. NaN equals NaN; an infinity equals only the same
//! infinity. Default tolerances per element type ([`Tolerance::default_for`]):
//!
//! | type | rtol | atol | why |
//! |---|---|---|---|
//! | f16 | 1e-3 | 1e-3 | about one ulp (2^-10 ≈ 9.8e-4) |
//! | bf16 | 1e-2 | 1e-2 | about one ulp (2^-7 ≈ 7.8e-3) |
//! | f32 | 1e-5 | 1e-6 | a few ulps, allowing reassociated sums |
//! | f64 | 1e-12 | 1e-12 | |
//! | integers, index | 0 | 0 | exact |
//!
//! `--rtol` and `--atol` each replace their half of the default for every
//! checked argument, integers included.

use crate::element::ElementType;
use crate::expr::Value;
use crate::status::ExitStatus;
use crate::values::{Expected, Values, format_value, unflatten};
use std::fmt;

/// How many mismatches a report lists; the rest are counted.
pub const MAX_LISTED: usize = 10;

/// `|got - expected| <= atol + rtol * |expected|`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    pub rtol: f64,
    pub atol: f64,
}

impl Tolerance {
    pub const EXACT: Tolerance = Tolerance {
        rtol: 0.0,
        atol: 0.0,
    };

    /// The documented default for an element type (see the module docs).
    pub fn default_for(dtype: ElementType) -> Tolerance {
        let (rtol, atol) = match dtype {
            ElementType::F16 => (1e-3, 1e-3),
            ElementType::BF16 => (1e-2, 1e-2),
            ElementType::F32 => (1e-5, 1e-6),
            ElementType::F64 => (1e-12, 1e-12),
            ElementType::I1
            | ElementType::I8
            | ElementType::I16
            | ElementType::I32
            | ElementType::I64
            | ElementType::Index => return Tolerance::EXACT,
        };
        Tolerance { rtol, atol }
    }

    /// This tolerance with `--rtol`/`--atol` applied.
    pub fn with_overrides(self, rtol: Option<f64>, atol: Option<f64>) -> Tolerance {
        Tolerance {
            rtol: rtol.unwrap_or(self.rtol),
            atol: atol.unwrap_or(self.atol),
        }
    }

    /// Whether `got` is close enough to `expected`.
    pub fn accepts(self, got: Value, expected: Value) -> bool {
        if let (Value::Int(g), Value::Int(e)) = (got, expected) {
            // Integers compare exactly: the difference is computed in i128
            // rather than through f64, which loses bits above 2^53.
            let diff = (i128::from(g) - i128::from(e)).unsigned_abs();
            return diff == 0 || (diff as f64) <= self.atol + self.rtol * (e as f64).abs();
        }
        let (g, e) = (got.as_f64(), expected.as_f64());
        if g.is_nan() || e.is_nan() {
            return g.is_nan() && e.is_nan();
        }
        if g == e {
            return true;
        }
        // Without this, inf - inf or an infinite bound would pass.
        if g.is_infinite() || e.is_infinite() {
            return false;
        }
        (g - e).abs() <= self.atol + self.rtol * e.abs()
    }
}

/// One element that did not match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub rank: usize,
    pub arg: usize,
    /// The argument's name in the source, where it has one.
    pub name: Option<String>,
    pub index: Vec<usize>,
    /// The values as the element type prints them.
    pub got: String,
    pub expected: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let index: Vec<String> = self.index.iter().map(usize::to_string).collect();
        let index = index.join(", ");
        // As the simulator's reports name an element: `%data[1, 0]`.
        let element = match &self.name {
            Some(name) => format!("%{name}[{index}]"),
            None => format!("argument {}, index [{index}]", self.arg),
        };
        write!(
            f,
            "rank {}, {element}, got {}, expected {}",
            self.rank, self.got, self.expected
        )
    }
}

/// The outcome of every `--expect`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Report {
    /// Elements compared, over all ranks and arguments.
    pub compared: usize,
    /// The first [`MAX_LISTED`] mismatches, rank by rank, then argument,
    /// then element.
    pub listed: Vec<Mismatch>,
    /// All mismatches, listed or not.
    pub mismatches: usize,
    /// The launch these values are from, in a run of several
    /// (`pld-run --launches`): the first that missed its expectations,
    /// else the last.
    pub launch: Option<usize>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.mismatches == 0
    }

    /// [`ExitStatus::Ok`] or [`ExitStatus::ExpectationFailed`].
    pub fn status(&self) -> ExitStatus {
        if self.passed() {
            ExitStatus::Ok
        } else {
            ExitStatus::ExpectationFailed
        }
    }

    /// One line: `12 of 4096 checked values differ` or `all 4096 checked
    /// values match`.
    pub fn summary(&self) -> String {
        let launch = self
            .launch
            .map_or(String::new(), |launch| format!("launch {launch}: "));
        if self.passed() {
            format!("{launch}all {} checked values match", self.compared)
        } else {
            format!(
                "{launch}{} of {} checked values differ",
                self.mismatches, self.compared
            )
        }
    }
}

/// The listed mismatches, one per line, then `and N more mismatches` if
/// some were not listed. Empty when every value matched.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.listed {
            writeln!(f, "{m}")?;
        }
        let rest = self.mismatches - self.listed.len();
        if rest > 0 {
            let s = if rest == 1 { "" } else { "es" };
            writeln!(f, "and {rest} more mismatch{s}")?;
        }
        Ok(())
    }
}

/// A value a run computed: an f16 or bf16 exactly (`21.875`; the shortest
/// text that reads back to it, `21.88`, hides how far it is from an
/// expectation printed exactly), anything else as `--print` shows it.
fn got_text(dtype: ElementType, value: Value) -> String {
    match dtype {
        ElementType::F16 | ElementType::BF16 => format!("{:?}", value.as_f64()),
        _ => dtype.format(value),
    }
}

/// An expectation as computed: exact, in the type's kind (`620.0` for a
/// float argument, `620` for an integer one).
fn expected_text(dtype: ElementType, value: Value) -> String {
    if dtype.is_float() {
        format!("{:?}", value.as_f64())
    } else {
        format_value(value)
    }
}

/// Compares the arguments `args` (those with an `--expect`) of `got` with
/// `expected`, on every rank, with each argument's default tolerance
/// overridden by `rtol`/`atol`.
pub fn compare(
    got: &Values,
    expected: &Expected,
    args: impl IntoIterator<Item = usize>,
    rtol: Option<f64>,
    atol: Option<f64>,
) -> Report {
    assert_eq!(got.layouts(), expected.layouts());
    assert_eq!(got.ranks(), expected.ranks());
    let args: Vec<usize> = args.into_iter().collect();
    let mut report = Report::default();
    for rank in 0..got.ranks() {
        for &arg in &args {
            let layout = got.layout(arg);
            let dtype = layout.dtype();
            let tolerance = Tolerance::default_for(dtype).with_overrides(rtol, atol);
            for flat in 0..layout.len() {
                let g = got.get(rank, arg, flat);
                let e = expected.get(rank, arg, flat);
                report.compared += 1;
                if tolerance.accepts(g, e) {
                    continue;
                }
                report.mismatches += 1;
                if report.listed.len() < MAX_LISTED {
                    report.listed.push(Mismatch {
                        rank,
                        arg,
                        name: layout.name().map(str::to_owned),
                        index: unflatten(flat, layout.shape()),
                        got: got_text(dtype, g),
                        expected: expected_text(dtype, e),
                    });
                }
            }
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{ArgKind, ArgLayout};
    use crate::expr::Expr;
    use std::collections::BTreeMap;

    #[test]
    fn f16_mismatches_print_exact_values() {
        // 21.875 is an f16; its shortest text, 21.88, reads as if the two
        // differed by 0.995.
        let got = values(ElementType::F16, vec![1, 1], 1, "21.875");
        let want = expected(ElementType::F16, vec![1, 1], 1, "22.875");
        let report = compare(&got, &want, [0], None, None);
        assert_eq!(
            report.listed[0].to_string(),
            "rank 0, argument 0, index [0, 0], got 21.875, expected 22.875"
        );
    }

    #[test]
    fn defaults_per_type() {
        assert_eq!(
            Tolerance::default_for(ElementType::F16),
            Tolerance {
                rtol: 1e-3,
                atol: 1e-3
            }
        );
        assert_eq!(
            Tolerance::default_for(ElementType::BF16),
            Tolerance {
                rtol: 1e-2,
                atol: 1e-2
            }
        );
        assert_eq!(
            Tolerance::default_for(ElementType::F32),
            Tolerance {
                rtol: 1e-5,
                atol: 1e-6
            }
        );
        assert_eq!(
            Tolerance::default_for(ElementType::F64),
            Tolerance {
                rtol: 1e-12,
                atol: 1e-12
            }
        );
        for t in [
            ElementType::I1,
            ElementType::I8,
            ElementType::I32,
            ElementType::Index,
        ] {
            assert_eq!(Tolerance::default_for(t), Tolerance::EXACT);
        }
        let t = Tolerance::default_for(ElementType::F32).with_overrides(Some(0.5), None);
        assert_eq!(
            t,
            Tolerance {
                rtol: 0.5,
                atol: 1e-6
            }
        );
    }

    #[test]
    fn tolerance_edges() {
        let f = Value::Float;
        let t = Tolerance {
            rtol: 0.25,
            atol: 1.0,
        };
        // The bound itself passes: |got - expected| == atol + rtol*|expected|.
        assert!(t.accepts(f(13.5), f(10.0)));
        assert!(t.accepts(f(6.5), f(10.0)));
        assert!(!t.accepts(f(13.5 + 1e-9), f(10.0)));
        assert!(t.accepts(f(-13.5), f(-10.0)));
        // The relative part scales with |expected|, not |got|: 10 is within
        // 3.5 of 13.5 but 13.5 is not within 4.375 of 8.5.
        assert!(!t.accepts(f(13.5), f(8.5)));
        assert!(!t.accepts(f(0.0), f(2.0)));
        let exact = Tolerance::EXACT;
        assert!(exact.accepts(f(0.1), f(0.1)));
        assert!(!exact.accepts(f(0.1), f(0.1f64.next_up())));
        assert!(exact.accepts(f(0.0), f(-0.0)));
        // NaN equals NaN and nothing else.
        assert!(exact.accepts(f(f64::NAN), f(-f64::NAN)));
        assert!(!t.accepts(f(f64::NAN), f(1.0)));
        assert!(!t.accepts(f(1.0), f(f64::NAN)));
        // Infinities equal only themselves, even with a huge tolerance.
        let loose = Tolerance {
            rtol: 1e300,
            atol: 1e300,
        };
        assert!(exact.accepts(f(f64::INFINITY), f(f64::INFINITY)));
        assert!(!loose.accepts(f(f64::INFINITY), f(f64::NEG_INFINITY)));
        assert!(!loose.accepts(f(1.0), f(f64::INFINITY)));
        assert!(!loose.accepts(f(f64::INFINITY), f(1.0)));
        // Integers: exact by default, and exact even beyond f64's 2^53.
        let i = Value::Int;
        assert!(exact.accepts(i(i64::MAX), i(i64::MAX)));
        assert!(!exact.accepts(i(i64::MAX), i(i64::MAX - 1)));
        assert!(!exact.accepts(i(i64::MIN), i(i64::MAX)));
        assert!(
            Tolerance {
                rtol: 0.0,
                atol: 1.0
            }
            .accepts(i(5), i(6))
        );
        assert!(
            !Tolerance {
                rtol: 0.0,
                atol: 1.0
            }
            .accepts(i(4), i(6))
        );
        assert!(
            Tolerance {
                rtol: 0.5,
                atol: 0.0
            }
            .accepts(i(-3), i(-2))
        );
    }

    fn exprs(expr: &str) -> BTreeMap<usize, Expr> {
        [(0, Expr::parse(expr).unwrap())].into_iter().collect()
    }

    fn layouts(dtype: ElementType, shape: Vec<usize>) -> [ArgLayout; 1] {
        [ArgLayout::new(0, ArgKind::Window, dtype, shape).unwrap()]
    }

    /// What a run stored: the expression converted to the type.
    fn values(dtype: ElementType, shape: Vec<usize>, ranks: usize, expr: &str) -> Values {
        Values::initial(
            &layouts(dtype, shape),
            ranks,
            &exprs(expr),
            &BTreeMap::new(),
        )
        .unwrap()
    }

    fn expected(dtype: ElementType, shape: Vec<usize>, ranks: usize, expr: &str) -> Expected {
        Expected::new(&layouts(dtype, shape), ranks, &exprs(expr)).unwrap()
    }

    #[test]
    fn matching_values_pass() {
        let got = values(ElementType::F16, vec![3, 4], 2, "sum_r(r + i / 3.0)");
        let want = expected(ElementType::F16, vec![3, 4], 2, "sum_r(r) + n * i / 3.0");
        let report = compare(&got, &want, [0], None, None);
        assert!(report.passed(), "{report}");
        assert_eq!(report.compared, 24);
        assert_eq!(report.status(), ExitStatus::Ok);
        assert_eq!(report.to_string(), "");
        assert_eq!(report.summary(), "all 24 checked values match");
    }

    #[test]
    fn mismatches_are_listed_then_counted() {
        let got = values(ElementType::I32, vec![3, 5], 2, "i");
        let want = expected(ElementType::I32, vec![3, 5], 2, "i + (i0 == 1)");
        let report = compare(&got, &want, [0], None, None);
        assert_eq!(report.mismatches, 10);
        assert_eq!(report.status(), ExitStatus::ExpectationFailed);
        assert_eq!(
            report.listed[0].to_string(),
            "rank 0, argument 0, index [1, 0], got 5, expected 6"
        );
        assert_eq!(
            report.listed[5].to_string(),
            "rank 1, argument 0, index [1, 0], got 5, expected 6"
        );
        assert_eq!(report.summary(), "10 of 30 checked values differ");

        let got = values(ElementType::F32, vec![4, 3], 1, "0.1 * i");
        let want = expected(ElementType::F32, vec![4, 3], 1, "0.2 * i");
        let report = compare(&got, &want, [0], None, None);
        assert_eq!(report.mismatches, 11);
        let text = report.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 11);
        assert_eq!(
            lines[0],
            "rank 0, argument 0, index [0, 1], got 0.1, expected 0.2"
        );
        assert_eq!(lines[10], "and 1 more mismatch");
        // A loose enough override makes them pass.
        assert!(compare(&got, &want, [0], Some(1.0), None).passed());
        // Arguments without --expect are not compared.
        assert_eq!(compare(&got, &want, [], None, None).compared, 0);
    }

    #[test]
    fn half_precision_prints_exact_values() {
        let got = values(ElementType::BF16, vec![1], 1, "1.0 / 3");
        let want = expected(ElementType::BF16, vec![1], 1, "0.5");
        let report = compare(&got, &want, [0], None, None);
        assert_eq!(
            report.listed[0].to_string(),
            "rank 0, argument 0, index [0], got 0.333984375, expected 0.5"
        );
    }
}
