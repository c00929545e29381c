//! Every op of the pl, pld and ascend dialects (and of the upstream func,
//! scf, memref, arith and emitc) as a struct generated from ODS
//! (`dialect/build/ops.rs`): its name (`NAME`), for recognising an op
//! without writing the name again, and its operands, attributes, results and
//! regions as named fields, for building it: `build` lays the operands out in
//! ODS order and writes `operandSegmentSizes`, so reordering or renaming an
//! operand in ODS changes the builders with it (or fails to compile).
//!
//! Reading and writing an op goes by its ODS names, one scheme for both:
//!
//! - `<Op>::operands(&op)` gives a pl, pld or ascend op's operands as the
//!   named fields of `<Op>Operands` (`None` for an op of another kind);
//! - `<Op>::attributes(&op)` gives its attributes, typed, as the named
//!   fields of `<Op>Attributes` (`None` for an op of another kind, or one
//!   without an attribute it must carry); `<Op>::get_<name>(&op)` reads one
//!   alone (no other attribute read, no array copied), and
//!   `<Op>::set_<name>(&op, value)` writes one. An integer attribute (`I64Attr`, `I32Attr`, `IndexAttr`)
//!   reads as the Rust integer of its width, `DenseI64ArrayAttr` as
//!   `Vec<i64>` (dynamic entries stay `i64::MIN`, `ShapedType::kDynamic`),
//!   `UnitAttr` and `BoolAttr` as `bool`, a string (`StrAttr`) and a flat
//!   symbol reference as `&str`, a `TypeAttr` as `Type`, an enum attribute of
//!   pl, pld or ascend as its [`crate::enums`] enum, anything else as
//!   `Attribute`. An optional attribute reads as an `Option` (its setter
//!   takes one and removes the attribute for `None`); one with a default
//!   value reads as that default when absent; a unit attribute's setter adds
//!   or removes it;
//! - `PlOp::of(op)`, `PldOp::of(op)` and `AscendOp::of(op)` give a pl, pld
//!   or ascend op as the variant of its op, so that a `match` over a
//!   dialect's ops is exhaustive: a new op in ODS is a compile error at
//!   every `match` until it is handled.
//!
//! An op can also be built from its parts by name, for a front end that is
//! not Rust (the Python package): [`build_described`] takes a
//! [`crate::described::Described`] (operand groups, attributes, result types
//! and regions in maps keyed by their ODS names) and fills the op's struct
//! through a match arm generated from the same records, converting each
//! attribute value by the kind ODS declares (an enum by its keyword).
//!
//! Every op's ODS summary and description, as `mlir-tblgen
//! -gen-dialect-doc` prints them, is [`documentation`]`(name)`
//! (`dialect/build/documentation.rs`; pld-lsp-server's hover shows it).
//!
//! The discardable attributes the dialects declare (`pl.kernel`,
//! `pld.target`) are read and written through their enums
//! ([`crate::enums::KernelKind::on`], `set_on`, `remove_from`).
//!
//! ```no_run
//! use pld_dialect::{enums::ReduceOp, ops::pld::{PldOp, SystemRankOp, TensorAllreduceOp}};
//! # fn rank<'c>(context: &'c melior::Context, location: melior::ir::Location<'c>,
//! #         ctx: melior::ir::Value<'c, '_>, i32: melior::ir::Type<'c>,
//! #         op: melior::ir::operation::OperationRef<'c, '_>) {
//! let rank = SystemRankOp { ctx, rank: i32 }.build(context, location);
//! assert_eq!(rank.name().as_string_ref().as_str(), Ok(SystemRankOp::NAME));
//!
//! if let Some(PldOp::TensorAllreduce(op)) = PldOp::of(op) {
//!     let attributes = TensorAllreduceOp::attributes(&op).unwrap();
//!     if attributes.op == ReduceOp::Sum {
//!         TensorAllreduceOp::set_op(&op, ReduceOp::Max);
//!     }
//! }
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

/// The op named `name` (of pl, pld, ascend or an upstream dialect pld
/// builds) built from `described`: its operand groups, attributes, result
/// types and regions by their ODS names ([`crate::described`]).
pub fn build_described<'c>(
    name: &str,
    context: &'c Context,
    location: Location<'c>,
    described: &mut crate::described::Described<'c, '_>,
) -> Result<Operation<'c>, crate::described::DescribedError> {
    let builders = [
        pl::build_described,
        pld::build_described,
        ascend::build_described,
        func::build_described,
        scf::build_described,
        memref::build_described,
        arith::build_described,
        emitc::build_described,
    ];
    for build in builders {
        if let Some(op) = build(name, context, location, described)? {
            return Ok(op);
        }
    }
    Err(crate::described::DescribedError::UnknownOp(name.into()))
}

/// An op's documentation as its ODS definition gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpDocumentation {
    /// One line (`summary`).
    pub summary: &'static str,
    /// Markdown (`description`), without the .td file's indentation.
    pub description: &'static str,
}

// `DOCUMENTATION`: every op of the dialects above, sorted by name
// (`dialect/build/documentation.rs`).
include!(concat!(env!("OUT_DIR"), "/documentation.rs"));

/// The ODS summary and description of the op named `name` (`pld.system.notify`,
/// `scf.for`): every op of pl, pld, ascend and the upstream func, scf,
/// memref, arith and emitc; `None` for any other name.
pub fn documentation(name: &str) -> Option<&'static OpDocumentation> {
    DOCUMENTATION
        .binary_search_by(|(known, _)| (*known).cmp(name))
        .ok()
        .map(|index| &DOCUMENTATION[index].1)
}
