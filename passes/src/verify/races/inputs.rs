//! Values the host passes beside the entry's integer arguments, each run as
//! one more argument after the entry's own (arguments.rs):
//!
//! - integers a program reads from its entry's memory (not a window, which
//!   peers write) and never writes: the epoch PyPTO's tests read with
//!   `pl.read(inp, [0, 0])` before they wait for it or notify it. A host
//!   puts such a value there as it passes an argument; it takes its
//!   candidates from its first use as an argument does. The elements one
//!   `pl.read` reads are one value, so that the runs stay few however long
//!   an array a loop reads is; as an index, such an array's candidates are
//!   spreads (`arguments::spreads`: element `i` holds `i mod m`), as MoE's
//!   routes land on many experts. Either samples the data: values that
//!   differ otherwise per element are not run. A run that writes an element
//!   whose value decided something (a binding gave it) is undecided: what
//!   the program read may be what it wrote;
//! - the dynamic dimensions of the entry's tensors and memrefs, which the
//!   host fixes when it allocates them: one value for all of them, the same
//!   on every rank, run with the extents `arguments::candidates` gives
//!   `Role::Extent`. One value keeps shapes a whole-tensor transfer must
//!   match equal, and the runs few however many dimensions are dynamic.

use super::arguments::Binding;
use super::run::{EventKind, Run};
use melior::ir::{Location, operation::OperationRef};
use pld_dialect::interfaces::AccessKind;
use pld_ir::OpKey;
use rustc_hash::FxHashMap as HashMap;

/// A value the host passes beside the entry's arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
enum HostValue {
    /// The elements of an entry argument one `pl.read` reads: the
    /// argument's index, the offsets of the first, and whether the read is
    /// in a loop (which reads many elements).
    Element(usize, Vec<i64>, bool),
    /// Every dynamic dimension of the entry's arguments.
    Extent,
}

/// The host values met so far, in the order runs met them: `values[i]` is
/// argument `first + i`.
pub struct Inputs {
    first: usize,
    values: Vec<HostValue>,
    /// The value each element read so far is, by argument and offsets, and
    /// the value each read op's elements are.
    elements: HashMap<(usize, Vec<i64>), usize>,
    reads: HashMap<(usize, OpKey), usize>,
}

impl Inputs {
    /// No element yet, for an entry of `arguments` arguments.
    pub fn new(arguments: usize) -> Self {
        Self {
            first: arguments,
            values: Vec::new(),
            elements: HashMap::default(),
            reads: HashMap::default(),
        }
    }

    /// Whether no run met a host value: every run's bindings are the
    /// entry's own arguments', which a run from a fresh start numbers alike.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The argument index `value` runs as, numbered when first met.
    fn index_of(&mut self, value: HostValue) -> usize {
        let position = self
            .values
            .iter()
            .position(|known| *known == value)
            .unwrap_or_else(|| {
                self.values.push(value);
                self.values.len() - 1
            });
        self.first + position
    }

    /// The argument index that element `offsets` of the entry's argument
    /// `argument`, which `read` reads (`in_loop`: in a loop), runs as: the
    /// one it ran as before, else the one of the other elements `read`
    /// read.
    pub fn index(&mut self, argument: usize, offsets: &[i64], read: OpKey, in_loop: bool) -> usize {
        let element = (argument, offsets.to_vec());
        if let Some(&index) = self.elements.get(&element) {
            return index;
        }
        let index = match self.reads.get(&(argument, read)) {
            Some(&index) => index,
            None => {
                let index = self.index_of(HostValue::Element(argument, offsets.to_vec(), in_loop));
                self.reads.insert((argument, read), index);
                index
            }
        };
        self.elements.insert(element, index);
        index
    }

    /// Whether argument `index` stands for the elements a read in a loop
    /// reads of an entry argument (an array of data: routes, counts).
    pub fn is_array(&self, index: usize) -> bool {
        index
            .checked_sub(self.first)
            .and_then(|position| self.values.get(position))
            .is_some_and(|value| matches!(value, HostValue::Element(.., true)))
    }

    /// The argument index the dynamic dimensions of the entry's arguments
    /// run as.
    pub fn extent(&mut self) -> usize {
        self.index_of(HostValue::Extent)
    }

    /// The argument index the dynamic dimensions run as, if a run has met
    /// one.
    pub fn known_extent(&self) -> Option<usize> {
        let position = self
            .values
            .iter()
            .position(|known| *known == HostValue::Extent)?;
        Some(self.first + position)
    }

    /// How a diagnostic names argument `index`, if it stands for a host
    /// value (`[0, 2] of argument 'inp' of @f`, `each dynamic dimension`),
    /// given how it names the entry's arguments.
    pub fn label(&self, index: usize, argument_label: impl Fn(usize) -> String) -> Option<String> {
        Some(match self.values.get(index.checked_sub(self.first)?)? {
            HostValue::Element(argument, offsets, false) => {
                element_text(offsets, &argument_label(*argument))
            }
            HostValue::Element(argument, offsets, true) => format!(
                "{} and every element the same loop reads",
                element_text(offsets, &argument_label(*argument))
            ),
            HostValue::Extent => "each dynamic dimension".to_owned(),
        })
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
    /// The argument index the element runs as.
    pub index: usize,
    pub location: Location<'c>,
    pub text: String,
}

/// Why `run` cannot take what it read as arguments, if it cannot: it
/// writes one of those elements whose value `bindings` gave (a value the
/// run never needed decided nothing: a count read, raised and written
/// back). One pass over the run's events, the byte intervals made only for
/// a write into memory an element was read from.
pub fn written<'c>(
    run: &Run<'c, '_>,
    bindings: &[Option<Binding>],
) -> Option<(String, Location<'c>)> {
    let decided = |read: &InputRead| bindings.get(read.index).is_some_and(Option::is_some);
    if !run.input_reads.values().any(decided) {
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
        let (_, read) = reads.find(|((_, byte), read)| {
            decided(read)
                && bytes
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
