//! The function pld-run runs, and its arguments as the harness sees them.

use melior::ir::{
    BlockLike, RegionLike, Type, TypeLike,
    operation::{OperationLike, OperationRef},
    r#type::FunctionType,
};
use pld_dialect::{enums::KernelKind, ops::func, types};
use pld_run_core::{
    args::{ArgKind, Dim, EntryArg},
    element::ElementType,
    job::Entry,
    signature,
};

/// The entry: whether it is host code, its arguments.
pub struct EntryFunction {
    /// Its symbol in the module.
    pub symbol: String,
    /// Its name in the emitted C++ (the lowering renames `main` and other
    /// names C++ cannot use; `pld_lowering::convert::names`).
    pub cpp_symbol: String,
    pub kind: Entry,
    pub args: Vec<EntryArg>,
}

/// A public function with a body: its symbol, kind, type and location.
type Candidate<'c> = (String, Entry, FunctionType<'c>, melior::ir::Location<'c>);

/// The public functions with a body.
fn candidates<'c>(module: OperationRef<'c, '_>) -> Vec<Candidate<'c>> {
    let mut found = Vec::new();
    let Some(block) = module
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
    else {
        return found;
    };
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let Some(function) = func::FuncOp::attributes(&op) else {
            continue;
        };
        let has_body = op
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
            .is_some();
        if function.sym_visibility == Some("private") || !has_body {
            continue;
        }
        let Ok(function_type) = FunctionType::try_from(function.function_type) else {
            continue;
        };
        // A function without pl.kernel is host code (pld-verify's default).
        let kind = match KernelKind::on(&op) {
            Some(KernelKind::InCore) => Entry::Kernel,
            _ => Entry::Host,
        };
        found.push((
            function.sym_name.to_owned(),
            kind,
            function_type,
            op.location(),
        ));
    }
    found
}

/// The entry named `requested`, else the only host orchestrator, else the
/// only kernel; its argument names read from `source` (the text of the file
/// `path` the module was parsed from) where its location points there.
pub fn find(
    module: OperationRef,
    requested: Option<&str>,
    path: &str,
    source: &str,
) -> Result<EntryFunction, EntryError> {
    let candidates = candidates(module);
    let names = |kind: Option<Entry>| -> Vec<String> {
        candidates
            .iter()
            .filter(|(_, candidate, _, _)| kind.is_none_or(|kind| *candidate == kind))
            .map(|(name, _, _, _)| format!("@{name}"))
            .collect()
    };
    let chosen = match requested {
        Some(name) => candidates
            .iter()
            .find(|(candidate, _, _, _)| candidate == name.trim_start_matches('@'))
            .ok_or_else(|| EntryError::NoSuchFunction {
                name: name.to_owned(),
                candidates: names(None).join(", "),
            })?,
        None => {
            let pick = |kind: Entry| -> Vec<&Candidate> {
                candidates
                    .iter()
                    .filter(|(_, candidate, _, _)| *candidate == kind)
                    .collect()
            };
            match (pick(Entry::Host).as_slice(), pick(Entry::Kernel).as_slice()) {
                ([only], _) => *only,
                ([], [only]) => *only,
                ([], []) => return Err(EntryError::NoFunction),
                ([], _) => {
                    return Err(EntryError::SeveralKernels(
                        names(Some(Entry::Kernel)).join(", "),
                    ));
                }
                _ => {
                    return Err(EntryError::SeveralHosts(
                        names(Some(Entry::Host)).join(", "),
                    ));
                }
            }
        }
    };
    let (symbol, kind, function_type, location) = chosen;
    let count = function_type.input_count();
    let names =
        argument_names(*location, path, source, symbol, count).unwrap_or_else(|| vec![None; count]);
    let args = (0..count)
        .map(|index| {
            entry_arg(index, function_type.input(index).expect("an input")).map(|arg| EntryArg {
                name: names[index].clone(),
                ..arg
            })
        })
        .collect::<Result<_, _>>()?;
    let symbols = function_symbols(module);
    let cpp_symbol = pld_lowering::convert::names::cpp_names(symbols.iter().map(String::as_str))
        .remove(symbol)
        .unwrap_or_else(|| symbol.clone());
    Ok(EntryFunction {
        symbol: symbol.clone(),
        cpp_symbol,
        kind: *kind,
        args,
    })
}

/// The symbol of every function of the module (what the lowering names
/// C++ functions from).
fn function_symbols(module: OperationRef) -> Vec<String> {
    pld_ir::nested_ops(module)
        .into_iter()
        .filter(|op| pld_ir::read::is_function(op))
        .filter_map(|op| pld_ir::read::symbol_name(&op))
        .collect()
}

/// The argument names the source gives the function at `location`, if the
/// location is in `path`.
fn argument_names(
    location: melior::ir::Location,
    path: &str,
    source: &str,
    symbol: &str,
    count: usize,
) -> Option<Vec<Option<String>>> {
    let (file, line, column) = pld_ir::location::file_line_column(location)?;
    if file != path {
        return None;
    }
    let start = signature::offset(source, line, column)?;
    signature::argument_names(source, start, symbol, count)
}

/// Why there is no entry to run.
#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    #[error("--entry {name}: the module has no such public function (it has: {candidates})")]
    NoSuchFunction { name: String, candidates: String },
    #[error("the module has no public function to run")]
    NoFunction,
    #[error("the module has several kernels and no host orchestrator: pick one with --entry ({0})")]
    SeveralKernels(String),
    #[error("the module has several host orchestrators: pick one with --entry ({0})")]
    SeveralHosts(String),
    #[error("argument {index}: element type {element} is not supported")]
    ElementType { index: usize, element: String },
    #[error(
        "argument {index} of type '{ty}' cannot be given on the command line (window tensors, memrefs, integers, index and floats can)"
    )]
    Type { index: usize, ty: String },
}

/// How the harness passes argument `index` of type `r#type`.
fn entry_arg(index: usize, r#type: Type) -> Result<EntryArg, EntryError> {
    let shaped = |kind: ArgKind| -> Result<EntryArg, EntryError> {
        let element = pld_ir::types::element_type(r#type).expect("a shaped type");
        let dims = pld_ir::types::shape(r#type)
            .expect("a shaped type")
            .into_iter()
            .map(|dim| {
                if dim == pld_ir::types::DYNAMIC {
                    Dim::Dynamic
                } else {
                    Dim::Static(dim as usize)
                }
            })
            .collect();
        Ok(EntryArg {
            index,
            name: None,
            kind,
            dtype: element_type(element).ok_or_else(|| EntryError::ElementType {
                index,
                element: element.to_string(),
            })?,
            dims,
        })
    };
    if types::is_distributed_tensor(r#type) {
        return shaped(ArgKind::Window);
    }
    if pld_ir::types::is_memref(r#type) {
        return shaped(ArgKind::Global);
    }
    if let Some(dtype) = element_type(r#type) {
        return Ok(EntryArg {
            index,
            name: None,
            kind: ArgKind::Scalar,
            dtype,
            dims: vec![],
        });
    }
    Err(EntryError::Type {
        index,
        ty: r#type.to_string(),
    })
}

/// The harness's element type for an MLIR type.
fn element_type(r#type: Type) -> Option<ElementType> {
    if r#type.is_index() {
        return Some(ElementType::Index);
    }
    if r#type.is_f16() {
        return Some(ElementType::F16);
    }
    if r#type.is_bf16() {
        return Some(ElementType::BF16);
    }
    if r#type.is_f32() {
        return Some(ElementType::F32);
    }
    if r#type.is_f64() {
        return Some(ElementType::F64);
    }
    // SAFETY: the width is only read from a type the C API confirms to be
    // an integer type.
    let width = unsafe {
        if !mlir_sys::mlirTypeIsAInteger(r#type.to_raw()) {
            return None;
        }
        mlir_sys::mlirIntegerTypeGetWidth(r#type.to_raw())
    };
    match width {
        1 => Some(ElementType::I1),
        8 => Some(ElementType::I8),
        16 => Some(ElementType::I16),
        32 => Some(ElementType::I32),
        64 => Some(ElementType::I64),
        _ => None,
    }
}
