//! Generates `documentation.rs`: every op's ODS summary and description by
//! its full name, a table sorted by name, for `pld_dialect::ops::documentation`
//! (the language server's hover). The text is what `mlir-tblgen
//! -gen-dialect-doc` prints in docs/dialects, so the two cannot drift.

use crate::ops::Dialect;
use serde_json::Value as Json;
use std::fmt::Write;

/// `(name, summary, description)` of every op of `dialect` in `records`.
pub fn entries(dialect: &Dialect, records: &Json) -> Vec<(String, String, String)> {
    let dialect_name = records[dialect.dialect_def]["name"]
        .as_str()
        .expect("a dialect has a name");
    records["!instanceof"]["Op"]
        .as_array()
        .expect("the records list the ops")
        .iter()
        .filter_map(Json::as_str)
        .map(|def| &records[def])
        .filter(|record| record["opDialect"]["def"].as_str() == Some(dialect.dialect_def))
        .map(|record| {
            let name = record["opName"].as_str().expect("an op has a name");
            let text = |field: &str| reindent(record[field].as_str().unwrap_or_default());
            (
                format!("{dialect_name}.{name}"),
                text("summary"),
                text("description"),
            )
        })
        .collect()
}

/// `entries` as the Rust table `DOCUMENTATION`, sorted by name so that a
/// lookup is a binary search.
pub fn generate(mut entries: Vec<(String, String, String)>, out: &mut String) {
    entries.sort();
    entries.dedup_by(|a, b| a.0 == b.0);
    writeln!(out, "static DOCUMENTATION: &[(&str, OpDocumentation)] = &[").unwrap();
    for (name, summary, description) in entries {
        writeln!(
            out,
            "    ({name:?}, OpDocumentation {{ summary: {summary:?}, description: {description:?} }}),"
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

/// `text` (a `[{ ... }]` block, indented as the .td file is) without its
/// blank first and last lines and the indentation all its lines share, as
/// mlir-tblgen reindents it.
fn reindent(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let first = lines.iter().position(|line| !line.is_empty());
    let last = lines.iter().rposition(|line| !line.is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return String::new();
    };
    let lines = &lines[first..=last];
    let indent = lines
        .iter()
        .filter(|line| !line.is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|line| line.get(indent..).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}
