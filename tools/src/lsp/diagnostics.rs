//! LSP diagnostics: pld-verify's, placed in the document, and MLIR's own
//! without their generic-form notes.
//!
//! A diagnostic's notes are its `relatedInformation` (as MLIR's server
//! places the notes of its own diagnostics), each at its op. A location in
//! another file, or none, is line 0 of the document, the location then
//! named in the message.

use super::position::{self, Position};
use pld_run::{Severity, TEXT_BUFFER};
use serde_json::{Map, Value, json};

/// What pld-verify's diagnostics carry as `source`.
pub const SOURCE: &str = "pld-verify";

/// Where a diagnostic of a check of one chunk of a document points.
pub struct Chunk<'a> {
    pub uri: &'a str,
    /// The whole document.
    pub document: &'a str,
    /// The byte offset in `document` where the chunk that was parsed starts
    /// (MLIR's server checks each `// -----` chunk as its own module too).
    pub start: usize,
}

impl Chunk<'_> {
    /// The range of a location in the chunk (`-:line:col`, [`TEXT_BUFFER`])
    /// in the document; `None` for another file or no location.
    fn range(&self, location: &Option<(String, usize, usize)>) -> Option<Value> {
        let (file, line, column) = location.as_ref()?;
        if file != TEXT_BUFFER {
            return None;
        }
        let chunk = &self.document[self.start..];
        let offset = self.start + position::offset_of_line_column(chunk, *line, *column);
        let (start, end) = position::token_range(self.document, offset);
        Some(position::range_json(start, end))
    }

    /// `message`, and the LSP location that shows it: its own, or line 0
    /// with the location named in the message.
    fn place(&self, message: &str, location: &Option<(String, usize, usize)>) -> (String, Value) {
        match (self.range(location), location) {
            (Some(range), _) => (message.to_owned(), range),
            (None, Some((file, line, column))) => {
                (format!("{message} (at {file}:{line}:{column})"), top())
            }
            (None, None) => (message.to_owned(), top()),
        }
    }

    /// A runner diagnostic of the chunk as an LSP diagnostic.
    pub fn diagnostic(&self, diagnostic: &pld_run::Diagnostic) -> Value {
        let (message, range) = self.place(&diagnostic.message, &diagnostic.location);
        let related: Vec<Value> = diagnostic
            .notes
            .iter()
            .map(|note| {
                let (message, range) = self.place(&note.message, &note.location);
                json!({"location": {"uri": self.uri, "range": range}, "message": message})
            })
            .collect();
        let mut value = json!({
            "range": range,
            "severity": severity(diagnostic.severity),
            "source": SOURCE,
            "message": message,
        });
        if !related.is_empty() {
            value["relatedInformation"] = Value::Array(related);
        }
        value
    }
}

/// An error of the server's own (an unreadable project file, a crash) at
/// the top of the document.
pub fn error_at_top(message: &str) -> Value {
    json!({
        "range": top(),
        "severity": 1,
        "source": SOURCE,
        "message": message,
    })
}

/// An error at byte `offset` of `document`.
pub fn error_at(document: &str, offset: usize, message: &str) -> Value {
    let (start, end) = position::token_range(document, offset);
    json!({
        "range": position::range_json(start, end),
        "severity": 1,
        "source": SOURCE,
        "message": message,
    })
}

/// The LSP severity: error 1, warning 2, remark (and a lone note) 3,
/// information, as MLIR's server maps them.
fn severity(severity: Severity) -> u8 {
    match severity {
        Severity::Error => 1,
        Severity::Warning => 2,
        Severity::Remark | Severity::Note => 3,
    }
}

/// An empty range at the start of the document.
fn top() -> Value {
    let start = Position {
        line: 0,
        character: 0,
    };
    position::range_json(start, start)
}

/// MLIR's diagnostics (a `publishDiagnostics`' `diagnostics`) without the
/// "see current operation" notes the op verifiers add: a generic-form dump
/// of the op the diagnostic already points at.
pub fn drop_generic_forms(diagnostics: &mut Value) {
    for diagnostic in diagnostics.as_array_mut().into_iter().flatten() {
        let Some(object) = diagnostic.as_object_mut() else {
            continue;
        };
        retain_related(object);
    }
}

fn retain_related(diagnostic: &mut Map<String, Value>) {
    let Some(Value::Array(related)) = diagnostic.get_mut("relatedInformation") else {
        return;
    };
    related.retain(|note| {
        !note["message"]
            .as_str()
            .is_some_and(|message| message.starts_with("see current operation"))
    });
    if related.is_empty() {
        diagnostic.remove("relatedInformation");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pld_run::{Diagnostic, Note};

    #[test]
    fn locations_are_placed_in_their_chunk() {
        let document = "// a\n// -----\nfunc.func @k() {\n  %n = pld.system.world_size\n}\n";
        let chunk = Chunk {
            uri: "test:///k.mlir",
            document,
            start: document.find("// -----").unwrap() + "// -----".len(),
        };
        let diagnostic = Diagnostic {
            severity: Severity::Warning,
            message: "m".to_owned(),
            // Line 3 of the chunk, which starts at the end of line 2.
            location: Some((TEXT_BUFFER.to_owned(), 3, 8)),
            text: String::new(),
            notes: vec![
                Note {
                    message: "elsewhere".to_owned(),
                    location: Some(("k.py".to_owned(), 3, 5)),
                },
                Note {
                    message: "nowhere".to_owned(),
                    location: None,
                },
            ],
        };
        let top = json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}});
        assert_eq!(
            chunk.diagnostic(&diagnostic),
            json!({
                "range": {"start": {"line": 3, "character": 7}, "end": {"line": 3, "character": 28}},
                "severity": 2,
                "source": "pld-verify",
                "message": "m",
                "relatedInformation": [
                    {"location": {"uri": "test:///k.mlir", "range": top}, "message": "elsewhere (at k.py:3:5)"},
                    {"location": {"uri": "test:///k.mlir", "range": top}, "message": "nowhere"},
                ],
            })
        );
    }

    #[test]
    fn generic_form_notes_are_dropped() {
        let mut diagnostics = json!([
            {"message": "a", "relatedInformation": [{"message": "see current operation: \"x\"() : () -> ()"}]},
            {"message": "b", "relatedInformation": [{"message": "see current operation: y"}, {"message": "keep"}]},
            {"message": "c"},
        ]);
        drop_generic_forms(&mut diagnostics);
        assert_eq!(
            diagnostics,
            json!([
                {"message": "a"},
                {"message": "b", "relatedInformation": [{"message": "keep"}]},
                {"message": "c"},
            ])
        );
    }
}
