//! The description the Python front end writes (docs/design/python-frontend.md):
//! functions of ops named by their MLIR names, with operands, attributes,
//! results and regions by their ODS names, read with serde.

use serde::Deserialize;
use std::collections::BTreeMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Program {
    pub functions: Vec<Function>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Function {
    pub name: String,
    pub kind: FunctionKind,
    pub loc: Loc,
    pub arguments: Vec<Argument>,
    #[serde(default)]
    pub results: Vec<TypeDesc>,
    pub body: Vec<Op>,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FunctionKind {
    Incore,
    Host,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Argument {
    pub id: u64,
    pub name: String,
    #[serde(rename = "type")]
    pub r#type: TypeDesc,
    pub loc: Loc,
}

/// A source position, 1-based.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Loc {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// A type: exactly one of the kinds, `element` with a shaped one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TypeDesc {
    pub int: Option<u32>,
    pub index: Option<bool>,
    pub float: Option<String>,
    pub memref: Option<Vec<Option<i64>>>,
    pub dtensor: Option<Vec<Option<i64>>>,
    pub tile: Option<Vec<Option<i64>>>,
    pub element: Option<Box<TypeDesc>>,
    pub comm_ctx: Option<bool>,
    pub window_ptr: Option<bool>,
    pub task_id: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Op {
    pub op: String,
    pub loc: Loc,
    #[serde(default)]
    pub operands: BTreeMap<String, Vec<u64>>,
    #[serde(default)]
    pub mixed: BTreeMap<String, Vec<MixedEntry>>,
    #[serde(default)]
    pub attributes: BTreeMap<String, AttrDesc>,
    #[serde(default)]
    pub results: Vec<ResultGroup>,
    #[serde(default)]
    pub regions: Vec<RegionDesc>,
}

/// One entry of a mixed static/dynamic index list.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MixedEntry {
    #[serde(rename = "const")]
    pub constant: Option<i64>,
    pub id: Option<u64>,
}

/// An attribute's value; `type` makes a number a typed attribute.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttrDesc {
    pub int: Option<i64>,
    pub ints: Option<Vec<i64>>,
    pub str: Option<String>,
    pub bool: Option<bool>,
    #[serde(rename = "enum")]
    pub keyword: Option<String>,
    pub unit: Option<bool>,
    pub float: Option<f64>,
    #[serde(rename = "type")]
    pub r#type: Option<TypeDesc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultGroup {
    pub name: String,
    pub types: Vec<TypeDesc>,
    pub ids: Vec<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionDesc {
    pub name: String,
    pub blocks: Vec<BlockDesc>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockDesc {
    #[serde(default)]
    pub arguments: Vec<BlockArgument>,
    pub ops: Vec<Op>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockArgument {
    pub id: u64,
    #[serde(rename = "type")]
    pub r#type: TypeDesc,
}
