//! MLIR's server's messages, handed to the output thread; its end, which
//! ends the session, or its crash ([`Upstream::crashed`]), after which it
//! is started again ([`Upstream::restart`]).

use super::{
    output::Event,
    transport::{self, Style},
    upstream::{Output, Upstream},
};
use serde_json::Value;
use std::sync::{Arc, Mutex, PoisonError, mpsc::Sender};

/// How often MLIR's server is started again before the proxy gives up.
const MAX_RESTARTS: u32 = 16;

/// Relays the messages of MLIR's server on `output` until it ends.
pub fn run(mut output: Output, upstream: Arc<Mutex<Upstream>>, events: Sender<Event>) {
    let lock = || upstream.lock().unwrap_or_else(PoisonError::into_inner);
    let mut restarts = 0;
    loop {
        match transport::read(&mut output, Style::Standard) {
            Ok(Some(text)) => match serde_json::from_str::<Value>(&text) {
                Ok(message) => {
                    lock().answered(&message);
                    let _ = events.send(Event::Server(message));
                }
                Err(error) => eprintln!(
                    "pld-lsp-server: a message of MLIR's language server that is not JSON ({error}) is ignored"
                ),
            },
            Ok(None) | Err(_) => {
                // Held across the restart, so that each message of the
                // client's goes to the old server (and is sent again) or to
                // the new one.
                let mut upstream = lock();
                let status = upstream.wait();
                if !upstream.crashed(&status) {
                    let code = status.ok().and_then(|status| status.code()).unwrap_or(1);
                    let _ = events.send(Event::End(code));
                    return;
                }
                if restarts == MAX_RESTARTS {
                    eprintln!(
                        "pld-lsp-server: MLIR's language server crashed {MAX_RESTARTS} times; giving up"
                    );
                    let _ = events.send(Event::End(1));
                    return;
                }
                restarts += 1;
                eprintln!("pld-lsp-server: MLIR's language server crashed; starting it again");
                match upstream.restart() {
                    Ok((restarted, crash)) => {
                        // Before any message of the new server, which this
                        // thread reads only from here on.
                        let _ = events.send(Event::Crashed(crash));
                        output = restarted;
                    }
                    Err(error) => {
                        eprintln!("pld-lsp-server: cannot start MLIR's language server: {error}");
                        let _ = events.send(Event::End(1));
                        return;
                    }
                }
            }
        }
    }
}
