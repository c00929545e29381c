//! The dialects' enum attributes as Rust enums, built and read through the C
//! API by their stable integer values (semantics §2), never through printed text.

use crate::ffi;
use melior::{
    Context,
    ir::{Attribute, AttributeLike, operation::OperationLike},
};

macro_rules! enum_attribute {
    ($(#[$doc:meta])* $name:ident: $get:ident, $isa:ident, $value:ident {
        $($case:ident = $number:literal $keyword:literal),* $(,)?
    }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(i32)]
        pub enum $name {
            $($case = $number),*
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

            /// The case whose stable integer value is `value`.
            pub fn from_value(value: i32) -> Option<Self> {
                Self::ALL.iter().copied().find(|case| *case as i32 == value)
            }

            /// The attribute of this case.
            pub fn attribute(self, context: &Context) -> Attribute<'_> {
                // SAFETY: the context is alive for the returned lifetime and
                // every case's value names a case of the C++ enum (a test
                // builds each one), so the attribute is never null.
                unsafe { Attribute::from_raw(ffi::$get(context.to_raw(), self as i32)) }
            }

            /// The case the attribute `name` of `op` holds; `None` when
            /// `op` has no such attribute or it is not this enum's.
            pub fn of_op<'c: 'a, 'a>(
                op: &impl OperationLike<'c, 'a>,
                name: &str,
            ) -> Option<Self> {
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

enum_attribute! {
    /// How a notify deposits its value (`#pld<notify_op ...>`).
    NotifyOp: pldNotifyOpAttrGet, pldAttributeIsANotifyOp, pldNotifyOpAttrGetValue {
        AtomicAdd = 0 "atomic_add", Set = 1 "set",
    }
}
enum_attribute! {
    /// The predicate of a wait (`#pld<wait_cmp ...>`).
    WaitCmp: pldWaitCmpAttrGet, pldAttributeIsAWaitCmp, pldWaitCmpAttrGetValue {
        Eq = 0 "eq", Ge = 1 "ge",
    }
}
enum_attribute! {
    /// The reduction of a collective (`#pld<reduce_op ...>`).
    ReduceOp: pldReduceOpAttrGet, pldAttributeIsAReduceOp, pldReduceOpAttrGetValue {
        Sum = 0 "sum", Max = 1 "max", Min = 2 "min", Prod = 3 "prod",
    }
}
enum_attribute! {
    /// The combine mode of a remote store or put (`#pld<atomic ...>`).
    AtomicType: pldAtomicTypeAttrGet, pldAttributeIsAAtomicType, pldAtomicTypeAttrGetValue {
        None = 0 "none", Add = 1 "add",
    }
}
enum_attribute! {
    /// The allreduce algorithm (`#pld<mode ...>`).
    CollectiveMode: pldCollectiveModeAttrGet, pldAttributeIsACollectiveMode,
        pldCollectiveModeAttrGetValue {
        Mesh = 0 "mesh", Ring = 1 "ring",
    }
}
enum_attribute! {
    /// How `pld-decompose-collectives` decomposes a collective
    /// (`#pld<algorithm ...>`, the op's `algorithm` clause).
    CollectiveAlgorithm: pldCollectiveAlgorithmAttrGet, pldAttributeIsACollectiveAlgorithm,
        pldCollectiveAlgorithmAttrGetValue {
        Auto = 0 "auto", Oneshot = 1 "oneshot", Twoshot = 2 "twoshot", Ring = 3 "ring",
        SeedMesh = 4 "seed_mesh", SeedRing = 5 "seed_ring", Star = 6 "star",
        ScatterAllgather = 7 "scatter_allgather", Direct = 8 "direct", Seed = 9 "seed",
        TwoshotPush = 10 "twoshot_push",
    }
}
enum_attribute! {
    /// The chip a module is compiled for (`#pld.target<...>`).
    TargetProfile: pldTargetProfileAttrGet, pldAttributeIsATargetProfile,
        pldTargetProfileAttrGetValue {
        Ascend910B = 0 "Ascend910B", Ascend950 = 1 "Ascend950",
    }
}
enum_attribute! {
    /// Where a function runs (`#pl.kernel<...>`).
    KernelKind: plKernelKindAttrGet, plAttributeIsAKernelKind, plKernelKindAttrGetValue {
        Host = 0 "host", InCore = 1 "incore",
    }
}
impl TargetProfile {
    /// The discardable module attribute a profile is written under
    /// (`PldDialect::getTargetAttrName` in PldDialect.td).
    pub const ATTRIBUTE_NAME: &'static str = "pld.target";
}

impl KernelKind {
    /// The discardable function attribute a kind is written under
    /// (`PlDialect::getKernelAttrName` in PlDialect.td).
    pub const ATTRIBUTE_NAME: &'static str = "pl.kernel";
}

enum_attribute! {
    /// The hardware level of a task (`#pl<level ...>`).
    Level: plLevelAttrGet, plAttributeIsALevel, plLevelAttrGetValue {
        Core = 0 "core", CoreGroup = 1 "core_group",
    }
}
enum_attribute! {
    /// How a split-AIV region divides work (`#pl<split_mode ...>`).
    SplitMode: plSplitModeAttrGet, plAttributeIsASplitMode, plSplitModeAttrGetValue {
        None = 0 "none", UpDown = 1 "up_down", LeftRight = 2 "left_right",
    }
}

/// The ascend dialect's enums, with PTO's own values.
pub mod ascend {
    use super::*;

    enum_attribute! {
        /// `pto::comm::NotifyOp` (`#ascend<notify_op ...>`).
        NotifyOp: ascendNotifyOpAttrGet, ascendAttributeIsANotifyOp,
            ascendNotifyOpAttrGetValue {
            AtomicAdd = 0 "atomic_add", Set = 1 "set",
        }
    }
    enum_attribute! {
        /// `pto::comm::WaitCmp` (`#ascend<wait_cmp ...>`): PTO's `GE` is 3.
        WaitCmp: ascendWaitCmpAttrGet, ascendAttributeIsAWaitCmp,
            ascendWaitCmpAttrGetValue {
            Eq = 0 "eq", Ge = 3 "ge",
        }
    }
    enum_attribute! {
        /// `pto::AtomicType` (`#ascend<atomic ...>`).
        AtomicType: ascendAtomicTypeAttrGet, ascendAttributeIsAAtomicType,
            ascendAtomicTypeAttrGetValue {
            AtomicNone = 0 "none", AtomicAdd = 1 "add",
        }
    }
    enum_attribute! {
        /// A hardware pipe (`#ascend<pipe ...>`).
        Pipe: ascendPipeAttrGet, ascendAttributeIsAPipe, ascendPipeAttrGetValue {
            S = 0 "s", V = 1 "v", M = 2 "m", Mte1 = 3 "mte1", Mte2 = 4 "mte2", Mte3 = 5 "mte3", All = 6 "all",
        }
    }
}
