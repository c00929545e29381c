//! The pld ops the rules look for, and which operand is the window they
//! write or read: one table for every rule.

use super::ir;
use melior::ir::{
    Value,
    attribute::DenseI32ArrayAttribute,
    operation::{OperationLike, OperationRef},
};

pub const NOTIFY: &str = "pld.system.notify";
pub const WAIT: &str = "pld.system.wait";
pub const DEFER_WAIT: &str = "pld.system.defer_wait";

/// Collectives and the index of their signal operand.
pub const COLLECTIVE_SIGNALS: &[(&str, usize)] = &[
    ("pld.tensor.allreduce", 1),
    ("pld.tensor.reduce_scatter", 1),
    ("pld.tensor.allgather", 2),
    ("pld.tensor.broadcast", 1),
    ("pld.tensor.barrier", 0),
    ("pld.tensor.all_to_all", 2),
];

/// Ops that push a payload into a peer's window (and may accumulate into it
/// atomically), with the index of the window operand.
pub const REMOTE_WRITES: &[(&str, usize)] = &[
    ("pld.tile.remote_store", 1),
    ("pld.tensor.remote_store", 1),
    ("pld.tensor.put", 0),
];

/// Ops that write local memory, with the index of the memory operand.
pub const LOCAL_WRITES: &[(&str, usize)] = &[("pl.store", 1), ("pl.write", 1)];

/// Ops that read a window, with the index of the window operand.
pub const WINDOW_READS: &[(&str, usize)] = &[
    ("pl.load", 0),
    ("pl.read", 0),
    ("pld.tile.remote_load", 0),
    ("pld.tensor.get", 2),
];

/// The operand `table` names for `op`, if `op` is in the table.
pub fn table_operand<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    table: &[(&str, usize)],
) -> Option<Value<'c, 'a>> {
    let name = ir::name(op);
    let (_, index) = table.iter().find(|(entry, _)| *entry == name)?;
    ir::operand(op, *index)
}

/// Where an op keeps the dynamic entries of one of its index lists: the
/// operand group of its ODS definition (`Segment`: the group's index, for
/// ops with `AttrSizedOperandSegments`), or the one variadic group between
/// `before` fixed operands and `after` ones. `passes/tests/passes.rs` checks
/// every entry against the parser.
#[derive(Clone, Copy, Debug)]
pub enum Group {
    Segment(usize),
    Between { before: usize, after: usize },
}

/// Every index list the rules read: (op, static attribute, its operands).
pub const INDEX_LISTS: &[(&str, &str, Group)] = &[
    (
        NOTIFY,
        "static_offsets",
        Group::Between {
            before: 2,
            after: 1,
        },
    ),
    (
        WAIT,
        "static_offsets",
        Group::Between {
            before: 1,
            after: 1,
        },
    ),
    (
        DEFER_WAIT,
        "static_offsets",
        Group::Between {
            before: 1,
            after: 1,
        },
    ),
    ("pl.load", "static_offsets", Group::Segment(1)),
    ("pl.load", "static_valid_sizes", Group::Segment(2)),
    ("pl.store", "static_offsets", Group::Segment(2)),
    ("pl.store", "static_valid_sizes", Group::Segment(3)),
    ("pld.tile.remote_load", "static_offsets", Group::Segment(2)),
    (
        "pld.tile.remote_load",
        "static_valid_sizes",
        Group::Segment(3),
    ),
    ("pld.tile.remote_store", "static_offsets", Group::Segment(3)),
    (
        "pld.tile.remote_store",
        "static_valid_sizes",
        Group::Segment(4),
    ),
    (
        "pld.tensor.remote_store",
        "static_offsets",
        Group::Between {
            before: 3,
            after: 0,
        },
    ),
    ("pld.tensor.put", "static_dst_offsets", Group::Segment(3)),
    ("pld.tensor.put", "static_src_offsets", Group::Segment(4)),
    ("pld.tensor.put", "static_sizes", Group::Segment(5)),
    ("pld.tensor.get", "static_dst_offsets", Group::Segment(3)),
    ("pld.tensor.get", "static_src_offsets", Group::Segment(4)),
    ("pld.tensor.get", "static_sizes", Group::Segment(5)),
];

/// The dynamic operands of the index list `attribute` of `op`, in order;
/// `None` when the table has no such list.
pub fn index_list_operands<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    attribute: &str,
) -> Option<Vec<Value<'c, 'a>>> {
    let name = ir::name(op);
    let (_, _, group) = INDEX_LISTS
        .iter()
        .find(|(entry, list, _)| *entry == name && *list == attribute)?;
    let range = match *group {
        Group::Between { before, after } => before..op.operand_count().checked_sub(after)?,
        Group::Segment(index) => {
            let sizes =
                DenseI32ArrayAttribute::try_from(op.attribute("operandSegmentSizes").ok()?).ok()?;
            let size = |group: usize| sizes.element(group).ok().map(|size| size as usize);
            let start = (0..index).map(size).sum::<Option<usize>>()?;
            start..start + size(index)?
        }
    };
    range.map(|index| ir::operand(op, index)).collect()
}

/// The index list `attribute` of `op` with every entry the module's value
/// facts know (static entries and dynamic ones however computed); `None`
/// entries are unknown. `None` when `op` has no such list.
pub fn resolved_index_list(op: &OperationRef, attribute: &str) -> Option<Vec<Option<i64>>> {
    let statics = ir::static_list(op, attribute)?;
    let mut dynamic = index_list_operands(op, attribute)?.into_iter();
    Some(
        statics
            .into_iter()
            .map(|entry| {
                if entry == ir::DYNAMIC {
                    dynamic.next().and_then(ir::constant_int)
                } else {
                    Some(entry)
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::{INDEX_LISTS, index_list_operands};
    use melior::ir::{BlockLike, Module, RegionLike, Value, ValueLike, operation::OperationLike};

    /// Every entry of `INDEX_LISTS`, checked against the parser: an op whose
    /// lists name distinct values yields exactly those, in order, for each
    /// list (so a reordered operand in ODS fails here, not in a rule).
    #[test]
    fn index_lists_match_the_ods_operand_groups() {
        let source = r#"
          func.func @f(%s: !pld.dtensor<4x64xi32>, %d: !pld.dtensor<4x64xf32>,
                       %m: memref<4x64xf32>, %p: index, %v: i32,
                       %a: index, %b: index, %c: index, %e: index, %f: index, %g: index) {
            pld.system.notify %s[%a, %b], peer %p, value %v, op set : !pld.dtensor<4x64xi32>
            pld.system.wait %s[%a, %b], expected %v, cmp ge : !pld.dtensor<4x64xi32>
            pld.system.defer_wait %s[%a, %b], expected %v, cmp ge : !pld.dtensor<4x64xi32>
            %t = pl.load %m[%a, %b] valid [%c, %e] : memref<4x64xf32> -> !pl.tile<1x64xf32>
            pl.store %t, %m[%a, %b] valid [%c, %e] : !pl.tile<1x64xf32>, memref<4x64xf32>
            %r = pld.tile.remote_load %d[%a, %b], peer %p valid [%c, %e] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
            pld.tile.remote_store %t, %d[%a, %b], peer %p valid [%c, %e] : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
            pld.tensor.remote_store %m, %d[%a, %b], peer %p : memref<4x64xf32>, !pld.dtensor<4x64xf32>
            pld.tensor.put %d, peer %p, %m dst_offsets [%a, %b] src_offsets [%c, %e] shape [%f, %g] chunk_rows 1 chunk_cols 64 : !pld.dtensor<4x64xf32>, memref<4x64xf32>
            pld.tensor.get %m, peer %p, %d dst_offsets [%a, %b] src_offsets [%c, %e] shape [%f, %g] chunk_rows 1 chunk_cols 64 : memref<4x64xf32>, !pld.dtensor<4x64xf32>
            return
          }"#;
        let context = pld_dialect::create_context();
        let module = Module::parse(&context, source).expect("the ops parse and verify");
        let function = module.body().first_operation().expect("the function");
        let body = function.region(0).unwrap().first_block().unwrap();
        let argument = |index: usize| -> Value { body.argument(index).unwrap().into() };
        let (a, b, c, e, f, g) = (
            argument(5),
            argument(6),
            argument(7),
            argument(8),
            argument(9),
            argument(10),
        );
        let expected = |list: &str| match list {
            "static_offsets" | "static_dst_offsets" => vec![a, b],
            "static_valid_sizes" | "static_src_offsets" => vec![c, e],
            "static_sizes" => vec![f, g],
            other => panic!("no values for {other}"),
        };
        let mut checked = 0;
        let mut next = body.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            // SAFETY: `op` is an op of `module`, which outlives this loop.
            let op = unsafe { melior::ir::operation::OperationRef::from_raw(op.to_raw()) };
            for (name, list, _) in INDEX_LISTS {
                if op.name().as_string_ref().as_str() != Ok(name) {
                    continue;
                }
                let found = index_list_operands(&op, list).expect("the op has the list");
                let found: Vec<_> = found.iter().map(|value| value.to_raw().ptr).collect();
                let wanted: Vec<_> = expected(list)
                    .iter()
                    .map(|value| value.to_raw().ptr)
                    .collect();
                assert_eq!(found, wanted, "{name} {list}");
                checked += 1;
            }
        }
        assert_eq!(checked, INDEX_LISTS.len(), "every entry is checked");
    }
}
