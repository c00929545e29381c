//! Code actions: where a pld-verify diagnostic names its fix, the proxy
//! offers the edit that makes it, added to MLIR's own actions. An edit is
//! offered only when it does what it says: the edited document parses and
//! pld-verify reports fewer errors on it, none of them new.
//!
//! One rule names a fix that an edit can make: a payload written after the
//! notify that publishes it ("write the payload first, then notify",
//! `publish_order.rs`). Its action moves the line of the write above the
//! line of the notify, which the diagnostic's note locates. Where the write
//! uses a value defined between the two, the moved text no longer parses,
//! and nothing is offered.

use super::verify;
use serde_json::{Value, json};

/// What the publish-order rule's error says, and its note at the notify.
const PUBLISH_ORDER: &str = "writes a payload after the notify that publishes it";
const PUBLISHING_NOTIFY: &str = "the notify that publishes it";

/// Adds to `result` (MLIR's answer to a `textDocument/codeAction`, a list
/// or `null`) the actions for the pld-verify diagnostics that the
/// request's `params` name, on `document`, the text of the document.
pub fn add(result: &mut Value, params: &Value, document: &str) {
    let Some(uri) = params["textDocument"]["uri"].as_str() else {
        return;
    };
    let Some(diagnostics) = params["context"]["diagnostics"].as_array() else {
        return;
    };
    let actions: Vec<Value> = diagnostics
        .iter()
        .filter(|diagnostic| diagnostic["source"] == "pld-verify")
        .filter_map(|diagnostic| publish_first(uri, document, diagnostic))
        .collect();
    if actions.is_empty() {
        return;
    }
    match result.as_array_mut() {
        Some(list) => list.extend(actions),
        None => *result = Value::Array(actions),
    }
}

/// The action for a payload written after its notify: the write's line
/// moved above the notify's.
fn publish_first(uri: &str, document: &str, diagnostic: &Value) -> Option<Value> {
    if !diagnostic["message"].as_str()?.contains(PUBLISH_ORDER) {
        return None;
    }
    let write = line_number(&diagnostic["range"]["start"])?;
    let notify = diagnostic["relatedInformation"]
        .as_array()?
        .iter()
        .find(|note| note["message"] == PUBLISHING_NOTIFY && note["location"]["uri"] == uri)
        .and_then(|note| line_number(&note["location"]["range"]["start"]))?;
    let edited = move_line(document, write, notify)?;
    if !fixes(uri, document, &edited) {
        return None;
    }
    let moved = document.split_inclusive('\n').nth(write)?;
    let at = |line: usize| json!({"line": line, "character": 0});
    Some(json!({
        "title": "Write the payload before the notify that publishes it",
        "kind": "quickfix",
        "isPreferred": true,
        "diagnostics": [diagnostic],
        "edit": {"changes": {uri: [
            {"range": {"start": at(notify), "end": at(notify)}, "newText": moved},
            {"range": {"start": at(write), "end": at(write + 1)}, "newText": ""},
        ]}},
    }))
}

fn line_number(position: &Value) -> Option<usize> {
    usize::try_from(position["line"].as_u64()?).ok()
}

/// `document` with line `from` (ending in a newline) moved above the
/// earlier line `to`.
fn move_line(document: &str, from: usize, to: usize) -> Option<String> {
    let mut lines: Vec<&str> = document.split_inclusive('\n').collect();
    if to >= from || !lines.get(from)?.ends_with('\n') {
        return None;
    }
    let line = lines.remove(from);
    lines.insert(to, line);
    Some(lines.concat())
}

/// Whether `edited` parses and pld-verify reports fewer errors on it than
/// on `document`, none that `document` does not have.
fn fixes(uri: &str, document: &str, edited: &str) -> bool {
    let (Some(before), Some(after)) = (verify::errors(uri, document), verify::errors(uri, edited))
    else {
        return false;
    };
    let mut left = before.clone();
    for error in &after {
        match left.iter().position(|known| known == error) {
            Some(index) => {
                left.remove(index);
            }
            None => return false,
        }
    }
    after.len() < before.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUBLISH_EARLY: &str = "\
func.func @push(%win: !pld.dtensor<1x64xf32>, %sig: !pld.dtensor<1x1xi32>, %t: !pl.tile<1x64xf32>, %peer: index) attributes {pl.kernel = #pl.kernel<incore>} {
  %one = arith.constant 1 : i32
  pld.system.notify %sig[0, 0], peer %peer, value %one, op set : !pld.dtensor<1x1xi32>
  pld.tile.remote_store %t, %win[0, 0], peer %peer : !pl.tile<1x64xf32>, !pld.dtensor<1x64xf32>
  return
}
";

    fn request(document: &str) -> Value {
        let uri = "file:///k.mlir";
        let diagnostics = verify::check(uri, document);
        json!({"textDocument": {"uri": uri}, "context": {"diagnostics": diagnostics}})
    }

    #[test]
    fn moving_a_line_up() {
        assert_eq!(move_line("a\nb\nc\n", 2, 0).as_deref(), Some("c\na\nb\n"));
        assert_eq!(
            move_line("a\nb\nc", 2, 0),
            None,
            "the last line has no newline"
        );
        assert_eq!(move_line("a\nb\n", 0, 1), None, "only up");
    }

    #[test]
    fn a_payload_after_its_notify_is_moved_above_it() {
        let params = request(PUBLISH_EARLY);
        let mut result = Value::Null;
        add(&mut result, &params, PUBLISH_EARLY);
        let actions = result.as_array().expect("one action");
        assert_eq!(actions.len(), 1, "{result:#}");
        let edits = &actions[0]["edit"]["changes"]["file:///k.mlir"];
        assert_eq!(edits[0]["range"]["start"]["line"], 2);
        assert!(
            edits[0]["newText"]
                .as_str()
                .unwrap()
                .starts_with("  pld.tile.remote_store")
        );
        assert_eq!(edits[1]["range"]["start"]["line"], 3);
        assert_eq!(edits[1]["range"]["end"]["line"], 4);
    }

    #[test]
    fn no_action_where_the_move_breaks_the_program() {
        // The payload is loaded after the notify: moved above it, the store
        // would use a value not yet defined.
        let document = PUBLISH_EARLY.replace(
            "  pld.tile.remote_store %t,",
            "  %u = pl.load %win[0, 0] : !pld.dtensor<1x64xf32> -> !pl.tile<1x64xf32>\n  pld.tile.remote_store %u,",
        );
        let params = request(&document);
        assert!(
            params["context"]["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["message"].as_str().unwrap().contains(PUBLISH_ORDER)),
            "{params:#}"
        );
        let mut result = json!([]);
        add(&mut result, &params, &document);
        assert_eq!(result, json!([]));
    }
}
