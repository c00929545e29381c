//! What compiling says besides its result: MLIR's diagnostics, rendered as
//! MLIR's tools render them, and pld-run's notes about its own work (a build
//! that takes a while, the cache). A [`crate::Session`] hands each to its
//! reporter as it happens (pld-run prints them at once, so that they
//! interleave with the build as before), or collects them.

use melior::{
    Context,
    diagnostic::{Diagnostic as MlirDiagnostic, DiagnosticSeverity},
    ir::Location,
};
use pld_ir::location_text;
use std::{cell::RefCell, collections::HashMap, fs, rc::Rc};

/// One message of a compile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    Diagnostic(Diagnostic),
    /// A line about pld-run's own work, without pld-run's `pld-run: `
    /// prefix: `compiling the emitted C++ (cached by content
    /// afterwards)...`, `done in 1.3 s`, a cache warning.
    Note(String),
    /// What the C++ compiler printed for a build that failed.
    CompilerOutput(String),
}

/// How severe a [`Diagnostic`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    /// The severity of an MLIR diagnostic.
    pub fn of(severity: DiagnosticSeverity) -> Severity {
        match severity {
            DiagnosticSeverity::Error => Severity::Error,
            DiagnosticSeverity::Warning => Severity::Warning,
            DiagnosticSeverity::Note => Severity::Note,
            DiagnosticSeverity::Remark => Severity::Remark,
        }
    }

    /// As MLIR's tools print it: `error`, `warning`, `note`, `remark`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// An MLIR diagnostic with its notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The message alone.
    pub message: String,
    /// Where it points: file, line and column (1-based), when it points
    /// into a file.
    pub location: Option<(String, usize, usize)>,
    /// As MLIR's tools print it: `file:line:col: error: message`, the
    /// source line and a caret under the column, then its notes the same
    /// way (upstream's "see current operation" note, a generic dump of the
    /// op the message already locates, is left out, as pld-opt leaves it
    /// out by default). Ends with a newline.
    pub text: String,
    /// Its notes, as values (without the "see current operation" note),
    /// for a reader that places them itself (pld-lsp-server).
    pub notes: Vec<Note>,
}

/// A note of a [`Diagnostic`]: the related op it points at and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub message: String,
    /// File, line and column (1-based), when it points into a file.
    pub location: Option<(String, usize, usize)>,
}

impl Diagnostic {
    /// pld-verify's warning that a wait never returns with a single rank:
    /// only about a run on one rank, so pld-run shows it only for those.
    pub fn is_single_rank_warning(&self) -> bool {
        self.severity == Severity::Warning
            && self.message.starts_with(pld_passes::SINGLE_RANK_WARNING)
    }
}

/// Where a session's messages go.
pub(crate) type Sink = Rc<dyn Fn(Message)>;

/// Hands every diagnostic of `context` to `sink`, rendered against the
/// files it points into; the returned sources take the text of a module
/// that is not a file.
pub(crate) fn attach(context: &Context, sink: Sink) -> Rc<RefCell<SourceLines>> {
    let sources = Rc::new(RefCell::new(SourceLines::default()));
    let lines = sources.clone();
    // The handler lives as long as the context: MLIR drops it with it.
    context.attach_diagnostic_handler(move |diagnostic: MlirDiagnostic| {
        let mut sources = lines.borrow_mut();
        let severity = Severity::of(diagnostic.severity());
        let message = diagnostic.to_string();
        let mut text = sources.located(diagnostic.location(), severity.name(), &message);
        let mut notes = Vec::new();
        for index in 0..diagnostic.note_count() {
            if let Ok(note) = diagnostic.note(index) {
                let note_message = note.to_string();
                if note_message.starts_with("see current operation") {
                    continue;
                }
                text += &sources.located(note.location(), "note", &note_message);
                notes.push(Note {
                    message: note_message,
                    location: pld_ir::location::file_line_column(note.location()),
                });
            }
        }
        sink(Message::Diagnostic(Diagnostic {
            severity,
            message,
            location: pld_ir::location::file_line_column(diagnostic.location()),
            text,
            notes,
        }));
        true
    });
    sources
}

/// The files diagnostics point into, read once each.
#[derive(Default)]
pub(crate) struct SourceLines {
    files: HashMap<String, Option<String>>,
}

impl SourceLines {
    /// `text` is what locations in file `name` point into.
    pub(crate) fn add(&mut self, name: &str, text: &str) {
        self.files.insert(name.to_owned(), Some(text.to_owned()));
    }

    /// `file:line:col: severity: message`, then the line and a caret when
    /// the file can be read (tabs expanded as LLVM's SourceMgr does).
    fn located(&mut self, location: Location, severity: &str, message: &str) -> String {
        let mut text = format!("{}: {severity}: {message}\n", location_text(location));
        let Some((file, line, column)) = pld_ir::location::file_line_column(location) else {
            return text;
        };
        let source = self
            .files
            .entry(file.clone())
            .or_insert_with(|| fs::read_to_string(&file).ok());
        let Some(content) = source
            .as_deref()
            .and_then(|source| source.lines().nth(line.checked_sub(1)?))
        else {
            return text;
        };
        let mut shown = String::new();
        let mut caret = String::new();
        for (index, c) in content.chars().enumerate() {
            let width = if c == '\t' {
                8 - shown.chars().count() % 8
            } else {
                1
            };
            if index + 1 < column {
                caret.push_str(&" ".repeat(width));
            }
            if c == '\t' {
                shown.push_str(&" ".repeat(width));
            } else {
                shown.push(c);
            }
        }
        text += &format!("{shown}\n{caret}^\n");
        text
    }
}
