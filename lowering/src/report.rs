//! Located diagnostics for the lowering passes (the same collector as
//! pld-verify's).

pub use pld_passes::report::Report;
