//! Element types the emitted C++ can spell. The runtime header has a name
//! for each of [`SPELLED`]; any other element type (`i4`, `f8E4M3`, ...) of
//! a buffer or tile would make the EmitC conversion fail far from its cause,
//! so it is rejected here, at the op or function that introduces it.

use melior::ir::{BlockLike, RegionLike, Type, TypeLike, ValueLike, operation::OperationLike};
use pld_dialect::ops::func;
use pld_ir::pass::report::Report;
use pld_ir::{OpRef, nested_ops, read::name, types::element_type};

/// The element types `pld::rt` spells, for the message.
const SPELLED: &[&str] = &[
    "i1", "i8", "i16", "i32", "i64", "index", "f16", "bf16", "f32", "f64",
];

/// Whether `pld::rt` has a name for `element`.
fn is_spelled(element: Type) -> bool {
    // SAFETY: type predicates on a live type; the integer accessors run
    // only once the C API confirms an integer type.
    unsafe {
        let raw = element.to_raw();
        mlir_sys::mlirTypeIsAF16(raw)
            || mlir_sys::mlirTypeIsABF16(raw)
            || mlir_sys::mlirTypeIsAF32(raw)
            || mlir_sys::mlirTypeIsAF64(raw)
            || mlir_sys::mlirTypeIsAIndex(raw)
            || (mlir_sys::mlirTypeIsAInteger(raw)
                && mlir_sys::mlirIntegerTypeIsSignless(raw)
                && matches!(mlir_sys::mlirIntegerTypeGetWidth(raw), 1 | 8 | 16 | 32 | 64))
    }
}

/// The element type of `r#type` (printed, for the message) if it is one C++
/// cannot spell.
fn unspellable(r#type: Type) -> Option<String> {
    // memrefs, window tensors and tiles are all shaped.
    let element = element_type(r#type)?;
    (!is_spelled(element)).then(|| element.to_string())
}

fn message(what: &str, element: &str) -> String {
    format!(
        "{what} has element type '{element}', which the emitted C++ cannot spell (it has \
         {})",
        SPELLED.join(", ")
    )
}

/// Reports every function argument and op result of `module` whose element
/// type C++ cannot spell.
pub fn check(module: OpRef, report: &mut Report) {
    for function in nested_ops(module)
        .into_iter()
        .filter(|op| name(*op) == func::FuncOp::NAME)
    {
        let Some(entry) = function
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
        else {
            continue;
        };
        for index in 0..entry.argument_count() {
            let argument = entry.argument(index).expect("an argument");
            if let Some(element) = unspellable(argument.r#type()) {
                report.error(
                    &function,
                    &message(&format!("argument #{index}"), &element),
                    &[],
                );
            }
        }
        for op in nested_ops(function) {
            for index in 0..op.result_count() {
                let result = op.result(index).expect("a result");
                if let Some(element) = unspellable(result.r#type()) {
                    report.error(
                        &op,
                        &message(&format!("'{}' result #{index}", name(op)), &element),
                        &[],
                    );
                }
            }
        }
    }
}
