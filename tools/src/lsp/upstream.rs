//! MLIR's language server, a child process of the proxy (pld-lsp-server
//! again, behind [`MLIR_SERVER`]), and starting it again after a crash: the
//! new child gets the client's `initialize` and `initialized`, then what
//! the [`Queue`] of the old one's unanswered messages gives it.

use super::{
    options::MLIR_SERVER,
    queue::{Crash, Queue},
    transport,
};
use serde_json::{Value, json};
use std::{
    ffi::OsString,
    io::{self, BufReader},
    path::PathBuf,
    process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio},
};

/// The id of the `initialize` request a restart sends: its answer is the
/// proxy's, not the client's.
pub const RESTART_ID: &str = "pld-lsp-server:restart";

/// The child's output, read as standard framed messages.
pub type Output = BufReader<ChildStdout>;

/// The child, and what a restart replays.
pub struct Upstream {
    program: PathBuf,
    arguments: Vec<OsString>,
    child: Child,
    input: Option<ChildStdin>,
    /// The client's input has ended: so does the child's, once it has the
    /// messages sent before.
    input_closed: bool,
    initialize: Option<Value>,
    initialized: Option<Value>,
    queue: Queue,
}

impl Upstream {
    /// Starts MLIR's server with `arguments`.
    pub fn start(arguments: Vec<OsString>) -> io::Result<(Upstream, Output)> {
        let program = std::env::current_exe()?;
        let (child, input, output) = spawn(&program, &arguments)?;
        Ok((
            Upstream {
                program,
                arguments,
                child,
                input: Some(input),
                input_closed: false,
                initialize: None,
                initialized: None,
                queue: Queue::default(),
            },
            output,
        ))
    }

    /// Sends `message` to the child (a `didChange` with the whole text). A
    /// child that has gone is not an error here: its end is seen on its
    /// output, and the restart sends the message again.
    pub fn send(&mut self, message: Value) {
        match message["method"].as_str() {
            Some("initialize") if message["id"] != RESTART_ID => {
                self.initialize = Some(message.clone())
            }
            Some("initialized") => self.initialized = Some(message.clone()),
            _ => {}
        }
        if let Some(input) = &mut self.input
            && let Err(error) = transport::write(input, &message, false)
        {
            eprintln!("pld-lsp-server: cannot write to MLIR's language server: {error}");
        }
        self.queue.sent(message);
    }

    /// Notes `message` of the child's ([`Queue::answered`]).
    pub fn answered(&mut self, message: &Value) {
        self.queue.answered(message);
    }

    /// Closes the child's input, which ends it (and that of any child
    /// started after).
    pub fn close_input(&mut self) {
        self.input_closed = true;
        self.input = None;
    }

    /// Waits for the child to end.
    pub fn wait(&mut self) -> io::Result<ExitStatus> {
        self.input = None;
        self.child.wait()
    }

    /// Whether the child, ended with `status`, crashed: a signal ended it,
    /// or it left a message unanswered (a sanitizer's report of a crash
    /// ends it with a status).
    pub fn crashed(&self, status: &io::Result<ExitStatus>) -> bool {
        let signalled = status
            .as_ref()
            .map_or(true, |status| status.code().is_none());
        signalled || self.queue.unanswered()
    }

    /// After a crash: starts a new child, replays the session to it and
    /// sends it the messages the old one did not handle; the new child's
    /// output, and what the crash cost.
    pub fn restart(&mut self) -> io::Result<(Output, Crash)> {
        let _ = self.wait();
        let (child, input, output) = spawn(&self.program, &self.arguments)?;
        self.child = child;
        self.input = Some(input);
        let (opens, unread, crash) = self.queue.after_crash();
        if let Some(initialize) = &self.initialize {
            let mut initialize = initialize.clone();
            initialize["id"] = json!(RESTART_ID);
            self.send(initialize);
        }
        if let Some(initialized) = self.initialized.clone() {
            self.send(initialized);
        }
        let unread = unread
            .into_iter()
            .filter(|message| message["method"] != "initialized");
        for message in opens.into_iter().chain(unread) {
            self.send(message);
        }
        if self.input_closed {
            self.input = None;
        }
        Ok((output, crash))
    }
}

fn spawn(program: &PathBuf, arguments: &[OsString]) -> io::Result<(Child, ChildStdin, Output)> {
    let mut child = Command::new(program)
        .arg(MLIR_SERVER)
        .args(arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    let input = child.stdin.take().expect("the child's stdin is piped");
    let output = child.stdout.take().expect("the child's stdout is piped");
    Ok((child, input, BufReader::new(output)))
}
