//! The C API of the C++ half, declared by bindgen from its headers
//! (`dialect/include/pld-c/*.h`, see `build.rs`): struct fields keep their C
//! names. MLIR's own C types are mlir-sys's.

#![allow(
    non_camel_case_types,
    non_snake_case,
    non_upper_case_globals,
    missing_docs
)]

include!(concat!(env!("OUT_DIR"), "/capi.rs"));
