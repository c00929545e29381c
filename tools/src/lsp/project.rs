//! The project file: `pld-lsp.json` in the document's directory or the
//! nearest one above it gives pld-verify's options for the documents under
//! it, as `pld-opt --pld-verify=...` takes them:
//!
//! ```json
//! { "pld-verify": { "ranks": [2, 4], "default-kind": "incore", "remarks": false } }
//! ```
//!
//! A number, string or boolean is the option's value, a list its values
//! joined by commas. Read again for every check, so that an edit to it
//! applies to the next change of a document. A document that is not a file
//! (`untitled:`) or has no project file is checked with pld-verify's
//! defaults.

use serde_json::Value;
use std::path::{Path, PathBuf};

/// The project file's name.
pub const FILE_NAME: &str = "pld-lsp.json";

/// The pass pipeline that checks the document at `uri`, with the project
/// file it came from; an error message (naming the file) when that file is
/// not a valid project file.
pub fn pipeline(uri: &str) -> Result<(String, Option<PathBuf>), String> {
    let Some(file) = file_path(uri).and_then(|path| find(&path)) else {
        return Ok(("builtin.module(pld-verify)".to_owned(), None));
    };
    let shown = file.display().to_string();
    let text = std::fs::read_to_string(&file).map_err(|error| format!("{shown}: {error}"))?;
    let options = options(&text).map_err(|error| format!("{shown}: {error}"))?;
    let pipeline = if options.is_empty() {
        "builtin.module(pld-verify)".to_owned()
    } else {
        format!("builtin.module(pld-verify{{{}}})", options.join(" "))
    };
    Ok((pipeline, Some(file)))
}

/// pld-verify's options (`key=value`) in a project file's text.
pub fn options(text: &str) -> Result<Vec<String>, String> {
    let root: Value = serde_json::from_str(text).map_err(|error| format!("not JSON: {error}"))?;
    let Some(root) = root.as_object() else {
        return Err("expected an object".to_owned());
    };
    if let Some(key) = root.keys().find(|key| *key != "pld-verify") {
        return Err(format!("unknown key '{key}' (expected 'pld-verify')"));
    }
    let Some(verify) = root.get("pld-verify") else {
        return Ok(Vec::new());
    };
    let Some(verify) = verify.as_object() else {
        return Err("'pld-verify' must be an object of pass options".to_owned());
    };
    verify
        .iter()
        .map(|(key, value)| {
            // Only plain words reach the pipeline text, so that a value
            // cannot close the option list or start another pass.
            let plain = |word: &str| {
                !word.is_empty()
                    && word
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-.+".contains(c))
            };
            if !plain(key) {
                return Err(format!("'pld-verify': '{key}' is not an option name"));
            }
            let word = |value: &Value| match value {
                Value::String(text) if plain(text) => Some(text.clone()),
                Value::Number(number) => Some(number.to_string()),
                Value::Bool(flag) => Some(flag.to_string()),
                _ => None,
            };
            let words = match value {
                Value::Array(values) => values.iter().map(word).collect::<Option<Vec<_>>>(),
                value => word(value).map(|word| vec![word]),
            };
            match words {
                Some(words) if !words.is_empty() => Ok(format!("{key}={}", words.join(","))),
                _ => Err(format!(
                    "'pld-verify': option '{key}' must be a number, a word, true or false, or a list of them, found {value}"
                )),
            }
        })
        .collect()
}

/// The nearest project file at or above `document`'s directory.
fn find(document: &Path) -> Option<PathBuf> {
    document
        .ancestors()
        .skip(1)
        .map(|directory| directory.join(FILE_NAME))
        .find(|file| file.is_file())
}

/// The path of a `file:` URI (`file:///home/a%20b/k.mlir`), percent-decoded.
pub fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let mut bytes = Vec::with_capacity(path.len());
    let mut input = path.bytes();
    while let Some(byte) = input.next() {
        if byte == b'%' {
            let hex: Vec<u8> = input.by_ref().take(2).collect();
            let value = std::str::from_utf8(&hex)
                .ok()
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())?;
            bytes.push(value);
        } else {
            bytes.push(byte);
        }
    }
    Some(PathBuf::from(String::from_utf8(bytes).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_become_pass_options() {
        assert_eq!(
            options(
                r#"{"pld-verify": {"ranks": [2, 4], "default-kind": "incore", "remarks": false}}"#
            ),
            Ok(vec![
                "default-kind=incore".to_owned(),
                "ranks=2,4".to_owned(),
                "remarks=false".to_owned()
            ])
        );
        assert_eq!(options("{}"), Ok(Vec::new()));
        assert!(options("{").unwrap_err().starts_with("not JSON"));
        assert!(
            options(r#"{"verify": {}}"#)
                .unwrap_err()
                .contains("unknown key 'verify'")
        );
        // Nothing that could escape the option list.
        assert!(options(r#"{"pld-verify": {"ranks": "2} cse{"}}"#).is_err());
        assert!(options(r#"{"pld-verify": {"ranks": []}}"#).is_err());
        assert!(options(r#"{"pld-verify": {"ranks": [{}]}}"#).is_err());
    }

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(
            file_path("file:///home/a%20b/k.mlir"),
            Some(PathBuf::from("/home/a b/k.mlir"))
        );
        assert_eq!(
            file_path("file://localhost/k.mlir"),
            Some(PathBuf::from("/k.mlir"))
        );
        assert_eq!(file_path("untitled:Untitled-1"), None);
        assert_eq!(file_path("test:///k.mlir"), None);
        assert_eq!(file_path("file:///bad%zz"), None);
    }

    #[test]
    fn the_nearest_project_file_wins() {
        let root = std::env::temp_dir().join(format!("pld-lsp-project-{}", std::process::id()));
        let inner = root.join("a/b");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(root.join(FILE_NAME), r#"{"pld-verify": {"ranks": 2}}"#).unwrap();
        let uri = |path: &Path| format!("file://{}", path.display());
        assert_eq!(
            pipeline(&uri(&inner.join("k.mlir"))),
            Ok((
                "builtin.module(pld-verify{ranks=2})".to_owned(),
                Some(root.join(FILE_NAME))
            ))
        );
        std::fs::write(root.join("a").join(FILE_NAME), "[]").unwrap();
        let error = pipeline(&uri(&inner.join("k.mlir"))).unwrap_err();
        assert!(
            error.ends_with("pld-lsp.json: expected an object"),
            "{error}"
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
