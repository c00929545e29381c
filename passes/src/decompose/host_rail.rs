//! The HOST rail: a collective called from host code runs as a call of a
//! generated InCore kernel that holds its algorithm (a synchronous launch
//! from the orchestrator's point of view), so the decomposed code stays
//! InCore code as semantics §1 requires of rank, notify and wait.

use super::Collective;
use melior::ir::{
    BlockLike, ValueLike, attribute::FlatSymbolRefAttribute, operation::OperationLike,
};
use pld_dialect::enums::KernelKind;
use pld_ir::read::enclosing_function;
use pld_ir::{
    Builder, OpKey, OpRef, Val,
    build::{context_of, function::private_function},
    nested_ops,
    read::symbol_name,
};
use std::collections::{HashMap, HashSet};

/// Creates the kernels, with symbol names unique in the module.
pub struct HostRailKernels<'c> {
    taken: HashSet<String>,
    last: Option<FlatSymbolRefAttribute<'c>>,
    /// The op each function's next kernel goes after (the function, then
    /// its last kernel), so that kernels follow in program order.
    insert_after: HashMap<OpKey, OpRef<'c>>,
}

impl<'c> HostRailKernels<'c> {
    pub fn new(module: OpRef<'c>) -> Self {
        let taken = nested_ops(module)
            .into_iter()
            .filter_map(|op| symbol_name(&op))
            .collect();
        Self {
            taken,
            last: None,
            insert_after: HashMap::new(),
        }
    }

    /// A private kernel `@<function>_<collective>[_<n>]` after the function
    /// that holds `op`, taking `op`'s operands; returns a builder in its body
    /// and its arguments.
    pub fn create(&mut self, op: OpRef<'c>, collective: Collective) -> (Builder<'c>, Vec<Val<'c>>) {
        let context = context_of(op);
        let location = op.location();
        let function = enclosing_function(&op).expect("host code is in a function");
        // SAFETY: see the documentation of `pld_ir`.
        let function: OpRef<'c> = unsafe { OpRef::from_raw(function.to_raw()) };
        let base = format!(
            "{}_{}",
            symbol_name(&function).unwrap_or_default(),
            collective.name()
        );
        let name = (0..)
            .map(|index| {
                if index == 0 {
                    base.clone()
                } else {
                    format!("{base}_{index}")
                }
            })
            .find(|name| !self.taken.contains(name))
            .expect("some suffix is free");
        self.taken.insert(name.clone());

        let inputs: Vec<_> = (0..op.operand_count())
            .map(|index| op.operand(index).expect("the operand exists").r#type())
            .collect();
        let function_key = OpKey::of(function);
        let after = *self.insert_after.get(&function_key).unwrap_or(&function);
        let (inserted, block) =
            private_function(after, &name, &inputs, KernelKind::InCore, location);
        self.insert_after.insert(function_key, inserted);
        self.last = Some(FlatSymbolRefAttribute::new(context, &name));
        let arguments = (0..inputs.len())
            .map(|index| {
                let argument = block.argument(index).expect("the kernel has this argument");
                // SAFETY: see the documentation of `pld_ir`.
                unsafe { Val::from_raw(argument.to_raw()) }
            })
            .collect();
        (Builder::at_end(context, location, block), arguments)
    }

    /// The symbol of the kernel created last, for the call that replaces the
    /// collective.
    pub fn last_symbol(&self) -> FlatSymbolRefAttribute<'c> {
        self.last.expect("a kernel was created")
    }
}
