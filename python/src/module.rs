//! A description built into a module: each function a `func.func` of its
//! kind, each op through [`pld_dialect::ops::build_described`] (the typed
//! builders generated from ODS), each located at its Python line; the
//! module then passes MLIR's verifier.

use crate::description::{
    AttrDesc, BlockDesc, Function, FunctionKind, Loc, MixedEntry, Op, Program, RegionDesc, TypeDesc,
};
use melior::{
    Context,
    dialect::func,
    ir::{
        Block, BlockLike, BlockRef, Location, Module, Region, RegionLike, Type, ValueLike,
        attribute::{StringAttribute, TypeAttribute},
        operation::{OperationLike, OperationPrintingFlags},
        r#type::{FunctionType, IntegerType, MemRefType},
    },
};
use pld_dialect::{
    described::{AttrValue, Described, DescribedError},
    enums::KernelKind,
};
use pld_ir::Val;
use pld_run::Severity;
use std::collections::HashMap;

/// Why a description does not build, at the Python line it names.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("the description is not valid JSON of its format: {0}")]
    Json(#[from] serde_json::Error),
    #[error("{location}: {message}")]
    At { location: String, message: String },
    /// The op verifiers' errors, one `file:line:col: error: message` per
    /// line, as pld-opt prints them.
    #[error("{0}")]
    Invalid(String),
}

impl BuildError {
    fn at(loc: &Loc, message: impl Into<String>) -> BuildError {
        BuildError::At {
            location: format!("{}:{}:{}", loc.file, loc.line, loc.column),
            message: message.into(),
        }
    }
}

/// The module `description` (JSON) describes, printed; with its locations
/// (`loc(...)`, for the tools' diagnostics) when `debug_info`.
pub fn build_text(description: &str, debug_info: bool) -> Result<String, BuildError> {
    let program: Program = serde_json::from_str(description)?;
    let context = pld_dialect::create_context();
    // Verifier errors go to the context's handler: collect them for the
    // error, not stderr.
    let errors = std::rc::Rc::new(std::cell::RefCell::new(String::new()));
    let sink = errors.clone();
    context.attach_diagnostic_handler(move |diagnostic| {
        let mut sink = sink.borrow_mut();
        let severity = Severity::of(diagnostic.severity()).name();
        sink.push_str(&format!(
            "{}: {severity}: {}\n",
            pld_ir::location_text(diagnostic.location()),
            diagnostic
        ));
        true
    });
    let module = build_module(&context, &program)?;
    if !module.as_operation().verify() {
        return Err(BuildError::Invalid(errors.borrow().trim_end().to_owned()));
    }
    let flags = OperationPrintingFlags::new().enable_debug_info(debug_info, false);
    module
        .as_operation()
        .to_string_with_flags(flags)
        .map_err(|error| BuildError::Invalid(error.to_string()))
}

fn build_module<'c>(context: &'c Context, program: &Program) -> Result<Module<'c>, BuildError> {
    let module = Module::new(Location::unknown(context));
    for function in &program.functions {
        let op = build_function(context, function)?;
        module.body().append_operation(op);
    }
    Ok(module)
}

/// The values of one function by their description ids.
struct Scope<'c> {
    context: &'c Context,
    values: HashMap<u64, Val<'c>>,
}

fn location<'c>(context: &'c Context, loc: &Loc) -> Location<'c> {
    Location::new(context, &loc.file, loc.line as usize, loc.column as usize)
}

fn build_function<'c>(
    context: &'c Context,
    function: &Function,
) -> Result<melior::ir::Operation<'c>, BuildError> {
    let mut scope = Scope {
        context,
        values: HashMap::new(),
    };
    let inputs = function
        .arguments
        .iter()
        .map(|argument| {
            scope
                .r#type(&argument.r#type, &argument.loc)
                .map_err(|error| {
                    BuildError::at(
                        &argument.loc,
                        format!("argument `{}`: {error}", argument.name),
                    )
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let results = function
        .results
        .iter()
        .map(|r#type| scope.r#type(r#type, &function.loc))
        .collect::<Result<Vec<_>, _>>()?;
    // Each argument located at its Python parameter and named by it, so
    // that pld-verify's reports say `argument 'out' of @f`
    // (pld_ir::location::argument_name).
    let arguments: Vec<(Type, Location)> = inputs
        .iter()
        .zip(&function.arguments)
        .map(|(r#type, argument)| {
            let at = location(context, &argument.loc);
            (*r#type, Location::name(context, &argument.name, at))
        })
        .collect();
    let region = Region::new();
    let block = region.append_block(Block::new(&arguments));
    // SAFETY: the block is owned by `region`, which moves into the function
    // and so into the module; its address does not change when it moves.
    let block: BlockRef<'c, 'c> = unsafe { BlockRef::from_raw(block.to_raw()) };
    for (index, argument) in function.arguments.iter().enumerate() {
        scope.define(argument.id, block_argument(block, index), &argument.loc)?;
    }
    scope.fill(block, &function.body)?;
    let op = func::func(
        context,
        StringAttribute::new(context, &function.name),
        TypeAttribute::new(FunctionType::new(context, &inputs, &results).into()),
        region,
        &[],
        location(context, &function.loc),
    );
    let kind = match function.kind {
        FunctionKind::Incore => KernelKind::InCore,
        FunctionKind::Host => KernelKind::Host,
    };
    kind.set_on(&op);
    Ok(op)
}

fn block_argument<'c>(block: BlockRef<'c, 'c>, index: usize) -> Val<'c> {
    let argument = block.argument(index).expect("one argument per type");
    // SAFETY: the argument lives as long as its block, which the module owns.
    unsafe { Val::from_raw(argument.to_raw()) }
}

impl<'c> Scope<'c> {
    fn define(&mut self, id: u64, value: Val<'c>, loc: &Loc) -> Result<(), BuildError> {
        if self.values.insert(id, value).is_some() {
            return Err(BuildError::at(loc, format!("value {id} is defined twice")));
        }
        Ok(())
    }

    fn value(&self, id: u64, loc: &Loc) -> Result<Val<'c>, BuildError> {
        self.values
            .get(&id)
            .copied()
            .ok_or_else(|| BuildError::at(loc, format!("value {id} is used before it is defined")))
    }

    /// Appends the ops of `ops` to `block`.
    fn fill(&mut self, block: BlockRef<'c, 'c>, ops: &[Op]) -> Result<(), BuildError> {
        for op in ops {
            self.append(block, op)?;
        }
        Ok(())
    }

    fn append(&mut self, block: BlockRef<'c, 'c>, op: &Op) -> Result<(), BuildError> {
        let context = self.context;
        let mut described = Described::default();
        for (name, ids) in &op.operands {
            let values = ids
                .iter()
                .map(|id| self.value(*id, &op.loc))
                .collect::<Result<Vec<_>, _>>()?;
            described.operands.insert(name.clone(), values);
        }
        for (name, entries) in &op.mixed {
            self.mixed(&op.op, name, entries, &op.loc, &mut described)?;
        }
        for (name, attribute) in &op.attributes {
            let value = self.attribute(attribute, &op.loc)?;
            described.attributes.insert(name.clone(), value);
        }
        for group in &op.results {
            let types = group
                .types
                .iter()
                .map(|r#type| self.r#type(r#type, &op.loc))
                .collect::<Result<Vec<_>, _>>()?;
            described.results.insert(group.name.clone(), types);
        }
        for region in &op.regions {
            let built = self.region(region, &op.loc)?;
            described
                .regions
                .entry(region.name.clone())
                .or_default()
                .push(built);
        }
        let built = pld_dialect::ops::build_described(
            &op.op,
            context,
            location(context, &op.loc),
            &mut described,
        )
        .map_err(|error: DescribedError| BuildError::at(&op.loc, error.to_string()))?;
        let built = block.append_operation(built);
        let ids: Vec<u64> = op
            .results
            .iter()
            .flat_map(|group| group.ids.clone())
            .collect();
        if ids.len() != built.result_count() {
            return Err(BuildError::at(
                &op.loc,
                format!(
                    "{} has {} results, the description names {}",
                    op.op,
                    built.result_count(),
                    ids.len()
                ),
            ));
        }
        for (index, id) in ids.into_iter().enumerate() {
            let result = built.result(index).expect("counted above");
            // SAFETY: the result lives as long as its op, which the module owns.
            let result = unsafe { Val::from_raw(result.to_raw()) };
            self.define(id, result, &op.loc)?;
        }
        Ok(())
    }

    /// A mixed index list: the static attribute and the operand group
    /// `name`, as the op's ODS pairs them.
    fn mixed(
        &self,
        op: &str,
        name: &str,
        entries: &[MixedEntry],
        loc: &Loc,
        described: &mut Described<'c, 'c>,
    ) -> Result<(), BuildError> {
        let Some((statics, _)) = pld_dialect::ops::index_lists(op)
            .iter()
            .find(|(_, dynamic)| *dynamic == name)
        else {
            return Err(BuildError::at(
                loc,
                format!("{op} has no mixed index list named `{name}`"),
            ));
        };
        let mut static_values = Vec::new();
        let mut dynamic = Vec::new();
        for entry in entries {
            match (entry.constant, entry.id) {
                (Some(constant), None) => static_values.push(constant),
                (None, Some(id)) => {
                    static_values.push(pld_ir::types::DYNAMIC);
                    dynamic.push(self.value(id, loc)?);
                }
                _ => {
                    return Err(BuildError::at(
                        loc,
                        format!("an entry of `{name}` is either a `const` or an `id`"),
                    ));
                }
            }
        }
        described.operands.insert(name.to_owned(), dynamic);
        described
            .attributes
            .insert((*statics).to_owned(), AttrValue::Ints(static_values));
        Ok(())
    }

    /// The region `region` of the op at `loc` (where its blocks' arguments
    /// are located).
    fn region(&mut self, region: &RegionDesc, loc: &Loc) -> Result<Region<'c>, BuildError> {
        let built = Region::new();
        let at = location(self.context, loc);
        for BlockDesc { arguments, ops } in &region.blocks {
            let types = arguments
                .iter()
                .map(|argument| Ok((self.r#type(&argument.r#type, loc)?, at)))
                .collect::<Result<Vec<_>, BuildError>>()?;
            let block = built.append_block(Block::new(&types));
            // SAFETY: as for a function's block: the region that owns it
            // moves into its op, which the module owns.
            let block: BlockRef<'c, 'c> = unsafe { BlockRef::from_raw(block.to_raw()) };
            for (index, argument) in arguments.iter().enumerate() {
                self.define(argument.id, block_argument(block, index), loc)?;
            }
            self.fill(block, ops)?;
        }
        Ok(built)
    }

    fn attribute(&self, attribute: &AttrDesc, loc: &Loc) -> Result<AttrValue<'c>, BuildError> {
        let r#type = attribute
            .r#type
            .as_ref()
            .map(|r#type| self.r#type(r#type, loc))
            .transpose()?;
        let value = match (attribute, r#type) {
            (
                AttrDesc {
                    int: Some(value), ..
                },
                Some(r#type),
            ) => AttrValue::TypedInt(*value, r#type),
            (
                AttrDesc {
                    float: Some(value), ..
                },
                Some(r#type),
            ) => AttrValue::TypedFloat(*value, r#type),
            (_, Some(r#type)) => AttrValue::Type(r#type),
            (
                AttrDesc {
                    int: Some(value), ..
                },
                None,
            ) => AttrValue::Int(*value),
            (
                AttrDesc {
                    ints: Some(values), ..
                },
                None,
            ) => AttrValue::Ints(values.clone()),
            (
                AttrDesc {
                    str: Some(value), ..
                },
                None,
            ) => AttrValue::Str(value.clone()),
            (
                AttrDesc {
                    bool: Some(value), ..
                },
                None,
            ) => AttrValue::Bool(*value),
            (
                AttrDesc {
                    keyword: Some(value),
                    ..
                },
                None,
            ) => AttrValue::Keyword(value.clone()),
            (
                AttrDesc {
                    unit: Some(true), ..
                },
                None,
            ) => AttrValue::Unit,
            _ => return Err(BuildError::at(loc, "an attribute without a value")),
        };
        Ok(value)
    }

    fn r#type(&self, r#type: &TypeDesc, loc: &Loc) -> Result<Type<'c>, BuildError> {
        let context = self.context;
        let element = || -> Result<Type<'c>, BuildError> {
            let element = r#type
                .element
                .as_deref()
                .ok_or_else(|| BuildError::at(loc, "a shaped type without its `element`"))?;
            self.r#type(element, loc)
        };
        let dims = |dims: &[Option<i64>]| -> Vec<i64> {
            dims.iter()
                .map(|dim| dim.unwrap_or(pld_ir::types::DYNAMIC))
                .collect()
        };
        let invalid = |what: &str| BuildError::at(loc, format!("not a valid {what} type"));
        Ok(match r#type {
            TypeDesc {
                int: Some(width), ..
            } => IntegerType::new(context, *width).into(),
            TypeDesc {
                index: Some(true), ..
            } => Type::index(context),
            TypeDesc {
                float: Some(name), ..
            } => match name.as_str() {
                "f16" => Type::float16(context),
                "bf16" => Type::bfloat16(context),
                "f32" => Type::float32(context),
                "f64" => Type::float64(context),
                _ => return Err(BuildError::at(loc, format!("no float type `{name}`"))),
            },
            TypeDesc {
                memref: Some(shape),
                ..
            } => MemRefType::new(element()?, &dims(shape), None, None).into(),
            TypeDesc {
                dtensor: Some(shape),
                ..
            } => pld_dialect::types::distributed_tensor(context, &dims(shape), element()?)
                .ok_or_else(|| invalid("DistributedTensor"))?,
            TypeDesc {
                tile: Some(shape), ..
            } => pld_dialect::types::tile(context, &dims(shape), element()?)
                .ok_or_else(|| invalid("tile"))?,
            TypeDesc {
                comm_ctx: Some(true),
                ..
            } => pld_dialect::types::comm_ctx(context),
            TypeDesc {
                window_ptr: Some(true),
                ..
            } => pld_dialect::types::window_ptr(context),
            TypeDesc {
                task_id: Some(true),
                ..
            } => pld_dialect::types::task_id(context),
            _ => return Err(BuildError::at(loc, "a type of no known kind")),
        })
    }
}
