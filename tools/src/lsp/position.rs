//! Places in a document as MLIR and as LSP count them. MLIR's locations are
//! `line:column`, both 1-based, the column in bytes; an LSP position is a
//! 0-based line and a column in UTF-16 code units (the protocol's default
//! encoding, which MLIR's own server also uses). Lines end at `\n`, as
//! MLIR's source manager counts them (a `\r` before it is part of the line).

use serde_json::{Value, json};

/// An LSP position: 0-based line, UTF-16 code units into the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub character: usize,
}

impl Position {
    /// `{"line": .., "character": ..}`.
    pub fn to_json(self) -> Value {
        json!({"line": self.line, "character": self.character})
    }

    /// A position from its JSON; `None` when it is not one.
    pub fn from_json(value: &Value) -> Option<Position> {
        Some(Position {
            line: usize::try_from(value["line"].as_u64()?).ok()?,
            character: usize::try_from(value["character"].as_u64()?).ok()?,
        })
    }
}

/// An LSP range from `start` to `end`.
pub fn range_json(start: Position, end: Position) -> Value {
    json!({"start": start.to_json(), "end": end.to_json()})
}

/// The byte offset of 1-based `line` and byte `column` in `text`, clamped to
/// the line (a column past its end is its end) and to the text (a line past
/// the last is the end of the text).
pub fn offset_of_line_column(text: &str, line: usize, column: usize) -> usize {
    let Some(start) = line_start(text, line.saturating_sub(1)) else {
        return text.len();
    };
    let length = line_length(&text[start..]);
    let mut offset = start + column.saturating_sub(1).min(length);
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The LSP position of byte `offset` of `text` (clamped to the text, and
/// back to the start of a character it falls inside).
pub fn position_of_offset(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    Position {
        line: before.matches('\n').count(),
        character: before[line_start..].encode_utf16().count(),
    }
}

/// The byte offset of LSP `position` in `text`: a character past the end of
/// its line is the line's end, a line past the last is the end of the text
/// (as the protocol asks a server to read them). A position inside a
/// character's UTF-16 pair is that character's start.
pub fn offset_of_position(text: &str, position: Position) -> usize {
    let Some(start) = line_start(text, position.line) else {
        return text.len();
    };
    let line = &text[start..start + line_length(&text[start..])];
    let mut units = 0;
    for (index, c) in line.char_indices() {
        units += c.len_utf16();
        if units > position.character {
            return start + index;
        }
    }
    start + line.len()
}

/// The range of the token that starts at byte `offset` of `text` (an SSA
/// name, symbol, op or attribute name, a number or a string), as MLIR's
/// server marks the op a diagnostic is about; a single character when no
/// token starts there, empty at the end of a line.
pub fn token_range(text: &str, offset: usize) -> (Position, Position) {
    let start = position_of_offset(text, offset);
    let offset = offset_of_position(text, start);
    let rest = &text[offset..];
    let length = if let Some(quoted) = rest.strip_prefix('"') {
        // A quoted name up to its closing quote (on the same line).
        let line = &quoted[..line_length(quoted)];
        line.find('"').map_or(line.len(), |end| end + 1) + 1
    } else {
        let sigil = rest
            .chars()
            .next()
            .filter(|c| "%@#!^".contains(*c))
            .map_or(0, char::len_utf8);
        let word: usize = rest[sigil..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || "_.$-".contains(*c))
            .map(char::len_utf8)
            .sum();
        match sigil + word {
            0 => rest
                .chars()
                .next()
                .filter(|c| *c != '\n')
                .map_or(0, char::len_utf8),
            length => length,
        }
    };
    (start, position_of_offset(text, offset + length))
}

/// `text` with `range` (start and end positions) replaced by `new_text`, as
/// an incremental `didChange` asks; the whole text when `range` is `None`.
pub fn apply_change(text: &str, range: Option<(Position, Position)>, new_text: &str) -> String {
    let Some((start, end)) = range else {
        return new_text.to_owned();
    };
    let start = offset_of_position(text, start);
    let end = offset_of_position(text, end).max(start);
    format!("{}{new_text}{}", &text[..start], &text[end..])
}

/// The byte offset where 0-based line `line` starts; `None` past the last.
fn line_start(text: &str, line: usize) -> Option<usize> {
    if line == 0 {
        return Some(0);
    }
    text.match_indices('\n')
        .nth(line - 1)
        .map(|(newline, _)| newline + 1)
}

/// The length in bytes of the line `rest` starts with, without its `\n`.
fn line_length(rest: &str) -> usize {
    rest.find('\n').unwrap_or(rest.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize, character: usize) -> Position {
        Position { line, character }
    }

    #[test]
    fn mlir_columns_are_bytes_lsp_characters_are_utf16() {
        // "é" is 2 bytes and 1 UTF-16 unit; "𝄞" is 4 bytes and 2 units.
        let text = "abc\n é𝄞x\n";
        assert_eq!(offset_of_line_column(text, 1, 1), 0);
        assert_eq!(offset_of_line_column(text, 2, 1), 4);
        // Column 8 of line 2 is byte 7 of the line (1 + 2 + 4 bytes in):
        // the `x`, 4 UTF-16 units in.
        let x = offset_of_line_column(text, 2, 8);
        assert_eq!(&text[x..x + 1], "x");
        assert_eq!(position_of_offset(text, x), at(1, 4));
        assert_eq!(offset_of_position(text, at(1, 4)), x);
        // Back and forth over every character start.
        for (offset, _) in text.char_indices() {
            assert_eq!(
                offset_of_position(text, position_of_offset(text, offset)),
                offset
            );
        }
    }

    #[test]
    fn out_of_range_places_are_clamped() {
        let text = "ab\ncd";
        // A column past the end of its line is the line's end, a line past
        // the last the end of the text.
        assert_eq!(offset_of_line_column(text, 1, 40), 2);
        assert_eq!(offset_of_line_column(text, 9, 1), text.len());
        assert_eq!(offset_of_position(text, at(0, 40)), 2);
        assert_eq!(offset_of_position(text, at(7, 0)), text.len());
        assert_eq!(position_of_offset(text, 99), at(1, 2));
        // Inside a character: its start.
        let text = "é";
        assert_eq!(offset_of_line_column(text, 1, 2), 0);
        assert_eq!(position_of_offset(text, 1), at(0, 0));
        let text = "𝄞a";
        assert_eq!(offset_of_position(text, at(0, 1)), 0);
        assert_eq!(offset_of_position(text, at(0, 2)), 4);
    }

    #[test]
    fn a_carriage_return_is_part_of_its_line() {
        let text = "ab\r\ncd";
        assert_eq!(offset_of_line_column(text, 2, 2), 5);
        assert_eq!(position_of_offset(text, 5), at(1, 1));
    }

    #[test]
    fn tokens_span_names_strings_and_single_characters() {
        let text = "  %n = pld.system.world_size\n  \"x.y\"() : () -> ()\n  {\n";
        let range = |line, column| token_range(text, offset_of_line_column(text, line, column));
        assert_eq!(range(1, 3), (at(0, 2), at(0, 4)));
        assert_eq!(range(1, 8), (at(0, 7), at(0, 28)));
        assert_eq!(range(2, 3), (at(1, 2), at(1, 7)));
        assert_eq!(range(3, 3), (at(2, 2), at(2, 3)));
        // At the end of a line: empty.
        assert_eq!(range(3, 4), (at(2, 3), at(2, 3)));
    }

    #[test]
    fn incremental_changes_edit_by_utf16_ranges() {
        let text = "é𝄞 one\ntwo\n";
        let changed = apply_change(text, Some((at(0, 4), at(1, 1))), "1\nT");
        assert_eq!(changed, "é𝄞 1\nTwo\n");
        assert_eq!(apply_change(text, None, "new"), "new");
        // A reversed range inserts at its start.
        assert_eq!(apply_change("abc", Some((at(0, 2), at(0, 1))), "X"), "abXc");
    }
}
