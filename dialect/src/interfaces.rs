//! What pl and pld ops declare about themselves in ODS
//! (`pl::MemoryAccessOpInterface`, `pld::SignalOpInterface`,
//! `pld::CollectiveOpInterface`, through `pld-c/Interfaces.h`): the regions
//! an op reads and writes, the signal cell it notifies or waits on, what a
//! collective synchronizes. Passes read ops through these, never through
//! op names.

/// How an access touches its region and what a signal op does to its cell:
/// the ODS enums `pl::AccessKind` and `pld::SignalEffect`.
pub use crate::enums::{AccessKind, SignalEffect};
use crate::{enums::CollectiveAlgorithm, ffi};
use melior::ir::{Value, operation::OperationLike};
use std::mem::MaybeUninit;

/// One entry of an index list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Index<'c, 'a> {
    Constant(i64),
    Value(Value<'c, 'a>),
    /// An extent the op does not know (a dynamic dimension of a memref it
    /// copies whole).
    Unknown,
}

impl AccessKind {
    pub fn writes(self) -> bool {
        self != AccessKind::Read
    }
}

/// One region an op reads or writes (`pl::MemoryAccess`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryAccess<'c, 'a> {
    /// The window-bound tensor or memref, as the op indexes it.
    pub memory: Value<'c, 'a>,
    /// The rank whose copy is touched; `None` for the op's own.
    pub peer: Option<Value<'c, 'a>>,
    pub kind: AccessKind,
    /// Offsets and sizes, one per dimension of `memory`; `None` when the op
    /// touches all of it.
    pub region: Option<(Vec<Index<'c, 'a>>, Vec<Index<'c, 'a>>)>,
    /// The tensor or memref whose shape gives the sizes the op does not know
    /// (`Index::Unknown`), if one does: size i is the extent of its
    /// dimension at the same distance from the last (the source a
    /// `pld.tensor.remote_store` pushes whole).
    pub sized_by: Option<Value<'c, 'a>>,
}

impl SignalEffect {
    pub fn is_notify(self) -> bool {
        matches!(
            self,
            SignalEffect::NotifySet | SignalEffect::NotifyAtomicAdd
        )
    }
}

/// The cell a notify, wait or defer_wait touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignalAccess<'c, 'a> {
    pub signal: Value<'c, 'a>,
    /// The rank a notify writes; `None` for a wait (its own rank's cell).
    pub peer: Option<Value<'c, 'a>>,
    /// The value a notify writes or a wait compares with.
    pub scalar: Value<'c, 'a>,
    pub effect: SignalEffect,
    /// A `defer_wait`: the comparison completes the enclosing task.
    pub deferred: bool,
    pub cell: Vec<Index<'c, 'a>>,
}

/// A collective's signal and the tensors it reads or writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collective<'c, 'a> {
    pub signal: Value<'c, 'a>,
    pub tensors: Vec<Value<'c, 'a>>,
}

/// Whether `op` belongs to a dialect whose ops declare these interfaces
/// (pl, pld): a cheap test that spares every other op the calls.
fn may_declare<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    // SAFETY: a live op; its name's text lives in the context.
    let bytes = unsafe {
        crate::string_ref_bytes(mlir_sys::mlirIdentifierStr(mlir_sys::mlirOperationGetName(
            op.to_raw(),
        )))
    };
    bytes.starts_with(b"pl.") || bytes.starts_with(b"pld.")
}

/// A value from the C API, `None` when null.
///
/// # Safety
///
/// `raw` is null or a value of a live op that outlives `'a`.
unsafe fn optional_value<'c, 'a>(raw: mlir_sys::MlirValue) -> Option<Value<'c, 'a>> {
    // SAFETY: as the caller guarantees.
    (!raw.ptr.is_null()).then(|| unsafe { Value::from_raw(raw) })
}

/// # Safety
///
/// As for [`optional_value`], for `index.value`.
unsafe fn index<'c, 'a>(index: &ffi::PldIndex) -> Index<'c, 'a> {
    // SAFETY: as the caller guarantees.
    match unsafe { optional_value(index.value) } {
        Some(value) => Index::Value(value),
        None if index.known => Index::Constant(index.constant),
        None => Index::Unknown,
    }
}

/// The regions `op` reads or writes; `None` when it declares none (it does
/// not implement `MemoryAccessOpInterface`).
pub fn memory_accesses<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
) -> Option<Vec<MemoryAccess<'c, 'a>>> {
    if !may_declare(op) {
        return None;
    }
    // Every op declares one or two accesses: one call with room for four on
    // the stack answers almost always (the call builds every access each
    // time, so a separate counting call would double the work), a second
    // only when they did not fit.
    let mut first = [MaybeUninit::<ffi::PldMemoryAccess>::uninit(); 4];
    // SAFETY: a live op; `first` holds four writable entries, of which the
    // call writes the first min(count, 4).
    let count =
        unsafe { ffi::pldOperationGetMemoryAccesses(op.to_raw(), first.as_mut_ptr().cast(), 4) };
    if count < 0 {
        return None;
    }
    let raw: Vec<ffi::PldMemoryAccess> = if count as usize <= first.len() {
        first[..count as usize]
            .iter()
            // SAFETY: written by the call above.
            .map(|entry| unsafe { entry.assume_init() })
            .collect()
    } else {
        let mut all = Vec::with_capacity(count as usize);
        // SAFETY: `all` has room for `count` entries, all of which the call
        // writes (the op's accesses do not change between the two calls).
        unsafe {
            let written = ffi::pldOperationGetMemoryAccesses(op.to_raw(), all.as_mut_ptr(), count);
            debug_assert_eq!(written, count);
            all.set_len(count as usize);
        }
        all
    };
    Some(
        raw.into_iter()
            .map(|access| {
                // SAFETY (of the conversions below): every value in
                // `access` belongs to `op` or its operands, alive as long as
                // `op`.
                let rank = access.rank as usize;
                let list = |entries: &[ffi::PldIndex]| -> Vec<Index<'c, 'a>> {
                    // SAFETY: as above.
                    entries[..rank]
                        .iter()
                        .map(|entry| unsafe { index(entry) })
                        .collect()
                };
                MemoryAccess {
                    // SAFETY: as above; the memory is never null.
                    memory: unsafe { Value::from_raw(access.memory) },
                    // SAFETY: as above.
                    peer: unsafe { optional_value(access.peer) },
                    kind: match access.kind {
                        ffi::PldAccessRead => AccessKind::Read,
                        ffi::PldAccessWrite => AccessKind::Write,
                        _ => AccessKind::AtomicAdd,
                    },
                    region: (rank > 0).then(|| (list(&access.offsets), list(&access.sizes))),
                    // SAFETY: as above.
                    sized_by: unsafe { optional_value(access.sizedBy) },
                }
            })
            .collect(),
    )
}

/// The cell `op` notifies or waits on; `None` when it is not a signal op.
pub fn signal_access<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<SignalAccess<'c, 'a>> {
    if !may_declare(op) {
        return None;
    }
    let mut raw = MaybeUninit::<ffi::PldSignalAccess>::uninit();
    // SAFETY: a live op; `raw` is written when the call returns true.
    if !unsafe { ffi::pldOperationGetSignalAccess(op.to_raw(), raw.as_mut_ptr()) } {
        return None;
    }
    // SAFETY: written by the call; its values belong to `op`'s operands.
    let access = unsafe { raw.assume_init() };
    Some(SignalAccess {
        // SAFETY: as above; signal and scalar are never null.
        signal: unsafe { Value::from_raw(access.signal) },
        // SAFETY: as above.
        peer: unsafe { optional_value(access.peer) },
        // SAFETY: as above.
        scalar: unsafe { Value::from_raw(access.scalar) },
        effect: match access.effect {
            ffi::PldSignalNotifySet => SignalEffect::NotifySet,
            ffi::PldSignalNotifyAtomicAdd => SignalEffect::NotifyAtomicAdd,
            ffi::PldSignalWaitEq => SignalEffect::WaitEq,
            _ => SignalEffect::WaitGe,
        },
        deferred: access.deferred,
        cell: access.cell[..access.rank as usize]
            .iter()
            // SAFETY: as above.
            .map(|entry| unsafe { index(entry) })
            .collect(),
    })
}

/// What `op` synchronizes, if it is a collective.
pub fn collective<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<Collective<'c, 'a>> {
    if !may_declare(op) {
        return None;
    }
    let mut signal = MaybeUninit::<mlir_sys::MlirValue>::uninit();
    // SAFETY: a live op; capacity 0 only counts (and writes the signal).
    let count = unsafe {
        ffi::pldOperationGetCollective(op.to_raw(), signal.as_mut_ptr(), std::ptr::null_mut(), 0)
    };
    if count < 0 {
        return None;
    }
    let mut tensors = vec![
        mlir_sys::MlirValue {
            ptr: std::ptr::null_mut()
        };
        count as usize
    ];
    // SAFETY: `tensors` has `count` writable entries.
    unsafe {
        ffi::pldOperationGetCollective(
            op.to_raw(),
            signal.as_mut_ptr(),
            tensors.as_mut_ptr(),
            count,
        )
    };
    Some(Collective {
        // SAFETY: written by the calls; the op's operands live as long as it.
        signal: unsafe { Value::from_raw(signal.assume_init()) },
        tensors: tensors
            .into_iter()
            // SAFETY: as above.
            .map(|raw| unsafe { Value::from_raw(raw) })
            .collect(),
    })
}

/// The algorithms `pld-decompose-collectives` can run collective `op` with
/// (`auto` first): the values of its `algorithm` attribute; empty for a
/// collective with one algorithm, or an op that is not a collective.
pub fn collective_algorithms<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
) -> Vec<CollectiveAlgorithm> {
    algorithms_of(op, ffi::pldCollectiveGetAlgorithms)
}

/// The algorithms collective `op` runs on a part of its data, one part
/// per core (with `core_num` above 1); empty for an op that is not a
/// collective.
pub fn partitioned_algorithms<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
) -> Vec<CollectiveAlgorithm> {
    algorithms_of(op, ffi::pldCollectiveGetPartitionedAlgorithms)
}

/// The algorithms a C API `list` gives for `op`.
fn algorithms_of<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    list: unsafe extern "C" fn(mlir_sys::MlirOperation, *mut i32, isize) -> isize,
) -> Vec<CollectiveAlgorithm> {
    if !may_declare(op) {
        return vec![];
    }
    // SAFETY: a live op; capacity 0 only counts.
    let count = unsafe { list(op.to_raw(), std::ptr::null_mut(), 0) };
    if count <= 0 {
        return vec![];
    }
    let mut values = vec![0i32; count as usize];
    // SAFETY: `values` has `count` writable entries.
    unsafe { list(op.to_raw(), values.as_mut_ptr(), count) };
    values
        .into_iter()
        .filter_map(CollectiveAlgorithm::from_value)
        .collect()
}

/// The vector cores of every rank collective `op` runs on (its
/// `core_num`, else 1); `None` for an op that is not a collective.
pub fn collective_cores<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<i64> {
    if !may_declare(op) {
        return None;
    }
    // SAFETY: a live op.
    let cores = unsafe { ffi::pldCollectiveGetCoreCount(op.to_raw()) };
    (cores > 0).then_some(cores)
}

/// Why the signal of collective `op` cannot host `algorithm`, naming the
/// shape it needs; `None` when it can.
pub fn algorithm_signal_problem<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    algorithm: CollectiveAlgorithm,
) -> Option<String> {
    let mut problem = String::new();
    /// # Safety
    ///
    /// `user_data` is a `*mut String` alive for the call; `piece` names
    /// readable bytes.
    unsafe extern "C" fn append(piece: mlir_sys::MlirStringRef, user_data: *mut std::ffi::c_void) {
        // SAFETY: as documented above.
        unsafe {
            let text = &mut *(user_data as *mut String);
            text.push_str(&String::from_utf8_lossy(crate::string_ref_bytes(piece)));
        }
    }
    // SAFETY: a live op; the callback only appends to `problem`.
    let found = unsafe {
        ffi::pldCollectiveAlgorithmSignalProblem(
            op.to_raw(),
            algorithm as i32,
            Some(append),
            &mut problem as *mut String as *mut _,
        )
    };
    found.then_some(problem)
}

/// Whether `op` is a function (`FunctionOpInterface`: func.func, emitc.func).
pub fn is_function<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    // SAFETY: `op` is a live op; the call only reads its interfaces.
    unsafe { ffi::pldOperationIsFunction(op.to_raw()) }
}

/// Whether erasing `op` changes nothing: its results are unused and it has
/// no effect but allocating or reading (`mlir::isOpTriviallyDead`).
pub fn is_trivially_dead<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    // SAFETY: `op` is a live op; the call only reads it and its uses.
    unsafe { ffi::pldOperationIsTriviallyDead(op.to_raw()) }
}

/// Whether `op` has no memory effect, nested ops included
/// (`mlir::isMemoryEffectFree`: an `arith` op, a `Pure` ascend op).
pub fn is_memory_effect_free<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    // SAFETY: `op` is a live op; the call only reads its interfaces.
    unsafe { ffi::pldOperationIsMemoryEffectFree(op.to_raw()) }
}

/// What the ascend ops declare about themselves in ODS (`AscendTraits.h`),
/// for the lowering passes that order their effects.
pub mod ascend {
    use crate::{enums::ascend::Pipe, ffi};
    use melior::ir::{Value, operation::OperationLike};

    /// The pipe `op` issues on (its `OnPipe` trait).
    pub fn pipe<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<Pipe> {
        // SAFETY: `op` is a live op; the call only reads its traits.
        Pipe::from_value(unsafe { ffi::ascendOperationGetPipe(op.to_raw()) })
    }

    /// Whether `op` reads a payload in global memory (`ReadsPayload`).
    pub fn reads_payload<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
        // SAFETY: as for `pipe`.
        unsafe { ffi::ascendOperationReadsPayload(op.to_raw()) }
    }

    /// Whether `op` writes a payload in global memory (`WritesPayload`).
    pub fn writes_payload<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
        // SAFETY: as for `pipe`.
        unsafe { ffi::ascendOperationWritesPayload(op.to_raw()) }
    }

    /// Whether `op` runs a callee (`RunsCallee`).
    pub fn runs_callee<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
        // SAFETY: as for `pipe`.
        unsafe { ffi::ascendOperationRunsCallee(op.to_raw()) }
    }

    /// The tile `op` writes (`TileWriterOpInterface`: its destination, a
    /// matrix multiply's accumulator), if it writes one.
    pub fn written_tile<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<Value<'c, 'a>> {
        // SAFETY: as for `pipe`; the value, if any, is an operand of `op`,
        // alive as long as it.
        unsafe { super::optional_value(ffi::ascendOperationGetWrittenTile(op.to_raw())) }
    }
}
