//! `ascend-plan-ub`: the offset of every tile in its on-chip buffer (the
//! unified buffer for `vec` tiles, the cube's L1, L0A, L0B and L0C for the
//! others).
//!
//! A tile value is a handle: it points to the buffer of the `ascend.tile`
//! op (the site) it came from, through scf results and iteration arguments.
//! Every site gets a buffer; two sites share bytes only when their buffers
//! are never live at once (`pld_ir::analysis::liveness` says when each is).
//! An `ascend.sdma_session` is a site too: the session works through 256
//! bytes of unified buffer, live until the session's last use. Besides:
//!
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
//! Offsets are chosen first-fit on 32-byte boundaries, one memory at a time
//! ([`crate::allocate`]); tiles that cannot be live together within
//! `ub-bytes` (the unified buffer) or the chip's cube buffers are an error
//! naming them.

use crate::allocate::{self, Footprint};
use melior::ir::{
    ValueLike,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::ops::{ascend, func, scf};
use pld_dialect::types::ascend as ascend_types;
use pld_ir::{
    Builder, OpKey, OpRef,
    analysis::liveness::{Liveness, carried, contains, users},
    build::ascend::AscendBuilder,
    nested_ops,
    pass::{
        bridge::{OptionError, Pass, PassFailed, PassOption, Statistics},
        declared::ascend_plan_ub as declared,
        report::Report,
    },
    read::{name, op_key, operand, symbol_name},
};
use std::collections::{BTreeSet, HashMap};

/// The `ascend-plan-ub` pass.
pub struct PlanUb {
    ub_bytes: i64,
}

impl Pass for PlanUb {
    const ARGUMENT: &'static str = declared::ARGUMENT;
    const DESCRIPTION: &'static str = declared::SUMMARY;
    const OPTIONS: &'static [PassOption] = declared::OPTIONS;

    fn from_options(values: &[&str]) -> Result<Self, OptionError> {
        let ub_bytes = declared::Options::parse(values)?.ub_bytes;
        if !(allocate::ALIGNMENT..=196608).contains(&ub_bytes) {
            return Err(format!("expected ub-bytes in [32, 196608], found '{ub_bytes}'").into());
        }
        Ok(Self { ub_bytes })
    }

    fn run(&self, root: OperationRef, _: &Statistics) -> Result<(), PassFailed> {
        // SAFETY: see the documentation of `pld_ir`.
        let root: OpRef = unsafe { OpRef::from_raw(root.to_raw()) };
        let mut report = Report::default();
        let functions: Vec<OpRef> = nested_ops(root)
            .into_iter()
            .filter(|op| name(*op) == func::FuncOp::NAME)
            .collect();
        // The bytes each planned function (with its callees) may use.
        let mut footprints: HashMap<String, Footprint> = HashMap::new();
        for function in callees_first(&functions) {
            // Copies change the function; plan again until none is needed.
            let mut plan = Plan::of(function);
            while plan.insert_copy() {
                plan = Plan::of(function);
            }
            let budget = Budget {
                ub_bytes: self.ub_bytes,
                profile: pld_ir::read::target_profile(&function).0,
            };
            let footprint = plan.assign(&budget, &footprints, &mut report);
            footprints.insert(symbol_name(&function).unwrap_or_default(), footprint);
        }
        if report.failed() {
            Err(PassFailed)
        } else {
            Ok(())
        }
    }
}

/// The bytes each memory has: `ub-bytes` of unified buffer, the chip's
/// cube buffers.
struct Budget {
    ub_bytes: i64,
    profile: pld_dialect::enums::TargetProfile,
}

impl Budget {
    fn of(&self, memory: allocate::Memory) -> i64 {
        use pld_dialect::enums::ascend::TileKind;
        let kind = match memory {
            allocate::Memory::Ub => return self.ub_bytes,
            allocate::Memory::L1 => TileKind::Mat,
            allocate::Memory::L0a => TileKind::Left,
            allocate::Memory::L0b => TileKind::Right,
            allocate::Memory::L0c => TileKind::Acc,
        };
        pld_dialect::target::cube::buffer_bytes(self.profile, kind)
    }
}

/// What a memory is called in messages.
fn memory_name(memory: allocate::Memory) -> &'static str {
    match memory {
        allocate::Memory::Ub => "unified buffer",
        allocate::Memory::L1 => "L1",
        allocate::Memory::L0a => "L0A",
        allocate::Memory::L0b => "L0B",
        allocate::Memory::L0c => "L0C",
    }
}

/// One function's tiles and where they are live.
struct Plan<'c> {
    live: Liveness<'c>,
}

/// A handle to a buffer this pass plans: a tile, or an SDMA session (whose
/// scratch buffer lives in the unified buffer until its last use).
fn is_handle(r#type: melior::ir::Type) -> bool {
    ascend_types::is_tile(r#type) || ascend_types::is_async_session(r#type)
}

impl<'c> Plan<'c> {
    fn of(function: OpRef<'c>) -> Self {
        let is_site =
            |op: OpRef| matches!(name(op), ascend::TileOp::NAME | ascend::SdmaSessionOp::NAME);
        Self {
            live: Liveness::of(function, is_site, is_handle),
        }
    }

    /// The op that first writes a site's tile (an ascend op whose
    /// `TileWriterOpInterface` names it).
    fn writer(&self, site: OpRef<'c>) -> Option<OpRef<'c>> {
        let tile = Builder::result(site);
        self.live.ops[self.live.pos(site) + 1..]
            .iter()
            .copied()
            .find(|op| pld_dialect::interfaces::ascend::written_tile(op) == Some(tile))
    }

    /// Finds one loop-carried tile that would be clobbered and yields a copy
    /// for it instead; whether it changed the IR.
    fn insert_copy(&self) -> bool {
        for op in &self.live.ops {
            for (terminator, index, argument) in carried(*op) {
                let yielded = operand(terminator, index);
                if !ascend_types::is_tile(yielded.r#type()) {
                    continue;
                }
                let previous = self.live.aliases(*op, argument);
                let clobbered = self.live.sites_of(yielded).into_iter().any(|site_index| {
                    let site = self.live.sites[site_index];
                    if !contains(*op, site) {
                        return false;
                    }
                    let writer = self.writer(site);
                    // A read of the previous iteration's tile after the site
                    // ran again, unless it is the site's own in-place write
                    // or in another branch.
                    previous.iter().flat_map(|value| users(*value)).any(|user| {
                        let in_place = Some(user) == writer && is_elementwise(user);
                        !(!contains(*op, user)
                            || is_terminator(user)
                            || self.live.pos(user) <= self.live.pos(site)
                            || in_place
                            || self.live.exclusive(user, site))
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

    /// Offsets for the sites, each above the footprint of every call its
    /// buffer is live across, written as their `offset`s. Returns the
    /// bytes this function and its callees may use, per memory.
    fn assign(
        &self,
        budget: &Budget,
        footprints: &HashMap<String, Footprint>,
        report: &mut Report,
    ) -> Footprint {
        let calls: Vec<allocate::Call> = self
            .live
            .ops
            .iter()
            .filter_map(|op| {
                let callee = callee(*op)?;
                Some(allocate::Call {
                    at: self.live.pos(*op),
                    footprint: footprints.get(&callee).cloned().unwrap_or_default(),
                })
            })
            .collect();
        let buffers: Vec<allocate::Buffer> = self
            .live
            .sites
            .iter()
            .zip(self.live.ranges())
            .map(|(site, live)| {
                let tile = Builder::result(*site).r#type();
                let Some((rows, cols, element)) = ascend_types::tile_shape(tile) else {
                    // An SDMA session's scratch buffer.
                    return allocate::Buffer {
                        memory: allocate::Memory::Ub,
                        bytes: pld_dialect::target::sdma_scratch_bytes(),
                        live,
                    };
                };
                let kind = ascend_types::tile_kind(tile).expect("a tile");
                allocate::Buffer {
                    memory: allocate::Memory::of_kind(kind),
                    bytes: rows * cols * pld_ir::types::byte_width(element).unwrap_or(1),
                    live,
                }
            })
            .collect();
        let placed = match allocate::first_fit(&buffers, &calls, |memory| budget.of(memory)) {
            Ok(placed) => placed,
            Err(overflow) => {
                let live: Vec<(melior::ir::Location, String)> = overflow
                    .live
                    .iter()
                    .map(|other| {
                        (
                            self.live.sites[*other].location(),
                            format!(
                                "a live tile of {} bytes",
                                allocate::aligned(buffers[*other].bytes)
                            ),
                        )
                    })
                    .collect();
                let memory = buffers[overflow.buffer].memory;
                let why = match memory {
                    allocate::Memory::Ub => "(ascend-plan-ub ub-bytes): use smaller chunks",
                    _ => "on the chip",
                };
                report.error(
                    &self.live.sites[overflow.buffer],
                    &format!(
                        "the tiles live here need {} bytes of {}, more than the {} available {why}",
                        overflow.needed,
                        memory_name(memory),
                        budget.of(memory)
                    ),
                    &live,
                );
                return overflow.footprint;
            }
        };
        for (site, offset) in self.live.sites.iter().zip(&placed.offsets) {
            if name(*site) == ascend::SdmaSessionOp::NAME {
                ascend::SdmaSessionOp::set_offset(site, Some(*offset));
            } else {
                ascend::TileOp::set_offset(site, Some(*offset));
            }
        }
        placed.footprint
    }
}

/// The function an op runs on this core, if it calls one.
fn callee(op: OpRef) -> Option<String> {
    func::CallOp::get_callee(&op)
        .or_else(|| ascend::RunOnLanesOp::get_body(&op))
        .map(str::to_owned)
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
        visited: &mut BTreeSet<OpKey>,
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
            | ascend::TSubOp::NAME
            | ascend::TAddSOp::NAME
            | ascend::TMaxSOp::NAME
            | ascend::TMinSOp::NAME
            | ascend::TMulSOp::NAME
            | ascend::TSubSOp::NAME
            | ascend::TCopyOp::NAME
    )
}
