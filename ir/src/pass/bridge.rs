//! Registers Rust passes as ordinary named MLIR passes, through the C++
//! bridge of `pld-c/PassBridge.h` (a real `mlir::Pass` subclass with real
//! string options and real pass statistics).

use melior::{
    StringRef,
    ir::{Location, operation::OperationLike, operation::OperationRef},
};
use mlir_sys::{MlirLogicalResult, MlirOperation, MlirStringCallback, MlirStringRef};
use pld_dialect::{
    diagnostics::{Severity, emit},
    ffi,
};
use std::{
    any::Any,
    ffi::c_void,
    panic::{AssertUnwindSafe, catch_unwind},
    sync::Mutex,
};

// The option and statistic tables are `Passes.td`'s, generated into
// pld-dialect with the ops; a pass takes its tables from there.
pub use pld_dialect::declared::{OptionError, PassOption, PassStatistic};

/// The statistics of the running pass, for [`Pass::run`] to add to. Only
/// the bridge makes one, and lends it to the run it makes it for.
pub struct Statistics {
    /// Valid during that run only.
    pass: ffi::PldRunningPass,
    declared: &'static [PassStatistic],
}

impl Statistics {
    /// Adds `value` to `statistic`, which must be one of the pass's own
    /// [`Pass::STATISTICS`] (anything else is a bug in the pass: a panic).
    pub fn add(&self, statistic: &PassStatistic, value: u64) {
        assert!(
            self.declared
                .get(statistic.index)
                .is_some_and(|declared| declared.name == statistic.name),
            "statistic '{}' is not one of the running pass's",
            statistic.name
        );
        // SAFETY: `pass` is the pass whose run borrows `self` (a run cannot
        // keep the borrow, nor move or copy the value out of it), and `index`
        // is one of its statistics.
        unsafe { ffi::pldRunningPassAddStatistic(self.pass, statistic.index as isize, value) };
    }
}

/// What a pass did not like about its input. The diagnostics are already
/// emitted; this only marks the pass as failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the pass failed (see its diagnostics)")]
pub struct PassFailed;

/// A pass written in Rust.
pub trait Pass: Sized + 'static {
    /// The flag and pipeline name, e.g. `pld-verify`.
    const ARGUMENT: &'static str;
    /// One line for `--help`.
    const DESCRIPTION: &'static str;
    /// The options, in the order [`Pass::from_options`] receives them.
    const OPTIONS: &'static [PassOption] = &[];
    /// The statistics [`Pass::run`] may add to.
    const STATISTICS: &'static [PassStatistic] = &[];
    /// Whether [`Pass::run`] leaves the IR as it found it (a checker): the
    /// pass manager then keeps every analysis and skips verifying the IR
    /// again after the pass.
    const LEAVES_IR_UNCHANGED: bool = false;

    /// Builds the pass from its option values (one per [`Pass::OPTIONS`]
    /// entry); an `Err` says which value is wrong and why.
    fn from_options(values: &[&str]) -> Result<Self, OptionError>;

    /// Runs on `op` (the op the pass is scheduled on), emitting located
    /// diagnostics for what it rejects and counting into `statistics`.
    fn run(&self, op: OperationRef, statistics: &Statistics) -> Result<(), PassFailed>;
}

/// A named pass pipeline written in Rust: options like a pass's, and the
/// pipeline they stand for as a list of registered passes.
pub trait Pipeline: 'static {
    /// The flag and pipeline name, e.g. `pld-to-ascend-pipeline`.
    const ARGUMENT: &'static str;
    /// One line for `--help`.
    const DESCRIPTION: &'static str;
    /// The options, in the order [`Pipeline::passes`] receives them.
    const OPTIONS: &'static [PassOption] = &[];

    /// The passes for the option values, comma-separated without an anchor
    /// (`pld-verify,pld-expand-transfers{ub-bytes=4096}`); an `Err` says
    /// which value is wrong and why.
    fn passes(values: &[&str]) -> Result<String, OptionError>;
}

/// Registers `P` with MLIR's global pass registry (a second registration of
/// the same argument does nothing).
pub fn register_pipeline<P: Pipeline>() {
    register_once(P::ARGUMENT, || {
        let options = raw_options(P::OPTIONS);
        // SAFETY: the bridge copies every string and the option list before
        // returning; the callback is a plain function.
        unsafe {
            ffi::pldRegisterPipeline(
                StringRef::new(P::ARGUMENT).to_raw(),
                StringRef::new(P::DESCRIPTION).to_raw(),
                options.as_ptr(),
                options.len() as isize,
                ffi::PldPipelineCallbacks {
                    build: Some(build_pipeline_trampoline::<P>),
                    userData: std::ptr::null_mut(),
                },
            );
        }
    });
}

/// # Safety
///
/// Called only by the bridge: `values` holds `num_values` live option
/// strings and `append` (when set) accepts `append_user_data`.
unsafe extern "C" fn build_pipeline_trampoline<P: Pipeline>(
    values: *const MlirStringRef,
    num_values: isize,
    append: MlirStringCallback,
    append_user_data: *mut c_void,
    _user_data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: the bridge passes `num_values` valid option strings.
    let values = unsafe { option_values(values, num_values) };
    let (ok, text) = match catch_unwind(|| P::passes(&values)) {
        Ok(Ok(pipeline)) => (true, pipeline),
        Ok(Err(message)) => (false, message.to_string()),
        Err(payload) => (false, panic_message(payload.as_ref())),
    };
    if let Some(callback) = append {
        // SAFETY: the callback appends the text to the bridge's string.
        unsafe { callback(StringRef::new(&text).to_raw(), append_user_data) };
    }
    success(ok)
}

/// Runs `register` unless `argument` was registered before (MLIR itself
/// aborts on a second registration). The lock is held throughout: MLIR's
/// registry is not thread-safe, and a thread that finds the argument taken
/// must not go on to parse a pipeline before the registration is complete.
fn register_once(argument: &'static str, register: impl FnOnce()) {
    static REGISTERED: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut registered = REGISTERED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if !registered.contains(&argument) {
        register();
        registered.push(argument);
    }
}

fn raw_options(options: &[PassOption]) -> Vec<ffi::PldPassOption> {
    options
        .iter()
        .map(|option| ffi::PldPassOption {
            name: StringRef::new(option.name).to_raw(),
            description: StringRef::new(option.description).to_raw(),
            defaultValue: StringRef::new(option.default).to_raw(),
        })
        .collect()
}

/// Registers `P` with MLIR's global pass registry. A second registration of
/// the same argument does nothing (MLIR itself aborts on one). Register at
/// start-up, before any thread parses a pipeline: MLIR's registry must not
/// change while another thread reads it.
pub fn register<P: Pass>() {
    register_once(P::ARGUMENT, || {
        let options = raw_options(P::OPTIONS);
        let statistics: Vec<ffi::PldPassStatistic> = P::STATISTICS
            .iter()
            .map(|statistic| ffi::PldPassStatistic {
                name: StringRef::new(statistic.name).to_raw(),
                description: StringRef::new(statistic.description).to_raw(),
            })
            .collect();
        // SAFETY: the bridge copies every string and the option and
        // statistic lists before returning; the callbacks are plain functions.
        unsafe {
            ffi::pldRegisterPass(
                StringRef::new(P::ARGUMENT).to_raw(),
                StringRef::new(P::DESCRIPTION).to_raw(),
                StringRef::new("").to_raw(),
                options.as_ptr(),
                options.len() as isize,
                statistics.as_ptr(),
                statistics.len() as isize,
                ffi::PldPassCallbacks {
                    run: Some(run_trampoline::<P>),
                    validateOptions: Some(validate_trampoline::<P>),
                    userData: std::ptr::null_mut(),
                    leavesIRUnchanged: P::LEAVES_IR_UNCHANGED,
                },
            );
        }
    });
}

fn success(ok: bool) -> MlirLogicalResult {
    MlirLogicalResult {
        value: if ok { 1 } else { 0 },
    }
}

/// Option values as Rust strings; the bridge hands UTF-8 from `cl::opt`
/// (a value that is not UTF-8 reads as empty).
///
/// # Safety
///
/// Unless `count <= 0`, `values` points at `count` string refs, each naming
/// `length` readable bytes, all alive and unchanged for `'a`.
unsafe fn option_values<'a>(values: *const MlirStringRef, count: isize) -> Vec<&'a str> {
    if count <= 0 {
        return Vec::new();
    }
    // SAFETY: the caller guarantees `count` live string refs at `values`.
    unsafe { std::slice::from_raw_parts(values, count as usize) }
        .iter()
        .map(|value| {
            // SAFETY: the caller guarantees `length` readable bytes for `'a`
            // (melior's `as_str` would panic on an empty, null string).
            std::str::from_utf8(unsafe { pld_dialect::string_ref_bytes(*value) }).unwrap_or("")
        })
        .collect()
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| text.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

/// # Safety
///
/// Called only by the bridge's `runOnOperation`: `op` is the live op the
/// pass runs on, `values` holds `num_values` live option strings and
/// `running` is the running pass, registered with `P::STATISTICS`.
unsafe extern "C" fn run_trampoline<P: Pass>(
    op: MlirOperation,
    values: *const MlirStringRef,
    num_values: isize,
    running: ffi::PldRunningPass,
    _user_data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: the bridge passes the live op the pass runs on.
    let op = unsafe { OperationRef::from_raw(op) };
    // SAFETY: the bridge passes `num_values` option strings alive for the call.
    let values = unsafe { option_values(values, num_values) };
    let statistics = Statistics {
        pass: running,
        declared: P::STATISTICS,
    };
    // A bug in a pass is reported as an error at the op, never a crash that
    // takes the rest of the tool's output with it.
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let pass = P::from_options(&values).map_err(|error| {
            emit(
                Severity::Error,
                op.location(),
                &format!("{}: {error}", P::ARGUMENT),
                &[],
            );
            PassFailed
        })?;
        pass.run(op, &statistics)
    }));
    match outcome {
        Ok(result) => success(result.is_ok()),
        Err(payload) => {
            let location: Location = op.location();
            emit(
                Severity::Error,
                location,
                &format!(
                    "internal error in pass '{}': {}",
                    P::ARGUMENT,
                    panic_message(payload.as_ref())
                ),
                &[],
            );
            success(false)
        }
    }
}

/// # Safety
///
/// Called only by the bridge's `initializeOptions`: `values` holds
/// `num_values` live option strings and `error` (when set) accepts
/// `error_user_data`.
unsafe extern "C" fn validate_trampoline<P: Pass>(
    values: *const MlirStringRef,
    num_values: isize,
    error: MlirStringCallback,
    error_user_data: *mut c_void,
    _user_data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: the bridge passes `num_values` option strings alive for the call.
    let values = unsafe { option_values(values, num_values) };
    match catch_unwind(|| P::from_options(&values).map(|_| ())) {
        Ok(Ok(())) => success(true),
        Ok(Err(message)) => {
            let message = message.to_string();
            if let Some(callback) = error {
                // SAFETY: the callback appends the message to the bridge's
                // string (`error_user_data`); `message` outlives the call.
                unsafe { callback(StringRef::new(&message).to_raw(), error_user_data) };
            }
            success(false)
        }
        Err(_) => success(false),
    }
}

/// The option values of `P` with its defaults but for `overrides`, checked
/// by the pass itself, and the pass as a pipeline element.
pub fn element<P: Pass>(overrides: &[(&str, &str)]) -> Result<String, OptionError> {
    let values: Vec<&str> = P::OPTIONS
        .iter()
        .map(|option| {
            overrides
                .iter()
                .find(|(name, _)| *name == option.name)
                .map_or(option.default, |(_, value)| *value)
        })
        .collect();
    P::from_options(&values)?;
    let options: Vec<String> = P::OPTIONS
        .iter()
        .zip(&values)
        .map(|(option, value)| format!("{}={value}", option.name))
        .collect();
    Ok(format!("{}{{{}}}", P::ARGUMENT, options.join(" ")))
}
