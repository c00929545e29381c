//! The C++ name of every function. A symbol that is a plain C++ identifier
//! keeps its name (`extern "C"` kernels are found by it). One that C++
//! cannot spell or must not use (a keyword, `main`, a quoted MLIR name with
//! a dot, a reserved identifier with `__` or a leading `_` and capital) is
//! renamed before anything is printed: `pld_` and its bytes, letters and
//! digits as they are and every other byte (`_` included) as `x` and two
//! hex digits, so that the name has no `__` and cannot be reserved; a
//! trailing `_N` keeps it apart from the module's other names. pld-run
//! finds an entry's wrapper (`<name>__entry`) through [`cpp_names`] too.

use melior::ir::operation::OperationLike;
use pld_ir::OpRef;
use std::collections::{HashMap, HashSet};

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

/// Whether `symbol` can name a C++ function as it is.
fn is_plain_cpp(symbol: &str) -> bool {
    let mut chars = symbol.chars();
    let starts_well = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let mut start = symbol.chars();
    starts_well
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !CPP_KEYWORDS.split_whitespace().any(|word| word == symbol)
        // The program's entry point; and `pld-run`'s harness has one.
        && symbol != "main"
        // Reserved in C++ (and the lowering's own `<f>__entry`).
        && !symbol.contains("__")
        && !(start.next() == Some('_') && start.next().is_some_and(|c| c.is_ascii_uppercase()))
}

fn mangle(symbol: &str) -> String {
    let mut name = "pld_".to_owned();
    for byte in symbol.bytes() {
        if byte.is_ascii_alphanumeric() {
            name.push(byte as char);
        } else {
            name.push_str(&format!("x{byte:02x}"));
        }
    }
    name
}

/// The C++ name of each of `symbols` (the module's function names): the
/// symbol itself where C++ can use it, a mangled one, distinct from every
/// other, where not.
pub fn cpp_names<'s>(
    symbols: impl IntoIterator<Item = &'s str> + Clone,
) -> HashMap<String, String> {
    let mut taken: HashSet<String> = symbols
        .clone()
        .into_iter()
        .filter(|s| is_plain_cpp(s))
        .map(str::to_owned)
        .collect();
    let mut names = HashMap::new();
    for symbol in symbols {
        let name = if is_plain_cpp(symbol) {
            symbol.to_owned()
        } else {
            let base = mangle(symbol);
            let mut name = base.clone();
            let mut suffix = 1;
            while taken.contains(&name) {
                name = format!("{base}_{suffix}");
                suffix += 1;
            }
            taken.insert(name.clone());
            name
        };
        names.insert(symbol.to_owned(), name);
    }
    names
}

/// Renames every function of `module` whose symbol C++ cannot use, with
/// every use of it.
pub fn rename_functions(module: OpRef) {
    let functions: Vec<OpRef> = pld_ir::nested_ops(module)
        .into_iter()
        .filter(|op| pld_ir::read::is_function(op))
        .collect();
    let symbols: Vec<String> = functions
        .iter()
        .filter_map(pld_ir::read::symbol_name)
        .collect();
    let names = cpp_names(symbols.iter().map(String::as_str));
    for symbol in &symbols {
        let name = &names[symbol];
        if name == symbol {
            continue;
        }
        // SAFETY: the module is live; both names outlive the call; the
        // symbol table of the module's body holds the functions.
        unsafe {
            let old = melior::StringRef::new(symbol);
            let new = melior::StringRef::new(name);
            let region = mlir_sys::mlirOperationGetRegion(module.to_raw(), 0);
            let body = mlir_sys::mlirRegionGetFirstBlock(region);
            let mut op = mlir_sys::mlirBlockGetFirstOperation(body);
            while !op.ptr.is_null() {
                let _ =
                    mlir_sys::mlirSymbolTableReplaceAllSymbolUses(old.to_raw(), new.to_raw(), op);
                op = mlir_sys::mlirOperationGetNextInBlock(op);
            }
            let function = functions
                .iter()
                .find(|f| pld_ir::read::symbol_name(*f).as_deref() == Some(symbol.as_str()))
                .expect("a function per symbol");
            let attribute = mlir_sys::mlirStringAttrGet(
                mlir_sys::mlirOperationGetContext(function.to_raw()),
                new.to_raw(),
            );
            mlir_sys::mlirOperationSetAttributeByName(
                function.to_raw(),
                melior::StringRef::new("sym_name").to_raw(),
                attribute,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::cpp_names;

    #[test]
    fn names() {
        let symbols = [
            "allreduce",
            "_x",
            "k2",
            "ring_put",
            "A",
            "main",
            "short",
            "a.b",
            "f__entry",
            "_Kernel",
            "pld_main",
        ];
        let names = cpp_names(symbols.iter().copied());
        for plain in ["allreduce", "_x", "k2", "ring_put", "A", "pld_main"] {
            assert_eq!(names[plain], plain);
        }
        assert_eq!(names["main"], "pld_main_1");
        assert_eq!(names["short"], "pld_short");
        assert_eq!(names["a.b"], "pld_ax2eb");
        assert_eq!(names["f__entry"], "pld_fx5fx5fentry");
        assert_eq!(names["_Kernel"], "pld_x5fKernel");
        for name in names.values() {
            assert!(!name.contains("__"), "{name}");
        }
    }
}
