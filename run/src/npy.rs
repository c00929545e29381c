//! NumPy `.npy` files, for `--load` and `--dump`.
//!
//! Reads format versions 1.0, 2.0 and 3.0 (3.0 differs from 2.0 only in
//! allowing a UTF-8 header, which an ASCII header also is); writes 1.0.
//! Only C-order arrays of little-endian numbers and booleans:
//! `<f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 |b1`. A Fortran-order
//! array is accepted when it has at most one dimension longer than 1, since
//! its bytes are then in C order too.
//!
//! bf16 has no NumPy dtype: bf16 arrays are written as `<f4` (exactly), and
//! a bf16 argument loads from any float or integer file by rounding.
//!
//! Hand-written because no crate reads as strictly or says what is wrong
//! in these words (docs/pld-run.md, ".npy files").

use crate::Error;
use crate::element::ElementType;
use crate::expr::Value;
use crate::os_str;
use std::fs;
use std::path::{Path, PathBuf};

/// A `.npy` file (or its header, or a dtype) pld-run cannot read, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NpyError(pub String);

impl From<String> for NpyError {
    fn from(message: String) -> Self {
        NpyError(message)
    }
}

impl From<&str> for NpyError {
    fn from(message: &str) -> Self {
        NpyError(message.to_owned())
    }
}

const MAGIC: &[u8] = b"\x93NUMPY";

/// The header, magic included, is padded to a multiple of this (NumPy
/// aligns array data to 64 bytes).
const ALIGN: usize = 64;

/// A supported `.npy` dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dtype {
    F2,
    F4,
    F8,
    I1,
    I2,
    I4,
    I8,
    U1,
    U2,
    U4,
    U8,
    /// NumPy's bool: one byte, 0 or 1.
    B1,
}

impl Dtype {
    pub const ALL: [Dtype; 12] = [
        Dtype::F2,
        Dtype::F4,
        Dtype::F8,
        Dtype::I1,
        Dtype::I2,
        Dtype::I4,
        Dtype::I8,
        Dtype::U1,
        Dtype::U2,
        Dtype::U4,
        Dtype::U8,
        Dtype::B1,
    ];

    /// The header's `descr` as NumPy writes it.
    pub fn descr(self) -> &'static str {
        match self {
            Dtype::F2 => "<f2",
            Dtype::F4 => "<f4",
            Dtype::F8 => "<f8",
            Dtype::I1 => "|i1",
            Dtype::I2 => "<i2",
            Dtype::I4 => "<i4",
            Dtype::I8 => "<i8",
            Dtype::U1 => "|u1",
            Dtype::U2 => "<u2",
            Dtype::U4 => "<u4",
            Dtype::U8 => "<u8",
            Dtype::B1 => "|b1",
        }
    }

    /// Parses a `descr`. One-byte types take any byte-order mark (NumPy
    /// writes `|`); wider ones must be little-endian (`<`, or `=` on a
    /// little-endian host).
    pub fn from_descr(descr: &str) -> Result<Dtype, NpyError> {
        let unsupported = || {
            format!(
                "unsupported dtype '{descr}' (supported: <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 |b1)"
            )
        };
        let mut chars = descr.chars();
        let order = chars.next().ok_or_else(unsupported)?;
        let code = chars.as_str();
        let dtype = Dtype::ALL
            .into_iter()
            .find(|d| &d.descr()[1..] == code)
            .ok_or_else(unsupported)?;
        let little = order == '<' || (order == '=' && cfg!(target_endian = "little"));
        match order {
            '<' | '>' | '=' | '|' if dtype.size() == 1 => Ok(dtype),
            _ if little => Ok(dtype),
            '>' | '=' => Err(format!("big-endian dtype '{descr}' is not supported").into()),
            _ => Err(unsupported().into()),
        }
    }

    pub fn size(self) -> usize {
        match self {
            Dtype::I1 | Dtype::U1 | Dtype::B1 => 1,
            Dtype::F2 | Dtype::I2 | Dtype::U2 => 2,
            Dtype::F4 | Dtype::I4 | Dtype::U4 => 4,
            Dtype::F8 | Dtype::I8 | Dtype::U8 => 8,
        }
    }

    /// The dtype a dump of `element` uses: the same bytes, except bf16
    /// (widened to `<f4`) and i1 (`|b1`).
    pub fn for_element(element: ElementType) -> Dtype {
        match element {
            ElementType::I1 => Dtype::B1,
            ElementType::I8 => Dtype::I1,
            ElementType::I16 => Dtype::I2,
            ElementType::I32 => Dtype::I4,
            ElementType::I64 | ElementType::Index => Dtype::I8,
            ElementType::F16 => Dtype::F2,
            ElementType::BF16 | ElementType::F32 => Dtype::F4,
            ElementType::F64 => Dtype::F8,
        }
    }

    /// Appends the element in `bytes` converted to `to`.
    fn convert(self, b: &[u8], to: ElementType, out: &mut Vec<u8>) {
        let int = |i: i128, out: &mut Vec<u8>| to.encode_int(i, out);
        match self {
            Dtype::F2 => to.encode(ElementType::F16.decode(b), out),
            Dtype::F4 => to.encode(ElementType::F32.decode(b), out),
            Dtype::F8 => to.encode(ElementType::F64.decode(b), out),
            Dtype::I1 => int(i128::from(b[0] as i8), out),
            Dtype::I2 => int(i128::from(i16::from_le_bytes([b[0], b[1]])), out),
            Dtype::I4 => int(i128::from(i32::from_le_bytes(arr(b))), out),
            Dtype::I8 => int(i128::from(i64::from_le_bytes(arr(b))), out),
            Dtype::U1 => int(i128::from(b[0]), out),
            Dtype::U2 => int(i128::from(u16::from_le_bytes([b[0], b[1]])), out),
            Dtype::U4 => int(i128::from(u32::from_le_bytes(arr(b))), out),
            Dtype::U8 => int(i128::from(u64::from_le_bytes(arr(b))), out),
            Dtype::B1 => int(i128::from(b[0] != 0), out),
        }
    }
}

fn arr<const N: usize>(bytes: &[u8]) -> [u8; N] {
    bytes[..N].try_into().expect("slice has N bytes")
}

/// An array as stored in a `.npy` file: C order, little-endian bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    pub dtype: Dtype,
    pub shape: Vec<usize>,
    pub data: Vec<u8>,
}

impl Array {
    /// The number of elements (1 for a 0-d array).
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// An array of `element` values (its raw little-endian bytes), in the
    /// dtype [`Dtype::for_element`] picks.
    pub fn from_elements(element: ElementType, shape: &[usize], bytes: &[u8]) -> Array {
        let data = match element {
            ElementType::BF16 => bytes
                .chunks_exact(2)
                // A bf16 is the top half of the f32 with the same value.
                .flat_map(|b| (u32::from(u16::from_le_bytes([b[0], b[1]])) << 16).to_le_bytes())
                .collect(),
            // NumPy's bool is 0 or 1; i1 decodes from the lowest bit.
            ElementType::I1 => bytes.iter().map(|b| b & 1).collect(),
            _ => bytes.to_vec(),
        };
        Array {
            dtype: Dtype::for_element(element),
            shape: shape.to_vec(),
            data,
        }
    }

    /// The elements converted to `element` (see [`crate::element`] for the
    /// rules: floats round, integers wrap, floats into integers truncate).
    pub fn to_elements(&self, element: ElementType) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len() * element.size());
        for b in self.data.chunks_exact(self.dtype.size()) {
            self.dtype.convert(b, element, &mut out);
        }
        out
    }

    /// One element as a [`Value`] (u64 values above i64::MAX become floats).
    pub fn get(&self, flat: usize) -> Value {
        let size = self.dtype.size();
        let b = &self.data[flat * size..(flat + 1) * size];
        match self.dtype {
            Dtype::U8 => {
                let u = u64::from_le_bytes(arr(b));
                i64::try_from(u).map_or(Value::Float(u as f64), Value::Int)
            }
            dtype => {
                let mut out = Vec::with_capacity(8);
                let wide = if matches!(dtype, Dtype::F2 | Dtype::F4 | Dtype::F8) {
                    ElementType::F64
                } else {
                    ElementType::I64
                };
                dtype.convert(b, wide, &mut out);
                wide.decode(&out)
            }
        }
    }

    /// Parses the contents of a `.npy` file.
    pub fn parse(bytes: &[u8]) -> Result<Array, NpyError> {
        let rest = bytes
            .strip_prefix(MAGIC)
            .ok_or("not a .npy file (no \\x93NUMPY magic)")?;
        let [major, minor, rest @ ..] = rest else {
            return Err("truncated header".into());
        };
        let (header_len, rest) = match major {
            1 => {
                let [a, b, rest @ ..] = rest else {
                    return Err("truncated header".into());
                };
                (usize::from(u16::from_le_bytes([*a, *b])), rest)
            }
            2 | 3 => {
                let [a, b, c, d, rest @ ..] = rest else {
                    return Err("truncated header".into());
                };
                (u32::from_le_bytes([*a, *b, *c, *d]) as usize, rest)
            }
            _ => return Err(format!("unsupported .npy format version {major}.{minor}").into()),
        };
        let header = rest.get(..header_len).ok_or("truncated header")?;
        let data = &rest[header_len..];
        let header = std::str::from_utf8(header).map_err(|_| "header is not UTF-8")?;
        let Header {
            descr,
            fortran_order,
            shape,
        } = parse_header(header)?;
        let dtype = Dtype::from_descr(&descr)?;
        if fortran_order && shape.iter().filter(|&&d| d > 1).count() > 1 {
            return Err("Fortran-order arrays are not supported; save with C order".into());
        }
        let len = shape
            .iter()
            .try_fold(dtype.size(), |n, &d| n.checked_mul(d))
            .ok_or("shape too large")?;
        if data.len() != len {
            return Err(format!(
                "has {} bytes of data, but shape {} of '{}' needs {len}",
                data.len(),
                format_shape(&shape),
                dtype.descr()
            )
            .into());
        }
        Ok(Array {
            dtype,
            shape,
            data: data.to_vec(),
        })
    }

    /// The contents of a format 1.0 `.npy` file (2.0 if the header would
    /// not fit 1.0's 64 KiB, which takes thousands of dimensions).
    pub fn to_bytes(&self) -> Vec<u8> {
        let shape = match self.shape.as_slice() {
            [] => "()".to_owned(),
            [d] => format!("({d},)"),
            dims => format!(
                "({})",
                dims.iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let dict = format!(
            "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
            self.dtype.descr()
        );
        // Pad with spaces so that the data starts 64-byte aligned; the
        // header ends with a newline.
        let padded = |prefix: usize| {
            let unpadded = prefix + dict.len() + 1;
            let mut header = dict.clone();
            header.extend(std::iter::repeat_n(
                ' ',
                unpadded.next_multiple_of(ALIGN) - unpadded,
            ));
            header.push('\n');
            header
        };
        let mut out = Vec::with_capacity(128 + self.data.len());
        out.extend_from_slice(MAGIC);
        let mut header = padded(MAGIC.len() + 4);
        if let Ok(len) = u16::try_from(header.len()) {
            out.extend_from_slice(&[1, 0]);
            out.extend_from_slice(&len.to_le_bytes());
        } else {
            header = padded(MAGIC.len() + 6);
            out.extend_from_slice(&[2, 0]);
            out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        }
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(&self.data);
        out
    }

    /// Reads a `.npy` file; errors name the file.
    pub fn read(path: &Path) -> Result<Array, Error> {
        let bytes = fs::read(path)
            .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))?;
        Array::parse(&bytes).map_err(|e| Error::new(format!("{}: {e}", path.display())))
    }

    /// Writes a `.npy` file; errors name the file.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        fs::write(path, self.to_bytes())
            .map_err(|e| Error::new(format!("cannot write {}: {e}", path.display())))
    }
}

/// `[4, 3]`, `[]` for a scalar: how messages show shapes.
pub fn format_shape(shape: &[usize]) -> String {
    format!(
        "[{}]",
        shape
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// A `--load` path for one rank: every `{rank}` replaced by the rank.
pub fn rank_path(template: &Path, rank: usize) -> PathBuf {
    PathBuf::from(os_str::replace(
        template.as_os_str(),
        "{rank}",
        &rank.to_string(),
    ))
}

/// Where `--dump DIR` puts argument `arg` of rank `rank`:
/// `DIR/rank<R>.arg<K>.npy`.
pub fn dump_path(dir: &Path, rank: usize, arg: usize) -> PathBuf {
    dir.join(format!("rank{rank}.arg{arg}.npy"))
}

// ---------------------------------------------------------------- header

struct Header {
    descr: String,
    fortran_order: bool,
    shape: Vec<usize>,
}

/// Parses the header: a Python dict literal with exactly the keys `descr`
/// (a string), `fortran_order` (a bool) and `shape` (a tuple of ints).
fn parse_header(text: &str) -> Result<Header, NpyError> {
    let mut p = Literal {
        rest: text.trim_end_matches(['\n', ' ', '\0']),
    };
    let mut descr = None;
    let mut fortran_order = None;
    let mut shape = None;
    p.expect('{')?;
    while !p.eat('}') {
        let key = p.string()?;
        p.expect(':')?;
        let duplicate = match key.as_str() {
            "descr" => descr.replace(p.string()?).is_some(),
            "fortran_order" => fortran_order.replace(p.boolean()?).is_some(),
            "shape" => shape.replace(p.tuple()?).is_some(),
            _ => return Err(format!("unexpected key '{key}' in the header").into()),
        };
        if duplicate {
            return Err(format!("key '{key}' appears twice in the header").into());
        }
        if !p.eat(',') {
            p.expect('}')?;
            break;
        }
    }
    if !p.rest.trim().is_empty() {
        return Err(format!("unexpected `{}` after the header's dict", p.rest.trim()).into());
    }
    let missing = |key| format!("the header has no '{key}'");
    Ok(Header {
        descr: descr.ok_or_else(|| missing("descr"))?,
        fortran_order: fortran_order.ok_or_else(|| missing("fortran_order"))?,
        shape: shape.ok_or_else(|| missing("shape"))?,
    })
}

/// A cursor over the few Python literals a header contains.
struct Literal<'a> {
    rest: &'a str,
}

impl Literal<'_> {
    fn skip_space(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_space();
        match self.rest.strip_prefix(c) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn expect(&mut self, c: char) -> Result<(), NpyError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("malformed header: expected `{c}` at `{}`", self.excerpt()).into())
        }
    }

    fn excerpt(&self) -> String {
        self.rest.chars().take(20).collect()
    }

    fn string(&mut self) -> Result<String, NpyError> {
        self.skip_space();
        let quote = self
            .rest
            .chars()
            .next()
            .filter(|c| *c == '\'' || *c == '"')
            .ok_or_else(|| {
                format!(
                    "malformed header: expected a string at `{}`",
                    self.excerpt()
                )
            })?;
        let body = &self.rest[1..];
        let end = body
            .find(quote)
            .ok_or("malformed header: unterminated string")?;
        self.rest = &body[end + 1..];
        Ok(body[..end].to_owned())
    }

    fn boolean(&mut self) -> Result<bool, NpyError> {
        self.skip_space();
        for (word, value) in [("True", true), ("False", false)] {
            if let Some(rest) = self.rest.strip_prefix(word) {
                self.rest = rest;
                return Ok(value);
            }
        }
        Err(format!(
            "malformed header: expected True or False at `{}`",
            self.excerpt()
        )
        .into())
    }

    fn tuple(&mut self) -> Result<Vec<usize>, NpyError> {
        self.expect('(')?;
        let mut dims = Vec::new();
        while !self.eat(')') {
            self.skip_space();
            let digits = self.rest.bytes().take_while(u8::is_ascii_digit).count();
            let dim = self.rest[..digits].parse().map_err(|_| {
                format!(
                    "malformed header: expected a dimension at `{}`",
                    self.excerpt()
                )
            })?;
            dims.push(dim);
            self.rest = &self.rest[digits..];
            // Python 2 wrote longs as `3L`.
            self.eat('L');
            if !self.eat(',') {
                self.expect(')')?;
                break;
            }
        }
        Ok(dims)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes of a format-2.0 file with the given header text, as NumPy
    /// would write it (padded to 64, newline-terminated).
    fn v2_file(header: &str, data: &[u8]) -> Vec<u8> {
        let mut header = header.to_owned();
        while !(MAGIC.len() + 2 + 4 + header.len() + 1).is_multiple_of(64) {
            header.push(' ');
        }
        header.push('\n');
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[2, 0]);
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn writes_the_numpy_layout() {
        let array = Array {
            dtype: Dtype::I4,
            shape: vec![2, 3],
            data: (0..6i32).flat_map(i32::to_le_bytes).collect(),
        };
        let bytes = array.to_bytes();
        assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
        let header_len = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
        assert_eq!((10 + header_len) % 64, 0);
        let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
        assert_eq!(
            header.trim_end(),
            "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }"
        );
        assert!(header.ends_with(" \n"));
        assert_eq!(&bytes[10 + header_len..], array.data.as_slice());
    }

    #[test]
    fn shapes_are_python_tuples() {
        let header = |shape: Vec<usize>| {
            let bytes = Array {
                dtype: Dtype::U1,
                data: vec![0; shape.iter().product()],
                shape,
            }
            .to_bytes();
            String::from_utf8_lossy(&bytes[10..]).into_owned()
        };
        assert!(header(vec![]).contains("'shape': (), "));
        assert!(header(vec![5]).contains("'shape': (5,), "));
        assert!(header(vec![1, 2, 3]).contains("'shape': (1, 2, 3), "));
    }

    #[test]
    fn every_dtype_round_trips() {
        for dtype in Dtype::ALL {
            for shape in [vec![], vec![3], vec![2, 3], vec![2, 0, 4]] {
                let len: usize = shape.iter().product();
                let data: Vec<u8> = (0..len * dtype.size())
                    .map(|b| (b * 37 % 251) as u8)
                    .collect();
                let data = if dtype == Dtype::B1 {
                    data.iter().map(|b| b & 1).collect()
                } else {
                    data
                };
                let array = Array {
                    dtype,
                    shape: shape.clone(),
                    data,
                };
                assert_eq!(
                    Array::parse(&array.to_bytes()),
                    Ok(array),
                    "{dtype:?} {shape:?}"
                );
            }
        }
    }

    #[test]
    fn reads_a_hand_built_v2_header() {
        let data: Vec<u8> = [1.5f64, -2.0, 3.25]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let bytes = v2_file(
            "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
            &data,
        );
        let array = Array::parse(&bytes).unwrap();
        assert_eq!(array.dtype, Dtype::F8);
        assert_eq!(array.shape, [3]);
        assert_eq!(array.get(1), Value::Float(-2.0));
        // Other spellings NumPy and Python accept.
        let bytes = v2_file(
            "{\"shape\": (1L, 3L), \"fortran_order\": True, \"descr\": \"<f8\"}",
            &data,
        );
        assert_eq!(Array::parse(&bytes).unwrap().shape, [1, 3]);
    }

    #[test]
    fn rejects_what_it_cannot_read() {
        let err = |header: &str, data: &[u8]| Array::parse(&v2_file(header, data)).unwrap_err().0;
        assert!(
            err(
                "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }",
                &[0; 4]
            )
            .contains("big-endian")
        );
        assert!(
            err(
                "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                &[0; 8]
            )
            .contains("unsupported dtype '<c8'")
        );
        assert!(
            err(
                "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                &[0; 4]
            )
            .contains("expected a string")
        );
        assert!(
            err(
                "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                &[0; 16]
            )
            .contains("Fortran")
        );
        assert!(
            err(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                &[0; 4]
            )
            .contains("has 4 bytes of data, but shape [2] of '<f4' needs 8")
        );
        assert!(
            err(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                &[0; 9]
            )
            .contains("needs 8")
        );
        assert!(err("{'descr': '<f4', 'shape': (1,), }", &[0; 4]).contains("no 'fortran_order'"));
        assert!(
            err(
                "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}",
                &[0; 4]
            )
            .contains("twice")
        );
        assert!(
            err(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}",
                &[0; 4]
            )
            .contains("unexpected key 'x'")
        );
        assert!(
            err(
                "{'descr': '<f4', 'fortran_order': False, 'shape': (a,)}",
                &[0; 4]
            )
            .contains("expected a dimension")
        );
        assert!(Array::parse(b"PK\x03\x04").unwrap_err().0.contains("magic"));
        assert!(
            Array::parse(b"\x93NUMPY\x04\x00\x00\x00")
                .unwrap_err()
                .0
                .contains("version 4.0")
        );
        assert!(
            Array::parse(b"\x93NUMPY\x01\x00\xff\x00{")
                .unwrap_err()
                .0
                .contains("truncated")
        );
        // Byte-order marks NumPy never writes for one-byte types are fine.
        assert_eq!(Dtype::from_descr("<u1"), Ok(Dtype::U1));
        assert_eq!(Dtype::from_descr("|b1"), Ok(Dtype::B1));
        assert!(Dtype::from_descr("|i4").is_err());
        assert!(Dtype::from_descr("").is_err());
    }

    #[test]
    fn converts_to_element_types() {
        let array = |dtype: Dtype, data: Vec<u8>| Array {
            dtype,
            shape: vec![data.len() / dtype.size()],
            data,
        };
        let f64s = array(
            Dtype::F8,
            [1.0f64 / 3.0, -1.5, 70000.0]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect(),
        );
        let bf16: Vec<u16> = f64s
            .to_elements(ElementType::BF16)
            .chunks(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect();
        assert_eq!(bf16, [0x3eab, 0xbfc0, 0x4789]);
        let f16 = f64s.to_elements(ElementType::F16);
        assert_eq!(&f16[..2], &0x3555u16.to_le_bytes());
        assert_eq!(&f16[4..], &0x7c00u16.to_le_bytes());
        assert_eq!(
            f64s.to_elements(ElementType::I32),
            [0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x70, 0x11, 0x01, 0]
        );
        let u64s = array(Dtype::U8, u64::MAX.to_le_bytes().to_vec());
        assert_eq!(u64s.to_elements(ElementType::I8), [0xff]);
        assert_eq!(u64s.to_elements(ElementType::BF16), 0x5f80u16.to_le_bytes());
        assert_eq!(u64s.get(0), Value::Float(u64::MAX as f64));
        let bools = array(Dtype::B1, vec![0, 1, 2]);
        assert_eq!(
            bools.to_elements(ElementType::F32),
            [0f32, 1.0, 1.0]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect::<Vec<_>>()
        );
        let i8s = array(Dtype::I1, vec![0xff]);
        assert_eq!(i8s.to_elements(ElementType::I64), (-1i64).to_le_bytes());
        assert_eq!(i8s.get(0), Value::Int(-1));
        let u8s = array(Dtype::U1, vec![0xff]);
        assert_eq!(u8s.to_elements(ElementType::I16), 255i16.to_le_bytes());
        let halves = array(Dtype::F2, 0x3c00u16.to_le_bytes().to_vec());
        assert_eq!(halves.to_elements(ElementType::F32), 1f32.to_le_bytes());
        assert_eq!(halves.get(0), Value::Float(1.0));
    }

    #[test]
    fn element_arrays_use_the_matching_dtype() {
        assert_eq!(Dtype::for_element(ElementType::Index), Dtype::I8);
        let bf16 = Array::from_elements(ElementType::BF16, &[2], &[0x80, 0x3f, 0xab, 0x3e]);
        assert_eq!(bf16.dtype, Dtype::F4);
        assert_eq!(bf16.get(0), Value::Float(1.0));
        // Widening is exact, so loading it back as bf16 restores the bits.
        assert_eq!(
            bf16.to_elements(ElementType::BF16),
            [0x80, 0x3f, 0xab, 0x3e]
        );
        let bools = Array::from_elements(ElementType::I1, &[2], &[1, 3]);
        assert_eq!((bools.dtype, bools.data), (Dtype::B1, vec![1, 1]));
        for element in ElementType::ALL {
            let bytes: Vec<u8> = (0..3 * element.size() as u8).collect();
            let array = Array::from_elements(element, &[3], &bytes);
            let back = Array::parse(&array.to_bytes())
                .unwrap()
                .to_elements(element);
            if element != ElementType::I1 {
                assert_eq!(back, bytes, "{element}");
            }
        }
    }

    #[test]
    fn paths() {
        assert_eq!(
            rank_path(Path::new("in/x{rank}.npy"), 3),
            Path::new("in/x3.npy")
        );
        assert_eq!(
            dump_path(Path::new("out"), 1, 2),
            Path::new("out/rank1.arg2.npy")
        );
        assert_eq!(format_shape(&[4, 3]), "[4, 3]");
        assert_eq!(format_shape(&[]), "[]");
    }

    #[test]
    fn files_name_themselves_in_errors() {
        let dir = std::env::temp_dir().join(format!("pld-run-core-npy-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.npy");
        let array = Array {
            dtype: Dtype::F4,
            shape: vec![2],
            data: vec![0; 8],
        };
        array.write(&path).unwrap();
        assert_eq!(Array::read(&path).unwrap(), array);
        fs::write(&path, b"junk").unwrap();
        let err = Array::read(&path).unwrap_err().to_string();
        assert!(
            err.starts_with(&format!("{}: not a .npy file", path.display())),
            "{err}"
        );
        let err = Array::read(&dir.join("missing.npy"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("cannot read "), "{err}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
