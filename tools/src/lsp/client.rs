//! The client's messages, relayed to MLIR's server. The proxy keeps each
//! document's text: it applies a `didChange`'s edits itself (whole texts,
//! as MLIR's server asks for, or incremental ranges) and sends MLIR's
//! server the whole new text, so that both always hold the same one, and
//! the output thread gets every version to check. A text that would crash
//! MLIR's parser ([`pld_dialect::parser_guard`]) is sent empty instead,
//! its error shown at its place.

use super::{
    diagnostics,
    output::{self, Event},
    position::{self, Position},
    transport::{self, Style},
    upstream::Upstream,
};
use serde_json::{Value, json};
use std::{
    collections::HashMap,
    io::BufRead,
    sync::{Arc, Mutex, PoisonError, mpsc::Sender},
};

/// Set (to anything) in the environment, the parser guard is off: MLIR's
/// server gets every text, also one that crashes it. For the tests of the
/// restart after a crash only.
pub const NO_PARSER_GUARD: &str = "PLD_LSP_NO_PARSER_GUARD";

/// Relays the client's messages from `input` until `exit` or its end.
pub fn run(
    mut input: impl BufRead,
    style: Style,
    upstream: Arc<Mutex<Upstream>>,
    events: Sender<Event>,
) {
    let mut relay = Relay {
        texts: HashMap::new(),
        events,
        guard: std::env::var_os(NO_PARSER_GUARD).is_none(),
    };
    loop {
        let text = match transport::read(&mut input, style) {
            Ok(Some(text)) => text,
            Ok(None) => break,
            Err(error) => {
                eprintln!("pld-lsp-server: cannot read the client's input: {error}");
                break;
            }
        };
        let mut message: Value = match serde_json::from_str(&text) {
            Ok(message) => message,
            Err(error) => {
                eprintln!("pld-lsp-server: a message that is not JSON ({error}) is ignored");
                continue;
            }
        };
        // Held while the message is handed on, so that a restart of MLIR's
        // server sees every message either sent to the old one (and
        // recorded) or to the new one.
        let mut upstream = upstream.lock().unwrap_or_else(PoisonError::into_inner);
        let method = message["method"].as_str().map(str::to_owned);
        match method.as_deref() {
            Some("textDocument/didOpen") => relay.open(&mut message),
            Some("textDocument/didChange") => relay.change(&mut message),
            Some("textDocument/didClose") => {
                if let Some(uri) = message["params"]["textDocument"]["uri"].as_str() {
                    relay.texts.remove(uri);
                    let _ = relay.events.send(Event::Closed(uri.to_owned()));
                }
            }
            _ => {}
        }
        if let (Some(id), Some(method)) = (message.get("id"), &method) {
            let _ = relay.events.send(Event::Request {
                id: id.clone(),
                method: method.clone(),
                params: (method == output::CODE_ACTION).then(|| message["params"].clone()),
            });
        }
        upstream.send(message);
        if method.as_deref() == Some("exit") {
            return;
        }
    }
    // The client is gone: so is MLIR's server, once its input closes.
    upstream
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .close_input();
}

struct Relay {
    /// Every open document's text, as the client has it.
    texts: HashMap<String, String>,
    events: Sender<Event>,
    guard: bool,
}

impl Relay {
    fn open(&mut self, message: &mut Value) {
        let document = &message["params"]["textDocument"];
        let Some(uri) = document["uri"].as_str().map(str::to_owned) else {
            return;
        };
        let version = document["version"].clone();
        let text = document["text"].as_str().unwrap_or_default().to_owned();
        let sent = self.record(&uri, &version, text);
        message["params"]["textDocument"]["text"] = json!(sent);
    }

    fn change(&mut self, message: &mut Value) {
        let document = &message["params"]["textDocument"];
        let Some(uri) = document["uri"].as_str().map(str::to_owned) else {
            return;
        };
        let version = document["version"].clone();
        let mut text = self.texts.get(&uri).cloned().unwrap_or_default();
        for change in message["params"]["contentChanges"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let range = Position::from_json(&change["range"]["start"])
                .zip(Position::from_json(&change["range"]["end"]));
            let new_text = change["text"].as_str().unwrap_or_default();
            text = position::apply_change(&text, range, new_text);
        }
        let sent = self.record(&uri, &version, text);
        message["params"]["contentChanges"] = json!([{ "text": sent }]);
    }

    /// Keeps `text` as version `version` of `uri` and hands it to the
    /// output thread: the text MLIR's server is to get.
    fn record(&mut self, uri: &str, version: &Value, text: String) -> String {
        let withheld = self
            .guard
            .then(|| pld_dialect::parser_guard::known_crash(&text))
            .flatten()
            .map(|(line, column, why)| {
                let offset = position::offset_of_line_column(&text, line, column);
                diagnostics::error_at(&text, offset, why)
            });
        let sent = if withheld.is_some() {
            String::new()
        } else {
            text.clone()
        };
        let _ = self.events.send(Event::Text {
            uri: uri.to_owned(),
            version: version.as_i64(),
            text: text.as_str().into(),
            withheld,
        });
        self.texts.insert(uri.to_owned(), text);
        sent
    }
}
