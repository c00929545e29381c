//! Compiling a lowered module against the simulator, with every build
//! cached by content hash: the runtime (embedded in this binary) is written
//! out and built into a library once per runtime and flavour, and a program
//! once per emitted file, entry and flavour.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Child, Command},
    time::{Duration, Instant},
};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/runtime_files.rs"));
}

/// How a program is built: plain, or under a sanitizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavour {
    Plain,
    Thread,
    Address,
}

impl Flavour {
    fn name(self) -> &'static str {
        match self {
            Flavour::Plain => "plain",
            Flavour::Thread => "tsan",
            Flavour::Address => "asan",
        }
    }

    fn library_flags(self) -> &'static [&'static str] {
        match self {
            Flavour::Plain => &["-O2"],
            Flavour::Thread => &["-O1", "-g", "-fsanitize=thread"],
            Flavour::Address => &["-O1", "-g", "-fsanitize=address"],
        }
    }

    fn program_flags(self) -> &'static [&'static str] {
        match self {
            Flavour::Plain => &["-O1"],
            Flavour::Thread => &["-O1", "-g", "-fsanitize=thread"],
            Flavour::Address => &["-O1", "-g", "-fsanitize=address"],
        }
    }
}

/// The compiler and the cache.
pub struct Toolchain {
    cxx: PathBuf,
    cache: PathBuf,
}

/// 64-bit FNV-1a: a hash that stays the same across runs and builds.
fn fnv(parts: &[&[u8]]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.iter().chain(&[0xff]) {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

const COMMON_FLAGS: &[&str] = &["-std=c++20", "-pthread", "-w"];

impl Toolchain {
    /// `PLD_CXX` or the LLVM clang++ this binary was built with; the cache
    /// in `PLD_RUN_CACHE`, `$XDG_CACHE_HOME/pld/run` or `~/.cache/pld/run`.
    pub fn new() -> Self {
        let cxx = std::env::var_os("PLD_CXX")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("PLD_DEFAULT_CXX")));
        let cache = std::env::var_os("PLD_RUN_CACHE")
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("XDG_CACHE_HOME").map(|dir| PathBuf::from(dir).join("pld/run"))
            })
            .or_else(|| {
                std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/pld/run"))
            })
            .unwrap_or_else(|| std::env::temp_dir().join("pld-run-cache"));
        Self { cxx, cache }
    }

    /// The runtime's files, written out once per runtime.
    fn runtime(&self) -> Result<PathBuf, String> {
        let parts: Vec<&[u8]> = embedded::FILES
            .iter()
            .flat_map(|(path, contents)| [path.as_bytes(), *contents])
            .collect();
        let directory = self.cache.join(format!("runtime-{}", fnv(&parts)));
        if directory.join("complete").exists() {
            return Ok(directory);
        }
        let staging = self
            .cache
            .join(format!("runtime-staging-{}", std::process::id()));
        let _ = fs::remove_dir_all(&staging);
        for (path, contents) in embedded::FILES {
            let target = staging.join(path);
            fs::create_dir_all(target.parent().expect("a file has a directory"))
                .and_then(|_| fs::write(&target, contents))
                .map_err(|error| {
                    format!("cannot write the runtime to {}: {error}", staging.display())
                })?;
        }
        fs::write(staging.join("complete"), b"").map_err(|error| error.to_string())?;
        publish(&staging, &directory)?;
        Ok(directory)
    }

    /// The simulator library of `flavour`.
    fn library(&self, runtime: &Path, flavour: Flavour) -> Result<PathBuf, String> {
        let archive = runtime.join(format!("libpld_sim_{}.a", flavour.name()));
        if archive.exists() {
            return Ok(archive);
        }
        // One translation unit: the standard headers are parsed once.
        let mut unity = String::new();
        let mut sources: Vec<_> = fs::read_dir(runtime.join("sim"))
            .map_err(|error| error.to_string())?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "cpp"))
            .filter(|path| path.file_name().is_some_and(|name| name != "harness.cpp"))
            .collect();
        sources.sort();
        for source in sources {
            unity.push_str(&format!("#include \"{}\"\n", source.display()));
        }
        let pid = std::process::id();
        let unity_path = runtime.join(format!("unity-{}-{pid}.cpp", flavour.name()));
        let object = runtime.join(format!("unity-{}-{pid}.o", flavour.name()));
        fs::write(&unity_path, unity).map_err(|error| error.to_string())?;
        let mut compile = Command::new(&self.cxx);
        compile
            .args(COMMON_FLAGS)
            .args(flavour.library_flags())
            .arg("-I")
            .arg(runtime.join("include"))
            .arg("-c")
            .arg(&unity_path)
            .arg("-o")
            .arg(&object);
        run_with_progress(compile, "building the simulator library (once per runtime)")?;
        let staging = runtime.join(format!("libpld_sim_{}-{pid}.a", flavour.name()));
        let archiver = self.cxx.with_file_name("llvm-ar");
        let mut archive_command = Command::new(if archiver.exists() {
            archiver
        } else {
            "ar".into()
        });
        archive_command.arg("rcs").arg(&staging).arg(&object);
        run_with_progress(archive_command, "archiving the simulator library")?;
        let _ = fs::remove_file(&unity_path);
        let _ = fs::remove_file(&object);
        publish(&staging, &archive)?;
        Ok(archive)
    }

    /// The program that runs `cpp` with `entry` (the entry wrapper's name).
    pub fn program(&self, cpp: &str, entry: &str, flavour: Flavour) -> Result<PathBuf, String> {
        let runtime = self.runtime()?;
        let library = self.library(&runtime, flavour)?;
        let key = fnv(&[
            cpp.as_bytes(),
            entry.as_bytes(),
            flavour.name().as_bytes(),
            runtime.to_string_lossy().as_bytes(),
            self.cxx.to_string_lossy().as_bytes(),
        ]);
        let directory = self.cache.join(format!("program-{key}"));
        let program = directory.join("prog");
        if program.exists() {
            return Ok(program);
        }
        fs::create_dir_all(&directory).map_err(|error| error.to_string())?;
        let source = directory.join("emitted.cpp");
        fs::write(&source, cpp).map_err(|error| error.to_string())?;
        let staging = directory.join(format!("prog-{}", std::process::id()));
        let mut compile = Command::new(&self.cxx);
        compile
            .args(COMMON_FLAGS)
            .args(flavour.program_flags())
            // bf16 conversions need compiler-rt (Debian's libgcc lacks them).
            .arg("--rtlib=compiler-rt")
            .arg("-I")
            .arg(runtime.join("include"))
            .arg(format!("-DPLD_ENTRY={entry}"))
            .arg(&source)
            .arg(runtime.join("sim/harness.cpp"))
            .arg(&library)
            .arg("-o")
            .arg(&staging);
        run_with_progress(
            compile,
            "compiling the emitted C++ (cached by content afterwards)",
        )?;
        publish(&staging, &program)?;
        Ok(program)
    }
}

/// Moves a finished build into place; another process may have won the race
/// (then its identical result stays).
fn publish(staging: &Path, target: &Path) -> Result<(), String> {
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent).map_err(|error| error.to_string())?;
    }
    match fs::rename(staging, target) {
        Ok(()) => Ok(()),
        Err(_) if target.exists() => {
            let _ = fs::remove_dir_all(staging);
            let _ = fs::remove_file(staging);
            Ok(())
        }
        Err(error) => Err(format!(
            "cannot move {} into the cache: {error}",
            staging.display()
        )),
    }
}

/// Runs a build step; says what it does on stderr when it takes over a
/// second; its failure output goes to stderr.
fn run_with_progress(mut command: Command, what: &str) -> Result<(), String> {
    let started = Instant::now();
    // A file, not a pipe: a compiler that writes a lot must not block on a
    // reader that is waiting for it to finish.
    let log = tempfile_in_temp(what)?;
    let log_file = fs::File::create(&log).map_err(|error| error.to_string())?;
    let mut child: Child = command
        .stdout(log_file.try_clone().map_err(|error| error.to_string())?)
        .stderr(log_file)
        .spawn()
        .map_err(|error| format!("cannot start {:?}: {error}", command.get_program()))?;
    let mut announced = false;
    loop {
        if child
            .try_wait()
            .map_err(|error| error.to_string())?
            .is_some()
        {
            break;
        }
        if !announced && started.elapsed() > Duration::from_secs(1) {
            err!("pld-run: {what}...\n");
            announced = true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = child.wait().map_err(|error| error.to_string())?;
    if announced {
        err!(
            "pld-run: done in {:.1} s\n",
            started.elapsed().as_secs_f64()
        );
    }
    let output = fs::read(&log).unwrap_or_default();
    let _ = fs::remove_file(&log);
    if status.success() {
        return Ok(());
    }
    err!("{}", String::from_utf8_lossy(&output));
    Err(format!("{what} failed ({status})"))
}

/// A fresh file name in the temporary directory.
fn tempfile_in_temp(what: &str) -> Result<PathBuf, String> {
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let count = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(std::env::temp_dir().join(format!(
        "pld-run-{}-{count}-{}.log",
        std::process::id(),
        fnv(&[what.as_bytes()])
    )))
}
