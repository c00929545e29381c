//! The dialects' enums as Rust enums, generated from their ODS definitions
//! (`dialect/build/enums.rs`, from the same `llvm-tblgen --dump-json` records
//! as the C++ enums): cases, stable integer values (semantics §2), keywords
//! and summaries. Each has `ALL`, `keyword` and `from_value`; one that a
//! dialect attribute wraps is built and read through the C API by its
//! integer value, never through printed text (`attribute`, `of`, `of_op`);
//! one that a dialect writes as a discardable attribute (`pl.kernel`,
//! `pld.target`) also has `ATTRIBUTE_NAME`, `on`, `set_on` and `remove_from`.
//!
//! ```no_run
//! use pld_dialect::enums::KernelKind;
//! # fn f<'c>(context: &'c melior::Context, function: &melior::ir::operation::OperationRef<'c, '_>) {
//! KernelKind::InCore.set_on(function);
//! assert_eq!(KernelKind::on(function), Some(KernelKind::InCore));
//! assert_eq!(KernelKind::of(KernelKind::Host.attribute(context)), Some(KernelKind::Host));
//! # }
//! ```

use crate::ffi;
use melior::{
    Context, StringRef,
    ir::{Attribute, AttributeLike, operation::OperationLike},
};

/// An enum with its cases, `ALL`, `keyword`, `from_keyword` and `from_value`.
macro_rules! enum_type {
    ($(#[$doc:meta])* $name:ident {
        $($(#[$case_doc:meta])* $case:ident = $number:literal $keyword:literal),* $(,)?
    }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(i32)]
        pub enum $name {
            $($(#[$case_doc])* $case = $number),*
        }

        impl $name {
            /// Every case, in the order of its integer value.
            pub const ALL: &'static [Self] = &[$(Self::$case),*];

            /// The case's keyword in the custom syntax (ODS's spelling).
            pub fn keyword(self) -> &'static str {
                match self {
                    $(Self::$case => $keyword),*
                }
            }

            /// The case whose keyword is `keyword`.
            pub fn from_keyword(keyword: &str) -> Option<Self> {
                match keyword {
                    $($keyword => Some(Self::$case),)*
                    _ => None,
                }
            }

            /// The case whose stable integer value is `value`.
            pub fn from_value(value: i32) -> Option<Self> {
                match value {
                    $($number => Some(Self::$case),)*
                    _ => None,
                }
            }
        }
    };
}

/// The attribute of an enum, through its C API functions.
macro_rules! enum_attribute {
    ($name:ident: $get:ident, $isa:ident, $value:ident) => {
        impl $name {
            /// The attribute of this case.
            pub fn attribute(self, context: &Context) -> Attribute<'_> {
                // SAFETY: the context is alive for the returned lifetime and
                // every case's value names a case of the C++ enum (both are
                // generated from the same ODS enum), so the attribute is
                // never null.
                unsafe { Attribute::from_raw(ffi::$get(context.to_raw(), self as i32)) }
            }

            /// The case the attribute `name` of `op` holds; `None` when
            /// `op` has no such attribute or it is not this enum's.
            pub fn of_op<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str) -> Option<Self> {
                Self::of(op.attribute(name).ok()?)
            }

            /// The case `attribute` holds, or `None` when it is not this
            /// enum's attribute.
            pub fn of(attribute: Attribute) -> Option<Self> {
                // SAFETY: the attribute is a live attribute; its value is only
                // read after the C API confirms its class.
                unsafe {
                    if !ffi::$isa(attribute.to_raw()) {
                        return None;
                    }
                    Self::from_value(ffi::$value(attribute.to_raw()))
                }
            }
        }
    };
}

/// The discardable attribute an enum is written under.
macro_rules! discardable_attribute {
    ($name:ident, $attribute:literal) => {
        impl $name {
            /// The discardable attribute this enum is written under (the
            /// dialect's `get...AttrName()`).
            pub const ATTRIBUTE_NAME: &'static str = $attribute;

            /// The case `op` carries under [`Self::ATTRIBUTE_NAME`]; `None`
            /// when it has none or another attribute is written there.
            pub fn on<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<Self> {
                Self::of(op.discardable_attribute(Self::ATTRIBUTE_NAME).ok()?)
            }

            /// Writes this case on `op` under [`Self::ATTRIBUTE_NAME`].
            pub fn set_on<'c: 'a, 'a>(self, op: &impl OperationLike<'c, 'a>) {
                let context = op.context();
                // SAFETY: the reference is used only while `context`, the
                // op's live context, is in scope, to build the attribute.
                let attribute = self.attribute(unsafe { context.to_ref() });
                // SAFETY: a live op; the attribute is uniqued in its
                // context, the name copied.
                unsafe {
                    mlir_sys::mlirOperationSetDiscardableAttributeByName(
                        op.to_raw(),
                        StringRef::new(Self::ATTRIBUTE_NAME).to_raw(),
                        attribute.to_raw(),
                    )
                }
            }

            /// Removes [`Self::ATTRIBUTE_NAME`] from `op`, if it is there.
            pub fn remove_from<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) {
                // SAFETY: a live op; removing an absent attribute does
                // nothing, and the name is copied.
                unsafe {
                    mlir_sys::mlirOperationRemoveDiscardableAttributeByName(
                        op.to_raw(),
                        StringRef::new(Self::ATTRIBUTE_NAME).to_raw(),
                    );
                }
            }
        }
    };
}

include!(concat!(env!("OUT_DIR"), "/enums.rs"));
