//! The Rust API of the dialects: context set-up, type constructors, the
//! typed ops generated from ODS, and diagnostics with notes.

use melior::{
    Context,
    ir::{
        Block, BlockLike, Location, Module, Region, RegionLike, Type,
        attribute::{DenseI64ArrayAttribute, StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::{FunctionType, IntegerType},
    },
};
use pld_dialect::{
    create_context,
    diagnostics::{Severity, emit},
    ops, types,
};
use std::sync::{Arc, Mutex};

/// Collects every diagnostic of `context` as `severity: message` lines.
fn capture_diagnostics(context: &Context) -> Arc<Mutex<Vec<String>>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    context.attach_diagnostic_handler(move |diagnostic| {
        let mut lines = vec![format!("{:?}: {}", diagnostic.severity(), diagnostic)];
        for index in 0..diagnostic.note_count() {
            if let Ok(note) = diagnostic.note(index) {
                lines.push(format!("  note: {note}"));
            }
        }
        sink.lock().unwrap().extend(lines);
        true
    });
    seen
}

#[test]
fn context_loads_both_dialects() {
    let context = create_context();
    for name in ["pld", "pl", "func", "arith", "scf", "memref", "cf"] {
        let dialect = context.get_or_load_dialect(name);
        assert_eq!(dialect.namespace().unwrap(), name);
    }
}

#[test]
fn type_constructors_print_and_check() {
    let context = create_context();
    let f32 = Type::float32(&context);
    let dt = types::distributed_tensor(&context, &[4, types::DYNAMIC], f32).unwrap();
    let tile = types::tile(&context, &[1, 64], f32).unwrap();
    insta::assert_snapshot!(
        [
            dt.to_string(),
            tile.to_string(),
            types::comm_ctx(&context).to_string(),
            types::window_ptr(&context).to_string(),
            types::task_id(&context).to_string(),
        ]
        .join("\n"),
        @r"
    !pld.dtensor<4x?xf32>
    !pl.tile<1x64xf32>
    !pld.comm_ctx
    !pld.ptr
    !pl.task_id
    "
    );
    assert!(types::is_distributed_tensor(dt));
    assert!(!types::is_distributed_tensor(tile));
    assert!(types::is_tile(tile));
}

#[test]
fn invalid_types_are_reported_not_built() {
    let context = create_context();
    let seen = capture_diagnostics(&context);
    let f32 = Type::float32(&context);
    assert!(types::distributed_tensor(&context, &[0], f32).is_none());
    assert!(types::tile(&context, &[types::DYNAMIC], f32).is_none());
    insta::assert_snapshot!(seen.lock().unwrap().join("\n"), @r"
    Error: distributed tensor dimensions are positive or dynamic ('?'), found 0
    Error: tile dimensions are static and positive, found ?
    ");
}

#[test]
fn generated_builders_build_verified_ops() {
    let context = create_context();
    let location = Location::unknown(&context);
    let i32 = IntegerType::new(&context, 32).into();
    let index = Type::index(&context);
    let signal = types::distributed_tensor(&context, &[2, 4], i32).expect("a valid signal type");

    let block = Block::new(&[(signal, location)]);
    let tensor = block.argument(0).unwrap().into();
    let ctx = block.append_operation(
        ops::pld::SystemGetCommCtxOp {
            tensor,
            ctx: types::comm_ctx(&context),
        }
        .build(&context, location),
    );
    let rank = block.append_operation(
        ops::pld::SystemRankOp {
            ctx: ctx.result(0).unwrap().into(),
            rank: i32,
        }
        .build(&context, location),
    );
    let peer = block.append_operation(melior::dialect::arith::index_cast(
        rank.result(0).unwrap().into(),
        index,
        location,
    ));
    let peer = peer.result(0).unwrap().into();
    // Three variadic groups, one of them not empty: the segment sizes must
    // follow ODS's operand order for the verifier to accept the op.
    let i64_array = |values: &[i64]| DenseI64ArrayAttribute::new(&context, values).into();
    block.append_operation(
        ops::pld::TensorPutOp {
            dst: tensor,
            peer,
            src: tensor,
            dst_offsets: &[peer],
            static_dst_offsets: Some(i64_array(&[i64::MIN, 0])),
            src_offsets: &[],
            static_src_offsets: Some(i64_array(&[0, 0])),
            sizes: &[],
            static_sizes: Some(i64_array(&[1, 4])),
            atomic: None,
            engine: None,
            chunk_rows: None,
            chunk_cols: None,
            pipeline: false,
        }
        .build(&context, location),
    );
    block.append_operation(melior::dialect::func::r#return(&[], location));
    let region = Region::new();
    region.append_block(block);

    let module = Module::new(location);
    let function = melior::dialect::func::func(
        &context,
        StringAttribute::new(&context, "kernel"),
        TypeAttribute::new(FunctionType::new(&context, &[signal], &[]).into()),
        region,
        &[],
        location,
    );
    module.body().append_operation(function);
    assert!(module.as_operation().verify());
    insta::assert_snapshot!(module.as_operation().to_string(), @r"
    module {
      func.func @kernel(%arg0: !pld.dtensor<2x4xi32>) {
        %0 = pld.system.get_comm_ctx %arg0 : !pld.dtensor<2x4xi32>
        %1 = pld.system.rank %0
        %2 = arith.index_cast %1 : i32 to index
        pld.tensor.put %arg0, peer %2, %arg0 dst_offsets [%2, 0] src_offsets [0, 0] shape [1, 4] : !pld.dtensor<2x4xi32>, !pld.dtensor<2x4xi32>
        return
      }
    }
    ");
}

#[test]
fn described_ops_are_built_by_their_ods_names() {
    use pld_dialect::described::{AttrValue, Described, DescribedError};
    let context = create_context();
    let location = Location::unknown(&context);
    let i32: Type = IntegerType::new(&context, 32).into();
    let index = Type::index(&context);
    let signal = types::distributed_tensor(&context, &[2, 4], i32).expect("a valid signal type");
    let block = Block::new(&[(signal, location), (index, location), (i32, location)]);
    let [target, peer, value] = [0, 1, 2].map(|index| block.argument(index).unwrap().into());
    let notify = |attributes: Vec<(&str, AttrValue)>| {
        let mut described = Described::default();
        described.operands.insert("target".into(), vec![target]);
        described.operands.insert("peer".into(), vec![peer]);
        described.operands.insert("offsets".into(), vec![peer]);
        described.operands.insert("value".into(), vec![value]);
        for (name, value) in attributes {
            described.attributes.insert(name.into(), value);
        }
        // The op as text once it verifies, else why it was not built.
        ops::build_described("pld.system.notify", &context, location, &mut described)
            .map(|op| {
                assert!(op.verify());
                op.to_string()
            })
            .map_err(|error| error.to_string())
    };
    let offsets = || ("static_offsets", AttrValue::Ints(vec![i64::MIN, 0]));
    let built = notify(vec![offsets(), ("op", AttrValue::Keyword("set".into()))]).unwrap();
    // Operands print unnamed outside a function; the static list, the
    // dynamic entry in its place and the enum are what the names chose.
    assert_eq!(
        built.trim().replace("<<UNKNOWN SSA VALUE>>", "%v"),
        "pld.system.notify %v[%v, 0], peer %v, value %v, op set : !pld.dtensor<2x4xi32>"
    );
    // A keyword the enum does not have, an attribute of the wrong kind, one
    // missing, one the op does not declare, an op that does not exist.
    let error = |result: Result<String, String>| result.err();
    assert_eq!(
        error(notify(vec![
            offsets(),
            ("op", AttrValue::Keyword("sett".into()))
        ])),
        Some("pld.system.notify's attribute `op` is an enum keyword, not Keyword(\"sett\")".into())
    );
    assert_eq!(
        error(notify(vec![offsets(), ("op", AttrValue::Int(1))])),
        Some("pld.system.notify's attribute `op` is an enum keyword, not Int(1)".into())
    );
    assert_eq!(
        error(notify(vec![offsets()])),
        Some("pld.system.notify needs attribute `op`".into())
    );
    assert_eq!(
        error(notify(vec![
            offsets(),
            ("op", AttrValue::Keyword("set".into())),
            ("cmp", AttrValue::Keyword("ge".into()))
        ])),
        Some("pld.system.notify has no attribute named `cmp`".into())
    );
    let mut described = Described::default();
    assert_eq!(
        ops::build_described("pld.system.notifyy", &context, location, &mut described).err(),
        Some(DescribedError::UnknownOp("pld.system.notifyy".into()))
    );
    // A typed attribute (arith.constant's value) and a result by its name.
    let mut described = Described::default();
    described
        .attributes
        .insert("value".into(), AttrValue::TypedInt(7, i32));
    described.results.insert("result".into(), vec![i32]);
    let constant =
        ops::build_described("arith.constant", &context, location, &mut described).unwrap();
    assert!(constant.verify());
    assert_eq!(
        constant.to_string().trim(),
        "%c7_i32 = arith.constant 7 : i32"
    );
}

#[test]
fn parsed_programs_are_verified_by_the_op_verifiers() {
    let context = create_context();
    let seen = capture_diagnostics(&context);
    let module = Module::parse(
        &context,
        r#"
        func.func @k(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x3xi32>) {
          %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x3xi32>
          return
        }
        "#,
    );
    assert!(module.is_none());
    insta::assert_snapshot!(seen.lock().unwrap().join("\n"), @r#"
    Error: 'pld.tensor.allreduce' op mesh allreduce on 1 core expects a signal of shape [N, 1] or [N, 2], found [4, 3]
      note: see current operation: %0 = "pld.tensor.allreduce"(%arg0, %arg1) <{mode = #pld<mode mesh>, op = #pld<reduce_op sum>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!pld.dtensor<1x64xf32>, !pld.dtensor<4x3xi32>) -> !pld.dtensor<1x64xf32>
    "#);
}

#[test]
fn diagnostics_carry_notes() {
    let context = create_context();
    let seen = capture_diagnostics(&context);
    let here = Location::new(&context, "kernel.mlir", 3, 5);
    let there = Location::new(&context, "kernel.mlir", 1, 1);
    emit(
        Severity::Warning,
        here,
        "notify may fire twice",
        &[(there, "the kernel does cube work here")],
    );
    insta::assert_snapshot!(seen.lock().unwrap().join("\n"), @r"
    Warning: notify may fire twice
      note: the kernel does cube work here
    ");
}

#[test]
fn enum_attributes_round_trip_by_stable_value() {
    use pld_dialect::enums::*;
    let context = create_context();
    let mut printed = Vec::new();
    macro_rules! check {
        ($($enum:ident),*) => {$(
            for case in $enum::ALL {
                let attribute = case.attribute(&context);
                assert_eq!($enum::of(attribute), Some(*case));
                // The keyword is the one the custom syntax prints.
                let text = attribute.to_string();
                assert!(
                    text.ends_with(&format!("<{}>", case.keyword()))
                        || text.ends_with(&format!(" {}>", case.keyword())),
                    "{text} does not end in {}",
                    case.keyword()
                );
                printed.push(format!("{}::{case:?} = {} -> {attribute}", stringify!($enum), *case as i32));
            }
            assert_eq!($enum::from_value($enum::ALL.len() as i32), None);
        )*};
    }
    check!(
        NotifyOp,
        WaitCmp,
        ReduceOp,
        AtomicType,
        TransferEngine,
        CollectiveMode,
        CollectiveAlgorithm,
        TargetProfile,
        KernelKind,
        Level,
        SplitMode
    );
    {
        use pld_dialect::enums::ascend::{
            AtomicType as AscendAtomicType, Core, NotifyOp as AscendNotifyOp, Pipe,
            WaitCmp as AscendWaitCmp,
        };
        check!(AscendNotifyOp, AscendWaitCmp, AscendAtomicType, Pipe, Core);
    }
    // Another enum's attribute, or a non-enum attribute, is not mistaken for one.
    assert_eq!(WaitCmp::of(NotifyOp::Set.attribute(&context)), None);
    assert_eq!(
        NotifyOp::of(StringAttribute::new(&context, "set").into()),
        None
    );
    insta::assert_snapshot!(printed.join("\n"));
}

/// Every op of `source`'s first function body, in order.
fn body_ops<'c>(module: &'c Module) -> Vec<melior::ir::operation::OperationRef<'c, 'c>> {
    let function = module.body().first_operation().unwrap();
    let body = function.region(0).unwrap().first_block().unwrap();
    let mut ops = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        // SAFETY: an op of `module`, which outlives the returned refs.
        ops.push(unsafe { melior::ir::operation::OperationRef::from_raw(op.to_raw()) });
    }
    ops
}

/// The arguments of `module`'s first function.
fn body_arguments<'c>(module: &'c Module) -> Vec<melior::ir::Value<'c, 'c>> {
    let function = module.body().first_operation().unwrap();
    let body = function.region(0).unwrap().first_block().unwrap();
    (0..body.argument_count())
        .map(|i| {
            // SAFETY: an argument of `module`'s block, which outlives the
            // returned values.
            unsafe {
                melior::ir::Value::from_raw(melior::ir::ValueLike::to_raw(
                    &body.argument(i).unwrap(),
                ))
            }
        })
        .collect()
}

#[test]
fn ops_declare_their_accesses_signals_and_collectives() {
    use pld_dialect::interfaces::{
        AccessKind, Index, SignalEffect, collective, memory_accesses, signal_access,
    };
    let context = create_context();
    let module = Module::parse(
        &context,
        r#"
        func.func @f(%d: !pld.dtensor<4x64xf32>, %s: !pld.dtensor<4x1xi32>, %m: memref<2x64xf32>,
                     %p: index, %r: index, %v: i32, %n: index) {
          %t = pl.load %d[%r, 32] valid [1, %n] : !pld.dtensor<4x64xf32> -> !pl.tile<1x32xf32>
          pld.tile.remote_store %t, %d[1, 0], peer %p atomic add : !pl.tile<1x32xf32>, !pld.dtensor<4x64xf32>
          pld.tensor.get %m, peer %p, %d dst_offsets [0, 0] src_offsets [2, 0] shape [2, 64] : memref<2x64xf32>, !pld.dtensor<4x64xf32>
          pld.tensor.put %d, peer %p, %d : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>
          pld.system.notify %s[%r, 0], peer %p, value %v, op atomic_add : !pld.dtensor<4x1xi32>
          pld.system.wait %s[2, 0], expected %v, cmp eq : !pld.dtensor<4x1xi32>
          %a = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
          return
        }"#,
    )
    .expect("parses");
    let arguments = body_arguments(&module);
    let arg = |i: usize| arguments[i];
    let ops = body_ops(&module);

    let load = memory_accesses(&ops[0]).unwrap();
    assert_eq!(load.len(), 1);
    assert_eq!(
        (load[0].memory, load[0].peer, load[0].kind),
        (arg(0), None, AccessKind::Read)
    );
    // The valid sizes, not the tile's shape.
    assert_eq!(
        load[0].region,
        Some((
            vec![Index::Value(arg(4)), Index::Constant(32)],
            vec![Index::Constant(1), Index::Value(arg(6))]
        ))
    );
    let store = memory_accesses(&ops[1]).unwrap();
    assert_eq!(
        (store[0].peer, store[0].kind),
        (Some(arg(3)), AccessKind::AtomicAdd)
    );
    assert_eq!(
        store[0].region,
        Some((
            vec![Index::Constant(1), Index::Constant(0)],
            vec![Index::Constant(1), Index::Constant(32)]
        ))
    );
    // A get reads the peer's side and writes the local one.
    let get = memory_accesses(&ops[2]).unwrap();
    assert_eq!(
        (get[0].memory, get[0].peer, get[0].kind),
        (arg(0), Some(arg(3)), AccessKind::Read)
    );
    assert_eq!(
        get[0].region.as_ref().unwrap().0,
        vec![Index::Constant(2), Index::Constant(0)]
    );
    assert_eq!(
        (get[1].memory, get[1].peer, get[1].kind),
        (arg(2), None, AccessKind::Write)
    );
    // A put without a region touches both tensors whole.
    let put = memory_accesses(&ops[3]).unwrap();
    assert_eq!(
        (put[0].kind, put[0].region.is_none(), put[1].kind),
        (AccessKind::Write, true, AccessKind::Read)
    );

    let notify = signal_access(&ops[4]).unwrap();
    assert_eq!(
        (
            notify.signal,
            notify.peer,
            notify.scalar,
            notify.effect,
            notify.deferred
        ),
        (
            arg(1),
            Some(arg(3)),
            arg(5),
            SignalEffect::NotifyAtomicAdd,
            false
        )
    );
    assert_eq!(notify.cell, vec![Index::Value(arg(4)), Index::Constant(0)]);
    let wait = signal_access(&ops[5]).unwrap();
    assert_eq!((wait.peer, wait.effect), (None, SignalEffect::WaitEq));
    assert_eq!(wait.cell, vec![Index::Constant(2), Index::Constant(0)]);

    let allreduce = collective(&ops[6]).unwrap();
    assert_eq!(
        (allreduce.signal, allreduce.tensors.clone()),
        (arg(1), vec![arg(0)])
    );
    // Each fact belongs to its ops alone.
    assert!(memory_accesses(&ops[4]).is_none() && signal_access(&ops[0]).is_none());
    assert!(collective(&ops[0]).is_none() && memory_accesses(&ops[6]).is_none());
}

#[test]
fn generated_readers_name_each_operand() {
    use ops::{memref, pl, pld, scf};
    let context = create_context();
    let module = Module::parse(
        &context,
        r#"
        func.func @f(%d: !pld.dtensor<4x64xf32>, %m: memref<2x64xf32>, %p: index, %r: index,
                     %n: index, %c: i1, %flat: memref<?xf32>, %k: index) {
          pld.tensor.put %d, peer %p, %m dst_offsets [%r, 0] src_offsets [0, 0] shape [1, %n] chunk_cols 64 : !pld.dtensor<4x64xf32>, memref<2x64xf32>
          %t = pl.load %d[%r, 32] valid [1, %n] : !pld.dtensor<4x64xf32> -> !pl.tile<1x32xf32>
          %e = memref.expand_shape %flat [[0, 1]] output_shape [%k, 8] : memref<?xf32> into memref<?x8xf32>
          %x = memref.dim %m, %r : memref<2x64xf32>
          scf.if %c {
          }
          return
        }"#,
    )
    .expect("parses");
    let arguments = body_arguments(&module);
    let arg = |i: usize| arguments[i];
    let ops = body_ops(&module);

    // By name through the C API: every group where ODS puts it, whatever
    // the segment sizes.
    let put = pld::TensorPutOp::operands(&ops[0]).expect("a put");
    assert_eq!((put.dst, put.peer, put.src), (arg(0), arg(2), arg(1)));
    assert_eq!(put.dst_offsets, vec![arg(3)]);
    assert!(put.src_offsets.is_empty());
    assert_eq!(put.sizes, vec![arg(4)]);
    // An op of another kind reads as none.
    assert!(pld::TensorGetOp::operands(&ops[0]).is_none());
    let load = pl::LoadOp::operands(&ops[1]).expect("a load");
    assert_eq!(
        (load.source, load.offsets, load.valid_sizes),
        (arg(0), vec![arg(3)], vec![arg(4)])
    );

    // Upstream ops by the positions ODS gives their groups.
    let expand = memref::ExpandShapeOp::operands(&ops[2]).expect("an expand_shape");
    assert_eq!((expand.src, expand.output_shape), (arg(6), vec![arg(7)]));
    let dim = memref::DimOp::operands(&ops[3]).expect("a dim");
    assert_eq!((dim.source, dim.index), (arg(1), arg(3)));
    let branch = scf::IfOp::operands(&ops[4]).expect("an if");
    assert_eq!(branch.condition, arg(5));
    assert!(memref::DimOp::operands(&ops[4]).is_none());
}

#[test]
fn generated_attribute_accessors_read_and_write_typed_values() {
    use ops::{func, pld};
    use pld_dialect::enums::{
        AtomicType, CollectiveAlgorithm, CollectiveMode, KernelKind, ReduceOp, TargetProfile,
        TransferEngine,
    };
    let context = create_context();
    let module = Module::parse(
        &context,
        r#"
        func.func @f(%d: !pld.dtensor<4x64xf32>, %m: memref<2x64xf32>, %p: index, %r: index,
                     %n: index, %s: !pld.dtensor<4x1xi32>) {
          pld.tensor.put %d, peer %p, %m dst_offsets [%r, 0] src_offsets [0, 0] shape [1, %n] chunk_cols 64 : !pld.dtensor<4x64xf32>, memref<2x64xf32>
          %a = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
          return
        }"#,
    )
    .expect("parses");
    let function = module.body().first_operation().unwrap();
    let ops = body_ops(&module);

    // Static lists keep their dynamic entries; absent attributes with an
    // ODS default read as the default, optional ones as None.
    assert_eq!(
        pld::TensorPutOp::attributes(&ops[0]),
        Some(pld::TensorPutOpAttributes {
            static_dst_offsets: Some(vec![i64::MIN, 0]),
            static_src_offsets: Some(vec![0, 0]),
            static_sizes: Some(vec![1, i64::MIN]),
            atomic: AtomicType::None,
            engine: TransferEngine::Mte,
            chunk_rows: 0,
            chunk_cols: 64,
            pipeline: false,
        })
    );
    assert!(pld::TensorGetOp::attributes(&ops[0]).is_none());
    let allreduce = pld::TensorAllreduceOp::attributes(&ops[1]).expect("an allreduce");
    assert_eq!(
        (allreduce.op, allreduce.mode, allreduce.algorithm),
        (ReduceOp::Sum, CollectiveMode::Mesh, None)
    );
    let signature = func::FuncOp::attributes(&function).expect("a function");
    assert_eq!(
        (
            signature.sym_name,
            signature.function_type.to_string().as_str()
        ),
        (
            "f",
            "(!pld.dtensor<4x64xf32>, memref<2x64xf32>, index, index, index, !pld.dtensor<4x1xi32>) -> ()"
        )
    );
    assert_eq!(KernelKind::on(&function), None);

    pld::TensorPutOp::set_atomic(&ops[0], AtomicType::Add);
    pld::TensorPutOp::set_pipeline(&ops[0], true);
    pld::TensorPutOp::set_chunk_cols(&ops[0], 32);
    pld::TensorPutOp::set_static_src_offsets(&ops[0], Some(&[1, 0]));
    pld::TensorAllreduceOp::set_op(&ops[1], ReduceOp::Max);
    pld::TensorAllreduceOp::set_algorithm(&ops[1], Some(CollectiveAlgorithm::Oneshot));
    func::FuncOp::set_sym_name(&function, "g");
    KernelKind::InCore.set_on(&function);
    TargetProfile::Ascend950.set_on(&module.as_operation());

    let put = pld::TensorPutOp::attributes(&ops[0]).unwrap();
    assert_eq!(
        (
            put.atomic,
            put.pipeline,
            put.chunk_cols,
            put.static_src_offsets
        ),
        (AtomicType::Add, true, 32, Some(vec![1, 0]))
    );
    assert_eq!(KernelKind::on(&function), Some(KernelKind::InCore));
    assert_eq!(
        TargetProfile::on(&module.as_operation()),
        Some(TargetProfile::Ascend950)
    );
    // A unit attribute is removed again by false.
    pld::TensorPutOp::set_pipeline(&ops[0], false);
    assert!(!pld::TensorPutOp::attributes(&ops[0]).unwrap().pipeline);
    assert!(module.as_operation().verify());
    insta::assert_snapshot!(module.as_operation().to_string(), @r"
    module attributes {pld.target = #pld.target<Ascend950>} {
      func.func @g(%arg0: !pld.dtensor<4x64xf32>, %arg1: memref<2x64xf32>, %arg2: index, %arg3: index, %arg4: index, %arg5: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
        pld.tensor.put %arg0, peer %arg2, %arg1 dst_offsets [%arg3, 0] src_offsets [1, 0] shape [1, %arg4] atomic add chunk_cols 32 : !pld.dtensor<4x64xf32>, memref<2x64xf32>
        %0 = pld.tensor.allreduce %arg0, %arg5, op max algorithm oneshot : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
        return
      }
    }
    ");
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "TensorAllreduceOp::set_op on another op")]
fn a_setter_refuses_another_op_in_debug_builds() {
    let context = create_context();
    let module = Module::parse(
        &context,
        r#"
        func.func @f(%d: !pld.dtensor<4x64xf32>, %p: index) {
          pld.tensor.put %d, peer %p, %d : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>
          return
        }"#,
    )
    .expect("parses");
    let ops = body_ops(&module);
    ops::pld::TensorAllreduceOp::set_op(&ops[0], pld_dialect::enums::ReduceOp::Sum);
}

#[test]
fn dialect_views_match_every_op_of_a_dialect() {
    use ops::{pl::PlOp, pld, pld::PldOp};
    use pld_dialect::enums::NotifyOp;
    let context = create_context();
    let module = Module::parse(
        &context,
        r#"
        func.func @f(%out: memref<1x1xi32>, %signal: !pld.dtensor<1x1xi32>, %peer: index, %tag: i32) {
          pld.system.notify %signal[0, 0], peer %peer, value %tag, op set : !pld.dtensor<1x1xi32>
          %received = pl.read %signal[0, 0] : !pld.dtensor<1x1xi32>
          pl.write %received, %out[0, 0] : memref<1x1xi32>
          return
        }"#,
    )
    .expect("parses");
    let ops = body_ops(&module);
    // Exhaustive over pl's ops: a new pl op makes this fail to compile.
    let kinds: Vec<String> = ops
        .iter()
        .map(|op| match PlOp::of(*op) {
            Some(PlOp::Load(_) | PlOp::Store(_) | PlOp::Read(_) | PlOp::Write(_)) => {
                "pl memory".to_owned()
            }
            Some(
                PlOp::Add(_)
                | PlOp::Max(_)
                | PlOp::Min(_)
                | PlOp::Mul(_)
                | PlOp::Sub(_)
                | PlOp::AddS(_)
                | PlOp::MaxS(_)
                | PlOp::MinS(_)
                | PlOp::MulS(_)
                | PlOp::SubS(_)
                | PlOp::Full(_)
                | PlOp::Cast(_)
                | PlOp::Matmul(_),
            ) => "pl math".to_owned(),
            Some(PlOp::At(_) | PlOp::Spmd(_) | PlOp::SplitAiv(_)) => "pl task".to_owned(),
            Some(PlOp::GetAivId(_) | PlOp::GetBlockIdx(_)) => "pl index".to_owned(),
            None => match PldOp::of(*op) {
                Some(PldOp::SystemNotify(notify)) => {
                    let attributes = pld::SystemNotifyOp::attributes(&notify).unwrap();
                    assert_eq!(attributes.static_offsets, vec![0, 0]);
                    format!("pld notify {}", attributes.op.keyword())
                }
                Some(other) => format!("pld {:?}", other),
                None => format!("other {}", op.name().as_string_ref().as_str().unwrap()),
            },
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "pld notify set",
            "pl memory",
            "pl memory",
            "other func.return"
        ]
    );
    // The view holds the op itself.
    let view = PldOp::of(ops[0]).unwrap();
    assert_eq!(view.operation(), ops[0]);
    assert!(matches!(
        pld::SystemNotifyOp::attributes(&view.operation()).map(|a| a.op),
        Some(NotifyOp::Set)
    ));
}

#[test]
fn pass_tables_come_from_passes_td() {
    use pld_dialect::declared::{OptionError, ascend_insert_sync, pld_verify};
    assert_eq!(pld_verify::ARGUMENT, "pld-verify");
    assert_eq!(
        ascend_insert_sync::OPTIONS
            .iter()
            .map(|option| (option.name, option.default))
            .collect::<Vec<_>>(),
        [("mode", "insert")]
    );
    assert_eq!(ascend_insert_sync::SYNCS.name, "syncs");
    assert_eq!(
        ascend_insert_sync::Options::parse(&["check"]),
        Ok(ascend_insert_sync::Options {
            mode: "check".to_owned()
        })
    );
    assert_eq!(
        ascend_insert_sync::Options::parse(&[]),
        Err(OptionError(
            "expected 1 option value(s), found 0".to_owned()
        ))
    );
}

#[test]
fn input_that_crashes_the_parser_is_found_where_it_is() {
    use pld_dialect::parser_guard::known_crash;
    let text = "func.func @f() {\n  %0 = \"x.y\"() {a = array< index: 0, 0>} : () -> ()\n}";
    assert_eq!(known_crash(text).map(|(l, c, _)| (l, c)), Some((2, 21)));
    // The near misses: an i64 array, `index` elsewhere, an identifier that
    // starts with it.
    assert_eq!(known_crash("{a = array<i64: 0, 0>, b = 1 : index}"), None);
    assert_eq!(known_crash("array<indexed: 1>"), None);
}

#[test]
fn op_documentation_comes_from_ods() {
    use ops::pld::{SystemNotifyOp, SystemWorldSizeOp};
    let world_size = ops::documentation(SystemWorldSizeOp::NAME).expect("pld's ops are documented");
    assert_eq!(
        world_size.summary,
        "number of ranks (host orchestrator only)"
    );
    // Reindented: the .td file's indentation and blank edges are gone.
    assert!(
        world_size
            .description
            .starts_with("Host-only: the number of ranks")
    );
    assert!(
        world_size
            .description
            .contains("\n```mlir\n%n = pld.system.world_size\n```")
    );
    assert!(
        !ops::documentation(SystemNotifyOp::NAME)
            .unwrap()
            .summary
            .is_empty()
    );
    // The upstream dialects pld builds are in the table too; others are not.
    assert!(ops::documentation("scf.for").is_some());
    assert_eq!(ops::documentation("pld.system.notifyy"), None);
    assert_eq!(ops::documentation("tensor.empty"), None);
}
