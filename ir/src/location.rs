//! Locations as users read them: `file.mlir:12:5`.
//!
//! The passes that replace a user's op with others (pld-decompose-collectives,
//! pld-expand-transfers) locate what they build at a *name location* that
//! names the op the user wrote around its location,
//! `loc("pld.tensor.put"("k.mlir":12:5))` ([`implementing`]), so that what
//! the simulator reports about a lowered op (a trap, a deadlock, the bytes
//! it counts) names the user's op. Readers see through it: [`location_text`]
//! and [`file_line_column`] give the file location, [`implemented_ops`] the
//! names, outermost (the op built last) first.

use melior::ir::{Location, operation::OperationLike};

/// The location of the ops that implement `op` (a pld op the pass
/// replaces): `op`'s own location, named by `op`.
pub fn implementing<'c>(op: &impl OperationLike<'c, 'c>) -> Location<'c> {
    let location = op.location();
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or("");
    // SAFETY: the context and the child location are live; the name is
    // copied into the context.
    unsafe {
        Location::from_raw(mlir_sys::mlirLocationNameGet(
            mlir_sys::mlirLocationGetContext(location.to_raw()),
            melior::StringRef::new(name).to_raw(),
            location.to_raw(),
        ))
    }
}

/// A name location's name and child; `None` for any other kind.
fn name_and_child<'c>(location: Location<'c>) -> Option<(String, Location<'c>)> {
    // SAFETY: `location` is live; the accessors are only called once the C
    // API confirms it is a name location; the identifier lives as long as
    // the context.
    unsafe {
        let raw = location.to_raw();
        if !mlir_sys::mlirLocationIsAName(raw) {
            return None;
        }
        let name = pld_dialect::string_ref_bytes(mlir_sys::mlirIdentifierStr(
            mlir_sys::mlirLocationNameGetName(raw),
        ));
        Some((
            String::from_utf8_lossy(name).into_owned(),
            Location::from_raw(mlir_sys::mlirLocationNameGetChildLoc(raw)),
        ))
    }
}

/// The names of the name locations around `location`'s file location,
/// outermost first (empty for a plain location).
pub fn implemented_ops(location: Location) -> Vec<String> {
    let mut names = Vec::new();
    let mut current = location;
    while let Some((name, child)) = name_and_child(current) {
        names.push(name);
        current = child;
    }
    names
}

/// The source name of a function argument located at `location`: a front
/// end that knows it (the Python package) wraps the argument's file
/// location in a name location of it, `loc("out"("k.py":3:5))`. An op name
/// (`pld.tensor.put`, which [`implementing`] puts around generated code) is
/// not one.
pub fn argument_name(location: Location) -> Option<String> {
    let (name, _) = name_and_child(location)?;
    let identifier = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    identifier.then_some(name)
}

/// How a report names argument `index` of `@function`, located at
/// `location`: `argument 'out' of @f` where the source named it, else
/// `argument 2 of @f`.
pub fn argument_label(function: &str, index: usize, location: Location) -> String {
    match argument_name(location) {
        Some(name) => format!("argument '{name}' of @{function}"),
        None => format!("argument {index} of @{function}"),
    }
}

/// `location` without the name locations around it.
fn unnamed(location: Location) -> Location {
    let mut current = location;
    while let Some((_, child)) = name_and_child(current) {
        current = child;
    }
    current
}

/// (file, line, column) of a file location, seen through name locations.
pub fn file_line_column(location: Location) -> Option<(String, usize, usize)> {
    let location = unnamed(location);
    // SAFETY: `location` is a live location; the file-range accessors are
    // only called once the C API confirms its kind, and the filename's
    // string data lives as long as the context (an empty one may be null).
    unsafe {
        let raw = location.to_raw();
        if !mlir_sys::mlirLocationIsAFileLineColRange(raw) {
            return None;
        }
        let file =
            mlir_sys::mlirIdentifierStr(mlir_sys::mlirLocationFileLineColRangeGetFilename(raw));
        let file = pld_dialect::string_ref_bytes(file);
        Some((
            String::from_utf8_lossy(file).into_owned(),
            mlir_sys::mlirLocationFileLineColRangeGetStartLine(raw).max(0) as usize,
            mlir_sys::mlirLocationFileLineColRangeGetStartColumn(raw).max(0) as usize,
        ))
    }
}

/// `file:line:col` for a file location (seen through name locations); the
/// printed form for any other kind (fused, call-site, unknown).
pub fn location_text(location: Location) -> String {
    match file_line_column(location) {
        Some((file, line, column)) => format!("{file}:{line}:{column}"),
        None => unnamed(location).to_string(),
    }
}

/// The site the lowering hands the runtime for an op named `op_name` at
/// `location`, which the simulator's reports print and its counters read:
/// `<op> at FILE:LINE:COL`, where `<op>` is the pld op the user wrote. An
/// op built to implement another (a name location) goes by the op it
/// implements, `pld.tensor.put at k.mlir:12:5` for a chunk of an expanded
/// put, nested ones joined by ` in ` (`pld.tensor.put in
/// pld.tensor.allgather at ...`); a signal op keeps its own name in front
/// (`pld.system.wait in pld.tensor.allreduce at ...`), since which wait
/// blocked is what a deadlock report needs. Names that are not pld ops (a
/// front end's own name locations) are not ops and are left out.
pub fn site_text(op_name: &str, is_signal_op: bool, location: Location) -> String {
    let implemented: Vec<String> = implemented_ops(location)
        .into_iter()
        .filter(|name| name.starts_with("pld."))
        .collect();
    let mut ops: Vec<&str> = Vec::new();
    if implemented.is_empty() || is_signal_op {
        ops.push(op_name);
    }
    ops.extend(implemented.iter().map(String::as_str));
    format!("{} at {}", ops.join(" in "), location_text(location))
}
