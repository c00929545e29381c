//! Generates, per dialect, `build_described`: an op built from a
//! `Described` (its parts by ODS names, `src/described.rs`), one match arm
//! per op that takes each ODS operand group, attribute, result and region
//! out by name, converts attribute values by the kind ODS declares, and
//! fills the op's struct, whose `build` lays it out.

use crate::ops::{Arity, Field, Kind};
use std::fmt::Write;

/// The match arm that builds `class` from `described` (a
/// `&mut Described`), in the scope of `context` and `location`.
pub fn arm(
    class: &str,
    fields: &[Field],
    results: &[(String, Arity)],
    regions: &[(String, Arity)],
    identifier: impl Fn(&str) -> String,
) -> String {
    let mut arm = String::new();
    let mut members: Vec<String> = Vec::new();
    writeln!(arm, "            {class}::NAME => {{").unwrap();
    writeln!(
        arm,
        "                #[allow(unused_mut)]\n                let mut taking = described.taking({class}::NAME);"
    )
    .unwrap();
    let mut local = 0;
    let mut bind = |arm: &mut String, name: &str, value: String, borrowed: bool| {
        writeln!(arm, "                let v{local} = {value};").unwrap();
        let reference = if borrowed { "&" } else { "" };
        members.push(format!("{}: {reference}v{local}", identifier(name)));
        local += 1;
    };
    for field in fields {
        match field {
            Field::Operand(name, arity) => {
                let (value, borrowed) = match arity {
                    Arity::One => (format!("taking.operand({name:?})?"), false),
                    Arity::Optional => (format!("taking.optional_operand({name:?})?"), false),
                    Arity::Variadic => (format!("taking.operands({name:?})"), true),
                };
                bind(&mut arm, name, value, borrowed);
            }
            Field::Attribute {
                name,
                optional,
                unit,
                typed,
            } => {
                if *unit {
                    bind(&mut arm, name, format!("taking.unit({name:?})?"), false);
                    continue;
                }
                let (make, expected) = conversion(&typed.kind);
                let method = if *optional {
                    "optional_attribute"
                } else {
                    "required_attribute"
                };
                let value = format!("taking.{method}({name:?}, |value| {make}, {expected:?})?");
                bind(&mut arm, name, value, false);
            }
        }
    }
    for (name, arity) in results {
        let value = match arity {
            Arity::One => format!("taking.result({name:?})?"),
            Arity::Optional => format!("taking.optional_result({name:?})?"),
            Arity::Variadic => format!("taking.results({name:?})"),
        };
        bind(&mut arm, name, value, false);
    }
    for (name, arity) in regions {
        let value = match arity {
            Arity::Variadic => format!("taking.regions({name:?})"),
            _ => format!("taking.region({name:?})?"),
        };
        bind(&mut arm, name, value, false);
    }
    if members.is_empty() {
        members.push("_context: PhantomData".into());
    }
    writeln!(arm, "                taking.finish()?;").unwrap();
    writeln!(
        arm,
        "                {class} {{ {} }}.build(context, location)",
        members.join(", ")
    )
    .unwrap();
    writeln!(arm, "            }}").unwrap();
    arm
}

/// The expression that makes the attribute from `value` (an `&AttrValue`),
/// as an `Option<Attribute>`, and what the value must be.
fn conversion(kind: &Kind) -> (String, &'static str) {
    match kind {
        Kind::Unit => unreachable!("a unit attribute is taken by its presence"),
        Kind::Integer { .. } => (
            format!("value.int().map(|v| {})", kind.build("v")),
            "an integer",
        ),
        Kind::Array(rust) => (
            format!("value.ints::<{rust}>().map(|v| {})", kind.build("&v")),
            "a list of integers",
        ),
        Kind::Str | Kind::Symbol => (
            format!("value.string().map(|v| {})", kind.build("v")),
            "a string",
        ),
        Kind::Type => (
            format!("value.r#type().map(|v| {})", kind.build("v")),
            "a type",
        ),
        Kind::Bool => (
            format!("value.boolean().map(|v| {})", kind.build("v")),
            "a bool",
        ),
        Kind::Enum(path) => (
            format!(
                "value.keyword().and_then({path}::from_keyword).map(|v| {})",
                kind.build("v")
            ),
            "an enum keyword",
        ),
        Kind::Other => ("value.any(context)".into(), "a typed value"),
    }
}

/// The function of one dialect's module that builds any of its ops from
/// the arms of [`arm`]: `None` for an op of another dialect.
pub fn function(arms: &[String], out: &mut String) {
    writeln!(
        out,
        "    /// The op named `name` of this dialect built from `described` (its \
         parts by ODS names); `None` for an op of another dialect."
    )
    .unwrap();
    writeln!(
        out,
        "    pub fn build_described<'c>(name: &str, context: &'c Context, location: Location<'c>, \
         described: &mut crate::described::Described<'c, '_>) \
         -> Result<Option<Operation<'c>>, crate::described::DescribedError> {{"
    )
    .unwrap();
    writeln!(out, "        Ok(Some(match name {{").unwrap();
    for arm in arms {
        out.push_str(arm);
    }
    writeln!(out, "            _ => return Ok(None),").unwrap();
    writeln!(out, "        }}))").unwrap();
    writeln!(out, "    }}").unwrap();
}
