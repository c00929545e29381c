//! Which window buffer a `!pld.dtensor` value is, across the functions of
//! the module: two values are one window when they view one buffer
//! (`pld.tensor.window`s of one `alloc_window_buffer`), or when one buffer
//! or window reaches them as the arguments of different kernels.

use melior::ir::{RegionLike, Value, operation::OperationLike, operation::OperationRef};
use pld_dialect::ops::{func, pld};
use pld_ir::read as ir;
use pld_ir::{OpKey, ValueKey};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The values a window value may come from, in the closed world of the
/// module: a function the module calls receives exactly what its calls pass
/// (kernels as users write them are launched by the module's host code), while an
/// entry point's argument (a function nothing calls) is its own origin.
pub struct WindowRoots<'c, 'a> {
    /// The calls of each function the module calls, by the function.
    calls: HashMap<OpKey, Vec<OperationRef<'c, 'a>>>,
    /// The roots of each value asked about.
    known: HashMap<ValueKey, Rc<[Value<'c, 'a>]>>,
}

impl<'c: 'a, 'a> WindowRoots<'c, 'a> {
    /// The call graph of the module that holds `ops` (every op nested under
    /// the module, as the pass lists them).
    pub fn new(ops: &[OperationRef<'c, 'a>]) -> Self {
        let functions: HashMap<String, OpKey> = ops
            .iter()
            .filter(|op| ir::is_function(op))
            .filter_map(|function| {
                Some((pld_ir::read::symbol_name(function)?, ir::op_key(function)))
            })
            .collect();
        let mut calls: HashMap<OpKey, Vec<OperationRef>> = HashMap::new();
        for call in ops.iter().filter(|op| ir::name(op) == func::CallOp::NAME) {
            if let Some(function) =
                pld_ir::read::callee_name(call).and_then(|callee| functions.get(&callee))
            {
                calls.entry(*function).or_default().push(*call);
            }
        }
        Self {
            calls,
            known: HashMap::new(),
        }
    }

    /// The origins of `value`: the buffers (or the values that are not
    /// views of a buffer: an entry point's argument, a loop-carried value)
    /// it may view. A `pld.tensor.window` is its buffer; an argument of a
    /// function the module calls is whatever any call passes for it.
    ///
    /// One walk per value asked (remembered), each visiting a value at most
    /// once; a recursive call cycle adds nothing the walk has not seen.
    pub fn of(&mut self, value: Value<'c, 'a>) -> Rc<[Value<'c, 'a>]> {
        if let Some(known) = self.known.get(&ir::value_key(value)) {
            return known.clone();
        }
        let mut roots = Vec::new();
        let mut seen = HashSet::new();
        let mut work = vec![value];
        while let Some(current) = work.pop() {
            if !seen.insert(ir::value_key(current)) {
                continue;
            }
            if let Some(known) = self.known.get(&ir::value_key(current)) {
                roots.extend(known.iter().copied());
                continue;
            }
            if let Some(definition) = ir::defining_op(current) {
                if let Some(window) = pld::TensorWindowOp::operands(&definition) {
                    work.push(window.buffer);
                    continue;
                }
                roots.push(current);
                continue;
            }
            match self.passed_for(current) {
                Some(passed) => work.extend(passed),
                None => roots.push(current),
            }
        }
        let mut unique = HashSet::new();
        roots.retain(|root| unique.insert(ir::value_key(*root)));
        let roots: Rc<[Value]> = roots.into();
        self.known.insert(ir::value_key(value), roots.clone());
        roots
    }

    /// What the calls of a function pass for `argument`, when it is an
    /// argument of a function the module calls.
    fn passed_for(&self, argument: Value<'c, 'a>) -> Option<Vec<Value<'c, 'a>>> {
        let function = ir::argument_owner(argument)?;
        if !ir::is_function(&function) || !is_entry_argument(&function, argument) {
            return None;
        }
        let calls = self.calls.get(&ir::op_key(function))?;
        let index = pld_ir::read::block_argument(argument)?.argument_number();
        Some(
            calls
                .iter()
                .filter_map(|call| ir::operand_at(call, index))
                .collect(),
        )
    }
}

/// Whether `argument` is an argument of the entry block of `function` (not
/// of a later block of its body).
fn is_entry_argument(function: &OperationRef, argument: Value) -> bool {
    let Some(argument) = pld_ir::read::block_argument(argument) else {
        return false;
    };
    function
        .region(0)
        .ok()
        .and_then(|body| body.first_block())
        .is_some_and(|entry| entry == argument.owner())
}
