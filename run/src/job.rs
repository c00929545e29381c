//! The simulator harness's job file, input binary and output binary.
//!
//! Job file: text, one directive per line, in this order:
//!
//! ```text
//! ranks <N>
//! blocks <B>
//! entry <host|kernel>
//! timeout <seconds>
//! launches <K>
//! windows reset
//! race on
//! schedule replay <t0>,<t1>,... | schedule pct <seed> <depth>
//! trace <path>
//! timing <key>=<value> ...
//! values skip
//! events <path>
//! stats <path>
//! input <path>
//! output <path>
//! arg <index> window <dtype> <d0>x<d1>x... [name=<name>]
//! arg <index> global <dtype> <d0>x<d1>x... [name=<name>]
//! arg <index> scalar <dtype> [name=<name>]
//! ```
//!
//! The harness splits lines into whitespace-separated words and treats `#`
//! as the start of a comment, so a path must contain neither (and
//! [`Job::render`] refuses one that does). `<dtype>` is the MLIR spelling
//! (`f16`, `bf16`, `i32`, `index`, ...). One `arg` line per entry argument,
//! in index order, ending in `name=<name>` (the entry signature's name for
//! it, without `%`, which the harness's reports use) where the source gives
//! one. `race`, `schedule`, `trace` and `timing` (the machine model's
//! parameters; the harness then orders the run by modelled time and writes
//! it into the stats) are optional; `values skip` (`pld-run
//! --timing-only`: the bulk values are not computed) needs `timing`; `trace`
//! (the serialized run's choices, see [`crate::explore`]) needs `schedule`.
//! A 0-d array has no dimensions to list; its dims are
//! written `1`, which has the same single element and the same bytes.
//! `launches` (`pld-run --launches`, 1 when left out) runs the entry that
//! many times, every rank finishing one launch before any starts the next;
//! the windows keep what a launch left them, or start each launch as the
//! first did with `windows reset`.
//!
//! Input binary: per launch, for rank 0..N-1, for each argument in index
//! order: an array's raw little-endian elements; a scalar's 8 bytes (i64
//! two's complement for integer types, f64 bits for float types; see
//! [`ElementType::encode_scalar`](crate::element::ElementType::encode_scalar)).
//! A launch after the first takes its windows' part only with `windows
//! reset`.
//!
//! Output binary: per launch, for rank 0..N-1, for each window or global
//! argument in index order: its raw bytes when the launch ended.

use crate::Error;
use crate::args::{ArgKind, ArgLayout};
use crate::values::Values;
use std::fs;
use std::path::{Path, PathBuf};

/// Which kind of function the entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A host orchestrator (`#pl.kernel<host>`), run per rank on the task
    /// runtime.
    Host,
    /// A kernel (`#pl.kernel<incore>`), launched on every block of every
    /// rank.
    Kernel,
}

impl Entry {
    pub fn name(self) -> &'static str {
        match self {
            Entry::Host => "host",
            Entry::Kernel => "kernel",
        }
    }
}

/// One harness run.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    pub ranks: usize,
    pub blocks: u32,
    pub entry: Entry,
    pub timeout_secs: u64,
    /// How many times the entry runs, at least 1.
    pub launches: usize,
    /// Whether each launch starts with the windows as the first did.
    pub reset_windows: bool,
    /// Whether the simulator checks pld's happens-before (`race on`).
    pub race: bool,
    /// How a serialized run chooses ([`crate::cli::Schedule`]); `None`:
    /// the threads run freely.
    pub schedule: Option<crate::cli::Schedule>,
    /// Threads asleep once a replayed schedule ends
    /// ([`crate::explore::Next`]).
    pub asleep: Vec<u32>,
    /// The MPI backend's `rma` mode (`mpi rma`; the thread simulator
    /// ignores it).
    pub mpi_rma: bool,
    /// Where a serialized run writes its trace.
    pub trace: Option<PathBuf>,
    /// The machine model's `KEY=VALUE` parameters of a timed run.
    pub timing: Option<Vec<String>>,
    /// A timed run that skips the bulk values (`values skip`,
    /// `--timing-only`): tile math, matmuls and element copies.
    pub skip_values: bool,
    /// Where the harness writes the run's trace events (`--trace`).
    pub events: Option<PathBuf>,
    /// Where the harness writes its counters (see [`crate::stats`]).
    pub stats: PathBuf,
    /// The input binary ([`write_input`]).
    pub input: PathBuf,
    /// Where the harness writes the output binary ([`read_output`]).
    pub output: PathBuf,
    pub args: Vec<ArgLayout>,
}

/// Whether `text` reads back from the job file as one word: non-empty,
/// without whitespace or `#`.
fn is_job_word(text: &str) -> bool {
    !text.is_empty() && !text.contains(|c: char| c.is_whitespace() || c == '#')
}

impl Job {
    /// The job file's bytes. Fails only for a path the harness cannot read
    /// back: one containing whitespace or `#`.
    pub fn render(&self) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        let mut line = |text: String| {
            out.extend_from_slice(text.as_bytes());
            out.push(b'\n');
        };
        line(format!("ranks {}", self.ranks));
        line(format!("blocks {}", self.blocks));
        line(format!("entry {}", self.entry.name()));
        line(format!("timeout {}", self.timeout_secs));
        if self.launches > 1 {
            line(format!("launches {}", self.launches));
        }
        if self.reset_windows {
            line("windows reset".to_owned());
        }
        if self.race {
            line("race on".to_owned());
        }
        if self.mpi_rma {
            line("mpi rma".to_owned());
        }
        if let Some(schedule) = &self.schedule {
            let mut directive = format!("schedule {}", schedule.directive());
            if !self.asleep.is_empty() {
                directive += &format!(" asleep={}", crate::cli::choice_list(&self.asleep));
            }
            line(directive);
        }
        if let Some(parameters) = &self.timing {
            line(format!("timing {}", parameters.join(" ")));
        }
        if self.skip_values {
            line("values skip".to_owned());
        }
        let mut paths = Vec::new();
        for (key, path) in self
            .trace
            .iter()
            .map(|trace| ("trace", trace))
            .chain(self.events.iter().map(|events| ("events", events)))
            .chain([
                ("stats", &self.stats),
                ("input", &self.input),
                ("output", &self.output),
            ])
        {
            let bytes = path.as_os_str().as_encoded_bytes();
            if bytes.is_empty() || bytes.iter().any(|b| b.is_ascii_whitespace() || *b == b'#') {
                return Err(Error::new(format!(
                    "the {key} path `{}` cannot be written to the job file: it must be non-empty, without whitespace or `#`",
                    path.display()
                )));
            }
            paths.push((key, bytes));
        }
        for (key, bytes) in paths {
            out.extend_from_slice(key.as_bytes());
            out.push(b' ');
            out.extend_from_slice(bytes);
            out.push(b'\n');
        }
        for arg in &self.args {
            let mut text = format!("arg {} {} {}", arg.index(), arg.kind(), arg.dtype());
            if arg.kind() != ArgKind::Scalar {
                let dims = if arg.shape().is_empty() {
                    "1".to_owned()
                } else {
                    arg.shape()
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join("x")
                };
                text.push(' ');
                text.push_str(&dims);
            }
            // The source's name, for reports; one the harness could not
            // read back as one word is left out.
            if let Some(name) = arg.name().filter(|name| is_job_word(name)) {
                text.push_str(" name=");
                text.push_str(name);
            }
            text.push('\n');
            out.extend_from_slice(text.as_bytes());
        }
        Ok(out)
    }

    /// Writes the job file.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        write_file(path, &self.render()?)
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    fs::write(path, bytes).map_err(|e| Error::new(format!("cannot write {}: {e}", path.display())))
}

/// The input binary for `values`.
pub fn input_bytes(values: &Values) -> Vec<u8> {
    let mut out = Vec::new();
    for rank in 0..values.ranks() {
        for layout in values.layouts() {
            let bytes = values.bytes(rank, layout.index());
            if layout.is_array() {
                out.extend_from_slice(bytes);
            } else {
                let value = layout.dtype().decode(bytes);
                out.extend_from_slice(&layout.dtype().encode_scalar(value));
            }
        }
    }
    out
}

/// Writes the input binary.
pub fn write_input(values: &Values, path: &Path) -> Result<(), Error> {
    write_file(path, &input_bytes(values))
}

/// The inputs of every launch, launch after launch.
pub fn write_inputs(launches: &[&Values], path: &Path) -> Result<(), Error> {
    write_file(
        path,
        &launches
            .iter()
            .flat_map(|values| input_bytes(values))
            .collect::<Vec<u8>>(),
    )
}

/// The number of bytes the output binary must have.
pub fn output_len(layouts: &[ArgLayout], ranks: usize) -> usize {
    ranks
        * layouts
            .iter()
            .filter(|l| l.is_array())
            .map(ArgLayout::byte_len)
            .sum::<usize>()
}

/// The final values: arrays from the output binary, scalars (which a run
/// cannot change) from `initial`.
pub fn parse_output(initial: &Values, bytes: &[u8]) -> Result<Values, Error> {
    let want = output_len(initial.layouts(), initial.ranks());
    if bytes.len() != want {
        return Err(Error::new(format!(
            "the harness's output has {} bytes, expected {want}",
            bytes.len()
        )));
    }
    let mut values = initial.clone();
    let mut rest = bytes;
    for rank in 0..initial.ranks() {
        for layout in initial.layouts().iter().filter(|l| l.is_array()) {
            let (head, tail) = rest.split_at(layout.byte_len());
            values.bytes_mut(rank, layout.index()).copy_from_slice(head);
            rest = tail;
        }
    }
    Ok(values)
}

/// Reads the output binary; see [`parse_output`].
pub fn read_output(initial: &Values, path: &Path) -> Result<Values, Error> {
    let mut launches = read_outputs(&[initial], path)?;
    Ok(launches.remove(0))
}

/// What each launch left, read against the launches' inputs `initial`.
pub fn read_outputs(initial: &[&Values], path: &Path) -> Result<Vec<Values>, Error> {
    let bytes = fs::read(path).map_err(|e| {
        Error::new(format!(
            "cannot read the harness's output {}: {e}",
            path.display()
        ))
    })?;
    let in_file = |e: Error| Error::new(format!("{}: {e}", path.display()));
    let Some(first) = initial.first() else {
        return Ok(Vec::new());
    };
    let each = output_len(first.layouts(), first.ranks());
    if bytes.len() != each * initial.len() {
        return Err(in_file(Error::new(format!(
            "the harness's output has {} bytes, expected {} ({} launches)",
            bytes.len(),
            each * initial.len(),
            initial.len()
        ))));
    }
    initial
        .iter()
        .enumerate()
        .map(|(at, launch)| parse_output(launch, &bytes[at * each..][..each]).map_err(in_file))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::ElementType;
    use crate::expr::Expr;
    use std::collections::BTreeMap;

    fn layouts() -> Vec<ArgLayout> {
        vec![
            ArgLayout::new(0, ArgKind::Window, ElementType::F16, vec![2, 3]).unwrap(),
            ArgLayout::new(1, ArgKind::Scalar, ElementType::I32, vec![]).unwrap(),
            ArgLayout::new(2, ArgKind::Global, ElementType::I8, vec![4]).unwrap(),
            ArgLayout::new(3, ArgKind::Scalar, ElementType::F32, vec![]).unwrap(),
            ArgLayout::new(4, ArgKind::Global, ElementType::F64, vec![]).unwrap(),
        ]
    }

    fn job() -> Job {
        Job {
            ranks: 2,
            blocks: 3,
            entry: Entry::Kernel,
            timeout_secs: 60,
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
            stats: "/tmp/run/stats.json".into(),
            input: "/tmp/run/input.bin".into(),
            output: "/tmp/run/output.bin".into(),
            args: layouts(),
        }
    }

    #[test]
    fn job_file_text() {
        let text = String::from_utf8(job().render().unwrap()).unwrap();
        assert_eq!(
            text,
            "ranks 2\nblocks 3\nentry kernel\ntimeout 60\n\
             stats /tmp/run/stats.json\ninput /tmp/run/input.bin\noutput /tmp/run/output.bin\n\
             arg 0 window f16 2x3\narg 1 scalar i32\narg 2 global i8 4\narg 3 scalar f32\narg 4 global f64 1\n"
        );
        let mut named = job();
        named.args[0] = named.args[0].clone().with_name(Some("ws".into()));
        named.args[1] = named.args[1].clone().with_name(Some("n".into()));
        // A name the harness could not read back as one word is left out.
        named.args[2] = named.args[2].clone().with_name(Some("a b".into()));
        let text = String::from_utf8(named.render().unwrap()).unwrap();
        assert!(
            text.ends_with(
                "arg 0 window f16 2x3 name=ws\narg 1 scalar i32 name=n\narg 2 global i8 4\narg 3 scalar f32\narg 4 global f64 1\n"
            ),
            "{text}"
        );
        let mut rma = job();
        rma.mpi_rma = true;
        let text = String::from_utf8(rma.render().unwrap()).unwrap();
        assert!(text.contains("\ntimeout 60\nmpi rma\n"), "{text}");
        let mut timed = job();
        timed.timing = Some(vec!["alpha_ns=500".into()]);
        timed.skip_values = true;
        let text = String::from_utf8(timed.render().unwrap()).unwrap();
        assert!(
            text.contains("\ntiming alpha_ns=500\nvalues skip\nstats "),
            "{text}"
        );
        let mut serialized = job();
        serialized.race = true;
        serialized.schedule = Some(crate::cli::Schedule::Replay(vec![0, 2, 1]));
        serialized.trace = Some("/tmp/run/trace.txt".into());
        assert!(
            String::from_utf8(serialized.render().unwrap())
                .unwrap()
                .contains("race on\nschedule replay 0,2,1\ntrace /tmp/run/trace.txt\nstats ")
        );
        serialized.schedule = Some(crate::cli::Schedule::Replay(vec![]));
        assert!(
            String::from_utf8(serialized.render().unwrap())
                .unwrap()
                .contains("\nschedule replay\n")
        );
        serialized.asleep = vec![3, 1];
        assert!(
            String::from_utf8(serialized.render().unwrap())
                .unwrap()
                .contains("\nschedule replay asleep=3,1\n")
        );
        serialized.asleep.clear();
        serialized.schedule = Some(crate::cli::Schedule::Pct { seed: 7, depth: 2 });
        assert!(
            String::from_utf8(serialized.render().unwrap())
                .unwrap()
                .contains("\nschedule pct 7 2\n")
        );
        let mut host = job();
        host.entry = Entry::Host;
        host.args.truncate(0);
        assert!(
            String::from_utf8(host.render().unwrap())
                .unwrap()
                .contains("entry host\n")
        );
        for path in ["a b", "a\nb", "a#b", "a\tb", ""] {
            let mut bad = job();
            bad.input = path.into();
            let err = bad.render().unwrap_err().to_string();
            assert!(err.contains("without whitespace or `#`"), "{err}");
        }
    }

    #[test]
    fn input_layout_is_rank_major_with_8_byte_scalars() {
        let init: BTreeMap<usize, Expr> = [
            (0, "r * 10 + i"),
            (1, "-1 - r"),
            (2, "i - 2"),
            (3, "0.5 + r"),
            (4, "7"),
        ]
        .into_iter()
        .map(|(a, s)| (a, Expr::parse(s).unwrap()))
        .collect();
        let values = Values::initial(&layouts(), 2, &init, &BTreeMap::new()).unwrap();
        let bytes = input_bytes(&values);
        let mut want = Vec::new();
        for rank in 0..2 {
            for i in 0..6 {
                let h = crate::element::f16_from_f64(f64::from(rank * 10 + i));
                want.extend_from_slice(&h.to_le_bytes());
            }
            want.extend_from_slice(&i64::from(-1 - rank).to_le_bytes());
            want.extend_from_slice(&[0xfe, 0xff, 0, 1]);
            want.extend_from_slice(&(0.5 + f64::from(rank)).to_le_bytes());
            want.extend_from_slice(&7f64.to_le_bytes());
        }
        assert_eq!(bytes, want);
        assert_eq!(bytes.len(), 2 * (12 + 8 + 4 + 8 + 8));
    }

    #[test]
    fn output_layout_skips_scalars() {
        let init: BTreeMap<usize, Expr> = [(1, "5")]
            .into_iter()
            .map(|(a, s)| (a, Expr::parse(s).unwrap()))
            .collect();
        let initial = Values::initial(&layouts(), 2, &init, &BTreeMap::new()).unwrap();
        assert_eq!(output_len(&layouts(), 2), 2 * (12 + 4 + 8));
        let bytes: Vec<u8> = (0..48u8).collect();
        let out = parse_output(&initial, &bytes).unwrap();
        assert_eq!(out.bytes(0, 0), &bytes[..12]);
        assert_eq!(out.bytes(0, 2), &bytes[12..16]);
        assert_eq!(out.bytes(0, 4), &bytes[16..24]);
        assert_eq!(out.bytes(1, 0), &bytes[24..36]);
        assert_eq!(out.bytes(1, 4), &bytes[40..48]);
        assert_eq!(out.get(1, 1, 0), crate::expr::Value::Int(5));
        let err = parse_output(&initial, &bytes[1..]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the harness's output has 47 bytes, expected 48"
        );
    }

    #[test]
    fn files_round_trip() {
        let dir = std::env::temp_dir().join(format!("pld-run-core-job-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let values = Values::zeros(&layouts(), 2);
        write_input(&values, &dir.join("input.bin")).unwrap();
        assert_eq!(
            fs::read(dir.join("input.bin")).unwrap(),
            input_bytes(&values)
        );
        job().write(&dir.join("job.txt")).unwrap();
        assert!(
            fs::read_to_string(dir.join("job.txt"))
                .unwrap()
                .starts_with("ranks 2\n")
        );
        fs::write(dir.join("output.bin"), vec![1; 48]).unwrap();
        let out = read_output(&values, &dir.join("output.bin")).unwrap();
        assert_eq!(out.bytes(1, 2), [1; 4]);
        let err = read_output(&values, &dir.join("none.bin"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("cannot read the harness's output"), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn launches_follow_each_other_in_the_files() {
        let dir =
            std::env::temp_dir().join(format!("pld-run-core-launches-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let init: BTreeMap<usize, Expr> = [(2, Expr::parse("l * 10 + r").unwrap())].into();
        let launches: Vec<Values> = (0..3)
            .map(|launch| {
                Values::initial_at(&layouts(), 2, launch, &init, &BTreeMap::new()).unwrap()
            })
            .collect();
        let inputs: Vec<&Values> = launches.iter().collect();
        write_inputs(&inputs, &dir.join("input.bin")).unwrap();
        let input = fs::read(dir.join("input.bin")).unwrap();
        assert_eq!(input.len(), 3 * input_bytes(&launches[0]).len());
        assert_eq!(
            input[input.len() / 3..][..input.len() / 3],
            input_bytes(&launches[1])[..]
        );
        let text = String::from_utf8(
            Job {
                launches: 3,
                reset_windows: true,
                ..job()
            }
            .render()
            .unwrap(),
        )
        .unwrap();
        assert!(text.contains("launches 3\nwindows reset\n"), "{text}");
        // The output of launch k is launch k's values.
        let each = output_len(&layouts(), 2);
        let bytes: Vec<u8> = (0..3u8).flat_map(|k| vec![k; each]).collect();
        fs::write(dir.join("output.bin"), &bytes).unwrap();
        let out = read_outputs(&inputs, &dir.join("output.bin")).unwrap();
        assert_eq!(out.len(), 3);
        assert_eq!(out[2].bytes(1, 2), [2; 4]);
        let short = read_outputs(&inputs[..2], &dir.join("output.bin"))
            .unwrap_err()
            .to_string();
        assert!(short.contains("expected"), "{short}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
