//! Mixed kernels: a kernel with cube and vector work, converted whole, split
//! into the half its block's cube core runs and the half its vector core
//! runs.
//!
//! The converted kernel `@k` brackets every GEMM with the block's
//! cross-core flags (`cube.rs`). It becomes
//!
//! - `@k_aic`: the GEMMs and the flags the cube raises and waits for, with
//!   what they need to run (the index arithmetic of their addresses, the
//!   loops and branches around them); nothing else;
//! - `@k_aiv`: everything but the GEMMs and the cube's flags: the vector
//!   work, the signals and scalar accesses, and the vector core's flags;
//! - `@k` itself: `ascend.set_ffts_base_addr %ffts` (the FFTS base address
//!   the kernel takes, which the flags go through), then `ascend.run_mixed
//!   @k_aic, @k_aiv(args)`; the halves do not take the address.
//!
//! Program order across the two holds at each GEMM: the vector core
//! releases what it wrote and signals, the cube waits, runs the GEMM,
//! releases and signals back, the vector core waits and acquires. The cube
//! half must be able to compute alone where its GEMMs are: a loop or branch
//! around a GEMM that carries values, or an address that depends on memory
//! the vector core reads, is an error.

use super::{ConvertError, Function, Functions, Kind, specifiers};
use melior::ir::{BlockLike, RegionLike, ValueLike, operation::OperationLike};
use pld_dialect::enums::ascend::{Core, TileKind};
use pld_dialect::interfaces::{is_memory_effect_free, is_trivially_dead};
use pld_dialect::ops::{ascend, func, scf};
use pld_dialect::types::ascend as ascend_types;
use pld_ir::build::ascend::{AscendBuilder, set_specifiers};
use pld_ir::{
    Builder, OpKey, OpRef, PtrSet, Val, nested_ops,
    pass::report::Report,
    read::{defining_op, name},
};

/// Which core of the block runs an op of a converted mixed kernel.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    /// The cube: a GEMM's tiles and instructions, the cube's flags.
    Cube,
    /// The vector core: every other op that touches memory or synchronises.
    Vector,
    /// Both: what neither touches memory nor synchronises (index
    /// arithmetic, views, queries) and the structure around it.
    Shared,
}

fn is_cube_tile(value: Val) -> bool {
    ascend_types::tile_kind(value.r#type()).is_some_and(|kind| kind != TileKind::Vec)
}

fn side_of(op: OpRef) -> Side {
    let op_name = name(op);
    match op_name {
        ascend::TileOp::NAME => {
            if is_cube_tile(Builder::result(op)) {
                Side::Cube
            } else {
                Side::Vector
            }
        }
        ascend::TLoadOp::NAME => {
            let load = ascend::TLoadOp::operands(&op).expect("an ascend.tload");
            if is_cube_tile(load.dst) {
                Side::Cube
            } else {
                Side::Vector
            }
        }
        ascend::TExtractOp::NAME
        | ascend::TMatmulOp::NAME
        | ascend::TMatmulAccOp::NAME
        | ascend::TStoreAccOp::NAME => Side::Cube,
        // A flag runs on the core it leaves from (signal) or arrives at
        // (wait).
        ascend::CrossCoreSignalOp::NAME => core_side(ascend::CrossCoreSignalOp::get_src(&op)),
        ascend::CrossCoreWaitOp::NAME => core_side(ascend::CrossCoreWaitOp::get_dst(&op)),
        scf::ForOp::NAME
        | scf::IfOp::NAME
        | scf::WhileOp::NAME
        | scf::ExecuteRegionOp::NAME
        | scf::IndexSwitchOp::NAME
        | scf::YieldOp::NAME
        | scf::ConditionOp::NAME
        | func::ReturnOp::NAME => Side::Shared,
        // Index arithmetic, views, peer pointers, queries: what neither
        // touches memory nor synchronises (their ODS `Pure`).
        _ if op.region_count() == 0 && op.result_count() > 0 && is_memory_effect_free(&op) => {
            Side::Shared
        }
        _ => Side::Vector,
    }
}

fn core_side(core: Option<Core>) -> Side {
    match core {
        Some(Core::Aic) => Side::Cube,
        _ => Side::Vector,
    }
}

/// Splits the converted mixed kernels `symbols` into their halves.
pub fn split<'c>(functions: &mut Functions<'c>, symbols: &[String], report: &mut Report) {
    for symbol in symbols {
        let kernel = functions.by_symbol[symbol].clone();
        if let Err((op, error)) = split_one(functions, &kernel) {
            report.error(&op, &error.to_string(), &[]);
        }
    }
}

/// Why a kernel cannot be split: an error at an op of its cube half.
type SplitError<'c> = (OpRef<'c>, ConvertError);

fn split_one<'c>(
    functions: &mut Functions<'c>,
    kernel: &Function<'c>,
) -> Result<(), SplitError<'c>> {
    let aic_symbol = functions.fresh_symbol(&format!("{}_aic", kernel.symbol));
    let aic = clone_function(kernel.op, &aic_symbol);
    functions.add_converted(aic, &aic_symbol, Kind::Device, kernel.inputs.clone());
    let aiv_symbol = functions.fresh_symbol(&format!("{}_aiv", kernel.symbol));
    let aiv = clone_function(kernel.op, &aiv_symbol);
    functions.add_converted(aiv, &aiv_symbol, Kind::Device, kernel.inputs.clone());

    keep_cube_half(aic)?;
    keep_vector_half(aiv);
    for half in [aic, aiv] {
        remove_dead(half);
        drop_ffts_parameter(half);
        set_specifiers(half, specifiers(Kind::Device));
    }
    replace_body(kernel.op, &aic_symbol, &aiv_symbol);
    Ok(())
}

/// A copy of the function `op` named `symbol`, right after it.
fn clone_function<'c>(op: OpRef<'c>, symbol: &str) -> OpRef<'c> {
    // SAFETY: `op` is a live function of a module block; the clone is
    // inserted into that block, which owns it from then on.
    let clone: OpRef<'c> = unsafe {
        let clone = mlir_sys::mlirOperationClone(op.to_raw());
        let block = mlir_sys::mlirOperationGetBlock(op.to_raw());
        mlir_sys::mlirBlockInsertOwnedOperationAfter(block, op.to_raw(), clone);
        OpRef::from_raw(clone)
    };
    func::FuncOp::set_sym_name(&clone, symbol);
    func::FuncOp::set_sym_visibility(&clone, Some("private"));
    clone
}

/// Keeps what the cube runs: its ops, and what they need.
fn keep_cube_half(function: OpRef) -> Result<(), SplitError> {
    let ops = nested_ops(function);
    let mut needed: PtrSet<OpKey> = PtrSet::default();
    let mut work: Vec<OpRef> = ops
        .iter()
        .copied()
        .filter(|op| side_of(*op) == Side::Cube)
        .collect();
    while let Some(op) = work.pop() {
        if !needed.insert(OpKey::of(op)) {
            continue;
        }
        if side_of(op) == Side::Vector {
            let message = format!(
                "the cube's half of this mixed kernel needs '{}' (a GEMM's address, or the \
                 loop or branch around one, depends on it), which runs on the vector core: \
                 compute it from the kernel's arguments instead",
                name(op)
            );
            return Err((op, message.into()));
        }
        if matches!(name(op), scf::ForOp::NAME | scf::IfOp::NAME) && op.result_count() > 0 {
            let message = format!(
                "a GEMM inside an '{}' that yields values cannot be split from the vector \
                 work of its mixed kernel: put the GEMM in a loop or branch of its own",
                name(op)
            );
            return Err((op, message.into()));
        }
        if name(op) == scf::WhileOp::NAME {
            let message = "a GEMM inside an 'scf.while' cannot be split from the vector work \
                           of its mixed kernel: its condition is computed on the vector core";
            return Err((op, message.into()));
        }
        for index in 0..op.operand_count() {
            let value = op.operand(index).expect("an operand");
            // SAFETY: see the documentation of `pld_ir`.
            let value: Val = unsafe { Val::from_raw(value.to_raw()) };
            if let Some(definer) = defining_op(value) {
                work.push(definer);
            }
        }
        // The loops and branches it is in, and what they are computed from.
        if let Some(parent) = op.parent_operation()
            && parent != function
        {
            // SAFETY: see the documentation of `pld_ir`.
            work.push(unsafe { OpRef::from_raw(parent.to_raw()) });
        }
        // The terminators of a region kept.
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(current) = block {
                if let Some(terminator) = current.terminator() {
                    // SAFETY: see the documentation of `pld_ir`.
                    work.push(unsafe { OpRef::from_raw(terminator.to_raw()) });
                }
                block = current.next_in_region();
            }
        }
    }
    for op in ops.into_iter().rev() {
        if !needed.contains(&OpKey::of(op)) && name(op) != func::ReturnOp::NAME {
            pld_ir::build::erase_op(op);
        }
    }
    Ok(())
}

/// Drops what the cube runs.
fn keep_vector_half(function: OpRef) {
    for op in nested_ops(function).into_iter().rev() {
        if side_of(op) == Side::Cube {
            pld_ir::build::erase_op(op);
        }
    }
}

/// The entry block of the function `op` and the index of its FFTS base
/// address parameter, if it takes one (a mixed kernel does, after its
/// context: the kernel ABI).
fn ffts_parameter<'c>(op: OpRef<'c>) -> (melior::ir::BlockRef<'c, 'c>, Option<usize>) {
    let body = op
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .expect("a converted kernel has a body");
    // SAFETY: see the documentation of `pld_ir`.
    let body: melior::ir::BlockRef<'c, 'c> =
        unsafe { melior::ir::BlockRef::from_raw(body.to_raw()) };
    let ffts_type = ascend_types::ffts_addr(pld_ir::build::context_of(op));
    let index = (0..body.argument_count())
        .find(|index| body.argument(*index).expect("an argument").r#type() == ffts_type);
    (body, index)
}

/// A half does not take the FFTS base address: the kernel sets it before
/// it runs them.
fn drop_ffts_parameter(half: OpRef) {
    let (body, Some(index)) = ffts_parameter(half) else {
        return;
    };
    // SAFETY: nothing in the half uses the address (only the kernel's
    // `ascend.set_ffts_base_addr` will), and no handle to it is kept.
    unsafe { body.erase_argument(index) };
    let inputs: Vec<melior::ir::Type> = (0..body.argument_count())
        .map(|index| body.argument(index).expect("an argument").r#type())
        .collect();
    let context = pld_ir::build::context_of(half);
    let function_type = melior::ir::r#type::FunctionType::new(context, &inputs, &[]);
    func::FuncOp::set_function_type(&half, function_type.into());
}

/// Erases what neither half needs any more (the addresses of the other
/// half's accesses), until nothing changes.
fn remove_dead(function: OpRef) {
    loop {
        let mut erased = false;
        for op in nested_ops(function).into_iter().rev() {
            if op.region_count() == 0 && is_trivially_dead(&op) {
                pld_ir::build::erase_op(op);
                erased = true;
            }
        }
        if !erased {
            break;
        }
    }
}

/// The kernel's body becomes the launch of its two halves.
fn replace_body(kernel: OpRef, aic: &str, aiv: &str) {
    let body = kernel
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .expect("a converted kernel has a body");
    // SAFETY: see the documentation of `pld_ir`.
    let body = unsafe { melior::ir::BlockRef::from_raw(body.to_raw()) };
    let terminator = body.terminator().expect("a function body ends in a return");
    // SAFETY: see the documentation of `pld_ir`.
    let terminator: OpRef = unsafe { OpRef::from_raw(terminator.to_raw()) };
    let ops = nested_ops(kernel);
    for op in ops.into_iter().rev() {
        if op != terminator && op.parent_operation() == Some(kernel) {
            pld_ir::build::erase_op(op);
        }
    }
    let (_, ffts) = ffts_parameter(kernel);
    let arguments: Vec<Val> = (0..body.argument_count())
        .filter(|index| Some(*index) != ffts)
        .map(|index| {
            let argument = body.argument(index).expect("an argument");
            // SAFETY: see the documentation of `pld_ir`.
            unsafe { Val::from_raw(argument.to_raw()) }
        })
        .collect();
    let (ctx, args) = arguments
        .split_first()
        .expect("a kernel takes its context first");
    let builder = Builder::before(terminator);
    if let Some(index) = ffts {
        let ffts = body.argument(index).expect("the FFTS base address");
        // SAFETY: see the documentation of `pld_ir`.
        builder.set_ffts_base_addr(unsafe { Val::from_raw(ffts.to_raw()) });
    }
    builder.run_mixed(aic, aiv, *ctx, args);
}
