//! Generates `enums.rs`: every `I32EnumAttr` of pl, pld and ascend as a Rust
//! enum (its cases, stable integer values, keywords and summary), and for
//! each one a dialect attribute wraps (`EnumAttr`) the functions that build
//! and read that attribute through the C API (`<prefix><Name>AttrGet`,
//! `<prefix>AttributeIsA<Name>`, `<prefix><Name>AttrGetValue` of
//! `pld-c/Dialects.h`, `prefix` the dialect's name). A discardable attribute
//! a dialect names in its `extraClassDeclaration`
//! (`StringLiteral("pl.kernel")`) whose mnemonic is an enum attribute's of
//! that dialect (`#pl.kernel<...>`) gets `ATTRIBUTE_NAME`, `on` and `set_on`.
//! The code is invocations of the macros of `src/enums.rs`.

use crate::ops::Dialect;
use serde_json::Value as Json;
use std::fmt::Write;

/// The Rust name of an ODS enum case: ODS's symbol, with an all-capitals
/// one in Rust's case (`EQ` -> `Eq`, `MTE1` -> `Mte1`).
pub fn case_name(symbol: &str) -> String {
    let shouting = symbol.len() > 1
        && symbol
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
    if shouting {
        let mut name = symbol[..1].to_owned();
        name.push_str(&symbol[1..].to_ascii_lowercase());
        name
    } else {
        symbol.to_owned()
    }
}

/// The cases of the enum `def`: (symbol, value, keyword), by value.
pub fn cases<'r>(records: &'r Json, def: &str) -> Vec<(&'r str, i64, &'r str)> {
    let mut cases: Vec<_> = records[def]["enumerants"]
        .as_array()
        .expect("an enum lists its cases")
        .iter()
        .map(|case| {
            let case = &records[case["def"].as_str().expect("a case is a def")];
            (
                case["symbol"].as_str().expect("a case has a symbol"),
                case["value"].as_i64().expect("a case has a value"),
                case["str"].as_str().expect("a case has a keyword"),
            )
        })
        .collect();
    cases.sort_by_key(|(_, value, _)| *value);
    cases
}

/// The enums of `dialect` (those in its C++ namespace), as defs.
fn enums<'r>(records: &'r Json, dialect: &Dialect) -> Vec<&'r str> {
    let namespace = &records[dialect.dialect_def]["cppNamespace"];
    let mut defs: Vec<&str> = records["!instanceof"]["I32EnumAttr"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Json::as_str)
        .filter(|def| &records[*def]["cppNamespace"] == namespace)
        .collect();
    defs.sort();
    defs
}

/// The dialect attribute of `dialect` that wraps the enum `def`, if any.
fn attribute<'r>(records: &'r Json, dialect: &Dialect, def: &str) -> Option<&'r Json> {
    records["!instanceof"]["EnumAttr"]
        .as_array()?
        .iter()
        .filter_map(Json::as_str)
        .map(|attribute| &records[attribute])
        .find(|attribute| {
            attribute["enum"]["def"].as_str() == Some(def)
                && attribute["dialect"]["def"].as_str() == Some(dialect.dialect_def)
        })
}

/// The discardable attribute names the dialect declares
/// (`StringLiteral("pl.kernel")` in its `extraClassDeclaration`).
fn discardable_names(records: &Json, dialect: &Dialect) -> Vec<String> {
    let text = records[dialect.dialect_def]["extraClassDeclaration"]
        .as_str()
        .unwrap_or_default();
    text.split("StringLiteral(\"")
        .skip(1)
        .filter_map(|rest| Some(rest.split_once('"')?.0.to_owned()))
        .collect()
}

/// The Rust of `dialect`'s enums, in its module of `enums.rs`.
pub fn generate(dialect: &Dialect, records: &Json, out: &mut String) {
    let name = records[dialect.dialect_def]["name"]
        .as_str()
        .expect("a dialect has a name");
    let discardable = discardable_names(records, dialect);
    for def in enums(records, dialect) {
        let record = &records[def];
        let class = record["className"].as_str().expect("an enum has a class");
        let summary = record["summary"].as_str().unwrap_or_default().trim();
        let mut doc = format!("{}{}", summary[..1].to_uppercase(), &summary[1..]);
        let attribute = attribute(records, dialect, def);
        if let Some(attribute) = attribute {
            let mnemonic = attribute["mnemonic"]
                .as_str()
                .expect("an attribute has one");
            // A format that opens with `<` prints the pretty `#d.m<...>`.
            let format = attribute["assemblyFormat"].as_str().unwrap_or_default();
            if format.starts_with("`<`") {
                write!(doc, " (`#{name}.{mnemonic}<...>`)").unwrap();
            } else {
                write!(doc, " (`#{name}<{mnemonic} ...>`)").unwrap();
            }
        }
        doc.push('.');
        let description = record["description"].as_str().unwrap_or_default().trim();
        if !description.is_empty() {
            write!(doc, "\n\n{description}").unwrap();
        }
        writeln!(out, "enum_type! {{").unwrap();
        writeln!(out, "    #[doc = {doc:?}]").unwrap();
        writeln!(out, "    {class} {{").unwrap();
        for (symbol, value, keyword) in cases(records, def) {
            let case = case_name(symbol);
            writeln!(
                out,
                "        #[doc = \"`{keyword}` ({value}).\"] {case} = {value} {keyword:?},"
            )
            .unwrap();
        }
        writeln!(out, "    }}").unwrap();
        writeln!(out, "}}").unwrap();
        let Some(attribute) = attribute else {
            continue;
        };
        writeln!(
            out,
            "enum_attribute!({class}: {name}{class}AttrGet, {name}AttributeIsA{class}, \
             {name}{class}AttrGetValue);"
        )
        .unwrap();
        let mnemonic = attribute["mnemonic"].as_str().unwrap_or_default();
        let full = format!("{name}.{mnemonic}");
        if discardable.contains(&full) {
            writeln!(out, "discardable_attribute!({class}, {full:?});").unwrap();
        }
    }
}
