//! Input that crashes the MLIR the project builds on, refused with a
//! located error before MLIR's parser sees it.
//!
//! - A dense array of `index` elements (`array<index: 0, 0>`, a mistyped
//!   `static_offsets`): MLIR 22.1's `Parser::parseDenseArrayAttr` asks an
//!   `index` type for its bit width and crashes (upstream
//!   llvm/llvm-project#179045, fixed by #179075 after 22.1.8, the release
//!   Debian 12's packages carry). Remove this guard when the project's LLVM
//!   has the fix.

/// Where `text` holds input that crashes MLIR's parser, and why: the
/// 1-based line and column of the first such place.
pub fn known_crash(text: &str) -> Option<(usize, usize, &'static str)> {
    for (index, line) in text.lines().enumerate() {
        let mut searched = 0;
        while let Some(found) = line[searched..].find("array<") {
            let start = searched + found;
            let rest = line[start + "array<".len()..].trim_start();
            let word: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if word == "index" {
                return Some((
                    index + 1,
                    start + 1,
                    "a dense array of 'index' elements crashes the parser of MLIR 22.1 \
                     (llvm/llvm-project#179045, fixed after 22.1.8); dense arrays hold i1, i8, \
                     i16, i32, i64, f32 or f64 (static offsets and sizes are array<i64: ...>)",
                ));
            }
            searched = start + "array<".len();
        }
    }
    None
}
