//! From a parsed module to a program: lowering it to C++ and building that
//! against the simulator, through the build cache.

use crate::{
    Error, Flavour, Parsed, Program, blocks,
    build::Toolchain,
    cache::{self, Cache},
    messages::{Message, Sink},
    mpi::{self, MpiCompiler},
};
use melior::{Context, ir::Module, pass::PassManager, utility::parse_pass_pipeline};
use pld_run_core::{cli::Mpi, job::Entry};
use std::path::{Path, PathBuf};

/// The pipeline a module is lowered with unless
/// [`CompileOptions::pipeline`] names another.
pub const DEFAULT_PIPELINE: &str = "builtin.module(pld-to-cce-pipeline)";

/// The default pipeline for the entry kernel `entry` launched on `blocks`
/// blocks: pld-verify first judges that launch (its `entry` and `blocks`:
/// each block runs the kernel; the module's other entries as always), then
/// the default pipeline runs.
fn pipeline_on_blocks(entry: &str, blocks: u32) -> String {
    format!(
        "builtin.module(pld-verify{{entry={entry} blocks={blocks} remarks=false}}, \
         pld-to-cce-pipeline)"
    )
}

/// `pld-run --no-verify`'s: the default without pld-verify, for a program
/// its rules reject that the user wants to watch fail.
pub const UNVERIFIED_PIPELINE: &str = "builtin.module(pld-to-cce-pipeline{verify=false})";

/// How a module becomes a program.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompileOptions {
    /// The function to run (`name` or `@name`); `None`: the only host
    /// orchestrator, else the only kernel.
    pub entry: Option<String>,
    /// A pass pipeline; `None`: [`DEFAULT_PIPELINE`], with pld-verify
    /// first judging the entry kernel on `blocks` blocks when there are
    /// several.
    pub pipeline: Option<String>,
    /// The blocks the entry kernel is launched on (0 and 1: one).
    pub blocks: u32,
    pub flavour: Flavour,
    pub backend: Backend,
    /// The build cache's directory (checked to be the user's alone as
    /// pld-run checks it); `None`: where the environment says
    /// (docs/pld-run.md, "The build cache").
    pub cache: Option<PathBuf>,
}

/// How a program's ranks are hosted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// Every rank a thread of one simulator process.
    #[default]
    Thread,
    /// Every rank an MPI process, started with `mpirun` as `Mpi` says
    /// (docs/pld-run.md, "Ranks as MPI processes").
    Mpi(Mpi),
}

impl Parsed<'_> {
    /// Runs `pipeline` on the module without building anything (pld-verify
    /// alone, `builtin.module(pld-verify{ranks=2})`): its diagnostics go to
    /// the session's messages; [`Error::Lower`] when a pass fails.
    pub fn check(&mut self, pipeline: &str) -> Result<(), Error> {
        run_pipeline(&self.session.context, &mut self.module, pipeline)
    }

    /// The module lowered with `pipeline` ([`DEFAULT_PIPELINE`] when
    /// `None`) and printed as C++, without building it.
    pub fn to_cpp(self, pipeline: Option<&str>) -> Result<String, Error> {
        lower(
            &self.session.context,
            self.module,
            pipeline.unwrap_or(DEFAULT_PIPELINE),
        )
    }

    /// Lowers the module with `options.pipeline`, prints it as C++ and
    /// builds that (cached by content) to run the entry.
    pub fn build(self, options: &CompileOptions) -> Result<Program, Error> {
        let sink = self.session.sink();
        // Before the decomposition, so that the errors name the collectives
        // the user wrote.
        let module = self.module.as_operation();
        let tasks = blocks::spmd_collectives(module, &self.entry.symbol);
        if let Some(first) = tasks.first() {
            blocks::report_spmd(&tasks);
            return Err(Error::SpmdCollective {
                blocks: first.blocks,
                site: first.found.site(),
            });
        }
        let collectives = match self.entry.kind {
            Entry::Kernel => blocks::entry_collectives(module, &self.entry.symbol)
                .iter()
                .map(|found| found.site())
                .collect(),
            Entry::Host => Vec::new(),
        };
        let on_blocks =
            (options.pipeline.is_none() && options.blocks > 1 && self.entry.kind == Entry::Kernel)
                .then(|| pipeline_on_blocks(&self.entry.symbol, options.blocks));
        let pipeline = options
            .pipeline
            .as_deref()
            .or(on_blocks.as_deref())
            .unwrap_or(DEFAULT_PIPELINE);
        let cpp = lower(&self.session.context, self.module, pipeline)?;
        let cache = open_cache(options.cache.as_deref(), &sink)?;
        let mpi = match &options.backend {
            Backend::Thread => None,
            Backend::Mpi(settings) => {
                mpi::check_hostfile(settings)?;
                Some(MpiCompiler::find(settings.mpirun.as_deref())?)
            }
        };
        let binary = Toolchain::new(&cache, sink).program(
            &cpp,
            &format!("{}__entry", self.entry.cpp_symbol),
            options.flavour,
            mpi.as_ref(),
        )?;
        cache.evict(&[&binary.entry, &binary.runtime]);
        Ok(Program {
            cpp,
            binary,
            entry: self.entry,
            collectives,
            backend: options.backend.clone(),
            _cache: cache,
        })
    }
}

/// The cache at `requested` or the one the environment names (checked to
/// be the user's alone), or a private temporary one for this program when
/// neither names one.
fn open_cache(requested: Option<&Path>, notes: &Sink) -> Result<Cache, cache::CacheError> {
    let location = match requested {
        Some(path) => cache::Location::Directory(path.to_owned()),
        None => cache::location(),
    };
    match location {
        cache::Location::Directory(path) => Cache::open(&path, cache::max_bytes()?),
        cache::Location::None => {
            notes(Message::Note(
                "HOME, XDG_CACHE_HOME and PLD_RUN_CACHE are unset: building in a private temporary directory, removed after the run (set PLD_RUN_CACHE to keep builds)".to_owned(),
            ));
            Cache::temporary()
        }
    }
}

/// Lowers `module` with `pipeline` and prints it as C++.
fn lower(context: &Context, mut module: Module, pipeline: &str) -> Result<String, Error> {
    run_pipeline(context, &mut module, pipeline)?;
    pld_dialect::translate_to_cpp(&module.as_operation()).ok_or(Error::Translate)
}

/// Runs `pipeline` on `module`.
pub(crate) fn run_pipeline(
    context: &Context,
    module: &mut Module,
    pipeline: &str,
) -> Result<(), Error> {
    let manager = PassManager::new(context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline)
        .map_err(|error| Error::Pipeline(error.to_string()))?;
    manager.run(module).map_err(|_| Error::Lower)
}
