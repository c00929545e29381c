//! An MLIR context with pld's dialects and passes, where modules are parsed
//! and their entry found ([`Session::parse`]), then lowered and built
//! ([`Parsed::build`], [`Session::compile`]).

use crate::{
    CompileOptions, Error, Program, blocks,
    entry::{self, EntryFunction},
    messages::{self, Diagnostic, Message, Severity, Sink, SourceLines},
};
use melior::{Context, ir::Module};
use pld_run_core::{args::EntryArg, job::Entry};
use std::{cell::RefCell, fs, path::Path, rc::Rc};

/// The file name MLIR's C API gives a module parsed from memory: its
/// locations, and so its diagnostics, point there.
pub const TEXT_BUFFER: &str = "-";

/// A module to compile: a file, or text (whose locations name no file;
/// argument names are read from it all the same).
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    File(&'a Path),
    Text(&'a str),
}

/// pld's MLIR context (dialects and passes registered) and where its
/// messages go: to a reporter as they happen, or into a list
/// [`Session::messages`] hands out.
pub struct Session {
    // Declared first so that it is dropped first: MLIR drops the
    // diagnostic handler, which holds the sink, with the context.
    pub(crate) context: Context,
    sink: Sink,
    collected: Rc<RefCell<Vec<Message>>>,
    sources: Rc<RefCell<SourceLines>>,
}

/// A parsed module and the function it runs.
pub struct Parsed<'c> {
    pub(crate) module: Module<'c>,
    pub(crate) entry: EntryFunction,
    pub(crate) session: &'c Session,
}

impl Parsed<'_> {
    /// The entry's arguments, as a [`crate::RunSpec`] names them.
    pub fn arguments(&self) -> &[EntryArg] {
        &self.entry.args
    }

    /// Whether the entry can run on `blocks` blocks per rank: a kernel
    /// that runs a collective (in its body or a function it calls, not
    /// guarded to one block by an `scf.if` on `pl.get_block_idx`) runs on
    /// one. Otherwise an error at each such collective, and
    /// [`Error::Blocks`] (as [`crate::Program::run`] says it, without the
    /// located errors, for a program built from this module).
    pub fn check_blocks(&self, blocks: u32) -> Result<(), Error> {
        if self.entry.kind != Entry::Kernel {
            return Ok(());
        }
        let found = blocks::entry_collectives(self.module.as_operation(), &self.entry.symbol);
        let found = blocks::conflicting(found, i64::from(blocks));
        let Some(first) = found.first() else {
            return Ok(());
        };
        blocks::report_entry(&found, &self.entry.symbol, blocks);
        Err(Error::Blocks {
            blocks,
            site: first.site(),
        })
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session that collects its messages for [`Session::messages`].
    pub fn new() -> Session {
        let collected: Rc<RefCell<Vec<Message>>> = Rc::default();
        let list = collected.clone();
        Session::with_sink(
            Rc::new(move |message| list.borrow_mut().push(message)),
            collected,
        )
    }

    /// A session that hands every message to `report` as it happens
    /// (pld-run prints them).
    pub fn reporting(report: impl Fn(Message) + 'static) -> Session {
        Session::with_sink(Rc::new(report), Rc::default())
    }

    fn with_sink(sink: Sink, collected: Rc<RefCell<Vec<Message>>>) -> Session {
        let context = pld_dialect::create_context();
        pld_compiler::register_all_passes();
        let sources = messages::attach(&context, sink.clone());
        Session {
            context,
            sink,
            collected,
            sources,
        }
    }

    /// The messages collected since the last call (none for a reporting
    /// session).
    pub fn messages(&self) -> Vec<Message> {
        std::mem::take(&mut self.collected.borrow_mut())
    }

    pub(crate) fn sink(&self) -> Sink {
        self.sink.clone()
    }

    /// Parses `source`, lowers it with `options.pipeline` and builds it
    /// against the simulator (through the build cache) to run
    /// `options.entry`.
    pub fn compile(&self, source: Source, options: &CompileOptions) -> Result<Program, Error> {
        self.parse(source, options.entry.as_deref())?.build(options)
    }

    /// Parses `source` and finds the function to run: `entry` (`name` or
    /// `@name`), else the only host orchestrator, else the only kernel.
    pub fn parse(&self, source: Source, entry: Option<&str>) -> Result<Parsed<'_>, Error> {
        let (module, name, text) = self.parse_module(source)?;
        let entry = entry::find(module.as_operation(), entry, &name, &text)?;
        Ok(Parsed {
            module,
            entry,
            session: self,
        })
    }

    /// Parses `source` and runs `pipeline` on it (pld-verify alone,
    /// `builtin.module(pld-verify)`) without looking for an entry, so that a
    /// module of several kernels or none (what an editor holds) is checked
    /// too: its diagnostics go to the session's messages; [`Error::Parse`]
    /// when it does not parse or an op verifier rejects it, [`Error::Lower`]
    /// when a pass fails.
    pub fn check(&self, source: Source, pipeline: &str) -> Result<(), Error> {
        let (mut module, _, _) = self.parse_module(source)?;
        crate::compile::run_pipeline(&self.context, &mut module, pipeline)
    }

    /// The module of `source`, the name of the file its locations point
    /// into, and its text.
    fn parse_module(&self, source: Source) -> Result<(Module<'_>, String, String), Error> {
        Ok(match source {
            Source::File(path) => {
                if !path.is_file() {
                    return Err(Error::Unreadable(path.to_owned()));
                }
                let text = fs::read_to_string(path).unwrap_or_default();
                self.refuse_known_parser_crashes(&path.display().to_string(), &text)?;
                let module = parse_file(&self.context, path).ok_or(Error::Parse)?;
                (module, path.display().to_string(), text)
            }
            Source::Text(text) => {
                self.refuse_known_parser_crashes(TEXT_BUFFER, text)?;
                self.sources.borrow_mut().add(TEXT_BUFFER, text);
                let module = Module::parse(&self.context, text).ok_or(Error::Parse)?;
                (module, TEXT_BUFFER.to_owned(), text.to_owned())
            }
        })
    }
}

impl Session {
    /// A located error instead of MLIR's parser crashing on `text`
    /// ([`pld_dialect::parser_guard`]).
    fn refuse_known_parser_crashes(&self, file: &str, text: &str) -> Result<(), Error> {
        let Some((line, column, why)) = pld_dialect::parser_guard::known_crash(text) else {
            return Ok(());
        };
        (self.sink)(Message::Diagnostic(Diagnostic {
            severity: Severity::Error,
            message: why.to_owned(),
            location: Some((file.to_owned(), line, column)),
            text: format!("{file}:{line}:{column}: error: {why}\n"),
            notes: Vec::new(),
        }));
        Err(Error::Parse)
    }
}

/// The module in the file at `path` (its ops located in that file).
fn parse_file<'c>(context: &'c Context, path: &Path) -> Option<Module<'c>> {
    let name = path.display().to_string();
    // SAFETY: the context is live; the parser reads the file itself; a null
    // module (the reason went to the diagnostic handler) becomes `None`.
    unsafe {
        let module = mlir_sys::mlirModuleCreateParseFromFile(
            context.to_raw(),
            melior::StringRef::new(&name).to_raw(),
        );
        (!module.ptr.is_null()).then(|| Module::from_raw(module))
    }
}
