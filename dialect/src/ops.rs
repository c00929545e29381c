//! Every op of the pl, pld and ascend dialects as a struct generated from
//! ODS (`dialect/build/ops.rs`): its name (`NAME`), for recognising an op
//! without writing the name again, and its operands, attributes, results and
//! regions as named fields, for building it: `build` lays the operands out in
//! ODS order and writes `operandSegmentSizes`, so reordering or renaming an
//! operand in ODS changes the builders with it (or fails to compile). For
//! reading, `<Op>::operands(&op)` gives a pl, pld or ascend op's operands
//! as the named fields of `<Op>Operands`, and `<Op>::attributes(&op)` any
//! op's attributes, typed, as those of `<Op>Attributes`;
//! `<Op>::set_<name>(&op, value)` writes one.
//!
//! ```no_run
//! use pld_dialect::ops::pld::SystemRankOp;
//! # fn rank<'c>(context: &'c melior::Context, location: melior::ir::Location<'c>,
//! #         ctx: melior::ir::Value<'c, '_>, i32: melior::ir::Type<'c>) {
//! let op = SystemRankOp { ctx, rank: i32 }.build(context, location);
//! assert_eq!(op.name().as_string_ref().as_str(), Ok(SystemRankOp::NAME));
//! # }
//! ```

#![allow(clippy::all, missing_docs)]

use melior::{
    Context,
    ir::{
        Attribute, Identifier, Location, Region, Type, Value,
        attribute::{
            BoolAttribute, DenseI32ArrayAttribute, FlatSymbolRefAttribute, StringAttribute,
            TypeAttribute,
        },
        operation::{Operation, OperationBuilder, OperationLike, OperationRef},
    },
};
use std::marker::PhantomData;

include!(concat!(env!("OUT_DIR"), "/ops.rs"));

/// The mixed static/dynamic index lists of the pl, pld or ascend op named
/// `name` (each `static_<x>` attribute with the operand group `<x>` of its
/// dynamic entries); empty for any other op.
pub fn index_lists(name: &str) -> &'static [(&'static str, &'static str)] {
    [pl::index_lists, pld::index_lists, ascend::index_lists]
        .into_iter()
        .map(|lists| lists(name))
        .find(|lists| !lists.is_empty())
        .unwrap_or_default()
}
