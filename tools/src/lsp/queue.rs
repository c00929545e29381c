//! What MLIR's server has handled, and what it has yet to.
//!
//! MLIR's server handles one message after another and answers each
//! request, and each `didOpen`, `didChange` and `didClose` with a
//! `publishDiagnostics`, before it reads the next. So every message sent
//! to it waits here until it answers that message or a later one: when it
//! crashes, the first waiting message that expects an answer is the one it
//! crashed on, those before it were handled, and those after it never
//! reached it. What a new server is sent ([`Queue::after_crash`]) is the
//! documents as the old one had handled them, the document it crashed on
//! opened empty (the request it crashed on is dropped, to be answered with
//! an error), and every message it never read, in order.

use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};

/// A document as the server has handled it.
struct Open {
    language_id: Value,
    version: Value,
    text: String,
}

/// A message sent to the server, and the answer that shows it was handled.
struct Sent {
    message: Value,
    answer: Answer,
}

#[derive(Debug, PartialEq)]
enum Answer {
    /// The response to the request of this id (as JSON text).
    Response(String),
    /// A `publishDiagnostics` of this document: of this version after a
    /// `didOpen` or `didChange`, of any after a `didClose` (`None`).
    Publish(String, Option<i64>),
    /// None: a notification handled without a word.
    Nothing,
}

/// What a crash cost: the document version the server crashed on, or the
/// request, which the new server does not see again.
#[derive(Debug, Default, PartialEq)]
pub struct Crash {
    pub document: Option<(String, Option<i64>)>,
    pub request: Option<Value>,
}

#[derive(Default)]
pub struct Queue {
    handled: BTreeMap<String, Open>,
    waiting: VecDeque<Sent>,
}

impl Queue {
    /// `message` (a `didChange` with the whole text) was sent.
    pub fn sent(&mut self, message: Value) {
        let answer = answer_to(&message);
        self.waiting.push_back(Sent { message, answer });
    }

    /// The server said `message`: what it answers, and what came before,
    /// was handled.
    pub fn answered(&mut self, message: &Value) {
        let answer = if message.get("method").is_none() {
            Answer::Response(message["id"].to_string())
        } else if message["method"] == "textDocument/publishDiagnostics" {
            let params = &message["params"];
            Answer::Publish(
                params["uri"].as_str().unwrap_or_default().to_owned(),
                params["version"].as_i64(),
            )
        } else {
            return;
        };
        let Some(last) = self
            .waiting
            .iter()
            .position(|sent| match (&sent.answer, &answer) {
                (Answer::Publish(uri, None), Answer::Publish(published, _)) => uri == published,
                (expected, answer) => expected == answer,
            })
        else {
            return;
        };
        for sent in self.waiting.drain(..=last).collect::<Vec<_>>() {
            self.handle(&sent.message);
        }
    }

    /// Whether a message that expects an answer has none: a server that
    /// ends so crashed.
    pub fn unanswered(&self) -> bool {
        self.waiting
            .iter()
            .any(|sent| sent.answer != Answer::Nothing)
    }

    /// After a crash: the `didOpen`s that give a new server the documents
    /// (the one the old crashed on empty), the messages the old one never
    /// read, and what the crash cost. The queue starts again empty.
    pub fn after_crash(&mut self) -> (Vec<Value>, Vec<Value>, Crash) {
        let mut waiting = Vec::from(std::mem::take(&mut self.waiting));
        // The message it crashed on: the first that expects an answer (or
        // the first, when none does).
        let at = waiting
            .iter()
            .position(|sent| sent.answer != Answer::Nothing)
            .unwrap_or(0);
        let unread = waiting.split_off((at + 1).min(waiting.len()));
        let mut crash = Crash::default();
        let mut reopen = None;
        match waiting.pop() {
            Some(Sent {
                answer: Answer::Publish(uri, version @ Some(_)),
                message,
            }) => {
                let language_id = match message["method"].as_str() {
                    Some("textDocument/didOpen") => {
                        message["params"]["textDocument"]["languageId"].clone()
                    }
                    _ => self.language_of(&uri),
                };
                self.handled.remove(&uri);
                reopen = Some(did_open(&uri, &language_id, &json!(version), ""));
                crash.document = Some((uri, version));
            }
            Some(Sent {
                answer: Answer::Publish(uri, None),
                ..
            }) => {
                self.handled.remove(&uri);
            }
            Some(Sent {
                answer: Answer::Response(_),
                message,
            }) => crash.request = message.get("id").cloned(),
            _ => {}
        }
        let opens = self
            .handled
            .iter()
            .map(|(uri, open)| did_open(uri, &open.language_id, &open.version, &open.text))
            .chain(reopen)
            .collect();
        let unread = unread.into_iter().map(|sent| sent.message).collect();
        (opens, unread, crash)
    }

    /// Records what a handled message did to the server's documents.
    fn handle(&mut self, message: &Value) {
        let document = &message["params"]["textDocument"];
        let Some(uri) = document["uri"].as_str() else {
            return;
        };
        let (language_id, text) = match message["method"].as_str() {
            Some("textDocument/didOpen") => (document["languageId"].clone(), &document["text"]),
            Some("textDocument/didChange") => (
                self.language_of(uri),
                &message["params"]["contentChanges"][0]["text"],
            ),
            Some("textDocument/didClose") => {
                self.handled.remove(uri);
                return;
            }
            _ => return,
        };
        self.handled.insert(
            uri.to_owned(),
            Open {
                language_id,
                version: document["version"].clone(),
                text: text.as_str().unwrap_or_default().to_owned(),
            },
        );
    }

    fn language_of(&self, uri: &str) -> Value {
        self.handled
            .get(uri)
            .map_or_else(|| json!("mlir"), |open| open.language_id.clone())
    }
}

fn did_open(uri: &str, language_id: &Value, version: &Value, text: &str) -> Value {
    json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": language_id, "version": version, "text": text,
    }}})
}

/// The answer that shows the server handled `message`.
fn answer_to(message: &Value) -> Answer {
    let uri = || {
        message["params"]["textDocument"]["uri"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    match (message["method"].as_str(), message.get("id")) {
        (Some("textDocument/didOpen" | "textDocument/didChange"), _) => {
            Answer::Publish(uri(), message["params"]["textDocument"]["version"].as_i64())
        }
        (Some("textDocument/didClose"), _) => Answer::Publish(uri(), None),
        (Some(_), Some(id)) => Answer::Response(id.to_string()),
        _ => Answer::Nothing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(uri: &str, version: i64, text: &str) -> Value {
        did_open(uri, &json!("mlir"), &json!(version), text)
    }

    fn change(uri: &str, version: i64, text: &str) -> Value {
        json!({"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}})
    }

    fn published(uri: &str, version: i64) -> Value {
        json!({"method": "textDocument/publishDiagnostics",
            "params": {"uri": uri, "version": version, "diagnostics": []}})
    }

    fn hover(id: i64) -> Value {
        json!({"id": id, "method": "textDocument/hover", "params": {}})
    }

    #[test]
    fn a_crash_on_a_document_reopens_it_empty_and_sends_the_rest_again() {
        let mut queue = Queue::default();
        queue.sent(open("a", 1, "a1"));
        queue.sent(open("b", 1, "b1"));
        queue.sent(change("a", 2, "a2"));
        queue.sent(json!({"method": "$/cancelRequest", "params": {"id": 9}}));
        queue.sent(change("b", 2, "crash"));
        queue.sent(hover(1));
        queue.sent(change("a", 3, "a3"));
        queue.sent(json!({"method": "exit"}));
        // The answer to `a` version 2 shows b's opening handled too.
        queue.answered(&published("a", 2));
        assert!(queue.unanswered());
        let (opens, unread, crash) = queue.after_crash();
        assert_eq!(opens, [open("a", 2, "a2"), open("b", 2, "")]);
        assert_eq!(
            unread,
            [hover(1), change("a", 3, "a3"), json!({"method": "exit"})]
        );
        assert_eq!(
            crash,
            Crash {
                document: Some(("b".to_owned(), Some(2))),
                request: None
            }
        );
        assert!(!queue.unanswered());
    }

    #[test]
    fn a_crash_on_a_request_drops_it() {
        let mut queue = Queue::default();
        queue.sent(open("a", 1, "a1"));
        queue.sent(hover(1));
        queue.sent(hover(2));
        queue.answered(&published("a", 1));
        queue.answered(&json!({"id": 1, "result": null}));
        // A close is answered by a publication of any version.
        queue.sent(
            json!({"method": "textDocument/didClose", "params": {"textDocument": {"uri": "a"}}}),
        );
        queue.answered(&published("a", 7));
        queue.sent(open("c", 1, "c1"));
        queue.sent(hover(3));
        queue.answered(&published("c", 1));
        let (opens, unread, crash) = queue.after_crash();
        assert_eq!(opens, [open("c", 1, "c1")]);
        assert!(unread.is_empty());
        assert_eq!(
            crash,
            Crash {
                document: None,
                request: Some(json!(3))
            }
        );
    }

    #[test]
    fn a_clean_end_leaves_nothing_unanswered() {
        let mut queue = Queue::default();
        queue.sent(json!({"id": 0, "method": "shutdown"}));
        queue.sent(json!({"method": "exit"}));
        queue.answered(&json!({"id": 0, "result": null}));
        assert!(!queue.unanswered());
    }
}
