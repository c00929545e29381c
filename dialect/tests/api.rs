//! The Rust API of the dialects: context set-up, type constructors, typed
//! builders generated from ODS, and diagnostics with notes.

use melior::{
    Context,
    ir::{
        Block, BlockLike, Location, Module, Region, RegionLike, Type,
        attribute::{StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::{FunctionType, IntegerType},
    },
};
use pld_dialect::{
    create_context,
    diagnostics::{Severity, emit},
    ods, types,
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
fn ods_builders_build_verified_ops() {
    let context = create_context();
    let location = Location::unknown(&context);
    let i32 = IntegerType::new(&context, 32).into();
    let signal = types::distributed_tensor(&context, &[2, 1], i32).expect("a valid signal type");

    let block = Block::new(&[(signal, location)]);
    let ctx = block.append_operation(
        ods::pld::system_get_comm_ctx(
            &context,
            types::comm_ctx(&context),
            block.argument(0).unwrap().into(),
            location,
        )
        .into(),
    );
    block.append_operation(
        ods::pld::system_rank(&context, i32, ctx.result(0).unwrap().into(), location).into(),
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
      func.func @kernel(%arg0: !pld.dtensor<2x1xi32>) {
        %0 = pld.system.get_comm_ctx %arg0 : !pld.dtensor<2x1xi32>
        %1 = pld.system.rank %0
        return
      }
    }
    ");
}

#[test]
fn parsed_programs_are_verified_by_the_op_verifiers() {
    let context = create_context();
    let seen = capture_diagnostics(&context);
    let module = Module::parse(
        &context,
        r#"
        func.func @k(%d: !pld.dtensor<1x64xf32>, %s: !pld.dtensor<4x2xi32>) {
          %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>
          return
        }
        "#,
    );
    assert!(module.is_none());
    insta::assert_snapshot!(seen.lock().unwrap().join("\n"), @r#"
    Error: 'pld.tensor.allreduce' op mesh allreduce expects a signal of shape [N, 1], found [4, 2]
      note: see current operation: %0 = "pld.tensor.allreduce"(%arg0, %arg1) <{mode = #pld<mode mesh>, op = #pld<reduce_op sum>}> : (!pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>) -> !pld.dtensor<1x64xf32>
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
        CollectiveMode,
        TargetProfile,
        KernelKind,
        Level,
        SplitMode
    );
    {
        use pld_dialect::enums::ascend::{
            AtomicType as AscendAtomicType, NotifyOp as AscendNotifyOp, Pipe,
            WaitCmp as AscendWaitCmp,
        };
        check!(AscendNotifyOp, AscendWaitCmp, AscendAtomicType, Pipe);
    }
    // Another enum's attribute, or a non-enum attribute, is not mistaken for one.
    assert_eq!(WaitCmp::of(NotifyOp::Set.attribute(&context)), None);
    assert_eq!(
        NotifyOp::of(StringAttribute::new(&context, "set").into()),
        None
    );
    insta::assert_snapshot!(printed.join("\n"));
}
