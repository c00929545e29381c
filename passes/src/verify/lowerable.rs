//! What the lowering cannot express, reported where the user wrote it (the
//! contract: a module pld-verify accepts lowers, compiles and runs):
//! - a window tensor or memref chosen at run time (by `arith.select`, or
//!   carried out of or through `scf.if`/`scf.for`/`scf.while`): the
//!   lowering addresses a window by the buffer and shape it knows where it
//!   is used, so both must be decided without running the program;
//! - a function that returns a tensor with a dynamic dimension: its caller
//!   could not learn the dimension;
//! - memory allocated in the program (`memref.alloc`, `memref.alloca`): a
//!   kernel's global memory is what its launch passes in (arguments and
//!   window buffers), and on-chip scratch is a tile.

use melior::ir::{
    BlockLike, RegionLike, Type, ValueLike, operation::OperationLike, operation::OperationRef,
    r#type::FunctionType,
};
use pld_dialect::ops::{arith, memref};
use pld_ir::pass::report::Report;
use pld_ir::read as ir;
use pld_ir::types;

fn is_memory(r#type: Type) -> bool {
    pld_dialect::types::is_distributed_tensor(r#type) || types::is_memref(r#type)
}

pub fn check(ops: &[OperationRef], report: &mut Report) {
    for op in ops {
        let name = ir::name(op);
        if ir::is_function(op) {
            check_results(op, report);
            continue;
        }
        if name == memref::AllocOp::NAME || name == memref::AllocaOp::NAME {
            report.error(
                op,
                &format!(
                    "'{name}' allocates memory inside the program, which cannot be lowered: a \
                     kernel's global memory is what its launch passes in; pass the scratch \
                     buffer as an argument (a pl.Out tensor, or a window from \
                     pld.tensor.alloc_window_buffer in the host program), or keep it on chip \
                     as a tile (pl.load, pl.full)"
                ),
                &[],
            );
            continue;
        }
        let chooses = name == arith::SelectOp::NAME || name.starts_with("scf.");
        if !chooses {
            continue;
        }
        let result = (0..op.result_count())
            .filter_map(|index| op.result(index).ok())
            .find(|result| is_memory(result.r#type()));
        let carried = op.regions().find_map(|region| {
            let block = region.first_block()?;
            (0..block.argument_count())
                .filter_map(|index| block.argument(index).ok())
                .find(|argument| is_memory(argument.r#type()))
                .map(|argument| argument.r#type())
        });
        if let Some(r#type) = result.map(|r| r.r#type()).or(carried) {
            report.error(
                op,
                &format!(
                    "'{name}' chooses a window tensor or memref ('{type}') at run time, which \
                     cannot be lowered: the lowering addresses a window by the buffer it knows \
                     where it is used; choose between the accesses instead (an scf.if around \
                     each)"
                ),
                &[],
            );
        }
    }
}

/// A function's results of a shape its callers could not know.
fn check_results(function: &OperationRef, report: &mut Report) {
    let Some(function_type) = pld_dialect::ops::func::FuncOp::get_function_type(function)
        .and_then(|function_type| FunctionType::try_from(function_type).ok())
    else {
        return;
    };
    for index in 0..function_type.result_count() {
        let Ok(result) = function_type.result(index) else {
            continue;
        };
        let dynamic = is_memory(result)
            && types::shape(result).is_some_and(|shape| shape.contains(&types::DYNAMIC));
        if dynamic {
            report.error(
                function,
                &format!(
                    "a function returning '{result}' cannot be lowered: the caller could not \
                     learn its dynamic dimensions"
                ),
                &[],
            );
        }
    }
}
