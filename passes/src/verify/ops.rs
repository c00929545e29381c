//! The pld ops the rules look for, and which operand is the window they
//! write or read: one table for every rule. Operands are named as their ODS
//! definitions name them and found through `pld_dialect::operands`, never
//! by position.

use melior::ir::{Value, operation::OperationRef};
use pld_dialect::operands;
use pld_dialect::ops::{pl, pld};
use pld_ir::read as ir;

/// Collectives and the ODS name of their signal operand.
pub const COLLECTIVE_SIGNALS: &[(&str, &str)] = &[
    (pld::TensorAllreduceOp::NAME, "signal"),
    (pld::TensorReduceScatterOp::NAME, "signal"),
    (pld::TensorAllgatherOp::NAME, "signal"),
    (pld::TensorBroadcastOp::NAME, "signal"),
    (pld::TensorBarrierOp::NAME, "signal"),
    (pld::TensorAllToAllOp::NAME, "signal"),
    (pld::TensorAllToAllVOp::NAME, "signal"),
];

/// Ops that push a payload into a peer's window (and may accumulate into it
/// atomically), with the ODS name of the window operand.
pub const REMOTE_WRITES: &[(&str, &str)] = &[
    (pld::TileRemoteStoreOp::NAME, "target"),
    (pld::TensorRemoteStoreOp::NAME, "target"),
    (pld::TensorPutOp::NAME, "dst"),
];

/// Ops that write local memory, with the ODS name of the memory operand.
pub const LOCAL_WRITES: &[(&str, &str)] =
    &[(pl::StoreOp::NAME, "dest"), (pl::WriteOp::NAME, "dest")];

/// Ops that read a window, with the ODS name of the window operand.
pub const WINDOW_READS: &[(&str, &str)] = &[
    (pl::LoadOp::NAME, "source"),
    (pl::ReadOp::NAME, "source"),
    (pld::TileRemoteLoadOp::NAME, "target"),
    (pld::TensorGetOp::NAME, "src"),
];

/// Ops whose payload moves through UB tiles (TLOAD and TSTORE, directly or
/// in their decomposition), with the ODS name of the operand whose element
/// type moves.
pub const TILE_TRANSFERS: &[(&str, &str)] = &[
    (pl::LoadOp::NAME, "source"),
    (pl::StoreOp::NAME, "dest"),
    (pld::TileRemoteLoadOp::NAME, "target"),
    (pld::TileRemoteStoreOp::NAME, "target"),
    (pld::TensorRemoteStoreOp::NAME, "target"),
    (pld::TensorPutOp::NAME, "dst"),
    (pld::TensorGetOp::NAME, "src"),
    (pld::TensorAllreduceOp::NAME, "target"),
    (pld::TensorReduceScatterOp::NAME, "target"),
    (pld::TensorAllgatherOp::NAME, "target"),
    (pld::TensorBroadcastOp::NAME, "target"),
    (pld::TensorAllToAllOp::NAME, "target"),
    (pld::TensorAllToAllVOp::NAME, "target"),
];

/// Collectives whose decomposition combines tiles with their `op`.
pub const REDUCING_COLLECTIVES: &[&str] = &[
    pld::TensorAllreduceOp::NAME,
    pld::TensorReduceScatterOp::NAME,
];

/// The operand `table` names for `op`, if `op` is in the table.
pub fn table_operand<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    table: &[(&str, &str)],
) -> Option<Value<'c, 'a>> {
    let name = ir::name(op);
    let (_, operand) = table.iter().find(|(entry, _)| *entry == name)?;
    operands::value(op, operand)
}

/// The dynamic operands of the index list `attribute` of `op`, in order;
/// `None` when `op` has no such list (ODS declares the lists:
/// `pld_dialect::ops::index_lists`).
pub fn index_list_operands<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    attribute: &str,
) -> Option<Vec<Value<'c, 'a>>> {
    let (_, operand) = pld_dialect::ops::index_lists(ir::name(op))
        .iter()
        .find(|(list, _)| *list == attribute)?;
    operands::values(op, operand)
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
                if entry == pld_ir::types::DYNAMIC {
                    dynamic
                        .next()
                        .and_then(pld_ir::analysis::facts::constant_int)
                } else {
                    Some(entry)
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::{
        COLLECTIVE_SIGNALS, LOCAL_WRITES, REMOTE_WRITES, WINDOW_READS, index_list_operands,
        table_operand,
    };
    use melior::ir::{
        BlockLike, Module, RegionLike, Value, ValueLike,
        operation::{OperationLike, OperationRef},
    };

    /// Parses `source` (one function) and hands `check` the function's
    /// arguments and the ops of its body.
    fn with_body(source: &str, check: impl FnOnce(&[Value<'_, '_>], &[OperationRef<'_, '_>])) {
        let context = pld_dialect::create_context();
        let module = Module::parse(&context, source).expect("the ops parse and verify");
        let function = module.body().first_operation().expect("the function");
        let body = function.region(0).unwrap().first_block().unwrap();
        let arguments: Vec<Value> = (0..body.argument_count())
            .map(|index| body.argument(index).unwrap().into())
            .collect();
        let mut ops = Vec::new();
        let mut next = body.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            // SAFETY: `op` is an op of `module`, which outlives `check`.
            ops.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        check(&arguments, &ops);
    }

    /// The index lists generated from ODS, checked against the parser: an op
    /// whose lists name distinct values yields exactly those, in order, for
    /// each list (so a list paired with the wrong operand group fails here,
    /// not in a rule).
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
        with_body(source, |arguments, ops| {
            let (a, b, c, e, f, g) = (
                arguments[5],
                arguments[6],
                arguments[7],
                arguments[8],
                arguments[9],
                arguments[10],
            );
            let expected = |list: &str| match list {
                "static_offsets" | "static_dst_offsets" => vec![a, b],
                "static_valid_sizes" | "static_src_offsets" => vec![c, e],
                "static_sizes" => vec![f, g],
                other => panic!("no values for {other}"),
            };
            let mut checked = 0;
            for op in ops {
                let name = op.name().as_string_ref().as_str().unwrap().to_owned();
                for (list, _) in pld_dialect::ops::index_lists(&name) {
                    let found = index_list_operands(op, list).expect("the op has the list");
                    let found: Vec<_> = found.iter().map(|value| value.to_raw().ptr).collect();
                    let wanted: Vec<_> = expected(list)
                        .iter()
                        .map(|value| value.to_raw().ptr)
                        .collect();
                    assert_eq!(found, wanted, "{name} {list}");
                    checked += 1;
                }
            }
            // notify, wait, defer_wait and tensor.remote_store have one list;
            // load, store, remote_load and remote_store two; put and get three.
            assert_eq!(checked, 4 + 4 * 2 + 2 * 3, "every list is found");
        });
    }

    /// Every entry of the window tables, checked against the parser: in each
    /// op below the operand the table names is `%w` (a signal for the
    /// collectives), and every other operand is another value.
    #[test]
    fn window_tables_name_the_window_operand() {
        let source = r#"
          func.func @f(%w: !pld.dtensor<4x64xf32>, %sig: !pld.dtensor<4x1xi32>,
                       %rows: !pld.dtensor<4x64xf32>, %rows2: !pld.dtensor<4x64xf32>,
                       %row: !pld.dtensor<1x64xf32>, %m: memref<4x64xf32>,
                       %t: !pl.tile<1x64xf32>, %x: f32, %p: index,
                       %send: memref<4xi32>, %recv: !pld.dtensor<4xi32>) {
            %0 = pld.tensor.allreduce %rows, %sig, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
            %1 = pld.tensor.reduce_scatter %rows, %sig, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
            %2 = pld.tensor.allgather %row, %rows, %sig : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
            %3 = pld.tensor.broadcast %rows, %sig, root %p : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
            pld.tensor.barrier %sig : !pld.dtensor<4x1xi32>
            %4 = pld.tensor.all_to_all %rows, %rows2, %sig : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
            %8 = pld.tensor.all_to_all_v %rows, %rows2, %sig counts %send to %recv : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>, memref<4xi32>, !pld.dtensor<4xi32>
            pld.tile.remote_store %t, %w[0, 0], peer %p : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
            pld.tensor.remote_store %m, %w[0, 0], peer %p : memref<4x64xf32>, !pld.dtensor<4x64xf32>
            pld.tensor.put %w, peer %p, %m dst_offsets [0, 0] src_offsets [0, 0] shape [4, 64] chunk_rows 1 chunk_cols 64 : !pld.dtensor<4x64xf32>, memref<4x64xf32>
            pl.store %t, %w[0, 0] : !pl.tile<1x64xf32>, !pld.dtensor<4x64xf32>
            pl.write %x, %w[0, 0] : !pld.dtensor<4x64xf32>
            %5 = pl.load %w[0, 0] : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
            %6 = pl.read %w[0, 0] : !pld.dtensor<4x64xf32>
            %7 = pld.tile.remote_load %w[0, 0], peer %p : !pld.dtensor<4x64xf32> -> !pl.tile<1x64xf32>
            pld.tensor.get %m, peer %p, %w dst_offsets [0, 0] src_offsets [0, 0] shape [4, 64] chunk_rows 1 chunk_cols 64 : memref<4x64xf32>, !pld.dtensor<4x64xf32>
            return
          }"#;
        with_body(source, |arguments, ops| {
            let window = arguments[0].to_raw().ptr;
            let signal = arguments[1].to_raw().ptr;
            let tables = [
                (COLLECTIVE_SIGNALS, signal),
                (REMOTE_WRITES, window),
                (LOCAL_WRITES, window),
                (WINDOW_READS, window),
            ];
            let mut checked = 0;
            for op in ops {
                let name = op.name();
                let name = name.as_string_ref().as_str().unwrap();
                for (table, wanted) in &tables {
                    if !table.iter().any(|(entry, _)| *entry == name) {
                        continue;
                    }
                    let found = table_operand(op, table).expect("the table names an operand");
                    assert_eq!(found.to_raw().ptr, *wanted, "{name}");
                    checked += 1;
                }
            }
            let entries: usize = tables.iter().map(|(table, _)| table.len()).sum();
            assert_eq!(checked, entries, "every entry is checked");
        });
    }
}
