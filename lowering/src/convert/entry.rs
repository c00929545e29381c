//! Entry wrappers: `@<name>__entry(ctx, args)` reads a public function's
//! arguments from a runtime's argument array (`pld::rt::Arg`: a pointer,
//! the dimensions, the scalar) and calls it. A simulator or a task runtime
//! launches any entry the same way, whatever its signature (PyPTO's
//! `kernel_entry(args)` plays this part on the device).

use super::{Functions, buffer::is_buffer_type};
use melior::dialect::func;
use melior::ir::{
    Block, BlockLike, BlockRef, Region, RegionLike, Type, ValueLike,
    attribute::{FlatSymbolRefAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
    operation::OperationLike,
    r#type::{FunctionType, IntegerType},
};
use pld_dialect::ops::ascend;
use pld_dialect::types::{self as pld_types, ascend as ascend_types};
use pld_ir::{
    Builder, Ix, OpRef, Val,
    build::{
        ascend::{AscendBuilder, set_specifiers},
        context_of,
    },
    types,
};

/// The suffix of an entry wrapper's name.
pub const SUFFIX: &str = "__entry";

/// Adds a wrapper for every public function with a body whose arguments an
/// argument array can carry.
pub fn add_entry_wrappers(functions: &mut Functions) {
    let mut wrappers = Vec::new();
    for symbol in &functions.order {
        let function = &functions.by_symbol[symbol];
        let has_body = function
            .op
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
            .is_some();
        if function.private || !has_body {
            continue;
        }
        if function
            .inputs
            .iter()
            .any(|input| pld_types::is_task_id(*input))
        {
            // A task id exists only inside a running orchestrator.
            continue;
        }
        let kernel = function.kind == super::Kind::Kernel;
        let extra = Extra {
            payload: function.payload,
            sdma: kernel && function.sdma,
            ffts: kernel && function.mixed,
            handoff_bytes: if kernel { function.handoff_bytes } else { 0 },
        };
        wrappers.push(wrap(function.op, symbol, &function.inputs, extra));
    }
    functions.wrappers = wrappers;
}

/// The parameters a kernel takes after its context that the runtime, not
/// the argument array, provides (the kernel ABI).
#[derive(Clone, Copy)]
struct Extra {
    /// A dispatch payload: the wrapper passes a null one (a device function
    /// that reads the block or lane index, called without the task runtime).
    payload: bool,
    /// The SDMA workspace and a sync id (a kernel that moves data with SDMA).
    sdma: bool,
    /// The FFTS base address (a mixed kernel).
    ffts: bool,
    /// A block's hand-off bytes (a kernel with hand-offs), 0 for none.
    handoff_bytes: i64,
}

/// `@<symbol>__entry(%ctx: !ascend.ctx, %args: !ascend.args)`; a kernel
/// that moves data with SDMA is passed the runtime's SDMA workspace and
/// sync id 0 after the context, a mixed kernel the runtime's FFTS base
/// address.
fn wrap<'c>(function: OpRef<'c>, symbol: &str, inputs: &[Type<'c>], extra: Extra) -> OpRef<'c> {
    let context = context_of(function);
    let location = function.location();
    let ctx_type = ascend_types::ctx(context);
    let args_type = ascend_types::args(context);
    let region = Region::new();
    let block = region.append_block(Block::new(&[(ctx_type, location), (args_type, location)]));
    // SAFETY: see the documentation of `pld_ir`.
    let block: BlockRef<'c, 'c> = unsafe { BlockRef::from_raw(block.to_raw()) };
    let name = format!("{symbol}{SUFFIX}");
    let wrapper = func::func(
        context,
        StringAttribute::new(context, &name),
        TypeAttribute::new(FunctionType::new(context, &[ctx_type, args_type], &[]).into()),
        region,
        &[],
        location,
    );
    let wrapper = function
        .block()
        .expect("functions sit in a module")
        .insert_operation_after(function, wrapper);
    // SAFETY: see the documentation of `pld_ir`.
    let wrapper: OpRef<'c> = unsafe { OpRef::from_raw(wrapper.to_raw()) };
    set_specifiers(wrapper, &["extern \"C\""]);

    let builder = Builder::at_end(context, location, block);
    let argument = |index: usize| -> Val<'c> {
        // SAFETY: see the documentation of `pld_ir`.
        unsafe { Val::from_raw(block.argument(index).expect("the argument").to_raw()) }
    };
    let (ctx, args) = (argument(0), argument(1));
    let i64 = IntegerType::new(context, 64).into();
    let index_attribute = |value: usize| IntegerAttribute::new(i64, value as i64).into();
    let mut operands = vec![ctx];
    if extra.payload {
        operands.push(builder.no_payload());
    }
    if extra.sdma {
        operands.push(builder.sdma_workspace(ctx));
        operands.push(builder.i32(0));
    }
    if extra.ffts {
        operands.push(builder.ffts_addr(ctx));
    }
    if extra.handoff_bytes > 0 {
        // The simulator calls the wrapper on each block's thread: space for
        // blocks 0 to this one, of which the kernel uses this block's part.
        let blocks = builder.add(Ix::Dyn(builder.block_idx(None)), Ix::Const(1));
        let bytes = builder.mul(blocks, Ix::Const(extra.handoff_bytes));
        operands.push(builder.handoff_workspace(ctx, bytes));
    }
    for (index, input) in inputs.iter().enumerate() {
        if pld_types::is_comm_ctx(*input) {
            continue;
        }
        if is_buffer_type(*input) || pld_types::is_window_ptr(*input) {
            let element = if pld_types::is_window_ptr(*input) {
                IntegerType::new(context, 8).into()
            } else {
                types::element_type(*input).expect("a shaped input")
            };
            let pointer_type = ascend_types::gm(context, element).expect("a pointer type");
            let pointer = ascend::ArgPtrOp {
                args,
                index: index_attribute(index),
                ptr: pointer_type,
            };
            operands.push(builder.build_one(pointer.build(context, builder.location)));
            for (dim, size) in types::shape(*input).unwrap_or_default().iter().enumerate() {
                if *size == types::DYNAMIC {
                    let dim = ascend::ArgDimOp {
                        args,
                        index: index_attribute(index),
                        dim: index_attribute(dim),
                        size: builder.index_type(),
                    };
                    operands.push(builder.build_one(dim.build(context, builder.location)));
                }
            }
            continue;
        }
        let scalar = ascend::ArgScalarOp {
            args,
            index: index_attribute(index),
            value: *input,
        };
        operands.push(builder.build_one(scalar.build(context, builder.location)));
    }
    let results: Vec<Type> = super::signature::function_type(function)
        .map(|function_type| {
            (0..function_type.result_count())
                .map(|index| function_type.result(index).expect("a result"))
                .collect()
        })
        .unwrap_or_default();
    let callee = FlatSymbolRefAttribute::new(context, symbol);
    builder.insert(func::call(
        context,
        callee,
        &operands,
        &results,
        builder.location,
    ));
    builder.insert(func::r#return(&[], builder.location));
    wrapper
}
