//! What ops declare through pld's interfaces (memory accesses, signal
//! accesses, collectives), asked once per op for all the runs of a module.
//! A run asks at every execution of an op, on every rank, for every rank
//! count and argument binding; building the answer again each time (the
//! C++ interface makes an `IntegerAttr` for every static offset) was a fifth
//! of the rule's cost.

use melior::ir::operation::OperationRef;
use pld_dialect::interfaces::{self, Collective, MemoryAccess, SignalAccess};
use pld_ir::{OpKey, read as ir};
use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

/// What one op declares: at most one kind, as the interpreter reads them.
#[derive(Clone)]
pub enum Declaration<'c, 'a> {
    Accesses(Rc<[MemoryAccess<'c, 'a>]>),
    Signal(Rc<SignalAccess<'c, 'a>>),
    Collective(Rc<Collective<'c, 'a>>),
    Nothing,
}

/// The declarations asked so far, by op.
#[derive(Default)]
pub struct Declared<'c, 'a> {
    by_op: HashMap<OpKey, Declaration<'c, 'a>>,
}

impl<'c, 'a> Declared<'c, 'a> {
    /// What `op` declares, in the order the interpreter tries them: memory
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
                    Declaration::Collective(Rc::new(collective))
                } else {
                    Declaration::Nothing
                }
            })
            .clone()
    }
}
