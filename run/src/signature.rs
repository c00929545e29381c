//! The entry's argument names, read from the source text.
//!
//! MLIR keeps no SSA names: a parsed function's arguments are numbered. So
//! that `--init data=...` can name an argument as the source writes it,
//! pld-run reads the names from the text of the function's signature,
//! starting where the function's location points (`func.func` at
//! LINE:COL): past `@symbol`, the parenthesized argument list, each entry
//! `%name: type {attributes} loc(...)`, over as many lines as it takes.
//! Brackets of every kind nest (types such as `memref<4x?xf32,
//! strided<[?, 1]>>`, attribute dictionaries, `loc(...)`), strings and `//`
//! comments are skipped, and the `>` of `->` closes nothing.

/// The argument names of the function whose text starts at byte `start` of
/// `source` (`func.func @symbol(...)`), one per argument (`None` for a
/// numbered one such as `%0`); `None` when the text there is not such a
/// signature (another form, a generated location) or names other than
/// `expected` arguments.
pub fn argument_names(
    source: &str,
    start: usize,
    symbol: &str,
    expected: usize,
) -> Option<Vec<Option<String>>> {
    let text = source.get(start..)?;
    let at = find_symbol(text, symbol)?;
    let rest = &text[at..];
    let open = rest.find('(')?;
    // Only blanks may stand between the symbol and its argument list.
    if !rest[..open].trim().is_empty() {
        return None;
    }
    let names = scan(&rest[open..])?;
    (names.len() == expected).then_some(names)
}

/// The byte just past `@symbol` (or `@"symbol"`) in `text`, if the text
/// starts with the op's name and reaches the symbol before any `(`.
fn find_symbol(text: &str, symbol: &str) -> Option<usize> {
    let plain = format!("@{symbol}");
    let quoted = format!("@\"{symbol}\"");
    let limit = text.find('(').unwrap_or(text.len());
    for candidate in [quoted, plain] {
        if let Some(at) = text[..limit].find(&candidate) {
            let end = at + candidate.len();
            // `@k` must not match the start of `@kernel`.
            let next = text[end..].chars().next();
            if next.is_none_or(|c| !(c.is_ascii_alphanumeric() || "_$.-".contains(c))) {
                return Some(end);
            }
        }
    }
    None
}

/// The names in the argument list that `text` starts with (at its `(`).
fn scan(text: &str) -> Option<Vec<Option<String>>> {
    let bytes = text.as_bytes();
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut at_argument_start = true;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' | b'<' => {
                depth += 1;
                if depth == 1 {
                    at_argument_start = true;
                }
            }
            b'>' if i > 0 && bytes[i - 1] == b'-' => {}
            b')' | b']' | b'}' | b'>' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(names);
                }
            }
            b',' if depth == 1 => at_argument_start = true,
            b'%' if depth == 1 && at_argument_start => {
                let name: String = text[i + 1..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || "_$.-".contains(*c))
                    .collect();
                i += 1 + name.len();
                at_argument_start = false;
                let numbered = name.bytes().all(|b| b.is_ascii_digit());
                names.push((!name.is_empty() && !numbered).then_some(name));
                continue;
            }
            _ if depth == 1 && at_argument_start && !b.is_ascii_whitespace() => {
                // An argument without a name: a declaration's signature.
                return None;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The byte offset of 1-based `line` and `column` in `source`.
pub fn offset(source: &str, line: usize, column: usize) -> Option<usize> {
    let mut start = 0;
    for _ in 1..line {
        start += source.get(start..)?.find('\n')? + 1;
    }
    let offset = start + column.checked_sub(1)?;
    (offset <= source.len()).then_some(offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(source: &str, symbol: &str, n: usize) -> Option<Vec<Option<String>>> {
        argument_names(source, 0, symbol, n)
    }

    fn some(list: &[&str]) -> Option<Vec<Option<String>>> {
        Some(list.iter().map(|n| Some((*n).to_owned())).collect())
    }

    #[test]
    fn one_line() {
        assert_eq!(
            names(
                "func.func @k(%data: !pld.dtensor<1x8xf32>, %signal: !pld.dtensor<8x1xi32>) {",
                "k",
                2
            ),
            some(&["data", "signal"])
        );
        assert_eq!(names("func.func @k() {", "k", 0), Some(vec![]));
    }

    #[test]
    fn several_lines_attributes_comments_and_nested_types() {
        let source = r#"func.func @handshake(
    // the output, "a, b" (not an argument)
    %out: memref<4x?xf32, strided<[?, 1], offset: ?>> {pl.note = "x) , %y"},
    %f: (i32) -> i32,
    %peer: index loc("a.mlir":3:4),
    %tag.v$1: i32) attributes {pl.kernel = #pl.kernel<incore>} {"#;
        assert_eq!(
            names(source, "handshake", 4),
            some(&["out", "f", "peer", "tag.v$1"])
        );
    }

    #[test]
    fn the_symbol_must_match_whole_and_the_count_agree() {
        assert_eq!(names("func.func @kernel(%a: i32) {", "k", 1), None);
        assert_eq!(names("func.func @\"k\"(%a: i32) {", "k", 1), some(&["a"]));
        assert_eq!(names("func.func @k(%a: i32) {", "k", 2), None);
        assert_eq!(
            names("func.func @k(%0: i32, %b: i32) {", "k", 2),
            Some(vec![None, Some("b".into())])
        );
        // A declaration, or the generic form: no names to read.
        assert_eq!(names("func.func private @k(i32)", "k", 1), None);
        assert_eq!(
            names("\"func.func\"() <{sym_name = \"k\"}> ({", "k", 0),
            None
        );
    }

    #[test]
    fn offsets() {
        let source = "ab\ncde\nf";
        assert_eq!(offset(source, 1, 1), Some(0));
        assert_eq!(offset(source, 2, 2), Some(4));
        assert_eq!(offset(source, 3, 1), Some(7));
        assert_eq!(offset(source, 4, 1), None);
        assert_eq!(offset(source, 2, 0), None);
    }
}
