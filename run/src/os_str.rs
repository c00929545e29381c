//! Splitting and substituting inside `OsStr`s, so paths on the command line
//! need not be UTF-8.

use std::ffi::{OsStr, OsString};

/// Splits `s` around the first `sep` (an ASCII character).
pub(crate) fn split_once(s: &OsStr, sep: u8) -> Option<(&OsStr, &OsStr)> {
    assert!(sep.is_ascii(), "the separator must be ASCII");
    let bytes = s.as_encoded_bytes();
    let at = bytes.iter().position(|&b| b == sep)?;
    // SAFETY: `as_encoded_bytes` may be split immediately before or after a
    // non-empty UTF-8 substring; `sep` is one ASCII character, so both
    // halves are valid encoded `OsStr`s.
    let (head, tail) = unsafe {
        (
            OsStr::from_encoded_bytes_unchecked(&bytes[..at]),
            OsStr::from_encoded_bytes_unchecked(&bytes[at + 1..]),
        )
    };
    Some((head, tail))
}

/// `s` with every occurrence of `from` (non-empty UTF-8) replaced by `to`.
pub(crate) fn replace(s: &OsStr, from: &str, to: &str) -> OsString {
    assert!(!from.is_empty());
    let bytes = s.as_encoded_bytes();
    let pattern = from.as_bytes();
    let mut out = OsString::new();
    let mut start = 0;
    let mut at = 0;
    while at + pattern.len() <= bytes.len() {
        if &bytes[at..at + pattern.len()] == pattern {
            // SAFETY: the piece ends immediately before an occurrence of
            // `from`, a non-empty UTF-8 string, and starts immediately after
            // the previous one (or at the start), which the encoding allows.
            out.push(unsafe { OsStr::from_encoded_bytes_unchecked(&bytes[start..at]) });
            out.push(to);
            at += pattern.len();
            start = at;
        } else {
            at += 1;
        }
    }
    // SAFETY: as above, the rest starts right after an occurrence or at 0.
    out.push(unsafe { OsStr::from_encoded_bytes_unchecked(&bytes[start..]) });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_the_first_separator() {
        let (a, b) = split_once(OsStr::new("1=x=y"), b'=').unwrap();
        assert_eq!((a, b), (OsStr::new("1"), OsStr::new("x=y")));
        assert!(split_once(OsStr::new("abc"), b'=').is_none());
    }

    #[test]
    fn replaces_every_occurrence() {
        let out = replace(OsStr::new("in/{rank}/a{rank}.npy"), "{rank}", "12");
        assert_eq!(out, OsStr::new("in/12/a12.npy"));
        assert_eq!(replace(OsStr::new("plain"), "{rank}", "0"), "plain");
    }

    #[cfg(unix)]
    #[test]
    fn keeps_non_utf8_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let s = OsStr::from_bytes(b"\xff{rank}\xfe");
        let out = replace(s, "{rank}", "3");
        assert_eq!(out.as_bytes(), b"\xff3\xfe");
        let (a, b) = split_once(OsStr::from_bytes(b"2=\xffx"), b'=').unwrap();
        assert_eq!(a, "2");
        assert_eq!(b.as_bytes(), b"\xffx");
    }
}
