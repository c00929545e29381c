//! Locations as users read them: `file.mlir:12:5`.

use melior::ir::Location;

/// `file:line:col` for a file location (read through the C API); the
/// printed form for any other kind (fused, named, call-site, unknown).
pub fn location_text(location: Location) -> String {
    // SAFETY: `location` is a live location; the file-range accessors are
    // only called once the C API confirms its kind, and the filename's
    // string data lives as long as the context (an empty one may be null).
    unsafe {
        let raw = location.to_raw();
        if !mlir_sys::mlirLocationIsAFileLineColRange(raw) {
            return location.to_string();
        }
        let file =
            mlir_sys::mlirIdentifierStr(mlir_sys::mlirLocationFileLineColRangeGetFilename(raw));
        let file = pld_dialect::string_ref_bytes(file);
        format!(
            "{}:{}:{}",
            String::from_utf8_lossy(file),
            mlir_sys::mlirLocationFileLineColRangeGetStartLine(raw),
            mlir_sys::mlirLocationFileLineColRangeGetStartColumn(raw)
        )
    }
}
