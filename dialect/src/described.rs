//! Building an op from a description of it by ODS names: its operand groups,
//! attributes, result types and regions in maps keyed by the names ODS gives
//! them ([`Described`]), handed to [`crate::ops::build_described`], which
//! fills the op's generated struct (one match arm per op, generated from ODS
//! like the structs) and builds it. A front end that is not Rust (the Python
//! package) describes ops this way, so they pass through the same typed
//! builders as the ops pld's passes build.

use melior::{
    Context,
    ir::{
        Attribute, Region, Type, Value,
        attribute::{
            DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute, StringAttribute,
            TypeAttribute,
        },
    },
};
use std::collections::BTreeMap;

/// An attribute's value before it is known which attribute kind it is for;
/// the op's ODS declaration decides (see [`crate::ops`]).
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue<'c> {
    Int(i64),
    Ints(Vec<i64>),
    Str(String),
    Bool(bool),
    /// An enum case by its keyword (`set`, `atomic_add`, `core_group`).
    Keyword(String),
    Unit,
    Type(Type<'c>),
    /// An integer of the given type (a `TypedAttr`: `arith.constant`'s value).
    TypedInt(i64, Type<'c>),
    /// A float of the given type.
    TypedFloat(f64, Type<'c>),
}

/// Why a description does not make an op.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DescribedError {
    #[error("there is no op named `{0}`")]
    UnknownOp(String),
    #[error("{op} has no {what} named `{name}`")]
    Unknown {
        op: String,
        what: &'static str,
        name: String,
    },
    #[error("{op} needs {what} `{name}`")]
    Missing {
        op: String,
        what: &'static str,
        name: String,
    },
    #[error("{op}'s {what} `{name}` takes {expected}, not {found}")]
    Count {
        op: String,
        what: &'static str,
        name: String,
        expected: &'static str,
        found: usize,
    },
    #[error("{op}'s attribute `{name}` is {expected}, not {found}")]
    Attribute {
        op: String,
        name: String,
        expected: &'static str,
        found: String,
    },
}

/// An op's operand groups, attributes, result types and regions by their
/// ODS names. [`crate::ops::build_described`] takes out what the op
/// declares and reports what is left as unknown.
#[derive(Default)]
pub struct Described<'c, 'a> {
    pub operands: BTreeMap<String, Vec<Value<'c, 'a>>>,
    pub attributes: BTreeMap<String, AttrValue<'c>>,
    pub results: BTreeMap<String, Vec<Type<'c>>>,
    pub regions: BTreeMap<String, Vec<Region<'c>>>,
}

/// The generated builders' view of a [`Described`] while one op takes its
/// parts out of it.
pub struct Taking<'d, 'c, 'a> {
    op: &'static str,
    described: &'d mut Described<'c, 'a>,
}

impl<'c, 'a> Described<'c, 'a> {
    pub(crate) fn taking(&mut self, op: &'static str) -> Taking<'_, 'c, 'a> {
        Taking {
            op,
            described: self,
        }
    }
}

impl<'c, 'a> Taking<'_, 'c, 'a> {
    fn count(
        &self,
        what: &'static str,
        name: &str,
        expected: &'static str,
        found: usize,
    ) -> DescribedError {
        DescribedError::Count {
            op: self.op.into(),
            what,
            name: name.into(),
            expected,
            found,
        }
    }

    /// The one operand of the group `name`.
    pub fn operand(&mut self, name: &str) -> Result<Value<'c, 'a>, DescribedError> {
        match self.described.operands.remove(name).as_deref() {
            Some([value]) => Ok(*value),
            Some(values) => Err(self.count("operand", name, "one value", values.len())),
            None => Err(DescribedError::Missing {
                op: self.op.into(),
                what: "operand",
                name: name.into(),
            }),
        }
    }

    /// The operand of the optional group `name`, if given.
    pub fn optional_operand(
        &mut self,
        name: &str,
    ) -> Result<Option<Value<'c, 'a>>, DescribedError> {
        match self.described.operands.remove(name).as_deref() {
            None | Some([]) => Ok(None),
            Some([value]) => Ok(Some(*value)),
            Some(values) => Err(self.count("operand", name, "at most one value", values.len())),
        }
    }

    /// The operands of the variadic group `name` (none when not given).
    pub fn operands(&mut self, name: &str) -> Vec<Value<'c, 'a>> {
        self.described.operands.remove(name).unwrap_or_default()
    }

    /// Whether the unit attribute `name` is given.
    pub fn unit(&mut self, name: &str) -> Result<bool, DescribedError> {
        match self.described.attributes.remove(name) {
            None => Ok(false),
            Some(AttrValue::Unit | AttrValue::Bool(true)) => Ok(true),
            Some(AttrValue::Bool(false)) => Ok(false),
            Some(found) => Err(self.mismatch(name, "a unit attribute", &found)),
        }
    }

    /// The attribute `name`, made by `make` from its value: an error when it
    /// is missing or `make` finds the value of the wrong kind.
    pub fn required_attribute(
        &mut self,
        name: &str,
        make: impl FnOnce(&AttrValue<'c>) -> Option<Attribute<'c>>,
        expected: &'static str,
    ) -> Result<Attribute<'c>, DescribedError> {
        self.optional_attribute(name, make, expected)?
            .ok_or_else(|| DescribedError::Missing {
                op: self.op.into(),
                what: "attribute",
                name: name.into(),
            })
    }

    /// The attribute `name` if given, made by `make` from its value.
    pub fn optional_attribute(
        &mut self,
        name: &str,
        make: impl FnOnce(&AttrValue<'c>) -> Option<Attribute<'c>>,
        expected: &'static str,
    ) -> Result<Option<Attribute<'c>>, DescribedError> {
        let Some(value) = self.described.attributes.remove(name) else {
            return Ok(None);
        };
        make(&value)
            .map(Some)
            .ok_or_else(|| self.mismatch(name, expected, &value))
    }

    fn mismatch(&self, name: &str, expected: &'static str, found: &AttrValue) -> DescribedError {
        DescribedError::Attribute {
            op: self.op.into(),
            name: name.into(),
            expected,
            found: format!("{found:?}"),
        }
    }

    /// The one type of the result `name`.
    pub fn result(&mut self, name: &str) -> Result<Type<'c>, DescribedError> {
        match self.described.results.remove(name).as_deref() {
            Some([r#type]) => Ok(*r#type),
            Some(types) => Err(self.count("result", name, "one type", types.len())),
            None => Err(DescribedError::Missing {
                op: self.op.into(),
                what: "result",
                name: name.into(),
            }),
        }
    }

    /// The type of the optional result `name`, if given.
    pub fn optional_result(&mut self, name: &str) -> Result<Option<Type<'c>>, DescribedError> {
        match self.described.results.remove(name).as_deref() {
            None | Some([]) => Ok(None),
            Some([r#type]) => Ok(Some(*r#type)),
            Some(types) => Err(self.count("result", name, "at most one type", types.len())),
        }
    }

    /// The types of the variadic result `name` (none when not given).
    pub fn results(&mut self, name: &str) -> Vec<Type<'c>> {
        self.described.results.remove(name).unwrap_or_default()
    }

    /// The region `name`; an empty one when not given.
    pub fn region(&mut self, name: &str) -> Result<Region<'c>, DescribedError> {
        let mut regions = self.described.regions.remove(name).unwrap_or_default();
        match regions.len() {
            0 => Ok(Region::new()),
            1 => Ok(regions.remove(0)),
            found => Err(self.count("region", name, "one region", found)),
        }
    }

    /// The regions of the variadic region group `name`.
    pub fn regions(&mut self, name: &str) -> Vec<Region<'c>> {
        self.described.regions.remove(name).unwrap_or_default()
    }

    /// Done: an error for the first part given that the op does not declare.
    pub fn finish(self) -> Result<(), DescribedError> {
        let described = &*self.described;
        let unknown = |what: &'static str, name: Option<&String>| {
            name.map(|name| DescribedError::Unknown {
                op: self.op.into(),
                what,
                name: name.clone(),
            })
        };
        let first = unknown("operand group", described.operands.keys().next())
            .or_else(|| unknown("attribute", described.attributes.keys().next()))
            .or_else(|| unknown("result", described.results.keys().next()))
            .or_else(|| unknown("region", described.regions.keys().next()));
        first.map_or(Ok(()), Err)
    }
}

// --- attribute values as the kinds ODS declares -----------------------------

impl<'c> AttrValue<'c> {
    pub fn int(&self) -> Option<i64> {
        match self {
            AttrValue::Int(value) => Some(*value),
            _ => None,
        }
    }

    /// A dense array's entries converted to `T` (`i32` for `DenseI32ArrayAttr`).
    pub fn ints<T: TryFrom<i64>>(&self) -> Option<Vec<T>> {
        match self {
            AttrValue::Ints(values) => values
                .iter()
                .map(|&value| T::try_from(value).ok())
                .collect(),
            _ => None,
        }
    }

    pub fn string(&self) -> Option<&str> {
        match self {
            AttrValue::Str(value) => Some(value),
            _ => None,
        }
    }

    pub fn boolean(&self) -> Option<bool> {
        match self {
            AttrValue::Bool(value) => Some(*value),
            _ => None,
        }
    }

    pub fn keyword(&self) -> Option<&str> {
        match self {
            AttrValue::Keyword(value) => Some(value),
            _ => None,
        }
    }

    pub fn r#type(&self) -> Option<Type<'c>> {
        match self {
            AttrValue::Type(value) => Some(*value),
            _ => None,
        }
    }

    /// The value as an attribute of no declared kind (ODS's `TypedAttr`,
    /// `AnyAttr`): typed numbers, types, strings, dense i64 arrays.
    pub fn any(&self, context: &'c Context) -> Option<Attribute<'c>> {
        Some(match self {
            AttrValue::TypedInt(value, r#type) => IntegerAttribute::new(*r#type, *value).into(),
            AttrValue::TypedFloat(value, r#type) => {
                FloatAttribute::new(context, *r#type, *value).into()
            }
            AttrValue::Type(r#type) => TypeAttribute::new(*r#type).into(),
            AttrValue::Str(value) => StringAttribute::new(context, value).into(),
            AttrValue::Ints(values) => DenseI64ArrayAttribute::new(context, values).into(),
            AttrValue::Unit => Attribute::unit(context),
            AttrValue::Int(_) | AttrValue::Bool(_) | AttrValue::Keyword(_) => return None,
        })
    }
}
