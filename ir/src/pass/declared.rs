//! The passes as `dialect/include/pld/Passes.td` declares them: one module
//! per pass, generated into `pld_dialect::declared` with the ops.

pub use pld_dialect::declared::*;
