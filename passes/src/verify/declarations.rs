//! What ops declare through pld's interfaces (memory accesses, signal
//! accesses, collectives), asked once per op for all of pld-verify's rules
//! and all the race rule's runs. Asking the C++ interface builds the answer
//! again each time (an `IntegerAttr` for every static offset): the race rule
//! asks at every execution of an op, on every rank, for every rank count and
//! argument binding, and four rules asked for every op of the module. So
//! is the layout of the memory a run's values name (an FFI walk of the
//! type each time).

use melior::ir::{TypeLike, Value, ValueLike, operation::OperationRef};
use pld_dialect::interfaces::{self, Collective, MemoryAccess, SignalAccess};
use pld_dialect::ops::pld;
use pld_dialect::types;
use pld_ir::{OpKey, read as ir};
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

/// What one op declares: at most one kind, as the rules read them.
#[derive(Clone)]
pub enum Declaration<'c, 'a> {
    Accesses(Rc<[MemoryAccess<'c, 'a>]>),
    Signal(Rc<SignalAccess<'c, 'a>>),
    Collective(Rc<CollectiveCall<'c, 'a>>),
    Nothing,
}

/// A collective as the race rule runs each call of it.
pub struct CollectiveCall<'c, 'a> {
    pub collective: Collective<'c, 'a>,
    /// The tensor it updates in place; none for a barrier.
    pub target: Option<Value<'c, 'a>>,
    /// The cores (blocks) per rank it runs on.
    pub cores: i64,
}

/// A collective's target; none for a barrier (or another op).
fn collective_target<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    pld::TensorAllreduceOp::operands(op)
        .map(|ops| ops.target)
        .or_else(|| pld::TensorReduceScatterOp::operands(op).map(|ops| ops.target))
        .or_else(|| pld::TensorAllgatherOp::operands(op).map(|ops| ops.target))
        .or_else(|| pld::TensorBroadcastOp::operands(op).map(|ops| ops.target))
        .or_else(|| pld::TensorAllToAllOp::operands(op).map(|ops| ops.target))
        .or_else(|| pld::TensorAllToAllVOp::operands(op).map(|ops| ops.target))
}

/// The declarations asked so far, by op, and the layouts, by type.
#[derive(Default)]
pub struct Declarations<'c, 'a> {
    by_op: HashMap<OpKey, Declaration<'c, 'a>>,
    layouts: HashMap<usize, Option<(Vec<i64>, i64)>>,
}

impl<'c, 'a> Declarations<'c, 'a> {
    /// What `op` declares, in the order the rules try them: memory
    /// accesses, then a signal access, then a collective.
    pub fn of(&mut self, op: &OperationRef<'c, 'a>) -> Declaration<'c, 'a> {
        self.by_op
            .entry(ir::op_key(op))
            .or_insert_with(|| {
                if let Some(accesses) = interfaces::memory_accesses(op) {
                    Declaration::Accesses(accesses.into())
                } else if let Some(signal) = interfaces::signal_access(op) {
                    Declaration::Signal(Rc::new(signal))
                } else if let Some(collective) = interfaces::collective(op) {
                    Declaration::Collective(Rc::new(CollectiveCall {
                        target: collective_target(op),
                        cores: interfaces::collective_cores(op).unwrap_or(1),
                        collective,
                    }))
                } else {
                    Declaration::Nothing
                }
            })
            .clone()
    }

    /// The static shape and element size of a tensor or memref value.
    pub fn layout(&mut self, value: Value<'c, 'a>) -> Option<(Vec<i64>, i64)> {
        let r#type = value.r#type();
        self.layouts
            .entry(r#type.to_raw().ptr as usize)
            .or_insert_with(|| {
                if !(types::is_distributed_tensor(r#type) || pld_ir::types::is_memref(r#type)) {
                    return None;
                }
                let shape = pld_ir::types::shape(r#type)?;
                let element = pld_ir::types::element_type(r#type)?;
                Some((shape, pld_ir::types::byte_width(element)?))
            })
            .clone()
    }

    /// The memory accesses `op` declares, when it implements
    /// `MemoryAccessOpInterface`.
    pub fn accesses(&mut self, op: &OperationRef<'c, 'a>) -> Option<Rc<[MemoryAccess<'c, 'a>]>> {
        match self.of(op) {
            Declaration::Accesses(accesses) => Some(accesses),
            _ => None,
        }
    }
}
