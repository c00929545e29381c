//! `ascend-plan-ub`: the unified-buffer offset of every tile.
//!
//! A tile value is a handle: it points to the buffer of the `ascend.tile`
//! op (the site) it came from, through scf results and iteration arguments
//! (its provenance, a set of sites). Every site gets a buffer; two sites
//! share bytes only when their buffers are never live at once:
//!
//! - a site's buffer lives from the site to the last use of any handle that
//!   may point to it; a use inside a loop the site is outside of keeps it
//!   live to the loop's end, and a loop that carries a handle to it (an
//!   iteration argument or result) keeps it live over the whole loop;
//! - a handle carried from one iteration to the next that is still read
//!   after its own site runs again in the next iteration (the value of the
//!   previous iteration is needed after the new one is made) would be
//!   clobbered: the loop yields a copy (`ascend.tcopy`) into a tile made at
//!   the yield instead. An element-wise op that reads the old value while
//!   writing the new one in the same buffer is fine (in place).
//!
//! A function's tiles share the core's unified buffer with the functions it
//! calls (`func.call`, and `ascend.run_on_lanes`, whose sub-lane 0 is this
//! core): callees are planned first, and a tile live across a call sits
//! above everything the callee (and its callees) may use.
//!
//! Offsets are chosen first-fit on 32-byte boundaries; tiles that cannot be
//! live together within `ub-bytes` are an error naming them.

use crate::{ascend::AscendBuilder, report::Report};
use melior::ir::{
    BlockLike, RegionLike, ValueLike,
    attribute::{FlatSymbolRefAttribute, IntegerAttribute},
    operation::{OperationLike, OperationRef},
    r#type::IntegerType,
};
use pld_dialect::ops::{ascend, func, scf};
use pld_dialect::types::ascend as ascend_types;
use pld_passes::bridge::OptionError;
use pld_passes::declared::ascend_plan_ub as declared;
use pld_passes::{
    bridge::{Pass, PassFailed, PassOption, Statistics},
    ir::{
        Builder, OpRef, PtrMap, Val, builder::context_of, nested_ops, ops::name, ops::operand,
        ops::symbol_name,
    },
};
use std::collections::{BTreeSet, HashMap};

/// The `ascend-plan-ub` pass.
pub struct PlanUb {
    ub_bytes: i64,
}

const ALIGNMENT: i64 = 32;

impl Pass for PlanUb {
    const ARGUMENT: &'static str = declared::ARGUMENT;
    const DESCRIPTION: &'static str = declared::SUMMARY;
    const OPTIONS: &'static [PassOption] = declared::OPTIONS;

    fn from_options(values: &[&str]) -> Result<Self, OptionError> {
        let ub_bytes = declared::Options::parse(values)?.ub_bytes;
        if !(ALIGNMENT..=196608).contains(&ub_bytes) {
            return Err(format!("expected ub-bytes in [32, 196608], found '{ub_bytes}'").into());
        }
        Ok(Self { ub_bytes })
    }

    fn run(&self, root: OperationRef, _: &Statistics) -> Result<(), PassFailed> {
        // SAFETY: see the documentation of `pld_passes::ir`.
        let root: OpRef = unsafe { OpRef::from_raw(root.to_raw()) };
        let mut report = Report::default();
        let functions: Vec<OpRef> = nested_ops(root)
            .into_iter()
            .filter(|op| name(*op) == func::FuncOp::NAME)
            .collect();
        // The bytes each planned function (with its callees) may use.
        let mut footprints: HashMap<String, i64> = HashMap::new();
        for function in callees_first(&functions) {
            // Copies change the function; plan again until none is needed.
            let mut plan = Plan::of(function);
            while plan.insert_copy() {
                plan = Plan::of(function);
            }
            let footprint = plan.assign(self.ub_bytes, &footprints, &mut report);
            footprints.insert(symbol_name(&function).unwrap_or_default(), footprint);
        }
        if report.failed() {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}

fn key(value: Val) -> usize {
    value.to_raw().ptr as usize
}

fn op_key(op: OpRef) -> usize {
    op.to_raw().ptr as usize
}

/// What one function's tiles look like.
struct Plan<'c> {
    ops: Vec<OpRef<'c>>,
    position: PtrMap<usize, usize>,
    /// The last position inside each op (its extent in pre-order).
    end: PtrMap<usize, usize>,
    sites: Vec<OpRef<'c>>,
    /// Sites (indices into `sites`) a tile value may point to.
    provenance: PtrMap<usize, BTreeSet<usize>>,
    /// Every tile value: site results, block arguments, scf results.
    values: Vec<Val<'c>>,
}

impl<'c> Plan<'c> {
    fn of(function: OpRef<'c>) -> Self {
        let ops = nested_ops(function);
        let position: PtrMap<usize, usize> = ops
            .iter()
            .enumerate()
            .map(|(at, op)| (op_key(*op), at))
            .collect();
        // Pre-order keeps each op's subtree contiguous: its last position is
        // its own plus the size of the subtree under it. Sizes add up from
        // the leaves (in reverse pre-order every op comes before its parent).
        let mut below: PtrMap<usize, usize> = PtrMap::default();
        for op in ops.iter().rev() {
            let size = below.get(&op_key(*op)).copied().unwrap_or(0);
            if let Some(parent) = op.parent_operation() {
                *below.entry(parent.to_raw().ptr as usize).or_insert(0) += size + 1;
            }
        }
        let end: PtrMap<usize, usize> = ops
            .iter()
            .map(|op| {
                let key = op_key(*op);
                (key, position[&key] + below.get(&key).copied().unwrap_or(0))
            })
            .collect();
        let sites: Vec<OpRef> = ops
            .iter()
            .copied()
            .filter(|op| name(*op) == ascend::TileOp::NAME)
            .collect();
        let mut plan = Self {
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

    fn pos(&self, op: OpRef) -> usize {
        self.position[&op_key(op)]
    }

    fn collect_values(&mut self) {
        for (index, site) in self.sites.iter().enumerate() {
            let value = Builder::result(*site);
            self.provenance.insert(key(value), BTreeSet::from([index]));
            self.values.push(value);
        }
        for op in &self.ops {
            for index in 0..op.result_count() {
                let value = Builder::result_at(*op, index);
                if ascend_types::is_tile(value.r#type()) && name(*op) != ascend::TileOp::NAME {
                    self.values.push(value);
                }
            }
            for region in op.regions() {
                let mut block = region.first_block();
                while let Some(current) = block {
                    for index in 0..current.argument_count() {
                        let argument = current.argument(index).expect("an argument");
                        // SAFETY: see the documentation of `pld_passes::ir`.
                        let argument: Val = unsafe { Val::from_raw(argument.to_raw()) };
                        if ascend_types::is_tile(argument.r#type()) {
                            self.values.push(argument);
                        }
                    }
                    block = current.next_in_region();
                }
            }
        }
    }

    fn sites_of(&self, value: Val) -> BTreeSet<usize> {
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
                    if ascend_types::is_tile(to.r#type()) {
                        changed |= self.flow(from, to);
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// The op that first writes a site's tile (the ascend op whose ODS
    /// operand `dst` it is).
    fn writer(&self, site: OpRef<'c>) -> Option<OpRef<'c>> {
        let tile = Builder::result(site);
        self.ops[self.pos(site) + 1..]
            .iter()
            .copied()
            .find(|op| pld_dialect::operands::value(op, "dst") == Some(tile))
    }

    /// Whether `a` and `b` sit in different regions of one `scf.if` (they
    /// never both run).
    fn exclusive(&self, a: OpRef, b: OpRef) -> bool {
        let mut ancestor = a.parent_operation();
        while let Some(candidate) = ancestor {
            // SAFETY: see the documentation of `pld_passes::ir`.
            let candidate: OpRef = unsafe { OpRef::from_raw(candidate.to_raw()) };
            if name(candidate) == scf::IfOp::NAME && contains(candidate, b) {
                return region_index(candidate, a) != region_index(candidate, b);
            }
            ancestor = candidate.parent_operation();
        }
        false
    }

    /// Finds one loop-carried tile that would be clobbered and yields a copy
    /// for it instead; whether it changed the IR.
    fn insert_copy(&self) -> bool {
        for op in &self.ops {
            for (terminator, index, argument) in carried(*op) {
                let yielded = operand(terminator, index);
                if !ascend_types::is_tile(yielded.r#type()) {
                    continue;
                }
                let previous = self.aliases(*op, argument);
                let clobbered = self.sites_of(yielded).into_iter().any(|site_index| {
                    let site = self.sites[site_index];
                    if !contains(*op, site) {
                        return false;
                    }
                    let writer = self.writer(site);
                    // A read of the previous iteration's tile after the site
                    // ran again, unless it is the site's own in-place write
                    // or in another branch.
                    previous.iter().flat_map(|value| uses(*value)).any(|user| {
                        let in_place = Some(user) == writer && is_elementwise(user);
                        !(!contains(*op, user)
                            || is_terminator(user)
                            || self.pos(user) <= self.pos(site)
                            || in_place
                            || self.exclusive(user, site))
                    })
                });
                if clobbered {
                    let builder = Builder::before(terminator);
                    // TMOV copies between tiles of one valid shape.
                    let valid = builder.valid_shape_of(yielded);
                    let copy = builder.tile(yielded.r#type(), valid);
                    builder.tcopy(copy, yielded, None);
                    // SAFETY: a live op and an operand index it has.
                    unsafe {
                        mlir_sys::mlirOperationSetOperand(
                            terminator.to_raw(),
                            index as isize,
                            copy.to_raw(),
                        )
                    };
                    return true;
                }
            }
        }
        false
    }

    /// `argument` and every value inside `loop_op` that may be it (passed on
    /// through scf results and region arguments).
    fn aliases(&self, loop_op: OpRef<'c>, argument: Val<'c>) -> Vec<Val<'c>> {
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

    /// The live range `[start, end]` of each site's buffer.
    fn ranges(&self) -> Vec<(usize, usize)> {
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
            for user in uses(*value) {
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
                if !ascend_types::is_tile(to.r#type()) {
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

    /// First-fit offsets for the sites, in order of their start, each above
    /// the footprint of every call its buffer is live across. Returns the
    /// bytes this function and its callees may use.
    fn assign(&self, ub_bytes: i64, footprints: &HashMap<String, i64>, report: &mut Report) -> i64 {
        let ranges = self.ranges();
        let calls: Vec<(usize, i64)> = self
            .ops
            .iter()
            .filter_map(|op| {
                let callee = callee(*op)?;
                Some((self.pos(*op), footprints.get(&callee).copied().unwrap_or(0)))
            })
            .collect();
        let mut footprint = calls.iter().map(|(_, bytes)| *bytes).max().unwrap_or(0);
        let sizes: Vec<i64> = self
            .sites
            .iter()
            .map(|site| {
                let (rows, cols, element) =
                    ascend_types::tile_shape(Builder::result(*site).r#type()).expect("a tile");
                let bytes = rows * cols * pld_passes::ir::types::byte_width(element).unwrap_or(1);
                (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT
            })
            .collect();
        let mut order: Vec<usize> = (0..self.sites.len()).collect();
        order.sort_by_key(|site| (ranges[*site].0, *site));
        let mut offsets: Vec<Option<i64>> = vec![None; self.sites.len()];
        for site in order {
            let (start, end) = ranges[site];
            let mut busy: Vec<(i64, i64)> = (0..self.sites.len())
                .filter(|other| {
                    offsets[*other].is_some()
                        && ranges[*other].0 <= end
                        && start <= ranges[*other].1
                })
                .map(|other| {
                    (
                        offsets[other].unwrap(),
                        offsets[other].unwrap() + sizes[other],
                    )
                })
                .collect();
            busy.sort();
            // Live across a call: above what the callee may use.
            let mut offset = calls
                .iter()
                .filter(|(at, _)| start < *at && *at <= end)
                .map(|(_, bytes)| *bytes)
                .max()
                .unwrap_or(0);
            for (from, to) in busy {
                if offset + sizes[site] <= from {
                    break;
                }
                offset = offset.max(to);
            }
            if offset + sizes[site] > ub_bytes {
                let live: Vec<(melior::ir::Location, String)> = (0..self.sites.len())
                    .filter(|other| {
                        *other != site
                            && offsets[*other].is_some()
                            && ranges[*other].0 <= end
                            && start <= ranges[*other].1
                    })
                    .map(|other| {
                        (
                            self.sites[other].location(),
                            format!("a live tile of {} bytes", sizes[other]),
                        )
                    })
                    .collect();
                report.error(
                    &self.sites[site],
                    &format!(
                        "the tiles live here need {} bytes of unified buffer, more than the {ub_bytes} \
                         available (ascend-plan-ub ub-bytes): use smaller chunks",
                        offset + sizes[site]
                    ),
                    &live,
                );
                return footprint;
            }
            offsets[site] = Some(offset);
            footprint = footprint.max(offset + sizes[site]);
        }
        for (site, offset) in self.sites.iter().zip(offsets) {
            let context = context_of(*site);
            let attribute = IntegerAttribute::new(
                IntegerType::new(context, 64).into(),
                offset.expect("every site is placed"),
            );
            crate::convert::set_attribute(*site, "ub_offset", attribute.into());
        }
        footprint
    }
}

/// The function an op runs on this core, if it calls one.
fn callee(op: OpRef) -> Option<String> {
    let attribute = match name(op) {
        func::CallOp::NAME => "callee",
        ascend::RunOnLanesOp::NAME => "body",
        _ => return None,
    };
    let callee = FlatSymbolRefAttribute::try_from(op.attribute(attribute).ok()?).ok()?;
    Some(callee.value().to_owned())
}

/// `functions` ordered so that a callee comes before its callers (a cycle,
/// which kernels cannot have, is broken anywhere).
fn callees_first<'c>(functions: &[OpRef<'c>]) -> Vec<OpRef<'c>> {
    let by_symbol: HashMap<String, OpRef> = functions
        .iter()
        .map(|function| (symbol_name(function).unwrap_or_default(), *function))
        .collect();
    let mut visited = BTreeSet::new();
    let mut order = Vec::new();
    fn visit<'c>(
        function: OpRef<'c>,
        by_symbol: &HashMap<String, OpRef<'c>>,
        visited: &mut BTreeSet<usize>,
        order: &mut Vec<OpRef<'c>>,
    ) {
        if !visited.insert(op_key(function)) {
            return;
        }
        for op in nested_ops(function) {
            if let Some(callee) = callee(op).and_then(|callee| by_symbol.get(&callee)) {
                visit(*callee, by_symbol, visited, order);
            }
        }
        order.push(function);
    }
    for function in functions {
        visit(*function, &by_symbol, &mut visited, &mut order);
    }
    order
}

/// The values a loop carries from one iteration to the next: (the
/// terminator that passes it on, its operand index, the region argument
/// that receives it).
fn carried<'c>(op: OpRef<'c>) -> Vec<(OpRef<'c>, usize, Val<'c>)> {
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
    // SAFETY: see the documentation of `pld_passes::ir`.
    let terminator: OpRef = unsafe { OpRef::from_raw(terminator.to_raw()) };
    (0..terminator.operand_count())
        .filter_map(|index| {
            let argument = to.argument(index + skip).ok()?;
            // SAFETY: see the documentation of `pld_passes::ir`.
            Some((terminator, index, unsafe {
                Val::from_raw(argument.to_raw())
            }))
        })
        .collect()
}

/// Every `(from, to)` pair of values an scf op passes a handle through.
fn scf_flows<'c>(op: OpRef<'c>) -> Vec<(Val<'c>, Val<'c>)> {
    let mut flows = Vec::new();
    let block_argument = |region: usize, index: usize| -> Option<Val<'c>> {
        let block = op.region(region).ok()?.first_block()?;
        let argument = block.argument(index).ok()?;
        // SAFETY: see the documentation of `pld_passes::ir`.
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
        // SAFETY: see the documentation of `pld_passes::ir`.
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

/// The ops that use `value`.
fn uses(value: Val) -> Vec<OpRef> {
    crate::convert::uses(value)
        .into_iter()
        .map(|(op, _)| op)
        .collect()
}

fn is_terminator(op: OpRef) -> bool {
    matches!(name(op), scf::YieldOp::NAME | scf::ConditionOp::NAME)
}

/// Ops that read and write a tile element by element (safe in place).
fn is_elementwise(op: OpRef) -> bool {
    matches!(
        name(op),
        ascend::TAddOp::NAME
            | ascend::TMaxOp::NAME
            | ascend::TMinOp::NAME
            | ascend::TMulOp::NAME
            | ascend::TCopyOp::NAME
    )
}

/// Whether `inner` is `outer` or nested in it.
fn contains(outer: OpRef, inner: OpRef) -> bool {
    crate::convert::is_within(inner, outer)
}

/// The index of the region of `op` that holds `inner`.
fn region_index(op: OpRef, inner: OpRef) -> Option<usize> {
    let mut current: OpRef = inner;
    loop {
        let parent = current.parent_operation()?;
        // SAFETY: see the documentation of `pld_passes::ir`.
        let parent: OpRef = unsafe { OpRef::from_raw(parent.to_raw()) };
        if parent == op {
            let region = current.block()?.parent_region()?;
            return (0..op.region_count()).find(|index| op.region(*index).ok() == Some(region));
        }
        current = parent;
    }
}
