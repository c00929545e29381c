//! The conversions the generated attribute accessors of [`crate::ops`] read
//! and write attributes with: each reader is `None` when the attribute is
//! not of its kind.

use melior::{
    Context, StringRef,
    ir::{
        Attribute, AttributeLike, Type,
        attribute::{
            BoolAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute, FlatSymbolRefAttribute,
            IntegerAttribute, StringAttribute, TypeAttribute,
        },
        operation::OperationLike,
        r#type::IntegerType,
    },
};

/// An integer attribute's value, when it fits `T`.
pub(crate) fn integer<T: TryFrom<i64>>(attribute: Attribute) -> Option<T> {
    T::try_from(IntegerAttribute::try_from(attribute).ok()?.value()).ok()
}

/// A dense array attribute's elements (`DenseI64ArrayAttr` as `i64`,
/// `DenseI32ArrayAttr` as `i32`); dynamic entries stay
/// `ShapedType::kDynamic` (`i64::MIN`).
pub(crate) fn array<T: DenseElement>(attribute: Attribute) -> Option<Vec<T>> {
    T::elements(attribute)
}

/// The element type of a dense array attribute.
pub(crate) trait DenseElement: Sized {
    fn elements(attribute: Attribute) -> Option<Vec<Self>>;
    fn attribute<'c>(context: &'c Context, values: &[Self]) -> Attribute<'c>;
}

impl DenseElement for i64 {
    fn elements(attribute: Attribute) -> Option<Vec<Self>> {
        let array = DenseI64ArrayAttribute::try_from(attribute).ok()?;
        (0..array.len()).map(|i| array.element(i).ok()).collect()
    }

    fn attribute<'c>(context: &'c Context, values: &[Self]) -> Attribute<'c> {
        DenseI64ArrayAttribute::new(context, values).into()
    }
}

impl DenseElement for i32 {
    fn elements(attribute: Attribute) -> Option<Vec<Self>> {
        let array = DenseI32ArrayAttribute::try_from(attribute).ok()?;
        (0..array.len()).map(|i| array.element(i).ok()).collect()
    }

    fn attribute<'c>(context: &'c Context, values: &[Self]) -> Attribute<'c> {
        DenseI32ArrayAttribute::new(context, values).into()
    }
}

/// A string attribute's text.
pub(crate) fn string(attribute: Attribute<'_>) -> Option<&str> {
    Some(StringAttribute::try_from(attribute).ok()?.value())
}

/// The name a flat symbol reference refers to.
pub(crate) fn symbol(attribute: Attribute<'_>) -> Option<&str> {
    Some(FlatSymbolRefAttribute::try_from(attribute).ok()?.value())
}

/// The type a type attribute holds.
pub(crate) fn r#type(attribute: Attribute<'_>) -> Option<Type<'_>> {
    Some(TypeAttribute::try_from(attribute).ok()?.value())
}

/// A bool attribute's value.
pub(crate) fn boolean(attribute: Attribute) -> Option<bool> {
    Some(BoolAttribute::try_from(attribute).ok()?.value())
}

/// An attribute of the signless integer type of `width` bits.
pub(crate) fn integer_attribute(context: &Context, width: u32, value: i64) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(context, width).into(), value).into()
}

/// A dense array attribute of `values`.
pub(crate) fn array_attribute<'c, T: DenseElement>(
    context: &'c Context,
    values: &[T],
) -> Attribute<'c> {
    T::attribute(context, values)
}

/// Sets the attribute `name` of `op` to the attribute `attribute` builds in
/// the op's context, or removes it when that is `None`.
pub(crate) fn set<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    name: &str,
    attribute: impl FnOnce(&'c Context) -> Option<Attribute<'c>>,
) {
    let context = op.context();
    // SAFETY: the reference is used only while `context`, the op's live
    // context, is in scope: `attribute` builds an attribute with it and
    // keeps nothing.
    let attribute = attribute(unsafe { context.to_ref() });
    let name = StringRef::new(name);
    // SAFETY: a live op; the name is copied and the attribute is uniqued in
    // the op's context. Removing an absent attribute does nothing.
    unsafe {
        match attribute {
            Some(attribute) => mlir_sys::mlirOperationSetAttributeByName(
                op.to_raw(),
                name.to_raw(),
                attribute.to_raw(),
            ),
            None => {
                mlir_sys::mlirOperationRemoveAttributeByName(op.to_raw(), name.to_raw());
            }
        }
    }
}
