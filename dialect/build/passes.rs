//! Generates `passes.rs` from the records of `dialect/include/pld/Passes.td`
//! (`llvm-tblgen --dump-json`, as the ops and enums are read), the one
//! declaration of every pld pass: per pass a module with its argument,
//! summary, option and statistic tables and a typed options struct
//! (included by `src/declared.rs`).

use serde_json::Value as Json;
use std::{collections::HashSet, fmt::Write};

/// The Rust type of an option's C++ type, as `Passes.td` spells it.
fn rust_type(cpp_type: &str, option: &str) -> &'static str {
    match cpp_type {
        "int64_t" => "i64",
        "unsigned" => "u32",
        "uint64_t" => "u64",
        "bool" => "bool",
        "std::string" => "String",
        other => panic!(
            "Passes.td: option '{option}' has type '{other}'; the bridge knows int64_t, \
             unsigned, uint64_t, bool and std::string"
        ),
    }
}

/// The text of a default as the bridge hands it over: a C++ string literal
/// (`"\"host\""`) loses its quotes and escapes; numbers and bools stay.
fn default_text(cpp_default: &str) -> String {
    match cpp_default
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    {
        Some(literal) => literal.replace("\\\"", "\"").replace("\\\\", "\\"),
        None => cpp_default.to_owned(),
    }
}

/// `chunk-bytes` -> `CHUNK_BYTES`, `pld-verify` -> `pld_verify`.
fn identifier(name: &str, upper: bool) -> String {
    let name = name.replace('-', "_");
    if upper { name.to_uppercase() } else { name }
}

fn string_field<'r>(record: &'r Json, field: &str) -> &'r str {
    record[field]
        .as_str()
        .unwrap_or_else(|| panic!("Passes.td: a record has no string {field}"))
}

/// The records a list-of-defs field of `record` names.
fn defs_field<'r>(records: &'r Json, record: &'r Json, field: &str) -> Vec<&'r Json> {
    record[field]
        .as_array()
        .unwrap_or_else(|| panic!("Passes.td: a pass has no list {field}"))
        .iter()
        .map(|def| &records[def["def"].as_str().expect("a list of defs")])
        .collect()
}

/// One pass's module.
fn generate_pass(records: &Json, pass: &Json, out: &mut String) {
    let argument = string_field(pass, "argument");
    let summary = string_field(pass, "summary");
    let options = defs_field(records, pass, "options");
    let statistics = defs_field(records, pass, "statistics");
    // Options and statistics share the module's constant names.
    let mut constants: HashSet<String> = ["ARGUMENT", "SUMMARY", "OPTIONS", "STATISTICS"]
        .map(String::from)
        .into();
    let mut claim = |name: String| {
        assert!(
            constants.insert(name.clone()),
            "Passes.td: {argument} declares '{name}' twice (options and statistics become \
             constants of one module)"
        );
        name
    };

    writeln!(out, "#[doc = {:?}]", format!("`{argument}`: {summary}")).unwrap();
    writeln!(out, "pub mod {} {{", identifier(argument, false)).unwrap();
    writeln!(
        out,
        "    use super::{{OptionError, PassOption, PassStatistic, parse}};"
    )
    .unwrap();
    writeln!(out, "    pub const ARGUMENT: &str = {argument:?};").unwrap();
    writeln!(out, "    pub const SUMMARY: &str = {summary:?};").unwrap();

    let mut fields = Vec::new();
    for option in &options {
        let name = string_field(option, "argument");
        let description = string_field(option, "description");
        let constant = claim(identifier(name, true));
        let field = identifier(name, false);
        let r#type = rust_type(string_field(option, "type"), name);
        let default = default_text(string_field(option, "defaultValue"));
        writeln!(out, "    #[doc = {description:?}]").unwrap();
        writeln!(
            out,
            "    pub const {constant}: PassOption = PassOption {{ name: {name:?}, \
             description: {description:?}, default: {default:?} }};"
        )
        .unwrap();
        fields.push((constant, field, r#type));
    }
    let constants: Vec<&str> = fields.iter().map(|(c, _, _)| c.as_str()).collect();
    writeln!(
        out,
        "    pub const OPTIONS: &[PassOption] = &[{}];",
        constants.join(", ")
    )
    .unwrap();

    let mut statistic_constants = Vec::new();
    for (index, statistic) in statistics.iter().enumerate() {
        let name = string_field(statistic, "name");
        let description = string_field(statistic, "description");
        let constant = claim(identifier(name, true));
        writeln!(out, "    #[doc = {description:?}]").unwrap();
        writeln!(
            out,
            "    pub const {constant}: PassStatistic = PassStatistic {{ index: {index}, \
             name: {name:?}, description: {description:?} }};"
        )
        .unwrap();
        statistic_constants.push(constant);
    }
    writeln!(
        out,
        "    pub const STATISTICS: &[PassStatistic] = &[{}];",
        statistic_constants.join(", ")
    )
    .unwrap();

    writeln!(
        out,
        "    /// The option values, typed as `Passes.td` declares them.\n    \
         #[derive(Debug, Clone, PartialEq)]\n    pub struct Options {{"
    )
    .unwrap();
    for (_, field, r#type) in &fields {
        writeln!(out, "        pub {field}: {type},").unwrap();
    }
    writeln!(out, "    }}").unwrap();
    let names: Vec<&str> = fields.iter().map(|(_, f, _)| f.as_str()).collect();
    writeln!(
        out,
        "    impl Options {{\n        \
         /// One value per [`OPTIONS`] entry, in that order, as the bridge hands them over.\n        \
         pub fn parse(values: &[&str]) -> Result<Self, OptionError> {{\n            \
         let [{names}] = values else {{\n                \
         return Err(OptionError(format!(\"expected {count} option value(s), found {{}}\", values.len())));\n            \
         }};\n            Ok(Self {{",
        names = names.join(", "),
        count = fields.len(),
    )
    .unwrap();
    for (constant, field, _) in &fields {
        writeln!(
            out,
            "                {field}: parse(&{constant}, {field})?,"
        )
        .unwrap();
    }
    writeln!(out, "            }})\n        }}\n    }}\n}}\n").unwrap();
}

/// The Rust of every pass of the records of `Passes.td`.
pub fn generate(records: &Json, out: &mut String) {
    let passes: Vec<&str> = records["!instanceof"]["PassBase"]
        .as_array()
        .expect("Passes.td declares passes")
        .iter()
        .filter_map(Json::as_str)
        .collect();
    assert!(!passes.is_empty(), "Passes.td declares no pass");
    for pass in passes {
        generate_pass(records, &records[pass], out);
    }
}
