//! pld-lsp-server's command line: MLIR's language server's, of which the
//! proxy reads the options about the transport (`-lit-test`,
//! `-input-style`, `-pretty`) and hands the rest to MLIR's server, which it
//! runs as a child of itself behind a hidden first argument.

use super::transport::Style;
use std::ffi::OsString;

/// The hidden first argument that makes pld-lsp-server MLIR's server itself
/// (the proxy's child), speaking standard framing on its stdin and stdout.
pub const MLIR_SERVER: &str = "--pld-lsp-mlir-server";

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Mode {
    /// MLIR's server itself with these arguments (`argv[0]` first): the
    /// proxy's child, or a command that only prints (`--help`,
    /// `--version`).
    Mlir(Vec<OsString>),
    /// The proxy in front of MLIR's server.
    Proxy(Proxy),
}

/// The proxy's transport to its client and its child's arguments.
#[derive(Debug, PartialEq, Eq)]
pub struct Proxy {
    pub style: Style,
    pub pretty: bool,
    /// MLIR's server's arguments, after [`MLIR_SERVER`].
    pub child: Vec<OsString>,
}

/// The mode of `arguments` (`argv[0]` first).
pub fn parse(arguments: Vec<OsString>) -> Mode {
    let text = |argument: &OsString| argument.to_string_lossy().into_owned();
    if arguments.get(1).is_some_and(|first| first == MLIR_SERVER) {
        let mut arguments = arguments;
        arguments.remove(1);
        return Mode::Mlir(arguments);
    }
    let prints = arguments.iter().skip(1).any(|argument| {
        let name = text(argument);
        let name = name.trim_start_matches('-');
        name == "version" || name == "h" || name.starts_with("help") || name == "print-options"
    });
    if prints {
        return Mode::Mlir(arguments);
    }
    let mut proxy = Proxy {
        style: Style::Standard,
        pretty: false,
        child: Vec::new(),
    };
    let mut lit_test = false;
    let mut log = false;
    let mut rest = arguments.into_iter().skip(1);
    while let Some(argument) = rest.next() {
        let option = text(&argument);
        let (name, value) = match option.trim_start_matches('-').split_once('=') {
            Some((name, value)) => (name.to_owned(), Some(value.to_owned())),
            None => (option.trim_start_matches('-').to_owned(), None),
        };
        if !option.starts_with('-') {
            proxy.child.push(argument);
            continue;
        }
        match name.as_str() {
            "lit-test" => lit_test = true,
            "pretty" => proxy.pretty = value.as_deref() != Some("false"),
            "input-style" => {
                let value = value.or_else(|| rest.next().map(|value| text(&value)));
                proxy.style = match value.as_deref() {
                    Some("delimited") => Style::Delimited,
                    _ => Style::Standard,
                };
            }
            _ => {
                log |= name == "log";
                proxy.child.push(argument);
            }
        }
    }
    if lit_test {
        // MLIR's `-lit-test`: delimited input, pretty output, verbose logs
        // (on stderr, the child's).
        proxy.style = Style::Delimited;
        proxy.pretty = true;
        if !log {
            proxy.child.push("--log=verbose".into());
        }
    }
    Mode::Proxy(proxy)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arguments(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn transport_options_stay_with_the_proxy() {
        assert_eq!(
            parse(arguments(&["pld-lsp-server", "-lit-test"])),
            Mode::Proxy(Proxy {
                style: Style::Delimited,
                pretty: true,
                child: arguments(&["--log=verbose"]),
            })
        );
        assert_eq!(
            parse(arguments(&[
                "s",
                "--input-style",
                "delimited",
                "--log=error",
                "--pretty"
            ])),
            Mode::Proxy(Proxy {
                style: Style::Delimited,
                pretty: true,
                child: arguments(&["--log=error"]),
            })
        );
    }

    #[test]
    fn the_child_and_printing_commands_are_mlirs_server() {
        assert_eq!(
            parse(arguments(&["s", MLIR_SERVER, "--log=error"])),
            Mode::Mlir(arguments(&["s", "--log=error"]))
        );
        assert_eq!(
            parse(arguments(&["s", "--help"])),
            Mode::Mlir(arguments(&["s", "--help"]))
        );
    }
}
