//! pld-lsp-server: MLIR's language server with pld's dialects, behind a
//! proxy that adds what pld-opt would say. The proxy runs MLIR's server as
//! a child process (itself again, behind a hidden first argument), relays
//! JSON-RPC both ways, keeps every open document's text, and adds to each
//! `publishDiagnostics` of MLIR's the diagnostics of `pld-verify` on the
//! same text, computed in this process; it drops the op verifiers'
//! "see current operation" notes and shows an op's ODS documentation on
//! hover, and adds code actions where a pld-verify diagnostic names its
//! fix. A crash of MLIR's server on some text restarts it without that
//! text. docs/pld-verify.md, "In the editor", says what the user sees.
//!
//! | module | does |
//! |---|---|
//! | [`options`] | the command line: the proxy's transport, the child's arguments |
//! | [`transport`] | framed and lit-test (`// -----`) messages |
//! | `client` | the client's messages to MLIR's server; the documents' texts |
//! | `server` | MLIR's server's messages to the output thread; restarts |
//! | [`upstream`] | the child process, started again after a crash |
//! | `queue` | what the child has handled and has yet to: what a restart sends |
//! | `output` | the one writer to the client: diagnostics merged, hovers |
//! | [`verify`] | pld-verify on a document's chunks |
//! | [`project`] | the project file, `pld-lsp.json` |
//! | [`diagnostics`] | LSP diagnostics from pld-run's |
//! | [`hover`] | an op's documentation |
//! | `actions` | code actions for the diagnostics that name a fix |
//! | [`position`] | MLIR's byte columns and LSP's UTF-16 positions |

mod actions;
mod client;
pub mod diagnostics;
pub mod hover;
pub mod options;
mod output;
pub mod position;
pub mod project;
mod queue;
mod server;
pub mod transport;
pub mod upstream;
pub mod verify;

use options::{Mode, Proxy};
use pld_dialect::ffi::pldLspServerMain;
use std::{
    sync::{Arc, Mutex, mpsc},
    thread,
};

/// pld-lsp-server's `main`.
pub fn main() -> ! {
    match options::parse(std::env::args_os().collect()) {
        // SAFETY: `pldLspServerMain` is a C `main` (MLIR's language server).
        Mode::Mlir(arguments) => unsafe { crate::exit_with_arguments(pldLspServerMain, arguments) },
        Mode::Proxy(proxy) => std::process::exit(run(proxy)),
    }
}

/// The proxy: its exit code is MLIR's server's.
fn run(proxy: Proxy) -> i32 {
    let (upstream, server_output) = match upstream::Upstream::start(proxy.child) {
        Ok(started) => started,
        Err(error) => {
            eprintln!("pld-lsp-server: cannot start MLIR's language server: {error}");
            return 1;
        }
    };
    let upstream = Arc::new(Mutex::new(upstream));
    let (events, received) = mpsc::channel();
    let pretty = proxy.pretty;
    // pld-verify runs on this thread: MLIR's parser and the passes recurse
    // once per nesting level, as in the other tools.
    let writer = thread::Builder::new()
        .name("pld-lsp-output".into())
        .stack_size(crate::TOOL_STACK_BYTES)
        .spawn(move || output::run(received, pretty))
        .expect("the output thread starts");
    {
        let upstream = upstream.clone();
        let events = events.clone();
        thread::Builder::new()
            .name("pld-lsp-mlir".into())
            .spawn(move || server::run(server_output, upstream, events))
            .expect("the server thread starts");
    }
    let style = proxy.style;
    thread::Builder::new()
        .name("pld-lsp-client".into())
        .spawn(move || client::run(std::io::stdin().lock(), style, upstream, events))
        .expect("the client thread starts");
    writer.join().unwrap_or(1)
}
