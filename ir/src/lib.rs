//! The foundation pld's passes and its Ascend target stand on.
//!
//! - [`handle`]: ops and values with the context's lifetime, the IR walk,
//!   use lists; [`keys`]: their typed keys ([`OpKey`], [`ValueKey`]) and
//!   maps keyed by them;
//! - [`read`]: names, operands, symbols, attributes, what encloses an op;
//!   [`attributes`]: attributes several ops carry, read through their
//!   generated accessors;
//! - [`build`]: a [`Builder`] with folding index arithmetic and structured
//!   control flow, builders of pl, pld and ascend ops, new functions;
//! - [`types`], [`location`]: shaped types, and locations as users read them;
//! - [`analysis`]: where code runs ([`analysis::place`]), integer folding
//!   and value facts, where buffers are live ([`analysis::liveness`]);
//! - [`pass`]: the bridge that makes a Rust pass a named MLIR pass, the
//!   passes as `Passes.td` declares them, and the report of diagnostics.
//!
//! Handles carry the context lifetime `'c` only ([`handle`] says why).

pub mod analysis;
pub mod attributes;
pub mod build;
pub mod handle;
pub mod keys;
pub mod location;
pub mod pass;
pub mod read;
pub mod types;

pub use build::{Builder, Ix};
pub use handle::{OpRef, Val, ceil_div, nested_ops, uses};
pub use keys::{OpKey, PtrMap, PtrSet, ValueKey};
pub use location::location_text;
