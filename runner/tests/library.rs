//! pld-run as a library: a module compiled once and run through the API,
//! without argv, its results checked as values. (One test binary: each is
//! a static MLIR link of a few hundred MB.)
//!
//! The builds go to a cache of the test's own; the C++ compiler is the one
//! pld-run uses (`PLD_CXX`, else LLVM's clang++).

use pld_run::{CompileOptions, Error, Message, RunSpec, Session, Source};
use pld_run_core::{cli::Arg, expr::Expr, status::ExitStatus};
use std::path::{Path, PathBuf};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/allreduce.mlir")
}

fn expr(text: &str) -> Expr {
    Expr::parse(text).expect("a valid EXPR")
}

/// Options that build into `cache`.
fn options(cache: &tempfile::TempDir) -> CompileOptions {
    CompileOptions {
        cache: Some(cache.path().join("pld-run")),
        ..CompileOptions::default()
    }
}

/// allreduce on `ranks`: every rank's row `r * 10 + i`, summed.
fn allreduce(ranks: usize, expect: &str) -> RunSpec {
    RunSpec {
        ranks,
        init: [(Arg::Name("data".into()), expr("r * 10 + i"))].into(),
        expect: [(Arg::Position(0), expr(expect))].into(),
        ..RunSpec::default()
    }
}

#[test]
fn compiles_once_and_runs_on_several_rank_counts() {
    let cache = tempfile::tempdir().unwrap();
    let session = Session::new();
    let program = session
        .compile(Source::File(&example()), &options(&cache))
        .unwrap_or_else(|error| panic!("{error}; {:?}", session.messages()));
    assert_eq!(program.arguments().len(), 2);
    assert!(program.cpp().contains("allreduce"));
    for ranks in [2, 4] {
        let outcome = program
            .run(&allreduce(ranks, "sum_r(r * 10 + i)"))
            .expect("the run starts");
        assert_eq!(outcome.status, ExitStatus::Ok, "{outcome:?}");
        assert!(outcome.passed());
        let checks = outcome.checks.as_ref().expect("the program finished");
        assert_eq!(checks.compared, ranks * 8);
        let values = outcome.values.as_ref().expect("the program finished");
        let sum_of_ranks = (0..ranks).sum::<usize>() as f64;
        for rank in 0..ranks {
            for i in 0..8 {
                let expected = 10.0 * sum_of_ranks + (ranks * i) as f64;
                assert_eq!(values.get(rank, 0, i).as_f64(), expected);
            }
        }
    }
}

#[test]
fn a_failed_expectation_is_a_value() {
    let cache = tempfile::tempdir().unwrap();
    let session = Session::new();
    let text = std::fs::read_to_string(example()).unwrap();
    let program = session
        .compile(Source::Text(&text), &options(&cache))
        .unwrap_or_else(|error| panic!("{error}; {:?}", session.messages()));
    // Argument names are read from text too.
    assert_eq!(program.arguments()[0].name.as_deref(), Some("data"));

    let spec = RunSpec {
        print: vec![Arg::Position(0)],
        ..allreduce(3, "sum_r(r * 10 + i) + 1")
    };
    let outcome = program.run(&spec).expect("the run starts");
    assert_eq!(outcome.status, ExitStatus::ExpectationFailed);
    let checks = outcome.checks.expect("the program finished");
    assert!(!checks.passed());
    assert_eq!(checks.mismatches, 3 * 8);
    assert_eq!(checks.summary(), "24 of 24 checked values differ");
    assert_eq!(outcome.printed.len(), 1);
    // The program's own output is captured, not printed.
    assert!(outcome.output.is_some());

    // An input the entry does not have is an error before any run.
    let misnamed = RunSpec {
        init: [(Arg::Name("dat".into()), expr("r"))].into(),
        ..RunSpec::default()
    };
    let error = program.run(&misnamed).unwrap_err();
    assert!(matches!(error, Error::Input(_)), "{error:?}");
    assert!(
        error
            .to_string()
            .starts_with("--init dat: the entry has no argument %dat")
    );

    // The kernel runs a collective, which runs on one block per rank: a run
    // on several is an error before it starts.
    let error = program
        .run(&RunSpec {
            blocks: 2,
            ..allreduce(2, "sum_r(r * 10 + i)")
        })
        .unwrap_err();
    assert!(
        matches!(&error, Error::Blocks { blocks: 2, site }
            if site.op == "pld.tensor.allreduce" && site.location == "-:11:10"),
        "{error:?}"
    );
}

#[test]
fn diagnostics_are_collected() {
    let session = Session::new();
    let error = session
        .parse(Source::Text("func.func @f( {"), None)
        .err()
        .expect("the text does not parse");
    assert!(matches!(error, Error::Parse));
    let messages = session.messages();
    assert!(
        matches!(
            messages.as_slice(),
            [Message::Diagnostic(diagnostic)]
                if diagnostic.text == "-:1:14: error: expected non-function type\nfunc.func @f( {\n             ^\n"
        ),
        "{messages:?}"
    );
}

/// `Session::check`: pld-verify on a module of two kernels (no entry to
/// find), its diagnostics as values with their notes placed.
#[test]
fn a_module_without_an_entry_is_checked() {
    let session = Session::new();
    let text = "func.func @a() attributes {pl.kernel = #pl.kernel<incore>} {\n  \
                %n = pld.system.world_size\n  return\n}\n\
                func.func @b() attributes {pl.kernel = #pl.kernel<incore>} {\n  return\n}\n";
    let outcome = session.check(Source::Text(text), "builtin.module(pld-verify)");
    assert!(matches!(outcome, Err(Error::Lower)), "{outcome:?}");
    let messages = session.messages();
    let [Message::Diagnostic(diagnostic)] = messages.as_slice() else {
        panic!("one diagnostic: {messages:?}");
    };
    assert_eq!(
        diagnostic.location,
        Some((pld_run::TEXT_BUFFER.to_owned(), 2, 8))
    );
    assert!(
        diagnostic
            .message
            .starts_with("'pld.system.world_size' is only legal in host code"),
        "{diagnostic:?}"
    );
    let notes: Vec<_> = diagnostic
        .notes
        .iter()
        .map(|note| (note.message.as_str(), note.location.clone()))
        .collect();
    assert_eq!(
        notes,
        [(
            "the enclosing function is marked #pl.kernel<incore>",
            Some((pld_run::TEXT_BUFFER.to_owned(), 1, 1))
        )],
        "{diagnostic:?}"
    );
    // An op verifier's error is a parse error: nothing runs.
    let outcome = session.check(
        Source::Text("func.func @f(%s: !pld.dtensor<2x1xf32>, %p: index, %v: i32) {\n  \
                      pld.system.notify %s[0, 0], peer %p, value %v, op set : !pld.dtensor<2x1xf32>\n  \
                      return\n}\n"),
        "builtin.module(pld-verify)",
    );
    assert!(matches!(outcome, Err(Error::Parse)), "{outcome:?}");
}

#[test]
fn a_collective_on_several_blocks_is_located() {
    let session = Session::new();
    let parsed = session
        .parse(Source::File(&example()), None)
        .unwrap_or_else(|error| panic!("{error}; {:?}", session.messages()));
    parsed
        .check_blocks(1)
        .expect("one block runs the allreduce");
    let error = parsed.check_blocks(4).unwrap_err();
    assert!(
        matches!(error, Error::Blocks { blocks: 4, .. }),
        "{error:?}"
    );
    let messages = session.messages();
    assert!(
        matches!(
            messages.as_slice(),
            [Message::Diagnostic(diagnostic)]
                if diagnostic.text.contains("allreduce.mlir:11:10: error: 'pld.tensor.allreduce' runs on one core (block) per rank, but the kernel @allreduce was launched with 4 blocks (--blocks 4)")
        ),
        "{messages:?}"
    );
}
