//! pld's passes through the Rust API: registered by `register_passes`, parsed
//! into an ordinary pass pipeline with options, diagnostics with notes.

use melior::{
    Context,
    ir::{Module, operation::OperationLike},
    pass::PassManager,
    utility::parse_pass_pipeline,
};
use pld_dialect::create_context;
use pld_ir::pass::bridge::OptionError;
use std::sync::{Arc, Mutex};

/// Every pass these tests use, registered once before any test parses a
/// pipeline: MLIR's pass registry must not change while another thread reads
/// it (an embedder registers at start-up, as here).
fn register_all() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        pld_passes::register_passes();
        pld_ir::pass::bridge::register::<CountOps>();
        pld_ir::pass::bridge::register::<Panics>();
    });
}

/// Runs `pipeline` on `source`; returns whether it succeeded and every
/// diagnostic, notes included.
fn run(context: &Context, pipeline: &str, source: &str) -> (bool, String) {
    register_all();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let handler = context.attach_diagnostic_handler(move |diagnostic| {
        let mut lines = vec![format!(
            "{}: {:?}: {}",
            diagnostic.location(),
            diagnostic.severity(),
            diagnostic
        )];
        for index in 0..diagnostic.note_count() {
            if let Ok(note) = diagnostic.note(index) {
                lines.push(format!("  {}: note: {note}", note.location()));
            }
        }
        sink.lock().unwrap().extend(lines);
        true
    });
    let mut module = Module::parse(context, source).expect("test input parses");
    let manager = PassManager::new(context);
    let ok = match parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline) {
        // Option errors are reported when the pipeline is parsed.
        Err(error) => {
            seen.lock().unwrap().push(error.to_string());
            false
        }
        Ok(()) => manager.run(&mut module).is_ok(),
    };
    context.detach_diagnostic_handler(handler);
    assert!(module.as_operation().verify());
    let text = seen.lock().unwrap().join("\n");
    (ok, text)
}

const MIXED: &str = r#"
func.func @host(%s: !pld.dtensor<2x1xi32>) {
  %n = pld.system.world_size
  %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<2x1xi32>
  %me = pld.system.rank %ctx
  return
}
"#;

#[test]
fn placement_errors_point_at_the_deciding_scope() {
    let context = create_context();
    let (ok, diagnostics) = run(&context, "builtin.module(pld-verify)", MIXED);
    assert!(!ok);
    insta::assert_snapshot!(diagnostics, @r#"
    loc("-":5:9): Error: 'pld.system.rank' is only legal in InCore code, but it stands in host code
      loc("-":2:1): note: the enclosing function has no pl.kernel attribute, so it is a host orchestrator (pld-verify default-kind=host)
    "#);
}

#[test]
fn default_kind_option_changes_unmarked_functions() {
    let context = create_context();
    let (ok, diagnostics) = run(
        &context,
        "builtin.module(pld-verify{default-kind=incore})",
        MIXED,
    );
    assert!(!ok);
    insta::assert_snapshot!(diagnostics, @r#"
    loc("-":3:8): Error: 'pld.system.world_size' is only legal in host code, but it stands in InCore code
      loc("-":2:1): note: the enclosing function has no pl.kernel attribute, so it is an InCore kernel (pld-verify default-kind=incore)
    "#);
}

#[test]
fn bad_option_values_are_rejected_when_the_pipeline_is_parsed() {
    let context = create_context();
    let (ok, diagnostics) = run(
        &context,
        "builtin.module(pld-verify{default-kind=aic})",
        MIXED,
    );
    assert!(!ok);
    assert!(
        diagnostics.contains("expected default-kind to be 'host' or 'incore', found 'aic'"),
        "{diagnostics}"
    );
}

#[test]
fn well_placed_programs_pass_quietly() {
    let context = create_context();
    let (ok, diagnostics) = run(
        &context,
        "builtin.module(pld-verify)",
        r#"
        func.func @host() attributes {pl.kernel = #pl.kernel<host>} {
          %n = pld.system.world_size
          return
        }
        func.func @kernel(%s: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
          %ctx = pld.system.get_comm_ctx %s : !pld.dtensor<2x1xi32>
          %me = pld.system.rank %ctx
          return
        }
        "#,
    );
    assert!(ok, "{diagnostics}");
    assert_eq!(diagnostics, "");
}

/// A pass written against the bridge by an embedding compiler: it counts the
/// ops of one name and reports the count as a remark-like warning.
struct CountOps {
    name: String,
}

impl pld_ir::pass::bridge::Pass for CountOps {
    const ARGUMENT: &'static str = "test-count-ops";
    const DESCRIPTION: &'static str = "Count the ops of one name (bridge test)";
    const OPTIONS: &'static [pld_ir::pass::bridge::PassOption] =
        &[pld_ir::pass::bridge::PassOption {
            name: "op-name",
            description: "The op name to count",
            default: "pld.system.notify",
        }];

    fn from_options(values: &[&str]) -> Result<Self, OptionError> {
        let name = values[0];
        if !name.contains('.') {
            return Err(format!("expected a dialect-qualified op name, found '{name}'").into());
        }
        Ok(Self {
            name: name.to_owned(),
        })
    }

    fn run(
        &self,
        op: melior::ir::operation::OperationRef,
        _: &pld_ir::pass::bridge::Statistics,
    ) -> Result<(), pld_ir::pass::bridge::PassFailed> {
        let mut count = 0;
        op.walk(melior::ir::operation::WalkOrder::PreOrder, |nested| {
            if nested.name().as_string_ref().as_str() == Ok(self.name.as_str()) {
                count += 1;
            }
            melior::ir::operation::WalkResult::Advance
        });
        pld_dialect::diagnostics::emit(
            pld_dialect::diagnostics::Severity::Warning,
            op.location(),
            &format!("{count} x {}", self.name),
            &[],
        );
        Ok(())
    }
}

#[test]
fn embedders_register_their_own_rust_passes_with_options() {
    let context = create_context();
    register_all();
    pld_ir::pass::bridge::register::<CountOps>();
    let source = r#"
        func.func @k(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
          pld.system.notify %s[0, 0], peer %p, value %v, op set : !pld.dtensor<2x1xi32>
          pld.system.notify %s[1, 0], peer %p, value %v, op set : !pld.dtensor<2x1xi32>
          pld.system.wait %s[0, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
          return
        }
    "#;
    let (ok, diagnostics) = run(&context, "builtin.module(test-count-ops)", source);
    assert!(ok);
    assert!(
        diagnostics.ends_with("Warning: 2 x pld.system.notify"),
        "{diagnostics}"
    );
    let (ok, diagnostics) = run(
        &context,
        "builtin.module(test-count-ops{op-name=pld.system.wait},pld-verify{remarks=false})",
        source,
    );
    assert!(ok);
    assert!(
        diagnostics.ends_with("Warning: 1 x pld.system.wait"),
        "{diagnostics}"
    );
    let (ok, diagnostics) = run(
        &context,
        "builtin.module(test-count-ops{op-name=wait})",
        source,
    );
    assert!(!ok);
    assert!(
        diagnostics.contains("test-count-ops: expected a dialect-qualified op name, found 'wait'"),
        "{diagnostics}"
    );
}

/// A pass with a bug: the bridge turns its panic into a located error.
struct Panics;

impl pld_ir::pass::bridge::Pass for Panics {
    const ARGUMENT: &'static str = "test-panics";
    const DESCRIPTION: &'static str = "Panic (bridge test)";

    fn from_options(_: &[&str]) -> Result<Self, OptionError> {
        Ok(Self)
    }

    fn run(
        &self,
        _: melior::ir::operation::OperationRef,
        _: &pld_ir::pass::bridge::Statistics,
    ) -> Result<(), pld_ir::pass::bridge::PassFailed> {
        panic!("an invariant the pass relied on does not hold")
    }
}

#[test]
fn a_panicking_pass_fails_with_an_error_instead_of_aborting() {
    let context = create_context();
    register_all();
    pld_ir::pass::bridge::register::<Panics>();
    let (ok, diagnostics) = run(&context, "builtin.module(test-panics)", "module {}");
    assert!(!ok);
    assert!(
        diagnostics.contains(
            "internal error in pass 'test-panics': an invariant the pass relied on does not hold"
        ),
        "{diagnostics}"
    );
}

#[test]
fn registering_twice_is_harmless() {
    register_all();
    pld_passes::register_passes();
    pld_passes::register_passes();
    pld_ir::pass::bridge::register::<pld_passes::verify::PldVerify>();
}

#[test]
fn the_lowering_pipeline_runs_with_options_through_the_rust_api() {
    let context = create_context();
    let source = r#"
func.func @k(%d: !pld.dtensor<1x17xf32>, %s: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %r = pld.tensor.allreduce %d, %s, op sum : !pld.dtensor<1x17xf32>, !pld.dtensor<4x1xi32>
  return
}
"#;
    register_all();
    let mut module = Module::parse(&context, source).expect("test input parses");
    let manager = PassManager::new(&context);
    parse_pass_pipeline(
        manager.as_operation_pass_manager(),
        "builtin.module(pld-to-ascend-pipeline{chunk-bytes=32 ub-bytes=4096 algorithm=seed-mesh})",
    )
    .expect("the pipeline and its options parse");
    assert!(manager.run(&mut module).is_ok());
    let text = module.as_operation().to_string();
    assert!(!text.contains("pld.tensor.allreduce"));
    // 32-byte chunks of f32 are 8 wide: 17 elements take 3 chunks.
    assert!(text.contains("!pl.tile<1x8xf32>"), "{text}");

    // oneshot on 4 ranks keeps 10 chunk tiles: 320 bytes of unified buffer
    // leave 32 bytes each.
    let mut module = Module::parse(&context, source).expect("test input parses");
    let manager = PassManager::new(&context);
    parse_pass_pipeline(
        manager.as_operation_pass_manager(),
        "builtin.module(pld-to-ascend-pipeline{ub-bytes=320 algorithm=oneshot model=910b \
         model-overrides=alpha_ns=500,issue_ns=10})",
    )
    .expect("the pipeline and its options parse");
    assert!(manager.run(&mut module).is_ok());
    let text = module.as_operation().to_string();
    assert!(text.contains("!pl.tile<1x8xf32>"), "{text}");

    let (ok, diagnostics) = run(
        &context,
        "builtin.module(pld-to-ascend-pipeline{chunk-bytes=31})",
        source,
    );
    assert!(!ok);
    assert!(
        diagnostics.contains(
            "pld-to-ascend-pipeline: expected chunk-bytes to be a positive multiple of 32 of at \
             most 65536, found 31"
        ),
        "{diagnostics}"
    );
}

#[test]
fn staging_tiles_follow_the_written_chunking_and_fit_the_unified_buffer() {
    use pld_passes::expand::staging::{Stage, fit, written};
    assert_eq!(
        written(Some(8), Some(128), 4, 64),
        Some(Stage { rows: 4, cols: 64 })
    );
    assert_eq!(
        written(Some(8), Some(128), 0, 0),
        Some(Stage { rows: 8, cols: 128 })
    );
    assert_eq!(
        written(Some(2), Some(16), 4, 64),
        Some(Stage { rows: 2, cols: 16 })
    );
    assert_eq!(
        written(None, Some(16), 4, 0),
        Some(Stage { rows: 4, cols: 16 })
    );
    assert_eq!(written(None, Some(16), 0, 0), None);
    let stage = Stage {
        rows: 64,
        cols: 1024,
    };
    assert_eq!(
        fit(stage, 4, 1, 196608),
        Some(Stage {
            rows: 48,
            cols: 1024
        })
    );
    assert_eq!(
        fit(stage, 4, 2, 196608),
        Some(Stage {
            rows: 24,
            cols: 1024
        })
    );
    let wide = Stage {
        rows: 4,
        cols: 100_000,
    };
    assert_eq!(
        fit(wide, 4, 2, 196608),
        Some(Stage {
            rows: 1,
            cols: 24576
        })
    );
    assert_eq!(fit(Stage { rows: 1, cols: 8 }, 4, 2, 32), None);
}
