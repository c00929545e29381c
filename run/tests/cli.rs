//! pld-run's command line: every option in both spellings, the values
//! each takes, the rules between options and every usage error's words.

use pld_run_core::cli::{
    Arg, Backend, Command, DEFAULT_EXPLORE_MAX, Mpi, MpiMode, Options, Sanitizer, Schedule,
    StatsFormat, parse, usage,
};
use std::ffi::OsString;
use std::path::PathBuf;

fn run(args: &[&str]) -> Options {
    match parse(args.iter().copied()) {
        Ok(Command::Run(options)) => options,
        other => panic!("{args:?}: {other:?}"),
    }
}

fn error(args: &[&str]) -> String {
    match parse(args.iter().copied()) {
        Err(e) => e.message,
        other => panic!("{args:?} parsed: {other:?}"),
    }
}

#[test]
fn minimal_command_takes_defaults() {
    let o = run(&["a.mlir", "--ranks", "4"]);
    assert_eq!(o.input, PathBuf::from("a.mlir"));
    assert_eq!(o.ranks, 4);
    assert_eq!(o.blocks, 1);
    assert_eq!(o.timeout_secs, 60);
    assert_eq!(o.entry, None);
    assert!(o.init.is_empty() && o.load.is_empty() && o.shape.is_empty());
    assert!(o.expect.is_empty() && o.print.is_empty());
    assert_eq!((o.rtol, o.atol), (None, None));
    assert_eq!((o.stats, o.sanitize), (None, None));
    assert_eq!((o.dump, o.keep, o.pipeline), (None, None, None));
}

#[test]
fn every_flag_in_both_spellings() {
    let spaced = run(&[
        "--ranks",
        "8",
        "--entry",
        "main",
        "--blocks",
        "2",
        "--init",
        "0=r*100+i",
        "--load",
        "1=in/x{rank}.npy",
        "--shape",
        "0=4x17",
        "--expect",
        "0=sum_r(r*100+i)",
        "--rtol",
        "1e-3",
        "--atol",
        "0",
        "--print",
        "0",
        "--print",
        "2",
        "--dump",
        "out",
        "--stats",
        "--timeout",
        "5",
        "--sanitize",
        "thread",
        "--pipeline",
        "pld-to-cce-pipeline",
        "--keep",
        "kept",
        "k.mlir",
    ]);
    let joined = run(&[
        "k.mlir",
        "--ranks=8",
        "--entry=main",
        "--blocks=2",
        "--init=0=r*100+i",
        "--load=1=in/x{rank}.npy",
        "--shape=0=4x17",
        "--expect=0=sum_r(r*100+i)",
        "--rtol=1e-3",
        "--atol=0",
        "--print=0",
        "--print=2",
        "--dump=out",
        "--stats",
        "--timeout=5",
        "--sanitize=thread",
        "--pipeline=pld-to-cce-pipeline",
        "--keep=kept",
    ]);
    assert_eq!(spaced, joined);
    let o = spaced;
    assert_eq!(o.input, PathBuf::from("k.mlir"));
    assert_eq!(o.ranks, 8);
    assert_eq!(o.entry.as_deref(), Some("main"));
    assert_eq!(o.blocks, 2);
    assert_eq!(o.init[&Arg::Position(0)].source(), "r*100+i");
    assert_eq!(o.load[&Arg::Position(1)], PathBuf::from("in/x{rank}.npy"));
    assert_eq!(o.shape[&Arg::Position(0)], [4, 17]);
    assert_eq!(o.expect[&Arg::Position(0)].source(), "sum_r(r*100+i)");
    assert_eq!((o.rtol, o.atol), (Some(1e-3), Some(0.0)));
    assert_eq!(o.print, [Arg::Position(0), Arg::Position(2)]);
    assert_eq!(o.dump, Some(PathBuf::from("out")));
    assert_eq!(o.stats, Some(StatsFormat::Table));
    assert_eq!(o.timeout_secs, 5);
    assert_eq!(o.sanitize, Some(Sanitizer::Thread));
    assert_eq!(o.pipeline.as_deref(), Some("pld-to-cce-pipeline"));
    assert_eq!(o.keep, Some(PathBuf::from("kept")));
}

#[test]
fn backends_and_their_options() {
    let o = run(&["a", "--ranks", "3"]);
    assert_eq!((o.backend, o.mpi), (Backend::Thread, Mpi::default()));
    let o = run(&[
        "a",
        "--ranks",
        "3",
        "--backend",
        "mpi",
        "--mpirun=/opt/ompi/bin/mpirun",
        "--hostfile",
        "hosts",
    ]);
    assert_eq!(o.backend, Backend::Mpi);
    assert_eq!(o.mpi.mpirun, Some(PathBuf::from("/opt/ompi/bin/mpirun")));
    assert_eq!(o.mpi.hostfile, Some(PathBuf::from("hosts")));
    // A hostfile may span machines: rma unless told otherwise.
    assert_eq!(o.mpi.mode, MpiMode::Rma);
    let mode = |extra: &[&str]| {
        let mut args = vec!["a", "--ranks", "2", "--backend", "mpi"];
        args.extend_from_slice(extra);
        run(&args).mpi.mode
    };
    assert_eq!(mode(&[]), MpiMode::Node);
    assert_eq!(mode(&["--mpi-mode", "rma"]), MpiMode::Rma);
    assert_eq!(
        mode(&["--hostfile", "hosts", "--mpi-mode=node"]),
        MpiMode::Node
    );
    assert_eq!(
        error(&["a", "--ranks", "1", "--backend", "mpi", "--mpi-mode", "shm"]),
        "--mpi-mode expects node or rma, got `shm`"
    );
    assert_eq!(
        error(&["a", "--ranks", "1", "--mpi-mode", "rma"]),
        "--mpi-mode configures --backend mpi; give --backend mpi too"
    );
    assert_eq!(
        run(&["a", "--ranks", "1", "--backend=thread"]).backend,
        Backend::Thread
    );
    assert_eq!(
        error(&["a", "--ranks", "1", "--backend", "ucx"]),
        "--backend expects thread or mpi, got `ucx`"
    );
    assert_eq!(
        error(&["a", "--ranks", "1", "--hostfile", "h"]),
        "--hostfile configures --backend mpi; give --backend mpi too"
    );
    assert_eq!(
        error(&["a", "--ranks", "1", "--backend", "mpi", "--mpirun", ""]),
        "--mpirun needs a non-empty path"
    );
    for option in [
        &["--sanitize", "race"][..],
        &["--schedule", "0,1"],
        &["--explore"],
        &["--timing"],
        &["--trace", "t.json"],
    ] {
        let mut args = vec!["a", "--ranks", "2", "--backend", "mpi"];
        args.extend_from_slice(option);
        assert_eq!(
            error(&args),
            format!(
                "{} needs every rank in one process: it runs on --backend thread, not mpi",
                option[0]
            )
        );
    }
}

#[test]
fn stats_formats_and_sanitizers() {
    assert_eq!(
        run(&["a", "--ranks", "1", "--stats=json"]).stats,
        Some(StatsFormat::Json)
    );
    assert_eq!(
        run(&["a", "--ranks", "1", "--stats=table"]).stats,
        Some(StatsFormat::Table)
    );
    assert_eq!(
        run(&["a", "--ranks", "1", "--sanitize", "address"]).sanitize,
        Some(Sanitizer::Address)
    );
    assert_eq!(Sanitizer::Thread.name(), "thread");
    assert_eq!(
        error(&["a", "--ranks", "1", "--stats=xml"]),
        "--stats takes no value or =json, got `xml`"
    );
    assert_eq!(
        error(&["a", "--ranks", "1", "--stats", "json"]),
        "unexpected argument `json`: only one FILE.mlir is run (write --stats=json)"
    );
    assert!(
        error(&["a", "--ranks", "1", "--sanitize", "memory"]).contains("race, thread or address")
    );
}

#[test]
fn repeated_keyed_options_collect_per_argument() {
    let o = run(&[
        "a", "--ranks", "2", "--init", "0=1", "--init", "2=r", "--expect", "1=2", "--expect",
        "0=i", "--load", "3=x.npy", "--shape", "3=2x2", "--shape", "0=5",
    ]);
    assert_eq!(
        o.init.keys().cloned().collect::<Vec<_>>(),
        [Arg::Position(0), Arg::Position(2)]
    );
    assert_eq!(
        o.expect.keys().cloned().collect::<Vec<_>>(),
        [Arg::Position(0), Arg::Position(1)]
    );
    assert_eq!(o.shape[&Arg::Position(0)], [5]);
    assert_eq!(o.shape[&Arg::Position(3)], [2, 2]);
}

#[test]
fn arguments_by_name() {
    let o = run(&[
        "a",
        "--ranks",
        "2",
        "--init",
        "data=r",
        "--expect",
        "%out=1",
        "--print",
        "%out",
        "--shape",
        "x.y$-_1=4",
        "--load",
        "sig=s.npy",
    ]);
    let name = |n: &str| Arg::Name(n.to_owned());
    assert_eq!(o.init[&name("data")].source(), "r");
    assert_eq!(o.expect[&name("out")].source(), "1");
    assert_eq!(o.print, [name("out")]);
    assert_eq!(o.shape[&name("x.y$-_1")], [4]);
    assert_eq!(o.load[&name("sig")], PathBuf::from("s.npy"));
    assert_eq!(name("data").to_string(), "data");
    assert_eq!(Arg::Position(3).to_string(), "3");
    // -1 is a name (MLIR allows `%-1`), not a position.
    assert_eq!(run(&["a", "--ranks", "2", "--init", "-1=1"]).init.len(), 1);
}

#[test]
fn values_may_start_with_a_dash_and_contain_equals() {
    let o = run(&[
        "a",
        "--ranks",
        "2",
        "--init",
        "0=-r",
        "--expect",
        "0=(r == 0) - r",
    ]);
    assert_eq!(o.init[&Arg::Position(0)].source(), "-r");
    assert_eq!(o.expect[&Arg::Position(0)].source(), "(r == 0) - r");
    let o = run(&["a", "--ranks", "2", "--load", "0=dir=x/{rank}.npy"]);
    assert_eq!(o.load[&Arg::Position(0)], PathBuf::from("dir=x/{rank}.npy"));
    let o = run(&["--ranks", "2", "--", "--odd.mlir"]);
    assert_eq!(o.input, PathBuf::from("--odd.mlir"));
    assert_eq!(run(&["-", "--ranks", "1"]).input, PathBuf::from("-"));
}

#[test]
fn help_wins() {
    assert_eq!(parse(["--help"]), Ok(Command::Help));
    assert_eq!(parse(["a.mlir", "--ranks", "0", "-h"]), Ok(Command::Help));
    assert_eq!(parse(["--bogus", "--help"]), Ok(Command::Help));
    // After `--` it is a file name.
    assert!(parse(["--ranks", "1", "--", "--help"]).is_ok_and(|c| c != Command::Help));
    // That every option is in it: `cli::line`'s unit test.
    let text = usage();
    assert!(text.contains("--sanitize <race|thread|address>"), "{text}");
}

#[test]
fn range_checks() {
    assert_eq!(run(&["a", "--ranks", "64"]).ranks, 64);
    assert_eq!(run(&["a", "--ranks", "1"]).ranks, 1);
    for bad in ["0", "65", "-1", "+3", "x", "", "4.0"] {
        assert_eq!(
            error(&["a", "--ranks", bad]),
            format!("--ranks expects a number of ranks in 1..=64, got `{bad}`")
        );
    }
    assert!(error(&["a", "--ranks", "1", "--blocks", "0"]).contains("number of blocks >= 1"));
    assert!(error(&["a", "--ranks", "1", "--timeout", "0"]).contains("seconds >= 1"));
    assert!(error(&["a", "--ranks", "1", "--timeout", "1.5"]).contains("seconds >= 1"));
    assert_eq!(run(&["a", "--ranks", "1", "--blocks", "48"]).blocks, 48);
    for bad in ["-1", "nan", "inf", "x"] {
        assert!(
            error(&["a", "--ranks", "1", "--rtol", bad]).contains("--rtol expects a number >= 0")
        );
    }
    assert!(error(&["a", "--ranks", "1", "--atol", "-0.5"]).contains("--atol expects"));
}

#[test]
fn schedules_and_exploration() {
    let o = run(&["a", "--ranks", "2", "--schedule", "0,2,1"]);
    assert_eq!(o.schedule, Some(Schedule::Replay(vec![0, 2, 1])));
    assert_eq!(o.schedule.unwrap().directive(), "replay 0,2,1");
    let o = run(&["a", "--ranks", "2", "--schedule=pct:7"]);
    assert_eq!(o.schedule, Some(Schedule::Pct { seed: 7, depth: 3 }));
    let o = run(&["a", "--ranks", "2", "--schedule", "pct:7:1"]);
    assert_eq!(o.schedule.unwrap().directive(), "pct 7 1");
    let o = run(&["a", "--ranks", "2", "--explore"]);
    assert_eq!(o.explore, Some(DEFAULT_EXPLORE_MAX));
    assert_eq!(o.sanitize, Some(Sanitizer::Race));
    let o = run(&["a", "--ranks", "2", "--explore=5", "--sanitize", "race"]);
    assert_eq!(o.explore, Some(5));
    for (args, want) in [
        (
            &["a", "--ranks", "2", "--schedule", "0,,1"][..],
            "--schedule expects choices like 0,2,1 or pct:SEED[:DEPTH], got `0,,1`",
        ),
        (
            &["a", "--ranks", "2", "--schedule", "pct:x"],
            "--schedule expects choices like 0,2,1 or pct:SEED[:DEPTH], got `pct:x`",
        ),
        (
            &["a", "--ranks", "2", "--schedule", "pct:1:0"],
            "--schedule expects choices like 0,2,1 or pct:SEED[:DEPTH], got `pct:1:0`",
        ),
        (
            &["a", "--ranks", "2", "--schedule", "pct:1:2:3"],
            "--schedule expects choices like 0,2,1 or pct:SEED[:DEPTH], got `pct:1:2:3`",
        ),
        (
            &["a", "--ranks", "2", "--explore=0"],
            "--explore expects a number of schedules >= 1 (as --explore=MAX), got `0`",
        ),
        (
            &["a", "--ranks", "2", "--explore", "--schedule", "0"],
            "--explore chooses the schedules itself; give --schedule or --explore",
        ),
        (
            &["a", "--ranks", "2", "--explore", "--sanitize", "thread"],
            "--explore checks pld's happens-before (--sanitize race); it does not run under another sanitizer",
        ),
        (
            &["a", "--ranks", "2", "--explore", "--print", "0"],
            "--print describes one run and --explore makes many: replay one with --schedule",
        ),
        (
            &["a", "--ranks", "2", "--explore", "--stats"],
            "--stats describes one run and --explore makes many: replay one with --schedule",
        ),
    ] {
        assert_eq!(error(args), want, "{args:?}");
    }
    // `--explore 5` leaves 5 as a second FILE.
    assert!(error(&["a", "--ranks", "2", "--explore", "5"]).starts_with("unexpected argument `5`"));
}

#[test]
fn usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["--ranks", "2"], "missing FILE.mlir (see --help)"),
        (&["a.mlir"], "--ranks N is required"),
        (
            &["a", "b", "--ranks", "2"],
            "unexpected argument `b`: only one FILE.mlir is run",
        ),
        (&["a", "--ranks"], "--ranks needs a value"),
        (
            &["a", "--ranks", "2", "--frobnicate"],
            "unknown option `--frobnicate` (see --help)",
        ),
        (
            &["a", "--ranks", "2", "-x"],
            "unknown option `-x` (see --help)",
        ),
        (
            &["a", "--ranks", "2", "--ranks", "3"],
            "--ranks is given more than once",
        ),
        (
            &["a", "--ranks", "2", "--stats", "--stats=json"],
            "--stats is given more than once",
        ),
        (
            &["a", "--ranks", "2", "--entry", ""],
            "--entry needs a non-empty value",
        ),
        (
            &["a", "--ranks", "2", "--dump="],
            "--dump needs a non-empty path",
        ),
        (
            &["a", "--ranks", "2", "--init", "0"],
            "--init expects ARG=EXPR, got `0`",
        ),
        (
            &["a", "--ranks", "2", "--init", "x y=1"],
            "--init: ARG must be an argument's 0-based position or its name as the source writes it (data or %data), got `x y`",
        ),
        (
            &["a", "--ranks", "2", "--init", "%=1"],
            "--init: ARG must be an argument's 0-based position or its name as the source writes it (data or %data), got `%`",
        ),
        (
            &["a", "--ranks", "2", "--print", "1a"],
            "--print: ARG must be an argument's 0-based position or its name as the source writes it (data or %data), got `1a`",
        ),
        (
            &["a", "--ranks", "2", "--init", "data=1", "--init", "%data=2"],
            "--init is given more than once for argument data",
        ),
        (
            &["a", "--ranks", "2", "--init", "0=1", "--init", "0=2"],
            "--init is given more than once for argument 0",
        ),
        (
            &["a", "--ranks", "2", "--print", "1", "--print", "1"],
            "--print is given more than once for argument 1",
        ),
        (
            &["a", "--ranks", "2", "--shape", "0=4", "--shape", "0=4"],
            "--shape is given more than once for argument 0",
        ),
        (
            &["a", "--ranks", "2", "--load", "0=x", "--load", "0=y"],
            "--load is given more than once for argument 0",
        ),
        (
            &["a", "--ranks", "2", "--expect", "1=1", "--expect=1=2"],
            "--expect is given more than once for argument 1",
        ),
        (
            &["a", "--ranks", "2", "--load", "0="],
            "--load needs a non-empty path",
        ),
        (
            &["a", "--ranks", "2", "--shape", "0=4x"],
            "--shape 0=4x: expected dimensions like 4x8 (decimal sizes joined by x)",
        ),
        (
            &["a", "--ranks", "2", "--shape", "0=?x4"],
            "--shape 0=?x4: expected dimensions like 4x8 (decimal sizes joined by x)",
        ),
        (
            &["a", "--ranks", "2", "--shape", "0="],
            "--shape 0=: expected dimensions like 4x8 (decimal sizes joined by x)",
        ),
        (&["a", "--ranks", "2", "--help=1"], "--help takes no value"),
    ];
    for (args, want) in cases {
        assert_eq!(error(args), *want, "{args:?}");
    }
}

#[test]
fn expression_errors_show_the_column() {
    assert_eq!(
        error(&["a", "--ranks", "2", "--expect", "1=r+"]),
        "--expect 1=r+: column 3: expected a number, a name or `(`, found end of input\n  r+\n    ^"
    );
    assert!(
        error(&["a", "--ranks", "2", "--init", "0="])
            .starts_with("--init 0=: column 1: expected a number")
    );
}

#[cfg(unix)]
#[test]
fn paths_need_not_be_utf8() {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let bad = |bytes: &[u8]| OsString::from_vec(bytes.to_vec());
    let args = [
        bad(b"\xff.mlir"),
        "--ranks".into(),
        "1".into(),
        bad(b"--load=0=\xfe{rank}.npy"),
        bad(b"--dump=\xfd"),
    ];
    let Ok(Command::Run(o)) = parse(args) else {
        panic!("not parsed")
    };
    assert_eq!(o.input.as_os_str().as_bytes(), b"\xff.mlir");
    assert_eq!(
        o.load[&Arg::Position(0)].as_os_str().as_bytes(),
        b"\xfe{rank}.npy"
    );
    assert_eq!(o.dump.unwrap().as_os_str().as_bytes(), b"\xfd");
    let err = parse([
        OsString::from("a"),
        "--ranks".into(),
        "1".into(),
        "--entry".into(),
        bad(b"\xff"),
    ]);
    assert_eq!(
        err.unwrap_err().message,
        "--entry: value is not valid UTF-8"
    );
}

#[test]
fn timing_only_is_timing_without_the_values() {
    let timing = |args: &[&str]| run(args).timing.unwrap();
    let only = timing(&["a", "--ranks", "2", "--timing-only"]);
    assert_eq!((only.model.as_str(), only.skip_values), ("910b", true));
    assert!(!timing(&["a", "--ranks", "2", "--timing"]).skip_values);
    let modelled = timing(&[
        "a",
        "--ranks",
        "2",
        "--timing-only",
        "--timing=910b",
        "--model",
        "alpha_ns=1",
    ]);
    assert_eq!(modelled.overrides, ["alpha_ns=1"]);
    assert!(modelled.skip_values);
    let o = run(&[
        "a",
        "--ranks",
        "2",
        "--timing-only",
        "--init",
        "0=r",
        "--sanitize",
        "race",
        "--stats",
    ]);
    assert_eq!(o.sanitize, Some(Sanitizer::Race));
    for (option, verb) in [
        (&["--expect", "0=1"][..], "check"),
        (&["--print", "0"], "print"),
        (&["--dump", "d"], "dump"),
    ] {
        let mut args = vec!["a", "--ranks", "2", "--timing-only"];
        args.extend_from_slice(option);
        assert_eq!(
            error(&args),
            format!(
                "{} reads the final values, but --timing-only skips the values, so there is nothing to {verb}; run with --timing to {verb} them",
                option[0]
            )
        );
    }
    assert!(
        error(&["a", "--ranks", "2", "--timing-only", "--sanitize", "thread"])
            .starts_with("--sanitize thread checks the simulator's own memory accesses")
    );
    assert_eq!(
        error(&["a", "--ranks", "2", "--timing-only", "--schedule", "0"]),
        "--timing-only orders the run by modelled time; it does not combine with --schedule"
    );
    assert_eq!(
        error(&["a", "--ranks", "2", "--timing-only", "--backend", "mpi"]),
        "--timing-only needs every rank in one process: it runs on --backend thread, not mpi"
    );
    assert_eq!(
        error(&["a", "--ranks", "2", "--timing-only", "--timing-only"]),
        "--timing-only is given more than once"
    );
}

#[test]
fn launches_and_their_rules() {
    let o = run(&["a", "--ranks", "2", "--launches", "3", "--reset-windows"]);
    assert_eq!((o.launches, o.reset_windows), (3, true));
    assert_eq!(run(&["a", "--ranks", "2"]).launches, 1);
    assert!(
        error(&["a", "--ranks", "2", "--launches", "0"])
            .contains("a number of launches in 1..=1000")
    );
    assert!(
        error(&["a", "--ranks", "2", "--launches", "1001"])
            .contains("a number of launches in 1..=1000")
    );
    assert_eq!(
        error(&["a", "--ranks", "2", "--reset-windows"]),
        "--reset-windows resets the windows between launches; give --launches too"
    );
    for (option, value) in [
        ("--explore", None),
        ("--schedule", Some("0")),
        ("--backend", Some("mpi")),
    ] {
        let mut args = vec!["a", "--ranks", "2", "--launches", "2", option];
        args.extend(value);
        let name = if option == "--backend" {
            "--backend mpi"
        } else {
            option
        };
        assert_eq!(
            error(&args),
            format!("{name} runs one launch; --launches runs several on --backend thread")
        );
    }
}
