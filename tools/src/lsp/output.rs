//! The one thread that writes to the client. Everything reaches it as an
//! [`Event`], in order: the documents' texts as the client sends them, the
//! client's requests, and every message of MLIR's server. So the client
//! sees MLIR's messages in MLIR's order, each `publishDiagnostics` with
//! pld-verify's diagnostics of the same version of the document added (run
//! here, so that a slow check delays the client's view, never the relay),
//! each hover with the op's documentation, and each list of code actions
//! with pld's.

use super::{actions, diagnostics, hover, queue::Crash, transport, upstream::RESTART_ID, verify};
use serde_json::{Value, json};
use std::{
    collections::HashMap,
    io::{self, Write},
    sync::{Arc, mpsc::Receiver},
};

/// What the output thread is told.
pub enum Event {
    /// Version `version` of document `uri` as the client has it; when MLIR's
    /// server was sent an empty text instead, why, as the diagnostic to
    /// show.
    Text {
        uri: String,
        version: Option<i64>,
        text: Arc<str>,
        withheld: Option<Value>,
    },
    Closed(String),
    /// A request of the client's, sent on to MLIR's server; its `params`
    /// where the answer is amended from them (a code action's).
    Request {
        id: Value,
        method: String,
        params: Option<Value>,
    },
    /// A message of MLIR's server.
    Server(Value),
    /// MLIR's server crashed and was started again: without the document
    /// text or the request it crashed on.
    Crashed(Crash),
    /// MLIR's server ended with this exit code: the session is over.
    End(i32),
}

/// One version of a document.
struct Revision {
    version: Option<i64>,
    text: Arc<str>,
    withheld: Option<Value>,
}

#[derive(Default)]
struct State {
    /// Per document, the versions MLIR's server has yet to publish
    /// diagnostics for, oldest first, and the last it did.
    documents: HashMap<String, Vec<Revision>>,
    /// The client's requests that MLIR's server has not answered, by id:
    /// the method, and the params kept with it.
    requests: HashMap<String, (String, Option<Value>)>,
}

/// The request whose answer gets pld's code actions.
pub const CODE_ACTION: &str = "textDocument/codeAction";

/// Writes what `events` say to stdout until [`Event::End`]: its exit code.
pub fn run(events: Receiver<Event>, pretty: bool) -> i32 {
    let mut state = State::default();
    let stdout = io::stdout();
    for event in events {
        let mut out = stdout.lock();
        let written = match event {
            Event::Text {
                uri,
                version,
                text,
                withheld,
            } => {
                state.documents.entry(uri).or_default().push(Revision {
                    version,
                    text,
                    withheld,
                });
                Ok(())
            }
            Event::Closed(uri) => {
                state.documents.remove(&uri);
                Ok(())
            }
            Event::Request { id, method, params } => {
                state.requests.insert(id.to_string(), (method, params));
                Ok(())
            }
            Event::Server(message) => state.server(message, &mut out, pretty),
            Event::Crashed(crash) => state.crashed(crash, &mut out, pretty),
            Event::End(code) => return code,
        };
        if let Err(error) = written {
            eprintln!("pld-lsp-server: cannot write to the client: {error}");
            return 1;
        }
    }
    1
}

impl State {
    fn server(&mut self, mut message: Value, out: &mut impl Write, pretty: bool) -> io::Result<()> {
        let is_response = message.get("method").is_none();
        if let (true, Some(id)) = (is_response, message.get("id")) {
            if id.as_str() == Some(RESTART_ID) {
                return Ok(());
            }
            match self.requests.remove(&id.to_string()) {
                Some((method, _)) if method == "textDocument/hover" => {
                    hover::add_documentation(&mut message["result"]);
                }
                Some((method, Some(params))) if method == CODE_ACTION => {
                    if let Some(text) = self.latest_text(&params) {
                        actions::add(&mut message["result"], &params, &text);
                    }
                }
                _ => {}
            }
        } else if message["method"] == "textDocument/publishDiagnostics" {
            self.publish(&mut message["params"]);
        }
        transport::write(out, &message, pretty)
    }

    /// The text the client last sent of the document a request names.
    fn latest_text(&self, params: &Value) -> Option<Arc<str>> {
        let uri = params["textDocument"]["uri"].as_str()?;
        Some(self.documents.get(uri)?.last()?.text.clone())
    }

    /// MLIR's diagnostics of a version of a document, without generic
    /// forms, and pld-verify's of the same text.
    fn publish(&mut self, params: &mut Value) {
        diagnostics::drop_generic_forms(&mut params["diagnostics"]);
        let Some(uri) = params["uri"].as_str().map(str::to_owned) else {
            return;
        };
        let Some(revisions) = self.documents.get_mut(&uri) else {
            return;
        };
        let version = params["version"].as_i64();
        if version.is_some() {
            // Older versions will not be published any more.
            revisions.retain(|revision| revision.version >= version);
        }
        let revision = match version {
            Some(_) => revisions
                .iter()
                .find(|revision| revision.version == version),
            None => revisions.last(),
        };
        let Some(revision) = revision else {
            return;
        };
        let added = match &revision.withheld {
            Some(why) => vec![why.clone()],
            None => verify::check(&uri, &revision.text),
        };
        if let Some(list) = params["diagnostics"].as_array_mut() {
            list.extend(added);
        } else {
            params["diagnostics"] = Value::Array(added);
        }
    }

    /// The document version MLIR's server crashed on shows that instead of
    /// diagnostics; the request it crashed on is answered with an error.
    fn crashed(&mut self, crash: Crash, out: &mut impl Write, pretty: bool) -> io::Result<()> {
        if let Some((uri, version)) = crash.document
            && let Some(revision) = self.documents.get_mut(&uri).and_then(|revisions| {
                revisions
                    .iter_mut()
                    .find(|revision| revision.version == version)
            })
        {
            revision.withheld = Some(diagnostics::error_at_top(
                "MLIR's language server crashed on this text of the document and was started \
                 again without it: its diagnostics, hover and completion resume with the next change",
            ));
        }
        if let Some(id) = crash.request
            && id != RESTART_ID
        {
            self.requests.remove(&id.to_string());
            let answer = json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {"code": -32603, "message": "MLIR's language server crashed on this request"},
            });
            transport::write(out, &answer, pretty)?;
        }
        Ok(())
    }
}
