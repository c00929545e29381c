//! `pld._native`: the Rust half of the `pld` Python package
//! (docs/design/python-frontend.md). Python's front end describes a
//! `@pl.jit` function's ops; this builds them into a module
//! ([`module`]) and runs pld's tools on it ([`tools`]), handing back text,
//! dicts and `.npy` bytes. Errors are Python exceptions: `ValueError` for a
//! description that does not build or a module the tools refuse.

mod description;
mod module;
mod tools;

use pyo3::{
    exceptions::PyValueError,
    prelude::*,
    types::{PyBytes, PyDict, PyList},
};
use std::collections::HashMap;

/// The module a description (JSON) describes, as MLIR text; with `loc(...)`
/// locations (the Python lines) when `debug_info`.
#[pyfunction]
fn build(description: &str, debug_info: bool) -> PyResult<String> {
    module::build_text(description, debug_info)
        .map_err(|error| PyValueError::new_err(error.to_string()))
}

/// pld-verify's diagnostics for the module `text` (entry `entry`) on the
/// rank counts `ranks` (its default counts when empty).
#[pyfunction]
fn verify<'py>(
    py: Python<'py>,
    text: &str,
    entry: &str,
    ranks: Vec<u32>,
) -> PyResult<Bound<'py, PyList>> {
    let found = tools::verify(text, entry, &ranks).map_err(PyValueError::new_err)?;
    diagnostics_list(py, &found)
}

/// The CCE C++ of the module `text` (entry `entry`).
#[pyfunction]
fn to_cce(text: &str, entry: &str) -> PyResult<String> {
    tools::to_cce(text, entry).map_err(PyValueError::new_err)
}

/// Runs the module `text`'s function `entry` on `ranks` simulated ranks,
/// `launches` times (windows kept between launches, or reset with
/// `reset_windows`). `inputs` maps an argument's position to one `.npy`
/// file (bytes) per rank, given to every launch. A dict: `status`, `report`, `diagnostics`, `outputs` (per rank,
/// position to `.npy` bytes) and `timing`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (text, entry, ranks, inputs, race, timing, verify, blocks, timeout, launches, reset_windows))]
fn run<'py>(
    py: Python<'py>,
    text: &str,
    entry: &str,
    ranks: usize,
    inputs: HashMap<usize, Vec<Vec<u8>>>,
    race: bool,
    timing: bool,
    verify: bool,
    blocks: u32,
    timeout: u64,
    launches: usize,
    reset_windows: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let result = tools::run(&tools::RunRequest {
        text,
        entry,
        ranks,
        blocks,
        inputs: inputs.into_iter().collect(),
        race,
        timing,
        verify,
        timeout_secs: timeout,
        launches,
        reset_windows,
    });
    let dict = PyDict::new(py);
    dict.set_item("status", result.status.name())?;
    dict.set_item("report", result.report)?;
    dict.set_item("diagnostics", diagnostics_list(py, &result.diagnostics)?)?;
    let outputs = PyList::empty(py);
    for rank in &result.outputs {
        let values = PyDict::new(py);
        for (position, bytes) in rank {
            values.set_item(position, PyBytes::new(py, bytes))?;
        }
        outputs.append(values)?;
    }
    dict.set_item("outputs", outputs)?;
    dict.set_item("timing", result.timing)?;
    Ok(dict)
}

/// Diagnostics as dicts: `severity`, `message`, `text` (as pld-opt prints
/// it, with the source line and its notes), `file`, `line`, `column`.
fn diagnostics_list<'py>(
    py: Python<'py>,
    found: &[pld_run::Diagnostic],
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for diagnostic in found {
        let dict = PyDict::new(py);
        dict.set_item("severity", diagnostic.severity.name())?;
        dict.set_item("message", &diagnostic.message)?;
        dict.set_item("text", &diagnostic.text)?;
        let (file, line, column) = diagnostic
            .location
            .clone()
            .map_or((None, None, None), |(file, line, column)| {
                (Some(file), Some(line), Some(column))
            });
        dict.set_item("file", file)?;
        dict.set_item("line", line)?;
        dict.set_item("column", column)?;
        list.append(dict)?;
    }
    Ok(list)
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(build, module)?)?;
    module.add_function(wrap_pyfunction!(verify, module)?)?;
    module.add_function(wrap_pyfunction!(to_cce, module)?)?;
    module.add_function(wrap_pyfunction!(run, module)?)?;
    Ok(())
}
