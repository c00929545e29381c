//! Queries on the types pld's passes handle: `!pld.dtensor`, `memref`,
//! `!pl.tile` (all shaped), and their element types.

use melior::ir::{Type, TypeLike};

/// The marker of a dynamic dimension or index (`ShapedType::kDynamic`).
pub const DYNAMIC: i64 = i64::MIN;

/// The shape of a shaped type (dynamic dimensions are [`DYNAMIC`]), or `None`
/// for any other type.
pub fn shape(r#type: Type) -> Option<Vec<i64>> {
    // SAFETY: the shaped-type accessors are only called on a type that the
    // C API confirms implements ShapedType, and only when it is ranked.
    unsafe {
        let raw = r#type.to_raw();
        if !mlir_sys::mlirTypeIsAShaped(raw) || !mlir_sys::mlirShapedTypeHasRank(raw) {
            return None;
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(raw);
        Some(
            (0..rank)
                .map(|dim| mlir_sys::mlirShapedTypeGetDimSize(raw, dim as isize))
                .collect(),
        )
    }
}

/// The element type of a shaped type, or `None` for any other type.
pub fn element_type(r#type: Type) -> Option<Type> {
    // SAFETY: as in `shape`, only a confirmed shaped type is queried.
    unsafe {
        let raw = r#type.to_raw();
        mlir_sys::mlirTypeIsAShaped(raw)
            .then(|| Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)))
    }
}

/// The size in bytes of an integer or float element type.
pub fn byte_width(r#type: Type) -> Option<i64> {
    // SAFETY: the width accessors are called on types the C API confirms
    // to be integer or float types.
    let bits = unsafe {
        let raw = r#type.to_raw();
        if mlir_sys::mlirTypeIsAInteger(raw) {
            mlir_sys::mlirIntegerTypeGetWidth(raw)
        } else if mlir_sys::mlirTypeIsAFloat(raw) {
            mlir_sys::mlirFloatTypeGetWidth(raw)
        } else {
            return None;
        }
    };
    Some(crate::ceil_div(i64::from(bits), 8))
}

/// Whether a memref has the identity (row-major, contiguous) layout.
pub fn is_identity_memref(r#type: Type) -> bool {
    // SAFETY: the layout is only read from a type confirmed to be a memref.
    unsafe {
        let raw = r#type.to_raw();
        mlir_sys::mlirTypeIsAMemRef(raw)
            && mlir_sys::mlirAttributeIsAAffineMap(mlir_sys::mlirMemRefTypeGetLayout(raw))
            && mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirAffineMapAttrGetValue(
                mlir_sys::mlirMemRefTypeGetLayout(raw),
            ))
    }
}

/// Whether a type is a memref.
pub fn is_memref(r#type: Type) -> bool {
    // SAFETY: a type predicate on a live type.
    unsafe { mlir_sys::mlirTypeIsAMemRef(r#type.to_raw()) }
}
