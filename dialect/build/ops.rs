//! Generates `ops.rs`: for every op of the pl, pld and ascend dialects, a
//! struct named after its C++ class whose fields are the op's ODS operands,
//! attributes, results and regions, with the op's name (`NAME`) and a
//! `build` that lays the operands out in ODS order and, for an op with
//! `AttrSizedOperandSegments`, writes `operandSegmentSizes` from them; for
//! the ops of pld's dialects also `operands()`, which reads an op's operands
//! into a `<Op>Operands` struct of the same names; for every op
//! `attributes()`, which reads its attributes, typed, into `<Op>Attributes`,
//! and a `set_<name>()` per attribute; per pl, pld and ascend an exhaustive
//! view of its ops (`PlOp`, `PldOp`, `AscendOp`); per dialect
//! `build_described`, which builds any of its ops from its parts by name
//! (`build/described.rs`).
//!
//! melior's `dialect!` builders add operands in the order their setters are
//! called and never write the segment sizes, so they build a wrong op for
//! most pld ops; these are built from the records (`llvm-tblgen
//! --dump-json`) of the same .td files the C++ dialects are generated from.

use serde_json::Value as Json;
use std::{fmt::Write, path::Path, process::Command};

/// One dialect: the .td file that defines its ops (under pld's or MLIR's
/// include directory) and the def of the dialect they belong to.
pub struct Dialect {
    pub module: &'static str,
    pub td: &'static str,
    pub dialect_def: &'static str,
    /// Whether `td` is one of MLIR's: an upstream dialect pld's passes build
    /// ops of where melior has no builder that takes every operand.
    pub upstream: bool,
    /// The Rust module of the dialect's enums, under `crate::enums`
    /// (`Some("")` for the root); `None` for an upstream dialect, whose enum
    /// attributes are read as plain attributes.
    pub enums: Option<&'static str>,
}

pub const DIALECTS: &[Dialect] = &[
    Dialect {
        module: "pl",
        enums: Some(""),
        td: "pld/Dialect/Pl/IR/PlOps.td",
        dialect_def: "Pl_Dialect",
        upstream: false,
    },
    Dialect {
        module: "pld",
        enums: Some(""),
        td: "pld/Dialect/Pld/IR/PldOps.td",
        dialect_def: "Pld_Dialect",
        upstream: false,
    },
    Dialect {
        module: "ascend",
        enums: Some("ascend"),
        td: "pld/Dialect/Ascend/IR/AscendOps.td",
        dialect_def: "Ascend_Dialect",
        upstream: false,
    },
    Dialect {
        module: "func",
        enums: None,
        td: "mlir/Dialect/Func/IR/FuncOps.td",
        dialect_def: "Func_Dialect",
        upstream: true,
    },
    Dialect {
        module: "scf",
        enums: None,
        td: "mlir/Dialect/SCF/IR/SCFOps.td",
        dialect_def: "SCF_Dialect",
        upstream: true,
    },
    Dialect {
        module: "memref",
        enums: None,
        td: "mlir/Dialect/MemRef/IR/MemRefOps.td",
        dialect_def: "MemRef_Dialect",
        upstream: true,
    },
    Dialect {
        module: "arith",
        enums: None,
        td: "mlir/Dialect/Arith/IR/ArithOps.td",
        dialect_def: "Arith_Dialect",
        upstream: true,
    },
    Dialect {
        module: "cf",
        enums: None,
        td: "mlir/Dialect/ControlFlow/IR/ControlFlowOps.td",
        dialect_def: "ControlFlow_Dialect",
        upstream: true,
    },
    Dialect {
        module: "emitc",
        enums: None,
        td: "mlir/Dialect/EmitC/IR/EmitC.td",
        dialect_def: "EmitC_Dialect",
        upstream: true,
    },
];

/// How many values one ODS operand, result or region stands for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Arity {
    One,
    Optional,
    Variadic,
}

pub enum Field {
    Operand(String, Arity),
    Attribute {
        name: String,
        optional: bool,
        unit: bool,
        typed: Typed,
    },
}

/// The Rust value an attribute is read as and written from.
pub enum Kind {
    /// `UnitAttr`: whether the op carries it.
    Unit,
    /// An integer attribute, as the Rust integer type named; `width` is
    /// the signless integer type's, `None` for `index`.
    Integer {
        rust: &'static str,
        width: Option<u32>,
    },
    /// `DenseI64ArrayAttr` or `DenseI32ArrayAttr`, as a `Vec` of the Rust
    /// integer type named.
    Array(&'static str),
    /// A string attribute (`StrAttr`, `SymbolNameAttr`, ...).
    Str,
    /// `FlatSymbolRefAttr`: the symbol's name.
    Symbol,
    /// A `TypeAttr`: the type.
    Type,
    /// `BoolAttr`.
    Bool,
    /// An enum attribute of pl, pld or ascend: the Rust enum at this path.
    Enum(String),
    /// Anything else, as the attribute.
    Other,
}

/// Whether an op must carry an attribute, and what ODS reads when it does
/// not.
enum Presence {
    Required,
    Optional,
    /// Absent, it reads as this Rust expression (ODS's default value).
    Default(String),
}

pub struct Typed {
    pub kind: Kind,
    presence: Presence,
}

impl Kind {
    /// The type of the attribute's value.
    fn rust_type(&self) -> String {
        match self {
            Kind::Unit | Kind::Bool => "bool".into(),
            Kind::Integer { rust, .. } => (*rust).into(),
            Kind::Array(rust) => format!("Vec<{rust}>"),
            Kind::Str | Kind::Symbol => "&'c str".into(),
            Kind::Type => "Type<'c>".into(),
            Kind::Enum(path) => path.clone(),
            Kind::Other => "Attribute<'c>".into(),
        }
    }

    /// The type a setter takes the value as.
    fn parameter_type(&self) -> String {
        match self {
            Kind::Array(rust) => format!("&[{rust}]"),
            Kind::Str | Kind::Symbol => "&str".into(),
            _ => self.rust_type(),
        }
    }

    /// An expression of `Option<value>` for the attribute `attribute`.
    fn read(&self, attribute: &str) -> String {
        match self {
            Kind::Unit => unreachable!("a unit attribute is read by its presence"),
            Kind::Integer { .. } => format!("crate::attributes::integer({attribute})"),
            Kind::Array(_) => format!("crate::attributes::array({attribute})"),
            Kind::Str => format!("crate::attributes::string({attribute})"),
            Kind::Symbol => format!("crate::attributes::symbol({attribute})"),
            Kind::Type => format!("crate::attributes::r#type({attribute})"),
            Kind::Bool => format!("crate::attributes::boolean({attribute})"),
            Kind::Enum(path) => format!("{path}::of({attribute})"),
            Kind::Other => format!("Some({attribute})"),
        }
    }

    /// An expression of the attribute that holds `value` (a setter's
    /// parameter), in `context` (a `&Context`).
    pub fn build(&self, value: &str) -> String {
        match self {
            Kind::Unit => "Attribute::unit(context)".into(),
            Kind::Integer {
                width: Some(width), ..
            } => format!("crate::attributes::integer_attribute(context, {width}, {value}.into())"),
            Kind::Integer { width: None, .. } => {
                format!(
                    "melior::ir::attribute::IntegerAttribute::new(Type::index(context), {value}).into()"
                )
            }
            Kind::Array(_) => format!("crate::attributes::array_attribute(context, {value})"),
            Kind::Str => format!("StringAttribute::new(context, {value}).into()"),
            Kind::Symbol => format!("FlatSymbolRefAttribute::new(context, {value}).into()"),
            Kind::Type => format!("TypeAttribute::new({value}).into()"),
            Kind::Bool => format!("BoolAttribute::new(context, {value}).into()"),
            Kind::Enum(_) => format!("{value}.attribute(context)"),
            Kind::Other => value.into(),
        }
    }
}

/// How the attribute constraint `def` is read: its kind from the attribute
/// it constrains (through `OptionalAttr`, `DefaultValuedAttr`,
/// `ConfinedAttr`, ...), its presence from the outermost.
fn typed(records: &Json, def: &str) -> Typed {
    let mut base = def;
    while let Some(inner) = records[base]["baseAttr"]["def"].as_str() {
        base = inner;
    }
    let classes = superclasses(records, base);
    let kind = match base {
        "UnitAttr" => Kind::Unit,
        "I64Attr" => Kind::Integer {
            rust: "i64",
            width: Some(64),
        },
        "I32Attr" => Kind::Integer {
            rust: "i32",
            width: Some(32),
        },
        "I16Attr" => Kind::Integer {
            rust: "i16",
            width: Some(16),
        },
        "I8Attr" => Kind::Integer {
            rust: "i8",
            width: Some(8),
        },
        "IndexAttr" => Kind::Integer {
            rust: "i64",
            width: None,
        },
        "DenseI64ArrayAttr" => Kind::Array("i64"),
        "DenseI32ArrayAttr" => Kind::Array("i32"),
        "FlatSymbolRefAttr" => Kind::Symbol,
        "BoolAttr" => Kind::Bool,
        _ if base == "StrAttr" || classes.contains(&"StringBasedAttr") => Kind::Str,
        _ if base == "TypeAttr" || classes.contains(&"TypeAttrBase") => Kind::Type,
        _ if classes.contains(&"EnumAttr") => {
            let dialect = records[base]["dialect"]["def"].as_str().unwrap_or_default();
            match DIALECTS
                .iter()
                .find(|known| known.dialect_def == dialect)
                .and_then(|known| known.enums)
            {
                Some(module) => {
                    let class = records[records[base]["enum"]["def"].as_str().unwrap_or_default()]
                        ["className"]
                        .as_str()
                        .expect("an enum has a class");
                    let module = if module.is_empty() {
                        "crate::enums".to_owned()
                    } else {
                        format!("crate::enums::{module}")
                    };
                    Kind::Enum(format!("{module}::{class}"))
                }
                None => Kind::Other,
            }
        }
        _ => Kind::Other,
    };
    let record = &records[def];
    let default = record["defaultValue"].as_str().unwrap_or_default().trim();
    let presence = if record["isOptional"].as_i64() == Some(1) {
        Presence::Optional
    } else if default.is_empty() {
        Presence::Required
    } else {
        default_value(records, base, &kind, default).map_or(Presence::Optional, Presence::Default)
    };
    Typed { kind, presence }
}

/// ODS's C++ default value `default` of an attribute of `kind` as Rust, when
/// it is an enum case or a literal integer or bool.
fn default_value(records: &Json, base: &str, kind: &Kind, default: &str) -> Option<String> {
    match kind {
        Kind::Enum(path) => {
            let symbol = default.rsplit("::").next()?;
            let def = records[base]["enum"]["def"].as_str()?;
            crate::enums::cases(records, def)
                .iter()
                .any(|(case, _, _)| *case == symbol)
                .then(|| format!("{path}::{}", crate::enums::case_name(symbol)))
        }
        Kind::Integer { .. } => default.parse::<i64>().ok().map(|value| value.to_string()),
        Kind::Bool => matches!(default, "true" | "false").then(|| default.to_owned()),
        _ => None,
    }
}

/// The records of `td` as JSON, by `llvm-tblgen --dump-json`.
pub fn records(tblgen: &Path, includes: &[&Path], td: &Path) -> Json {
    let mut command = Command::new(tblgen);
    command.arg("--dump-json");
    for include in includes {
        command.arg("-I").arg(include);
    }
    let output = command
        .arg(td)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", tblgen.display()));
    assert!(
        output.status.success(),
        "{} --dump-json {} failed:\n{}",
        tblgen.display(),
        td.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("llvm-tblgen prints JSON")
}

pub fn superclasses<'r>(records: &'r Json, def: &str) -> Vec<&'r str> {
    records[def]["!superclasses"]
        .as_array()
        .map(|list| list.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default()
}

fn arity(records: &Json, def: &str) -> Arity {
    let classes = superclasses(records, def);
    if classes.contains(&"Variadic") || classes.contains(&"VariadicRegion") {
        Arity::Variadic
    } else if classes.contains(&"Optional") {
        Arity::Optional
    } else {
        Arity::One
    }
}

/// The `(def, name)` pairs of a dag field (`arguments`, `results`, `regions`).
fn dag<'r>(records: &'r Json, record: &'r Json, field: &str) -> Vec<(&'r str, &'r str)> {
    record[field]["args"]
        .as_array()
        .map(|args| {
            args.iter()
                .map(|arg| {
                    (
                        arg[0]["def"].as_str().expect("a dag argument names a def"),
                        arg[1].as_str().unwrap_or_default(),
                    )
                })
                // `Arg<constraint, ...>` (a described operand or attribute)
                // stands for its constraint.
                .map(|(def, name)| {
                    let inner = &records[def]["constraint"]["def"];
                    match inner.as_str() {
                        Some(inner) if superclasses(records, def).contains(&"OpVariable") => {
                            (inner, name)
                        }
                        _ => (def, name),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Whether every operand, attribute and region of `record` has a name (a
/// field of the op's struct needs one; some upstream ops leave one unnamed,
/// and pld builds none of those). Unnamed results are named below.
fn fully_named(records: &Json, record: &Json) -> bool {
    ["arguments", "regions"].iter().all(|field| {
        dag(records, record, field)
            .iter()
            .all(|(_, name)| !name.is_empty())
    })
}

/// Whether `record` carries the native trait `name`, directly or in a
/// trait list.
fn has_trait(records: &Json, traits: &Json, name: &str) -> bool {
    traits.as_array().into_iter().flatten().any(|entry| {
        let def = entry["def"].as_str().unwrap_or_default();
        let record = &records[def];
        record["trait"].as_str() == Some(name)
            || (superclasses(records, def).contains(&"TraitList")
                && has_trait(records, &record["traits"], name))
    })
}

/// A Rust field name for an ODS name: snake_case (`lowerBound` ->
/// `lower_bound`), raw when it is a keyword.
pub fn identifier(name: &str) -> String {
    let mut snake = String::new();
    for (index, character) in name.char_indices() {
        if character.is_ascii_uppercase() {
            if index > 0 {
                snake.push('_');
            }
            snake.push(character.to_ascii_lowercase());
        } else {
            snake.push(character);
        }
    }
    let name = snake.as_str();
    const KEYWORDS: &[&str] = &[
        "as", "box", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
        "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
        "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "type",
        "unsafe", "use", "where", "while", "yield",
    ];
    if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_owned()
    }
}

/// The Rust of every op of `dialect` in `records`.
pub fn generate(dialect: &Dialect, records: &Json, out: &mut String) {
    let mut ops: Vec<&str> = records["!instanceof"]["Op"]
        .as_array()
        .expect("the records list the ops")
        .iter()
        .filter_map(Json::as_str)
        .filter(|def| records[*def]["opDialect"]["def"].as_str() == Some(dialect.dialect_def))
        // Successors are not built here; no op pld builds has them.
        .filter(|def| {
            dag(records, &records[*def], "successors").is_empty()
                && fully_named(records, &records[*def])
        })
        .collect();
    ops.sort();
    let dialect_name = records[dialect.dialect_def]["name"]
        .as_str()
        .expect("a dialect has a name");
    writeln!(out, "pub mod {} {{", dialect.module).unwrap();
    writeln!(out, "    use super::*;").unwrap();
    let mut classes = Vec::new();
    let mut arms = Vec::new();
    for def in ops {
        // ODS's class name: the def's name after its `Dialect_` prefix.
        let class = def.split_once('_').map_or(def, |(_, class)| class);
        arms.push(generate_op(
            records,
            dialect_name,
            def,
            class,
            !dialect.upstream,
            out,
        ));
        classes.push(class);
    }
    if !dialect.upstream {
        // Every op of the dialect, or the view is not exhaustive.
        let all = records["!instanceof"]["Op"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|def| {
                def.as_str().is_some_and(|def| {
                    records[def]["opDialect"]["def"].as_str() == Some(dialect.dialect_def)
                })
            })
            .count();
        assert_eq!(
            all,
            classes.len(),
            "every op of {dialect_name} has a struct (none has successors or unnamed arguments)"
        );
        generate_view(dialect, dialect_name, &classes, out);
    }
    // The mixed index lists of every op, looked up by name.
    writeln!(
        out,
        "    /// The mixed static/dynamic index lists of the op named `name`, as \
         (static attribute, dynamic operand group) pairs; empty for an op of \
         another dialect."
    )
    .unwrap();
    writeln!(
        out,
        "    pub fn index_lists(name: &str) -> &'static [(&'static str, &'static str)] {{"
    )
    .unwrap();
    writeln!(out, "        match name {{").unwrap();
    for class in &classes {
        writeln!(out, "            {class}::NAME => {class}::INDEX_LISTS,").unwrap();
    }
    writeln!(out, "            _ => &[],").unwrap();
    writeln!(out, "        }}").unwrap();
    writeln!(out, "    }}").unwrap();
    crate::described::function(&arms, out);
    writeln!(out, "}}").unwrap();
}

/// The op's mixed index lists: each `static_<x>` attribute with the variadic
/// operand group `<x>` that holds its dynamic entries (the convention of
/// upstream's OffsetSizeAndStrideOpInterface ops, which pld's ops follow).
fn index_lists(fields: &[Field]) -> Vec<(String, String)> {
    fields
        .iter()
        .filter_map(|field| match field {
            Field::Attribute { name, .. } => {
                let dynamic = name.strip_prefix("static_")?;
                fields
                    .iter()
                    .any(|field| {
                        matches!(field, Field::Operand(operand, Arity::Variadic) if operand == dynamic)
                    })
                    .then(|| (name.clone(), dynamic.to_owned()))
            }
            Field::Operand(..) => None,
        })
        .collect()
}

/// Writes the op's struct and impl; gives its arm of `build_described`.
///
/// `readable`: the op's operand groups are in pld's C API
/// (`pld-c/Operands.h`), so `operands()` can read them by name.
fn generate_op(
    records: &Json,
    dialect: &str,
    def: &str,
    class: &str,
    readable: bool,
    out: &mut String,
) -> String {
    let record = &records[def];
    let op_name = format!(
        "{dialect}.{}",
        record["opName"].as_str().expect("an op has a name")
    );
    let summary = record["summary"].as_str().unwrap_or_default();
    let summary = summary.trim().trim_end_matches('.');
    let fields: Vec<Field> = dag(records, record, "arguments")
        .into_iter()
        .map(|(constraint, name)| {
            let classes = superclasses(records, constraint);
            if classes.contains(&"TypeConstraint") {
                Field::Operand(name.to_owned(), arity(records, constraint))
            } else {
                let attribute = &records[constraint];
                let default = attribute["defaultValue"].as_str().unwrap_or_default();
                Field::Attribute {
                    name: name.to_owned(),
                    optional: attribute["isOptional"].as_i64() == Some(1) || !default.is_empty(),
                    unit: constraint == "UnitAttr",
                    typed: typed(records, constraint),
                }
            }
        })
        .collect();
    let results = dag(records, record, "results");
    let single = results.len() == 1;
    let results: Vec<(String, Arity)> = results
        .into_iter()
        .enumerate()
        .map(|(index, (constraint, name))| {
            // ODS calls an unnamed result by its position (`getResult(i)`).
            let arity = arity(records, constraint);
            let name = match (name, single) {
                ("", true) if arity == Arity::Variadic => "results".to_owned(),
                ("", true) => "result".to_owned(),
                ("", false) => format!("result_{index}"),
                (name, _) => name.to_owned(),
            };
            (name, arity)
        })
        .collect();
    let regions: Vec<(String, Arity)> = dag(records, record, "regions")
        .into_iter()
        .map(|(constraint, name)| (name.to_owned(), arity(records, constraint)))
        .collect();
    let segmented = has_trait(records, &record["traits"], "AttrSizedOperandSegments");

    let has_values = fields
        .iter()
        .any(|field| matches!(field, Field::Operand(..)));
    let lifetimes = if has_values { "<'c, 'a>" } else { "<'c>" };
    writeln!(out, "    /// `{op_name}`: {summary}.").unwrap();
    writeln!(out, "    pub struct {class}{lifetimes} {{").unwrap();
    for field in &fields {
        match field {
            Field::Operand(name, arity) => {
                let r#type = match arity {
                    Arity::One => "Value<'c, 'a>",
                    Arity::Optional => "Option<Value<'c, 'a>>",
                    Arity::Variadic => "&'a [Value<'c, 'a>]",
                };
                writeln!(out, "        pub {}: {type},", identifier(name)).unwrap();
            }
            Field::Attribute {
                name,
                optional,
                unit,
                ..
            } => {
                let r#type = match (unit, optional) {
                    (true, _) => "bool",
                    (false, true) => "Option<Attribute<'c>>",
                    (false, false) => "Attribute<'c>",
                };
                writeln!(out, "        pub {}: {type},", identifier(name)).unwrap();
            }
        }
    }
    for (name, arity) in &results {
        let r#type = match arity {
            Arity::One => "Type<'c>",
            Arity::Optional => "Option<Type<'c>>",
            Arity::Variadic => "Vec<Type<'c>>",
        };
        writeln!(out, "        pub {}: {type},", identifier(name)).unwrap();
    }
    for (name, arity) in &regions {
        let r#type = match arity {
            Arity::Variadic => "Vec<Region<'c>>",
            _ => "Region<'c>",
        };
        writeln!(out, "        pub {}: {type},", identifier(name)).unwrap();
    }
    if fields.is_empty() && results.is_empty() && regions.is_empty() {
        writeln!(out, "        pub _context: PhantomData<&'c ()>,").unwrap();
    }
    writeln!(out, "    }}").unwrap();

    let operands: Vec<(&String, &Arity)> = fields
        .iter()
        .filter_map(|field| match field {
            Field::Operand(name, arity) => Some((name, arity)),
            Field::Attribute { .. } => None,
        })
        .collect();
    // pld's ops are read by name through the C API; an upstream op by the
    // positions ODS gives its groups, which are fixed when at most one
    // group varies in length and no segment sizes are needed.
    let variable = operands
        .iter()
        .filter(|(_, arity)| **arity != Arity::One)
        .count();
    let positional = !readable && !segmented && variable <= 1;
    let readable = (readable || positional) && !operands.is_empty();
    if readable {
        writeln!(
            out,
            "    /// The operands of a `{op_name}` op ({class}::operands)."
        )
        .unwrap();
        writeln!(out, "    pub struct {class}Operands<'c, 'a> {{").unwrap();
        for (name, arity) in &operands {
            let r#type = match arity {
                Arity::One => "Value<'c, 'a>",
                Arity::Optional => "Option<Value<'c, 'a>>",
                Arity::Variadic => "Vec<Value<'c, 'a>>",
            };
            writeln!(out, "        pub {}: {type},", identifier(name)).unwrap();
        }
        writeln!(out, "    }}").unwrap();
    }
    let attributes: Vec<(&String, &Typed)> = fields
        .iter()
        .filter_map(|field| match field {
            Field::Attribute { name, typed, .. } => Some((name, typed)),
            Field::Operand(..) => None,
        })
        .collect();
    let attributes_lifetime = generate_attributes_struct(&op_name, class, &attributes, out);

    writeln!(out, "    impl{lifetimes} {class}{lifetimes} {{").unwrap();
    writeln!(out, "        pub const NAME: &'static str = {op_name:?};").unwrap();
    if !attributes.is_empty() {
        generate_attribute_accessors(&op_name, class, &attributes, attributes_lifetime, out);
    }
    if readable {
        writeln!(
            out,
            "        /// `op`'s operands by their ODS names, when `op` is a `{op_name}`."
        )
        .unwrap();
        writeln!(
            out,
            "        pub fn operands(op: &OperationRef<'c, 'a>) -> Option<{class}Operands<'c, 'a>> {{"
        )
        .unwrap();
        writeln!(
            out,
            "            if !crate::has_name(op, Self::NAME) {{ return None; }}"
        )
        .unwrap();
        if positional {
            generate_positional_reads(&operands, out);
        }
        writeln!(out, "            Some({class}Operands {{").unwrap();
        for (name, arity) in &operands {
            let field = identifier(name);
            let read = match (positional, arity) {
                (false, Arity::One) => format!("crate::operands::value(op, {name:?})?"),
                (false, Arity::Optional) => {
                    format!("crate::operands::values(op, {name:?})?.first().copied()")
                }
                (false, Arity::Variadic) => format!("crate::operands::values(op, {name:?})?"),
                (true, _) => field.clone(),
            };
            writeln!(out, "                {field}: {read},").unwrap();
        }
        writeln!(out, "            }})").unwrap();
        writeln!(out, "        }}").unwrap();
    }
    let lists: Vec<String> = index_lists(&fields)
        .iter()
        .map(|(statics, dynamic)| format!("({statics:?}, {dynamic:?})"))
        .collect();
    writeln!(
        out,
        "        /// The op's mixed index lists: (static attribute, dynamic operand group)."
    )
    .unwrap();
    writeln!(
        out,
        "        pub const INDEX_LISTS: &'static [(&'static str, &'static str)] = &[{}];",
        lists.join(", ")
    )
    .unwrap();
    writeln!(
        out,
        "        /// The op, with its operands in ODS order{}.",
        if segmented {
            " and `operandSegmentSizes` from them"
        } else {
            ""
        }
    )
    .unwrap();
    writeln!(
        out,
        "        pub fn build(self, context: &'c Context, location: Location<'c>) -> Operation<'c> {{"
    )
    .unwrap();
    writeln!(out, "            let _ = context;").unwrap();
    writeln!(out, "            #[allow(unused_mut)]").unwrap();
    writeln!(
        out,
        "            let mut operands: Vec<Value<'c, '_>> = Vec::new();"
    )
    .unwrap();
    if segmented {
        writeln!(out, "            let mut segments: Vec<i32> = Vec::new();").unwrap();
    }
    writeln!(out, "            #[allow(unused_mut)]").unwrap();
    writeln!(
        out,
        "            let mut attributes: Vec<(Identifier<'c>, Attribute<'c>)> = Vec::new();"
    )
    .unwrap();
    let segment = |out: &mut String, size: &str| {
        if segmented {
            writeln!(out, "            segments.push({size});").unwrap();
        }
    };
    for field in &fields {
        match field {
            Field::Operand(name, arity) => {
                let name = identifier(name);
                match arity {
                    Arity::One => {
                        writeln!(out, "            operands.push(self.{name});").unwrap();
                        segment(out, "1");
                    }
                    Arity::Optional => {
                        writeln!(out, "            operands.extend(self.{name});").unwrap();
                        segment(out, &format!("self.{name}.is_some() as i32"));
                    }
                    Arity::Variadic => {
                        writeln!(out, "            operands.extend_from_slice(self.{name});")
                            .unwrap();
                        segment(out, &format!("self.{name}.len() as i32"));
                    }
                }
            }
            Field::Attribute {
                name,
                optional,
                unit,
                ..
            } => {
                let field = identifier(name);
                let key = format!("Identifier::new(context, {name:?})");
                if *unit {
                    writeln!(out, "            if self.{field} {{ attributes.push(({key}, Attribute::unit(context))); }}").unwrap();
                } else if *optional {
                    writeln!(out, "            if let Some(value) = self.{field} {{ attributes.push(({key}, value)); }}").unwrap();
                } else {
                    writeln!(out, "            attributes.push(({key}, self.{field}));").unwrap();
                }
            }
        }
    }
    if segmented {
        writeln!(out, "            attributes.push((Identifier::new(context, \"operandSegmentSizes\"), DenseI32ArrayAttribute::new(context, &segments).into()));").unwrap();
    }
    writeln!(out, "            #[allow(unused_mut)]").unwrap();
    writeln!(
        out,
        "            let mut results: Vec<Type<'c>> = Vec::new();"
    )
    .unwrap();
    for (name, arity) in &results {
        let name = identifier(name);
        match arity {
            Arity::One => writeln!(out, "            results.push(self.{name});").unwrap(),
            _ => writeln!(out, "            results.extend(self.{name});").unwrap(),
        }
    }
    writeln!(out, "            #[allow(unused_mut)]").unwrap();
    writeln!(
        out,
        "            let mut regions: Vec<Region<'c>> = Vec::new();"
    )
    .unwrap();
    for (name, arity) in &regions {
        let name = identifier(name);
        match arity {
            Arity::Variadic => writeln!(out, "            regions.extend(self.{name});").unwrap(),
            _ => writeln!(out, "            regions.push(self.{name});").unwrap(),
        }
    }
    writeln!(
        out,
        "            OperationBuilder::new(Self::NAME, location)"
    )
    .unwrap();
    writeln!(out, "                .add_operands(&operands)").unwrap();
    writeln!(out, "                .add_results(&results)").unwrap();
    writeln!(out, "                .add_attributes(&attributes)").unwrap();
    writeln!(out, "                .add_regions_vec(regions)").unwrap();
    writeln!(out, "                .build()").unwrap();
    writeln!(
        out,
        "                .unwrap_or_else(|error| panic!(\"{{}} is registered: {{error}}\", Self::NAME))"
    )
    .unwrap();
    writeln!(out, "        }}").unwrap();
    writeln!(out, "    }}").unwrap();
    crate::described::arm(class, &fields, &results, &regions, identifier)
}

/// The reads of an upstream op's operands by position, into one local per
/// group: the single groups before the one that varies (if any) at their
/// positions, the varying one over what the others leave, the singles after
/// it from the end. As ODS's own accessors compute them for an op without
/// segment sizes.
fn generate_positional_reads(operands: &[(&String, &Arity)], out: &mut String) {
    let singles = operands
        .iter()
        .filter(|(_, arity)| **arity == Arity::One)
        .count();
    // What the varying group holds: the operands the singles leave.
    writeln!(
        out,
        "            let extra = op.operand_count().checked_sub({singles})?;"
    )
    .unwrap();
    writeln!(out, "            let _ = extra;").unwrap();
    // Before the varying group a position is its index; after it, the
    // index plus what the group took beyond one.
    let mut varied = false;
    for (index, (name, arity)) in operands.iter().enumerate() {
        let field = identifier(name);
        let at = if varied {
            format!("{index} - 1 + extra")
        } else {
            index.to_string()
        };
        match arity {
            Arity::One => {
                writeln!(out, "            let {field} = op.operand({at}).ok()?;").unwrap()
            }
            Arity::Optional => {
                varied = true;
                writeln!(
                    out,
                    "            let {field} = if extra > 0 {{ Some(op.operand({index}).ok()?) }} else {{ None }};"
                )
                .unwrap();
                writeln!(out, "            if extra > 1 {{ return None; }}").unwrap();
            }
            Arity::Variadic => {
                varied = true;
                writeln!(
                    out,
                    "            let {field} = ({index}..{index} + extra).map(|i| op.operand(i).ok()).collect::<Option<Vec<_>>>()?;"
                )
                .unwrap();
            }
        }
    }
}

/// The expression that reads attribute `name` of `op` as its Rust type
/// (`?` returns `None` where a required one is missing or of another type).
fn read_value(name: &str, typed: &Typed) -> String {
    let read = || typed.kind.read("attribute");
    match (&typed.kind, &typed.presence) {
        (Kind::Unit, _) => format!("op.has_attribute({name:?})"),
        (_, Presence::Required) => format!(
            "{{ let attribute = op.attribute({name:?}).ok()?; {}? }}",
            read()
        ),
        (_, Presence::Optional) => format!(
            "match op.attribute({name:?}) {{ Ok(attribute) => Some({}?), Err(_) => None }}",
            read()
        ),
        (_, Presence::Default(default)) => format!(
            "match op.attribute({name:?}) {{ Ok(attribute) => {}?, Err(_) => {default} }}",
            read()
        ),
    }
}

/// The Rust type an attribute reads as: optional ones as an `Option`.
fn field_type(typed: &Typed) -> String {
    let r#type = typed.kind.rust_type();
    match (&typed.kind, &typed.presence) {
        (Kind::Unit, _) | (_, Presence::Required | Presence::Default(_)) => r#type,
        (_, Presence::Optional) => format!("Option<{type}>"),
    }
}

/// The struct `<Op>Attributes` of the op's attributes, typed; returns its
/// lifetime parameters (`<'c>` when a field borrows from the context).
fn generate_attributes_struct(
    op_name: &str,
    class: &str,
    attributes: &[(&String, &Typed)],
    out: &mut String,
) -> &'static str {
    if attributes.is_empty() {
        return "";
    }
    let types: Vec<String> = attributes
        .iter()
        .map(|(_, typed)| field_type(typed))
        .collect();
    let lifetime = if types.iter().any(|r#type| r#type.contains("'c")) {
        "<'c>"
    } else {
        ""
    };
    writeln!(
        out,
        "    /// The attributes of a `{op_name}` op, typed ({class}::attributes)."
    )
    .unwrap();
    writeln!(out, "    #[derive(Clone, Debug, PartialEq)]").unwrap();
    writeln!(out, "    pub struct {class}Attributes{lifetime} {{").unwrap();
    for ((name, typed), r#type) in attributes.iter().zip(&types) {
        if let Presence::Default(default) = &typed.presence {
            writeln!(
                out,
                "        /// `{default}` when the op does not carry it."
            )
            .unwrap();
        }
        writeln!(out, "        pub {}: {type},", identifier(name)).unwrap();
    }
    writeln!(out, "    }}").unwrap();
    lifetime
}

/// `attributes(&op)`, which reads the op's attributes into its
/// `<Op>Attributes`, and a `set_<name>(&op, value)` per attribute.
fn generate_attribute_accessors(
    op_name: &str,
    class: &str,
    attributes: &[(&String, &Typed)],
    lifetime: &str,
    out: &mut String,
) {
    writeln!(
        out,
        "        /// `op`'s attributes by their ODS names, typed, when `op` is a \
         `{op_name}` (and carries every attribute it must, of its type)."
    )
    .unwrap();
    writeln!(
        out,
        "        pub fn attributes<'o>(op: &impl OperationLike<'c, 'o>) -> \
         Option<{class}Attributes{lifetime}> where 'c: 'o {{"
    )
    .unwrap();
    writeln!(
        out,
        "            if !crate::has_name(op, Self::NAME) {{ return None; }}"
    )
    .unwrap();
    writeln!(out, "            Some({class}Attributes {{").unwrap();
    for (name, typed) in attributes {
        writeln!(
            out,
            "                {}: {},",
            identifier(name),
            read_value(name, typed)
        )
        .unwrap();
    }
    writeln!(out, "            }})").unwrap();
    writeln!(out, "        }}").unwrap();
    // One attribute alone, for a reader that needs no other (the struct
    // reads every one, arrays into vectors).
    for (name, typed) in attributes {
        let getter = format!("get_{}", identifier(name).trim_start_matches("r#"));
        writeln!(
            out,
            "        /// `op`'s `{name}`, typed, when `op` is a `{op_name}` (as in \
             [`Self::attributes`])."
        )
        .unwrap();
        writeln!(
            out,
            "        pub fn {getter}<'o>(op: &impl OperationLike<'c, 'o>) -> Option<{}> \
             where 'c: 'o {{",
            field_type(typed)
        )
        .unwrap();
        writeln!(
            out,
            "            if !crate::has_name(op, Self::NAME) {{ return None; }}"
        )
        .unwrap();
        writeln!(out, "            Some({})", read_value(name, typed)).unwrap();
        writeln!(out, "        }}").unwrap();
    }
    for (name, typed) in attributes {
        let setter = format!("set_{}", identifier(name).trim_start_matches("r#"));
        let parameter = typed.kind.parameter_type();
        let build = typed.kind.build("value");
        let (parameter, attribute, doc) = match (&typed.kind, &typed.presence) {
            (Kind::Unit, _) => (
                "bool".to_owned(),
                format!("value.then(|| {build})"),
                "adds it when `value` holds, removes it otherwise",
            ),
            (_, Presence::Optional) => (
                format!("Option<{parameter}>"),
                format!("value.map(|value| {build})"),
                "removes it when `value` is `None`",
            ),
            _ => (parameter, format!("Some({build})"), "replaces it"),
        };
        writeln!(
            out,
            "        /// Writes the attribute `{name}` of `op`, a `{op_name}` (checked in \
             debug builds): {doc}."
        )
        .unwrap();
        writeln!(
            out,
            "        pub fn {setter}<'o>(op: &impl OperationLike<'c, 'o>, value: {parameter}) \
             where 'c: 'o {{"
        )
        .unwrap();
        writeln!(
            out,
            "            debug_assert!(crate::has_name(op, Self::NAME), \
             \"{class}::{setter} on another op\");"
        )
        .unwrap();
        let context = if attribute.contains("context") {
            "context"
        } else {
            "_"
        };
        writeln!(
            out,
            "            crate::attributes::set(op, {name:?}, |{context}| {attribute});"
        )
        .unwrap();
        writeln!(out, "        }}").unwrap();
    }
}

/// The exhaustive view of a dialect's ops: `<Dialect>Op`, one variant per
/// op (its class without `Op`), recognised by name in `of`.
fn generate_view(dialect: &Dialect, dialect_name: &str, classes: &[&str], out: &mut String) {
    let view = format!(
        "{}Op",
        dialect
            .dialect_def
            .strip_suffix("_Dialect")
            .expect("a dialect def is <Name>_Dialect")
    );
    let variants: Vec<(&str, &str)> = classes
        .iter()
        .map(|class| (*class, class.strip_suffix("Op").unwrap_or(class)))
        .collect();
    writeln!(
        out,
        "    /// Every op of the `{dialect_name}` dialect, one variant per op (its \
         class without `Op`), so that a `match` over them is exhaustive: \
         adding an op to ODS makes every such `match` fail to compile until \
         it handles the op."
    )
    .unwrap();
    writeln!(out, "    #[derive(Clone, Copy, Debug)]").unwrap();
    writeln!(out, "    pub enum {view}<'c, 'a> {{").unwrap();
    for (class, variant) in &variants {
        writeln!(out, "        /// [`{class}`].").unwrap();
        writeln!(out, "        {variant}(OperationRef<'c, 'a>),").unwrap();
    }
    writeln!(out, "    }}").unwrap();
    writeln!(out, "    impl<'c, 'a> {view}<'c, 'a> {{").unwrap();
    writeln!(
        out,
        "        /// `op` as the variant of its op; `None` for an op of another dialect."
    )
    .unwrap();
    writeln!(
        out,
        "        pub fn of(op: OperationRef<'c, 'a>) -> Option<Self> {{"
    )
    .unwrap();
    writeln!(
        out,
        "            Some(match op.name().as_string_ref().as_str().ok()? {{"
    )
    .unwrap();
    for (class, variant) in &variants {
        writeln!(out, "                {class}::NAME => Self::{variant}(op),").unwrap();
    }
    writeln!(out, "                _ => return None,").unwrap();
    writeln!(out, "            }})").unwrap();
    writeln!(out, "        }}").unwrap();
    writeln!(out, "        /// The op.").unwrap();
    writeln!(
        out,
        "        pub fn operation(self) -> OperationRef<'c, 'a> {{"
    )
    .unwrap();
    let arms: Vec<String> = variants
        .iter()
        .map(|(_, variant)| format!("Self::{variant}(op)"))
        .collect();
    writeln!(
        out,
        "            match self {{ {} => op }}",
        arms.join(" | ")
    )
    .unwrap();
    writeln!(out, "        }}").unwrap();
    writeln!(out, "    }}").unwrap();
}
