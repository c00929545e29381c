//! pld-verify on a document, in this process, through pld-run's library
//! ([`pld_run::Session::check`]): each `// -----` chunk that parses and
//! passes the op verifiers (the others MLIR's server reports) is checked
//! with the options of the document's project file, and what pld-verify
//! says becomes LSP diagnostics.

use super::{
    diagnostics::{self, Chunk},
    project,
};
use pld_run::{Error, Message, Session, Source};
use serde_json::Value;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// How MLIR's server splits a document into modules (`--split-input-file`'s
/// marker, matched anywhere, as MLIR's server matches it).
const SPLIT_MARKER: &str = "// -----";

/// pld-verify's diagnostics on `document`, the text of the document at
/// `uri`. Never fails: a project file it cannot use, or a bug in the pass,
/// is an error diagnostic at the top of the document.
pub fn check(uri: &str, document: &str) -> Vec<Value> {
    // The pass bridge already turns a panic of a pass into an error; this
    // catches one of the surrounding Rust, so that the server keeps going.
    catch_unwind(AssertUnwindSafe(|| check_chunks(uri, document))).unwrap_or_else(|payload| {
        let why = payload
            .downcast_ref::<&str>()
            .map(|text| text.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        vec![diagnostics::error_at_top(&format!(
            "pld-verify stopped with an internal error: {why}"
        ))]
    })
}

/// The messages of pld-verify's errors on `document` (as [`check`] finds
/// them), or `None` when a chunk of it does not parse or pld-verify cannot
/// run on it: what a code action's edit is judged by.
pub fn errors(uri: &str, document: &str) -> Option<Vec<String>> {
    let (pipeline, _) = project::pipeline(uri).ok()?;
    let session = Session::new();
    let mut errors = Vec::new();
    for (start, end) in chunks(document) {
        match session.check(Source::Text(&document[start..end]), &pipeline) {
            Ok(()) | Err(Error::Lower) => {}
            Err(_) => return None,
        }
        errors.extend(
            session
                .messages()
                .iter()
                .filter_map(|message| match message {
                    Message::Diagnostic(diagnostic)
                        if diagnostic.severity == pld_run::Severity::Error =>
                    {
                        Some(diagnostic.message.clone())
                    }
                    _ => None,
                }),
        );
    }
    Some(errors)
}

fn check_chunks(uri: &str, document: &str) -> Vec<Value> {
    let (pipeline, file) = match project::pipeline(uri) {
        Ok(found) => found,
        Err(error) => return vec![diagnostics::error_at_top(&error)],
    };
    // One context per check: a long editing session would otherwise
    // accumulate every version's types and attributes in it.
    let session = Session::new();
    let mut found = Vec::new();
    for (start, end) in chunks(document) {
        let chunk = Chunk {
            uri,
            document,
            start,
        };
        let outcome = session.check(Source::Text(&document[start..end]), &pipeline);
        let messages = session.messages();
        match outcome {
            Ok(()) | Err(Error::Lower) => {
                found.extend(messages.iter().filter_map(|message| match message {
                    Message::Diagnostic(diagnostic) => Some(chunk.diagnostic(diagnostic)),
                    Message::Note(_) | Message::CompilerOutput(_) => None,
                }))
            }
            // MLIR's server reports why it does not parse.
            Err(Error::Parse) => {}
            Err(Error::Pipeline(error)) => {
                let error = error.trim_end();
                let origin = file.as_ref().map_or_else(
                    || "pld-verify's options".to_owned(),
                    |file| format!("the options of {}", file.display()),
                );
                found.push(diagnostics::error_at_top(&format!(
                    "pld-verify does not run with {origin}: {error}"
                )));
                break;
            }
            Err(other) => found.push(diagnostics::error_at_top(&other.to_string())),
        }
    }
    found
}

/// The byte ranges of `document`'s chunks: the text between split markers.
pub fn chunks(document: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut start = 0;
    for (marker, _) in document.match_indices(SPLIT_MARKER) {
        ranges.push((start, marker));
        start = marker + SPLIT_MARKER.len();
    }
    ranges.push((start, document.len()));
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_the_text_between_markers() {
        let document = "a\n// -----\nb\n// -----c";
        let texts: Vec<&str> = chunks(document)
            .into_iter()
            .map(|(start, end)| &document[start..end])
            .collect();
        assert_eq!(texts, ["a\n", "\nb\n", "c"]);
        assert_eq!(chunks(""), [(0, 0)]);
    }
}
