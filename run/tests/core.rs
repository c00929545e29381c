//! pld-run's flow through this crate's public API, with a few lines of
//! Rust standing in for the compiled program and the simulator harness.

use pld_run_core::args::{ArgKind, Dim, EntryArg, bind, resolve, validate};
use pld_run_core::check::compare;
use pld_run_core::cli::{self, Command, Options};
use pld_run_core::element::ElementType;
use pld_run_core::expr::Value;
use pld_run_core::job::{self, Entry, Job};
use pld_run_core::npy::{Array, Dtype};
use pld_run_core::print::format_arg;
use pld_run_core::stats::Stats;
use pld_run_core::status::ExitStatus;
use pld_run_core::values::Expected;
use pld_run_core::values::Values;
use std::fs;
use std::path::{Path, PathBuf};

fn options(args: &[&str]) -> Options {
    match cli::parse(args.iter().copied()) {
        Ok(Command::Run(options)) => options,
        other => panic!("{other:?}"),
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pld-run-core-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// An allreduce(sum) of argument 0 in place, as the harness would leave it,
/// optionally with one element of one rank corrupted.
fn fake_allreduce(job: &Job, corrupt: Option<(usize, usize)>) {
    let input = fs::read(&job.input).unwrap();
    let per_rank: usize = job
        .args
        .iter()
        .map(|a| if a.is_array() { a.byte_len() } else { 8 })
        .sum();
    assert_eq!(input.len(), job.ranks * per_rank);
    let arg = &job.args[0];
    let dtype = arg.dtype();
    let mut sums = vec![0f64; arg.len()];
    for rank in 0..job.ranks {
        let bytes = &input[rank * per_rank..][..arg.byte_len()];
        for (k, sum) in sums.iter_mut().enumerate() {
            *sum += dtype.decode_f64(&bytes[k * dtype.size()..]);
        }
    }
    let mut output = Vec::new();
    for rank in 0..job.ranks {
        for (k, sum) in sums.iter().enumerate() {
            let off = if corrupt == Some((rank, k)) { 1.0 } else { 0.0 };
            dtype.encode(Value::Float(sum + off), &mut output);
        }
        // Argument 2, a global, comes back unchanged.
        let start = rank * per_rank + arg.byte_len() + 8;
        output.extend_from_slice(&input[start..start + job.args[2].byte_len()]);
    }
    fs::write(&job.output, output).unwrap();
    // The harness's stats file, multi-line as it writes it.
    let ranks: Vec<String> = (0..job.ranks)
        .map(|r| {
            format!(
                "{{\"rank\": {r}, \"remote_load_bytes\": {}, \"remote_store_bytes\": 0, \"put_bytes\": 0, \"get_bytes\": 0, \"notifies\": 3, \"waits\": 3, \"wait_ns\": 1000}}",
                (job.ranks - 1) * arg.byte_len()
            )
        })
        .collect();
    let stats = format!("{{\"ranks\": [\n  {}\n]}}\n", ranks.join(",\n  "));
    fs::write(&job.stats, stats).unwrap();
}

fn entry() -> Vec<EntryArg> {
    vec![
        EntryArg {
            index: 0,
            name: None,
            kind: ArgKind::Window,
            dtype: ElementType::F16,
            dims: vec![Dim::Dynamic],
        },
        EntryArg {
            index: 1,
            name: None,
            kind: ArgKind::Scalar,
            dtype: ElementType::Index,
            dims: vec![],
        },
        EntryArg {
            index: 2,
            name: None,
            kind: ArgKind::Global,
            dtype: ElementType::I32,
            dims: vec![Dim::Static(2), Dim::Static(2)],
        },
    ]
}

struct Run {
    status: ExitStatus,
    report: String,
    final_values: Values,
}

fn run(o: &Options, dir: &Path, corrupt: Option<(usize, usize)>) -> Run {
    let bound = bind(&entry(), o).unwrap();
    let layouts = resolve(&entry(), &bound.shape).unwrap();
    validate(&layouts, &bound).unwrap();
    let initial = Values::initial(&layouts, o.ranks, &bound.init, &bound.load).unwrap();
    let expected = Expected::new(&layouts, o.ranks, &bound.expect).unwrap();
    let job = Job {
        ranks: o.ranks,
        blocks: o.blocks,
        entry: Entry::Kernel,
        timeout_secs: o.timeout_secs,
        launches: 1,
        reset_windows: false,
        race: false,
        schedule: None,
        asleep: Vec::new(),
        mpi_rma: false,
        trace: None,
        timing: None,
        skip_values: false,
        events: None,
        stats: dir.join("stats.json"),
        input: dir.join("input.bin"),
        output: dir.join("output.bin"),
        args: layouts,
    };
    job.write(&dir.join("job.txt")).unwrap();
    job::write_input(&initial, &job.input).unwrap();
    fake_allreduce(&job, corrupt);
    let final_values = job::read_output(&initial, &job.output).unwrap();
    let report = compare(
        &final_values,
        &expected,
        bound.expect.keys().copied(),
        o.rtol,
        o.atol,
    );
    Run {
        status: report.status(),
        report: report.to_string(),
        final_values,
    }
}

#[test]
fn an_allreduce_that_holds() {
    let dir = temp_dir("core-ok");
    let o = options(&[
        "allreduce.mlir",
        "--ranks",
        "4",
        "--shape",
        "0=17",
        "--init",
        "0=r * 100 + i",
        "--init",
        "1=42",
        "--init",
        "2=i0 * 10 + i1",
        "--expect",
        "0=sum_r(r * 100 + i)",
        "--expect",
        "2=i0 * 10 + i1",
        "--print",
        "2",
    ]);
    let Run {
        status,
        report,
        final_values,
    } = run(&o, &dir, None);
    assert_eq!(status, ExitStatus::Ok, "{report}");
    assert_eq!(report, "");
    assert_eq!(final_values.get(3, 0, 16), Value::Float(664.0));
    assert_eq!(final_values.get(3, 1, 0), Value::Int(42));
    let job_text = fs::read_to_string(dir.join("job.txt")).unwrap();
    assert!(job_text.ends_with("arg 0 window f16 17\narg 1 scalar index\narg 2 global i32 2x2\n"));
    assert_eq!(
        format_arg(&final_values, 2)
            .lines()
            .take(3)
            .collect::<Vec<_>>(),
        [
            "rank 0, argument 2 (global i32 [2, 2]):",
            "[[ 0,  1],",
            " [10, 11]]"
        ]
    );
    let stats = Stats::read(&dir.join("stats.json")).unwrap();
    assert_eq!(stats.total().remote_load_bytes, 4 * 3 * 34);
    assert!(
        stats
            .to_table()
            .lines()
            .last()
            .unwrap()
            .starts_with("total")
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_wrong_element_fails_with_status_1() {
    let dir = temp_dir("core-fail");
    let o = options(&[
        "allreduce.mlir",
        "--ranks",
        "4",
        "--shape",
        "0=17",
        "--init",
        "0=r * 100 + i",
        "--expect",
        "0=sum_r(r * 100 + i)",
    ]);
    let Run { status, report, .. } = run(&o, &dir, Some((2, 5)));
    assert_eq!(status, ExitStatus::ExpectationFailed);
    assert_eq!(
        report,
        "rank 2, argument 0, index [5], got 621.0, expected 620.0\n"
    );
    // f16's default tolerance (1e-3 relative) does not cover an error of 1
    // in 620, but an explicit --atol does.
    let o = options(&[
        "allreduce.mlir",
        "--ranks",
        "4",
        "--shape",
        "0=17",
        "--init",
        "0=r * 100 + i",
        "--expect",
        "0=sum_r(r * 100 + i)",
        "--atol",
        "1",
    ]);
    assert_eq!(run(&o, &dir, Some((2, 5))).status, ExitStatus::Ok);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn loads_per_rank_files_and_dumps_results() {
    let dir = temp_dir("core-npy");
    for rank in 0..2 {
        let data: Vec<u8> = (0..3)
            .flat_map(|i| ((rank * 3 + i) as f32 * 0.5).to_le_bytes())
            .collect();
        Array {
            dtype: Dtype::F4,
            shape: vec![3],
            data,
        }
        .write(&dir.join(format!("in{rank}.npy")))
        .unwrap();
    }
    let load = format!("0={}/in{{rank}}.npy", dir.display());
    let dump = dir.join("dump");
    let o = options(&[
        "allreduce.mlir",
        "--ranks",
        "2",
        "--shape",
        "0=3",
        "--load",
        &load,
        "--dump",
        dump.to_str().unwrap(),
        "--expect",
        "0=sum_r((r * 3 + i) * 0.5)",
    ]);
    let Run {
        status,
        report,
        final_values,
    } = run(&o, &dir, None);
    assert_eq!(status, ExitStatus::Ok, "{report}");
    final_values.dump(o.dump.as_deref().unwrap()).unwrap();
    let back = Array::read(&dump.join("rank1.arg0.npy")).unwrap();
    assert_eq!((back.dtype, back.shape.as_slice()), (Dtype::F2, &[3][..]));
    assert_eq!(back.get(2), Value::Float(3.5));
    assert!(dump.join("rank0.arg2.npy").exists());
    assert!(
        !dump.join("rank0.arg1.npy").exists(),
        "scalars are not dumped"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn input_mistakes_are_caught_before_running() {
    let layouts = resolve(&entry(), &[(0, vec![4])].into_iter().collect()).unwrap();
    let o = options(&["a.mlir", "--ranks", "2", "--expect", "2=i0 + i2"]);
    let err = validate(&layouts, &bind(&entry(), &o).unwrap()).unwrap_err();
    assert_eq!(err.status(), ExitStatus::BadInput);
    assert!(
        err.to_string()
            .starts_with("--expect 2=i0 + i2: column 6: `i2` does not exist"),
        "{err}"
    );
    let o = options(&["a.mlir", "--ranks", "2", "--expect", "0=1 / (r - 1)"]);
    let err = Expected::new(&layouts, o.ranks, &bind(&entry(), &o).unwrap().expect).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("--expect 0=1 / (r - 1) at rank 1, index [0]: column 3: division by zero")
    );
    let err = resolve(&entry(), &Default::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("give its shape with --shape 0=D0x...")
    );
    assert_eq!(
        cli::parse(["a.mlir"]).unwrap_err().status(),
        ExitStatus::BadInput
    );
}
