//! Integers a program reads from its entry's memory (not a window, which
//! peers write) and never writes: the epoch PyPTO's tests read with
//! `pl.read(inp, [0, 0])` before they wait for it or notify it. A host
//! puts such a value there as it passes an argument, so the rule runs each
//! element read as one more integer argument after the entry's own, which
//! takes its candidates from its first use as an argument does
//! (arguments.rs). A run that writes an element it ran as an argument is
//! undecided: what the program read may be what it wrote.

use super::run::{EventKind, Run};
use melior::ir::{Location, operation::OperationRef};
use pld_dialect::interfaces::AccessKind;

/// The elements read so far, in the order runs met them: element `cells[i]`
/// (an entry argument's index and the element's offsets) is argument
/// `first + i`.
pub struct Inputs {
    first: usize,
    cells: Vec<(usize, Vec<i64>)>,
}

impl Inputs {
    /// No element yet, for an entry of `arguments` arguments.
    pub fn new(arguments: usize) -> Self {
        Self {
            first: arguments,
            cells: Vec::new(),
        }
    }

    /// The argument index that element `offsets` of the entry's argument
    /// `argument` runs as.
    pub fn index(&mut self, argument: usize, offsets: &[i64]) -> usize {
        let position = self
            .cells
            .iter()
            .position(|(owner, at)| *owner == argument && at == offsets)
            .unwrap_or_else(|| {
                self.cells.push((argument, offsets.to_vec()));
                self.cells.len() - 1
            });
        self.first + position
    }

    /// The entry argument and offsets argument `index` stands for, if it
    /// stands for an element.
    pub fn cell(&self, index: usize) -> Option<(usize, &[i64])> {
        let (argument, offsets) = self.cells.get(index.checked_sub(self.first)?)?;
        Some((*argument, offsets))
    }
}

/// `[0, 2] of argument 'inp' of @f`: element `offsets` of `memory`.
pub fn element_text(offsets: &[i64], memory: &str) -> String {
    let offsets: Vec<String> = offsets.iter().map(i64::to_string).collect();
    format!("[{}] of {memory}", offsets.join(", "))
}

/// An element a run read as an argument (kept by its place and byte in
/// [`Run::input_reads`], once however often the run reads it): the first
/// read, and the element as a diagnostic names it.
#[derive(Clone, Debug)]
pub struct InputRead<'c> {
    pub location: Location<'c>,
    pub text: String,
}

/// Why `run` cannot take what it read as arguments, if it cannot: it
/// writes one of those elements. One pass over the run's events, the byte
/// intervals made only for a write into memory an element was read from.
pub fn written<'c>(run: &Run<'c, '_>) -> Option<(String, Location<'c>)> {
    if run.input_reads.is_empty() {
        return None;
    }
    run.events.iter().find_map(|event| {
        let EventKind::Access {
            place,
            footprint,
            kind,
        } = &event.kind
        else {
            return None;
        };
        if *kind == AccessKind::Read {
            return None;
        }
        let mut reads = run
            .input_reads
            .range((*place, i64::MIN)..=(*place, i64::MAX))
            .peekable();
        reads.peek()?;
        let bytes = footprint.bytes();
        let (_, read) = reads.find(|((_, byte), _)| {
            bytes
                .iter()
                .any(|(start, end)| (*start..*end).contains(byte))
        })?;
        let writer: Option<&OperationRef> = event.op.as_ref();
        Some((
            format!(
                "it reads {} as a value the host passes, and writes it{}",
                read.text,
                writer.map_or(String::new(), |op| format!(
                    " ({})",
                    pld_ir::read::name(*op)
                ))
            ),
            read.location,
        ))
    })
}
