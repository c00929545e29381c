//! Generates `$OUT_DIR/passes.rs` from `dialect/include/pld/Passes.td`, the
//! one declaration of every pld pass: per pass a module with its argument,
//! summary, option and statistic tables and a typed options struct
//! (included by `src/declared.rs`). TableGen is read with the `tblgen`
//! crate, from the LLVM that TABLEGEN_220_PREFIX (or MLIR_SYS_220_PREFIX)
//! names, whose `mlir/Pass/PassBase.td` defines the classes used.

use std::{collections::HashSet, env, fmt::Write, fs, path::PathBuf};
use tblgen::{TableGenParser, record::Record};

/// The LLVM prefix whose `include/` holds `mlir/Pass/PassBase.td`.
fn llvm_prefix() -> String {
    for variable in ["TABLEGEN_220_PREFIX", "MLIR_SYS_220_PREFIX"] {
        println!("cargo:rerun-if-env-changed={variable}");
    }
    env::var("TABLEGEN_220_PREFIX")
        .or_else(|_| env::var("MLIR_SYS_220_PREFIX"))
        .unwrap_or_else(|_| {
            panic!("set TABLEGEN_220_PREFIX or MLIR_SYS_220_PREFIX to the LLVM/MLIR 22 prefix")
        })
}

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

fn string_field(record: Record, field: &str) -> String {
    record
        .str_value(field)
        .unwrap_or_else(|error| panic!("Passes.td: {field} of a record: {error}"))
        .to_owned()
}

fn defs_field<'a>(record: Record<'a>, field: &str) -> Vec<Record<'a>> {
    record
        .list_of_defs_value(field)
        .unwrap_or_else(|error| panic!("Passes.td: {field} of a pass: {error}"))
}

/// One pass's module.
fn generate_pass(out: &mut String, pass: Record) {
    let argument = string_field(pass, "argument");
    let summary = string_field(pass, "summary");
    let options = defs_field(pass, "options");
    let statistics = defs_field(pass, "statistics");
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
    writeln!(out, "pub mod {} {{", identifier(&argument, false)).unwrap();
    writeln!(
        out,
        "    use super::{{OptionError, PassOption, PassStatistic, parse}};"
    )
    .unwrap();
    writeln!(out, "    pub const ARGUMENT: &str = {argument:?};").unwrap();
    writeln!(out, "    pub const SUMMARY: &str = {summary:?};").unwrap();

    let mut fields = Vec::new();
    for option in &options {
        let name = string_field(*option, "argument");
        let description = string_field(*option, "description");
        let constant = claim(identifier(&name, true));
        let field = identifier(&name, false);
        let r#type = rust_type(&string_field(*option, "type"), &name);
        let default = default_text(&string_field(*option, "defaultValue"));
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
        let name = string_field(*statistic, "name");
        let description = string_field(*statistic, "description");
        let constant = claim(identifier(&name, true));
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

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let include_dir = manifest_dir.join("../dialect/include");
    let td = include_dir.join("pld/Passes.td");
    println!("cargo:rerun-if-changed={}", td.display());
    let llvm_include = PathBuf::from(llvm_prefix()).join("include");

    let keeper = TableGenParser::new()
        .add_source_file(td.to_str().unwrap())
        .add_include_directory(include_dir.to_str().unwrap())
        .add_include_directory(llvm_include.to_str().unwrap())
        .parse()
        .unwrap_or_else(|error| {
            panic!(
                "cannot read {} (with {} for mlir/Pass/PassBase.td): {error}",
                td.display(),
                llvm_include.display()
            )
        });

    let mut out = String::from("// Generated by pld-passes' build.rs from Passes.td.\n\n");
    let mut passes = 0;
    for pass in keeper.all_derived_definitions("PassBase") {
        generate_pass(&mut out, pass);
        passes += 1;
    }
    assert!(passes > 0, "{} declares no pass", td.display());
    let path = PathBuf::from(env::var("OUT_DIR").unwrap()).join("passes.rs");
    fs::write(&path, out).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
}
