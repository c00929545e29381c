//! What MLIR's dataflow analyses know about a module's integer values
//! (`pld-c/Analysis.h`): constants and signed ranges, through scf regions,
//! iteration arguments and calls, with rank ids and counts bounded by
//! semantics §1. The module is a closed world: a function it calls is reached
//! only from those calls; one it never calls is an entry point.

use crate::ffi;
use melior::ir::{Value, ValueLike, operation::OperationLike};
use std::marker::PhantomData;

/// The facts of one module, valid while it is alive and unchanged (the
/// borrow of the module's op ties them to it).
pub struct ValueFacts<'m> {
    raw: ffi::PldValueFacts,
    module: PhantomData<&'m ()>,
}

impl<'m> ValueFacts<'m> {
    /// Analyses `module`; `None` when the analysis fails.
    pub fn of<'c: 'm>(module: &impl OperationLike<'c, 'm>) -> Option<Self> {
        // SAFETY: `module` is a live op; the handle only reads it and is
        // destroyed before the borrow ends.
        let raw = unsafe { ffi::pldValueFactsCreate(module.to_raw()) };
        (!raw.ptr.is_null()).then_some(Self {
            raw,
            module: PhantomData,
        })
    }

    /// The constant `value` always holds, when it is one.
    pub fn constant(&self, value: Value) -> Option<i64> {
        let mut out = 0;
        // SAFETY: a live handle and value; `out` is written only on success.
        unsafe { ffi::pldValueFactsGetConstant(self.raw, value.to_raw(), &mut out) }.then_some(out)
    }

    /// The signed bounds `(min, max)` of `value`, when the analysis has any.
    pub fn range(&self, value: Value) -> Option<(i64, i64)> {
        let (mut min, mut max) = (0, 0);
        // SAFETY: as in `constant`.
        unsafe { ffi::pldValueFactsGetRange(self.raw, value.to_raw(), &mut min, &mut max) }
            .then_some((min, max))
    }
}

impl Drop for ValueFacts<'_> {
    fn drop(&mut self) {
        // SAFETY: the handle was created by `pldValueFactsCreate` and is
        // destroyed once.
        unsafe { ffi::pldValueFactsDestroy(self.raw) }
    }
}
