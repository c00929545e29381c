//! Where buffers are live in one function, for allocating them.
//!
//! A buffer is made by one op (its site); values of a handle type point to
//! buffers, through scf results and iteration arguments (a handle's
//! provenance, a set of sites). A site's buffer lives from the site to the
//! last use of any handle that may point to it; a use inside a loop the
//! site is outside of keeps it live to the loop's end, and a loop that
//! carries a handle to it (an iteration argument or result) keeps it live
//! over the whole loop. Positions are in program order (pre-order), so a
//! range is a span of the function's ops.
//!
//! The Ascend target allocates its tiles over this, one memory at a time.

use crate::{
    Builder, OpKey, OpRef, PtrMap, PtrSet, Val, ValueKey, nested_ops,
    read::{name, op_key, operand, value_key as key},
};
use melior::ir::{BlockLike, RegionLike, Type, ValueLike, operation::OperationLike};
use pld_dialect::ops::scf;
use std::collections::BTreeSet;

/// The buffers of one function and where each is live.
pub struct Liveness<'c> {
    /// Whether a value of this type is a handle to a buffer.
    is_handle: fn(Type) -> bool,
    /// The function's ops in pre-order (program order).
    pub ops: Vec<OpRef<'c>>,
    position: PtrMap<OpKey, usize>,
    /// The last position inside each op (its extent in pre-order).
    end: PtrMap<OpKey, usize>,
    /// The ops that make a buffer (in program order).
    pub sites: Vec<OpRef<'c>>,
    /// Sites (indices into `sites`) a tile value may point to.
    provenance: PtrMap<ValueKey, BTreeSet<usize>>,
    /// Every tile value: site results, block arguments, scf results.
    values: Vec<Val<'c>>,
}

impl<'c> Liveness<'c> {
    /// The buffers of `function`: each op for which `is_site` holds makes
    /// one, and its result (of a type for which `is_handle` holds) is a
    /// handle to it.
    pub fn of(
        function: OpRef<'c>,
        is_site: impl Fn(OpRef) -> bool,
        is_handle: fn(Type) -> bool,
    ) -> Self {
        let ops = nested_ops(function);
        let position: PtrMap<OpKey, usize> = ops
            .iter()
            .enumerate()
            .map(|(at, op)| (op_key(*op), at))
            .collect();
        // Pre-order keeps each op's subtree contiguous: its last position is
        // its own plus the size of the subtree under it. Sizes add up from
        // the leaves (in reverse pre-order every op comes before its parent).
        let mut below: PtrMap<OpKey, usize> = PtrMap::default();
        for op in ops.iter().rev() {
            let size = below.get(&op_key(*op)).copied().unwrap_or(0);
            if let Some(parent) = op.parent_operation() {
                *below.entry(op_key(parent)).or_insert(0) += size + 1;
            }
        }
        let end: PtrMap<OpKey, usize> = ops
            .iter()
            .map(|op| {
                let key = op_key(*op);
                (key, position[&key] + below.get(&key).copied().unwrap_or(0))
            })
            .collect();
        let sites: Vec<OpRef> = ops.iter().copied().filter(|op| is_site(*op)).collect();
        let mut plan = Self {
            is_handle,
            ops,
            position,
            end,
            sites,
            provenance: PtrMap::default(),
            values: Vec::new(),
        };
        plan.collect_values();
        plan.propagate();
        plan
    }

    /// The position of `op` in program order.
    pub fn pos(&self, op: OpRef) -> usize {
        self.position[&op_key(op)]
    }

    fn collect_values(&mut self) {
        let sites: PtrSet<OpKey> = self.sites.iter().map(|site| op_key(*site)).collect();
        for (index, site) in self.sites.iter().enumerate() {
            let value = Builder::result(*site);
            self.provenance.insert(key(value), BTreeSet::from([index]));
            self.values.push(value);
        }
        for op in &self.ops {
            for index in 0..op.result_count() {
                let value = Builder::result_at(*op, index);
                if (self.is_handle)(value.r#type()) && !sites.contains(&op_key(*op)) {
                    self.values.push(value);
                }
            }
            for region in op.regions() {
                let mut block = region.first_block();
                while let Some(current) = block {
                    for index in 0..current.argument_count() {
                        let argument = current.argument(index).expect("an argument");
                        // SAFETY: see the documentation of `pld_ir`.
                        let argument: Val = unsafe { Val::from_raw(argument.to_raw()) };
                        if (self.is_handle)(argument.r#type()) {
                            self.values.push(argument);
                        }
                    }
                    block = current.next_in_region();
                }
            }
        }
    }

    /// The sites (indices into `sites`) a handle may point to.
    pub fn sites_of(&self, value: Val) -> BTreeSet<usize> {
        self.provenance
            .get(&key(value))
            .cloned()
            .unwrap_or_default()
    }

    /// Adds the provenance of `from` to `to`; whether it grew.
    fn flow(&mut self, from: Val<'c>, to: Val<'c>) -> bool {
        let incoming = self.sites_of(from);
        let entry = self.provenance.entry(key(to)).or_default();
        let before = entry.len();
        entry.extend(incoming);
        entry.len() != before
    }

    /// Handles flow into scf block arguments and results, to a fixed point.
    fn propagate(&mut self) {
        loop {
            let mut changed = false;
            for op in self.ops.clone() {
                for (from, to) in scf_flows(op) {
                    if (self.is_handle)(to.r#type()) {
                        changed |= self.flow(from, to);
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Whether `a` and `b` sit in different regions of one `scf.if` (they
    /// never both run).
    pub fn exclusive(&self, a: OpRef, b: OpRef) -> bool {
        let mut ancestor = a.parent_operation();
        while let Some(candidate) = ancestor {
            // SAFETY: see the documentation of `pld_ir`.
            let candidate: OpRef = unsafe { OpRef::from_raw(candidate.to_raw()) };
            if name(candidate) == scf::IfOp::NAME && contains(candidate, b) {
                return region_index(candidate, a) != region_index(candidate, b);
            }
            ancestor = candidate.parent_operation();
        }
        false
    }

    /// `argument` and every value inside `loop_op` that may be it (passed on
    /// through scf results and region arguments).
    pub fn aliases(&self, loop_op: OpRef<'c>, argument: Val<'c>) -> Vec<Val<'c>> {
        let flows: Vec<(Val, Val)> = std::iter::once(loop_op)
            .chain(nested_ops(loop_op))
            .flat_map(scf_flows)
            .collect();
        let mut aliases = vec![argument];
        loop {
            let before = aliases.len();
            for (from, to) in &flows {
                if aliases.contains(from) && !aliases.contains(to) {
                    aliases.push(*to);
                }
            }
            if aliases.len() == before {
                return aliases;
            }
        }
    }

    /// The live range `[start, end]` (positions in program order) of each
    /// site's buffer.
    pub fn ranges(&self) -> Vec<(usize, usize)> {
        let mut ranges: Vec<(usize, usize)> = self
            .sites
            .iter()
            .map(|site| (self.pos(*site), self.pos(*site)))
            .collect();
        let loops: Vec<OpRef> = self
            .ops
            .iter()
            .copied()
            .filter(|op| matches!(name(*op), scf::ForOp::NAME | scf::WhileOp::NAME))
            .collect();
        for value in &self.values {
            let sites = self.sites_of(*value);
            for user in users(*value) {
                let at = self.pos(user);
                for site in &sites {
                    let range = &mut ranges[*site];
                    range.1 = range.1.max(at);
                    // A use inside a loop the site is outside of: live to the
                    // loop's end (the next iteration reads it again).
                    for l in &loops {
                        if contains(*l, user) && !contains(*l, self.sites[*site]) {
                            range.1 = range.1.max(self.end[&op_key(*l)]);
                        }
                    }
                }
            }
        }
        // A loop that carries a handle keeps its buffer live throughout.
        for l in &loops {
            for (from, to) in scf_flows(*l) {
                if !(self.is_handle)(to.r#type()) {
                    continue;
                }
                for site in self.sites_of(from).union(&self.sites_of(to)) {
                    let range = &mut ranges[*site];
                    range.0 = range.0.min(self.pos(*l));
                    range.1 = range.1.max(self.end[&op_key(*l)]);
                }
            }
        }
        ranges
    }
}

/// The values a loop carries from one iteration to the next: (the
/// terminator that passes it on, its operand index, the region argument
/// that receives it).
pub fn carried<'c>(op: OpRef<'c>) -> Vec<(OpRef<'c>, usize, Val<'c>)> {
    // scf.for: the body's yield feeds its iteration arguments (after the
    // induction variable); scf.while: the `do` region's yield feeds the
    // `before` region's arguments.
    let (yield_region, argument_region, skip) = match name(op) {
        scf::ForOp::NAME => (0, 0, 1),
        scf::WhileOp::NAME => (1, 0, 0),
        _ => return vec![],
    };
    let block = |region: usize| op.region(region).ok()?.first_block();
    let (Some(from), Some(to)) = (block(yield_region), block(argument_region)) else {
        return vec![];
    };
    let Some(terminator) = from.terminator() else {
        return vec![];
    };
    // SAFETY: see the documentation of `pld_ir`.
    let terminator: OpRef = unsafe { OpRef::from_raw(terminator.to_raw()) };
    (0..terminator.operand_count())
        .filter_map(|index| {
            let argument = to.argument(index + skip).ok()?;
            // SAFETY: see the documentation of `pld_ir`.
            Some((terminator, index, unsafe {
                Val::from_raw(argument.to_raw())
            }))
        })
        .collect()
}

/// Every `(from, to)` pair of values an scf op passes a handle through.
pub fn scf_flows<'c>(op: OpRef<'c>) -> Vec<(Val<'c>, Val<'c>)> {
    let mut flows = Vec::new();
    let block_argument = |region: usize, index: usize| -> Option<Val<'c>> {
        let block = op.region(region).ok()?.first_block()?;
        let argument = block.argument(index).ok()?;
        // SAFETY: see the documentation of `pld_ir`.
        Some(unsafe { Val::from_raw(argument.to_raw()) })
    };
    let yielded = |region: usize| -> Vec<Val<'c>> {
        let Some(block) = op
            .region(region)
            .ok()
            .and_then(|region| region.first_block())
        else {
            return vec![];
        };
        let Some(terminator) = block.terminator() else {
            return vec![];
        };
        // SAFETY: see the documentation of `pld_ir`.
        let terminator: OpRef = unsafe { OpRef::from_raw(terminator.to_raw()) };
        let skip = usize::from(name(terminator) == scf::ConditionOp::NAME);
        (skip..terminator.operand_count())
            .map(|index| operand(terminator, index))
            .collect()
    };
    match name(op) {
        scf::ForOp::NAME => {
            let inits: Vec<Val> = (3..op.operand_count())
                .map(|index| operand(op, index))
                .collect();
            let yields = yielded(0);
            for (index, init) in inits.iter().enumerate() {
                let Some(argument) = block_argument(0, index + 1) else {
                    continue;
                };
                let result = Builder::result_at(op, index);
                flows.push((*init, argument));
                flows.push((*init, result));
                if let Some(yield_value) = yields.get(index) {
                    flows.push((*yield_value, argument));
                    flows.push((*yield_value, result));
                }
            }
        }
        scf::IfOp::NAME | scf::ExecuteRegionOp::NAME | scf::IndexSwitchOp::NAME => {
            for region in 0..op.region_count() {
                for (index, value) in yielded(region).into_iter().enumerate() {
                    if index < op.result_count() {
                        flows.push((value, Builder::result_at(op, index)));
                    }
                }
            }
        }
        scf::WhileOp::NAME => {
            let inits: Vec<Val> = (0..op.operand_count())
                .map(|index| operand(op, index))
                .collect();
            let after_yields = yielded(1);
            let conditions = yielded(0);
            for (index, init) in inits.iter().enumerate() {
                if let Some(argument) = block_argument(0, index) {
                    flows.push((*init, argument));
                    if let Some(back) = after_yields.get(index) {
                        flows.push((*back, argument));
                    }
                }
            }
            for (index, value) in conditions.iter().enumerate() {
                if let Some(argument) = block_argument(1, index) {
                    flows.push((*value, argument));
                }
                if index < op.result_count() {
                    flows.push((*value, Builder::result_at(op, index)));
                }
            }
        }
        _ => {}
    }
    flows
}

/// The ops that use `value` (once per use).
pub fn users(value: Val) -> Vec<OpRef> {
    crate::uses(value).into_iter().map(|(op, _)| op).collect()
}

/// Whether `inner` is `outer` or nested in it.
pub fn contains(outer: OpRef, inner: OpRef) -> bool {
    crate::read::is_within(inner, outer)
}

/// The index of the region of `op` that holds `inner`.
fn region_index(op: OpRef, inner: OpRef) -> Option<usize> {
    let mut current: OpRef = inner;
    loop {
        let parent = current.parent_operation()?;
        // SAFETY: see the documentation of `pld_ir`.
        let parent: OpRef = unsafe { OpRef::from_raw(parent.to_raw()) };
        if parent == op {
            let region = current.block()?.parent_region()?;
            return (0..op.region_count()).find(|index| op.region(*index).ok() == Some(region));
        }
        current = parent;
    }
}
