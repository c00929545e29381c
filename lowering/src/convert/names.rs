//! Function names become C++ names as they are: `extern "C"` kernels keep
//! their symbol so that a runtime finds them by name. A symbol C++ cannot
//! spell (a keyword, a quoted MLIR name with a dot, a reserved identifier)
//! would print as C++ that no compiler accepts, so it is rejected here, at
//! the function, before anything is printed.

use super::Functions;
use crate::report::Report;

/// C++20's keywords and alternative tokens.
const CPP_KEYWORDS: &str = "\
     alignas alignof and and_eq asm auto bitand bitor bool break case catch \
     char char8_t char16_t char32_t class compl concept const consteval \
     constexpr constinit const_cast continue co_await co_return co_yield \
     decltype default delete do double dynamic_cast else enum explicit export \
     extern false float for friend goto if inline int long mutable \
     namespace new noexcept not not_eq nullptr operator or or_eq private \
     protected public register reinterpret_cast requires return short signed \
     sizeof static static_assert static_cast struct switch template this \
     thread_local throw true try typedef typeid typename union unsigned using \
     virtual void volatile wchar_t while xor xor_eq";

/// Why `symbol` cannot name a C++ function, if it cannot.
fn why_not_cpp(symbol: &str) -> Option<&'static str> {
    let mut chars = symbol.chars();
    let starts_well = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !starts_well || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some("a C++ name is letters, digits and '_', not starting with a digit");
    }
    if CPP_KEYWORDS.split_whitespace().any(|word| word == symbol) {
        return Some("it is a C++ keyword");
    }
    if symbol == "main" {
        return Some(
            "'main' is the C++ program's entry point, which an extern \"C\" function cannot be",
        );
    }
    let mut start = symbol.chars();
    if symbol.contains("__")
        || (start.next() == Some('_') && start.next().is_some_and(|c| c.is_ascii_uppercase()))
    {
        // The lowering's own names (`<f>__entry`) rely on this too.
        return Some("names with '__' or a leading '_' and capital are reserved in C++");
    }
    None
}

/// Reports every function whose name C++ cannot spell.
pub fn check(functions: &Functions, report: &mut Report) {
    for symbol in &functions.order {
        if let Some(why) = why_not_cpp(symbol) {
            report.error(
                &functions.by_symbol[symbol].op,
                &format!(
                    "function name '{symbol}' cannot be emitted as C++: {why}; rename the \
                     function"
                ),
                &[],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::why_not_cpp;

    #[test]
    fn names() {
        for good in ["allreduce", "_x", "k2", "ring_put", "A"] {
            assert_eq!(why_not_cpp(good), None, "{good}");
        }
        for bad in [
            "short", "main", "2x", "a.b", "", "f__entry", "_Kernel", "a-b",
        ] {
            assert!(why_not_cpp(bad).is_some(), "{bad}");
        }
    }
}
