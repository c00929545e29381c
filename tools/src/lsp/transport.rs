//! Reading and writing JSON-RPC messages as MLIR's language server does:
//! `Content-Length` framing, or, for lit tests (`-lit-test`,
//! `-input-style=delimited`), input messages separated by `// -----` lines
//! with other `//` lines ignored; output always framed, pretty-printed on
//! request with sorted keys (serde_json's maps are sorted, as LLVM's JSON
//! printer sorts them), so that tests read the same either way.

use serde_json::Value;
use std::io::{self, BufRead, Write};

/// How input messages are separated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `Content-Length: N` headers, a blank line, N bytes of JSON.
    Standard,
    /// Messages separated by `// -----` lines; other `//` lines are comments.
    Delimited,
}

/// The next message's text; `None` at the end of the input.
pub fn read(input: &mut impl BufRead, style: Style) -> io::Result<Option<String>> {
    match style {
        Style::Standard => read_framed(input),
        Style::Delimited => read_delimited(input),
    }
}

fn read_framed(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut length = None;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let header = line.trim_end();
        if header.is_empty() {
            // A blank line before any header (a stray newline) is skipped.
            if let Some(length) = length {
                let mut body = vec![0; length];
                input.read_exact(&mut body)?;
                return Ok(Some(String::from_utf8_lossy(&body).into_owned()));
            }
            continue;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse::<usize>().ok();
        }
    }
}

fn read_delimited(input: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut json = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok((!json.trim().is_empty()).then_some(json));
        }
        let trimmed = line.trim();
        if trimmed.starts_with("//") {
            if trimmed == "// -----" && !json.trim().is_empty() {
                return Ok(Some(json));
            }
            continue;
        }
        json.push_str(&line);
    }
}

/// Writes `message` framed by its `Content-Length`, pretty-printed (with a
/// final newline, as MLIR's server prints it) when `pretty`.
pub fn write(output: &mut impl Write, message: &Value, pretty: bool) -> io::Result<()> {
    let body = if pretty {
        serde_json::to_string_pretty(message)? + "\n"
    } else {
        serde_json::to_string(message)?
    };
    write!(output, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn framed_messages_round_trip() {
        let mut bytes = Vec::new();
        write(&mut bytes, &json!({"id": 1, "method": "é"}), false).unwrap();
        write(&mut bytes, &json!({"b": [], "a": {}}), true).unwrap();
        let text = String::from_utf8(bytes.clone()).unwrap();
        assert!(text.starts_with("Content-Length: 22\r\n\r\n{\"id\":1,\"method\":\"é\"}"));
        // Sorted keys, two-space indentation, a final newline.
        assert!(text.ends_with("{\n  \"a\": {},\n  \"b\": []\n}\n"));
        let mut input = bytes.as_slice();
        let first = read(&mut input, Style::Standard).unwrap().unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&first).unwrap(),
            json!({"id": 1, "method": "é"})
        );
        assert!(read(&mut input, Style::Standard).unwrap().is_some());
        assert_eq!(read(&mut input, Style::Standard).unwrap(), None);
    }

    #[test]
    fn delimited_messages_skip_comments() {
        let input =
            "// RUN: a comment\n{\"id\": 1,\n  \"x\": 2}\n// -----\n// -----\n{\"id\": 2}\n";
        let mut input = input.as_bytes();
        assert_eq!(
            read(&mut input, Style::Delimited).unwrap().as_deref(),
            Some("{\"id\": 1,\n  \"x\": 2}\n")
        );
        assert_eq!(
            read(&mut input, Style::Delimited).unwrap().as_deref(),
            Some("{\"id\": 2}\n")
        );
        assert_eq!(read(&mut input, Style::Delimited).unwrap(), None);
    }
}
