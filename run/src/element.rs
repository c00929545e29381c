//! Element types of entry arguments, and how values become their bytes.
//!
//! Every buffer pld-run exchanges with the harness is little-endian in the
//! argument's own element type. Converting a [`Value`] into a type:
//!
//! - integer types: a float truncates toward zero first (saturating at the
//!   i64 range, NaN becomes 0), then the integer wraps to the width, as C
//!   does. `i1` keeps the lowest bit, so `2` is false.
//! - float types: round to nearest, ties to even, overflowing to infinity.
//!   f16 and bf16 are rounded in one step from the exact input (an i64, u64
//!   or f64), never through f32, so there is no double rounding (the `half`
//!   crate converts; see "f16 and bf16" below for how it is kept to one
//!   rounding).
//!
//! Decoding is exact: integers as signed two's complement (`i1` as 0 or 1),
//! floats widened to f64.
//!
//! What the user gives (`--init`, `--expect`, `--load`) must be a value the
//! type can hold ([`ElementType::represent`]): an integer in the type's
//! range (read as signed, as decoding does), no fraction or infinity into
//! an integer type, no finite value beyond a float type's largest. Wrapping
//! and truncation are for the program's own values, never for the user's.
//!
//! Scalars handed to the harness are 8 bytes (see [`ElementType::encode_scalar`]).

use crate::expr::Value;
use half::{bf16, f16};
use std::fmt;
use std::str::FromStr;

/// An MLIR element type pld-run can put in an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElementType {
    I1,
    I8,
    I16,
    I32,
    I64,
    /// MLIR's `index`: 8 bytes on the simulator's 64-bit host.
    Index,
    F16,
    BF16,
    F32,
    F64,
}

impl ElementType {
    /// Every type, integers first.
    pub const ALL: [ElementType; 10] = [
        ElementType::I1,
        ElementType::I8,
        ElementType::I16,
        ElementType::I32,
        ElementType::I64,
        ElementType::Index,
        ElementType::F16,
        ElementType::BF16,
        ElementType::F32,
        ElementType::F64,
    ];

    /// Parses the MLIR spelling (`i32`, `index`, `bf16`, ...).
    pub fn from_mlir(name: &str) -> Option<ElementType> {
        ElementType::ALL.into_iter().find(|t| t.mlir_name() == name)
    }

    /// The MLIR spelling, also used in the job file.
    pub fn mlir_name(self) -> &'static str {
        match self {
            ElementType::I1 => "i1",
            ElementType::I8 => "i8",
            ElementType::I16 => "i16",
            ElementType::I32 => "i32",
            ElementType::I64 => "i64",
            ElementType::Index => "index",
            ElementType::F16 => "f16",
            ElementType::BF16 => "bf16",
            ElementType::F32 => "f32",
            ElementType::F64 => "f64",
        }
    }

    /// Bytes per element in memory (`i1` takes a whole byte).
    pub fn size(self) -> usize {
        match self {
            ElementType::I1 | ElementType::I8 => 1,
            ElementType::I16 | ElementType::F16 | ElementType::BF16 => 2,
            ElementType::I32 | ElementType::F32 => 4,
            ElementType::I64 | ElementType::Index | ElementType::F64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            ElementType::F16 | ElementType::BF16 | ElementType::F32 | ElementType::F64
        )
    }

    /// Appends `value` converted to this type, [`size`](Self::size) bytes.
    pub fn encode(self, value: Value, out: &mut Vec<u8>) {
        match value {
            Value::Int(i) => self.encode_int(i128::from(i), out),
            Value::Float(x) => self.encode_float(x, out),
        }
    }

    /// Appends an integer (any i64 or u64, which is why it is an i128)
    /// converted to this type.
    pub fn encode_int(self, i: i128, out: &mut Vec<u8>) {
        // Wrapping to the width keeps the low bytes of two's complement.
        let low = |n: usize, out: &mut Vec<u8>| out.extend_from_slice(&i.to_le_bytes()[..n]);
        match self {
            ElementType::I1 => out.push((i & 1) as u8),
            ElementType::I8
            | ElementType::I16
            | ElementType::I32
            | ElementType::I64
            | ElementType::Index => low(self.size(), out),
            ElementType::F16 => out.extend_from_slice(&f16_from_int(i).to_le_bytes()),
            ElementType::BF16 => out.extend_from_slice(&bf16_from_int(i).to_le_bytes()),
            // Rust's int-to-float `as` rounds to nearest, ties to even.
            ElementType::F32 => out.extend_from_slice(&(i as f32).to_le_bytes()),
            ElementType::F64 => out.extend_from_slice(&(i as f64).to_le_bytes()),
        }
    }

    /// Appends a float converted to this type.
    pub fn encode_float(self, x: f64, out: &mut Vec<u8>) {
        match self {
            ElementType::F16 => out.extend_from_slice(&f16_from_f64(x).to_le_bytes()),
            ElementType::BF16 => out.extend_from_slice(&bf16_from_f64(x).to_le_bytes()),
            ElementType::F32 => out.extend_from_slice(&(x as f32).to_le_bytes()),
            ElementType::F64 => out.extend_from_slice(&x.to_le_bytes()),
            // `as` truncates toward zero, saturates and maps NaN to 0.
            _ => self.encode_int(i128::from(x as i64), out),
        }
    }

    /// Reads one element from the first [`size`](Self::size) bytes of
    /// `bytes`: `Int` for integer types, `Float` for float types.
    ///
    /// Panics if `bytes` is shorter than the element.
    pub fn decode(self, bytes: &[u8]) -> Value {
        let b = &bytes[..self.size()];
        let int = Value::Int;
        match self {
            ElementType::I1 => int(i64::from(b[0] & 1)),
            ElementType::I8 => int(i64::from(b[0] as i8)),
            ElementType::I16 => int(i64::from(i16::from_le_bytes([b[0], b[1]]))),
            ElementType::I32 => int(i64::from(i32::from_le_bytes(to_array(b)))),
            ElementType::I64 | ElementType::Index => int(i64::from_le_bytes(to_array(b))),
            ElementType::F16 => Value::Float(f16_to_f64(u16::from_le_bytes([b[0], b[1]]))),
            ElementType::BF16 => Value::Float(bf16_to_f64(u16::from_le_bytes([b[0], b[1]]))),
            ElementType::F32 => Value::Float(f64::from(f32::from_le_bytes(to_array(b)))),
            ElementType::F64 => Value::Float(f64::from_le_bytes(to_array(b))),
        }
    }

    /// One element as an `f64` (exact for floats and for integers up to
    /// 2^53), for callers that only compare or print magnitudes.
    pub fn decode_f64(self, bytes: &[u8]) -> f64 {
        self.decode(bytes).as_f64()
    }

    /// `value` as this type stores it (rounded to nearest for a float type),
    /// or why the type cannot hold it.
    pub fn represent(self, value: Value) -> Result<Value, RepresentError> {
        if self.is_float() {
            let stored = self.round(value);
            let x = value.as_f64();
            if x.is_finite() && !stored.as_f64().is_finite() {
                return Err(
                    format!("it overflows {self} (its largest is {})", self.largest()).into(),
                );
            }
            return Ok(stored);
        }
        let (low, high) = self.int_range();
        let integer = match value {
            Value::Int(i) => i128::from(i),
            Value::Float(x) if !x.is_finite() => {
                return Err(format!("{self} holds no {}", self.format(value)).into());
            }
            Value::Float(x) if x.fract() != 0.0 => {
                return Err(format!("{self} holds no fraction").into());
            }
            Value::Float(x) if x.abs() >= 2f64.powi(100) => i128::MAX,
            Value::Float(x) => x as i128,
        };
        if integer < low || integer > high {
            return Err(format!("it lies outside {self}'s range [{low}, {high}]").into());
        }
        Ok(Value::Int(integer as i64))
    }

    /// The range of an integer type, read as signed (`i1` as 0 or 1).
    fn int_range(self) -> (i128, i128) {
        match self {
            ElementType::I1 => (0, 1),
            _ => {
                let bits = 8 * self.size() as u32;
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            }
        }
    }

    /// The largest finite value of a float type, as text.
    fn largest(self) -> &'static str {
        match self {
            ElementType::F16 => "65504",
            ElementType::BF16 => "3.3895e38",
            ElementType::F32 => "3.4028235e38",
            _ => "1.7976931348623157e308",
        }
    }

    /// `value` as this type holds it: converted and read back.
    pub fn round(self, value: Value) -> Value {
        let mut bytes = Vec::with_capacity(8);
        self.encode(value, &mut bytes);
        self.decode(&bytes)
    }

    /// A scalar argument as the harness reads it: 8 bytes, little-endian;
    /// integer types as i64 two's complement of the value wrapped to the
    /// width (then sign-extended, `i1` as 0 or 1), float types as the f64
    /// bits of the value already rounded to the type, so that the harness's
    /// own narrowing is exact and this module's rounding is the only one.
    pub fn encode_scalar(self, value: Value) -> [u8; 8] {
        match self.round(value) {
            Value::Int(i) => i.to_le_bytes(),
            Value::Float(x) => x.to_le_bytes(),
        }
    }

    /// Reads back what [`encode_scalar`](Self::encode_scalar) wrote.
    pub fn decode_scalar(self, bytes: [u8; 8]) -> Value {
        if self.is_float() {
            self.round(Value::Float(f64::from_le_bytes(bytes)))
        } else {
            self.round(Value::Int(i64::from_le_bytes(bytes)))
        }
    }

    /// `value` (already of this type) as short readable text: integers in
    /// decimal; floats as the shortest decimal that reads back to the same
    /// value of this type (`0.1` for the f32 nearest 0.1, `0.3333` for the
    /// f16 nearest 1/3), `inf`, `-inf`, `NaN`.
    pub fn format(self, value: Value) -> String {
        let x = match value {
            Value::Int(i) => return i.to_string(),
            Value::Float(x) => x,
        };
        match self {
            ElementType::F32 => format!("{:?}", x as f32),
            ElementType::F16 | ElementType::BF16 if x.is_finite() => {
                let bits = |x: f64| {
                    let mut out = Vec::with_capacity(2);
                    self.encode_float(x, &mut out);
                    out
                };
                let want = bits(x);
                // f16 needs at most 5 significant digits, bf16 at most 4.
                for digits in 1..=17 {
                    let text = format!("{:.*e}", digits - 1, x);
                    let y: f64 = text.parse().expect("formatted f64 parses");
                    if bits(y) == want {
                        return format!("{y:?}");
                    }
                }
                format!("{x:?}")
            }
            _ => format!("{x:?}"),
        }
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mlir_name())
    }
}

/// Why an element type cannot hold a value (`it overflows f16 (its
/// largest is 65504)`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RepresentError(pub String);

impl From<String> for RepresentError {
    fn from(message: String) -> Self {
        RepresentError(message)
    }
}

/// A type name that is not one of the element types.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unsupported element type `{0}` (supported: i1 i8 i16 i32 i64 index f16 bf16 f32 f64)")]
pub struct UnknownElementType(pub String);

impl FromStr for ElementType {
    type Err = UnknownElementType;

    fn from_str(s: &str) -> Result<ElementType, UnknownElementType> {
        ElementType::from_mlir(s).ok_or_else(|| UnknownElementType(s.to_owned()))
    }
}

fn to_array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    bytes[..N].try_into().expect("slice has N bytes")
}

// ---------------------------------------------------------------- f16 and bf16
//
// The `half` crate converts. Widening is exact. Narrowing an f64 is not
// rounded once from the exact value there: `half`'s own code reads only the
// f64's upper 32 bits, so a value a hair above a tie (1 + 2^-11 + 2^-40 in
// f16) rounds as the tie, and on x86 with F16C `f16::from_f64` goes through
// f32, rounding twice. So every value is first rounded to odd at the 21
// significant bits of that upper word (`half` then reads all of it, through
// `from_f64_const`, which never takes the f32 detour): rounding to odd
// keeps in its last bit whether anything was dropped, and with at least
// two more bits than the target's 11 (f16) or 8 (bf16), rounding that to
// nearest gives what rounding the exact value once gives. Integers take
// the same way from their exact value, never through `as f64`, which
// rounds an i64 or u64 to 53 bits first.

/// Significant bits of an f64's upper 32 bits: the implicit 1 and 20
/// fraction bits.
const UPPER_WORD_BITS: u32 = 21;

/// `x` rounded to odd at its upper word: a set bit in the lower 32 bits
/// becomes a set lowest bit of the upper word (infinities have none; a NaN
/// stays a NaN).
fn round_to_odd_f64(x: f64) -> f64 {
    let bits = x.to_bits();
    if bits as u32 == 0 {
        return x;
    }
    f64::from_bits(bits & !0xffff_ffff | 1 << 32)
}

/// An integer (any i64 or u64) rounded to odd at [`UPPER_WORD_BITS`]
/// significant bits, which an f64 holds exactly.
fn round_to_odd_int(i: i128) -> f64 {
    let magnitude = i.unsigned_abs();
    let dropped = (u128::BITS - magnitude.leading_zeros()).saturating_sub(UPPER_WORD_BITS);
    let inexact = magnitude & ((1 << dropped) - 1) != 0;
    let odd = ((magnitude >> dropped) | u128::from(inexact)) as f64 * 2f64.powi(dropped as i32);
    if i < 0 { -odd } else { odd }
}

/// IEEE binary16 bits of `x`, rounded to nearest, ties to even.
pub fn f16_from_f64(x: f64) -> u16 {
    f16::from_f64_const(round_to_odd_f64(x)).to_bits()
}

/// bfloat16 bits of `x`, rounded to nearest, ties to even.
pub fn bf16_from_f64(x: f64) -> u16 {
    bf16::from_f64_const(round_to_odd_f64(x)).to_bits()
}

/// IEEE binary16 bits of an integer, rounded in one step.
pub fn f16_from_int(i: i128) -> u16 {
    f16::from_f64_const(round_to_odd_int(i)).to_bits()
}

/// bfloat16 bits of an integer, rounded in one step.
pub fn bf16_from_int(i: i128) -> u16 {
    bf16::from_f64_const(round_to_odd_int(i)).to_bits()
}

/// The exact value of IEEE binary16 bits.
pub fn f16_to_f64(h: u16) -> f64 {
    f16::from_bits(h).to_f64()
}

/// The exact value of bfloat16 bits.
pub fn bf16_to_f64(h: u16) -> f64 {
    bf16::from_bits(h).to_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(t: ElementType, v: Value) -> Vec<u8> {
        let mut out = Vec::new();
        t.encode(v, &mut out);
        out
    }

    #[test]
    fn names_and_sizes() {
        for t in ElementType::ALL {
            assert_eq!(ElementType::from_mlir(t.mlir_name()), Some(t));
            assert_eq!(t.to_string().parse::<ElementType>(), Ok(t));
        }
        let sizes: Vec<usize> = ElementType::ALL.iter().map(|t| t.size()).collect();
        assert_eq!(sizes, [1, 1, 2, 4, 8, 8, 2, 2, 4, 8]);
        assert_eq!(ElementType::from_mlir("ui8"), None);
        assert!(
            "f128"
                .parse::<ElementType>()
                .unwrap_err()
                .to_string()
                .contains("`f128`")
        );
        assert!(ElementType::BF16.is_float() && !ElementType::Index.is_float());
    }

    #[test]
    fn f16_known_bit_patterns() {
        let cases: &[(f64, u16)] = &[
            (0.0, 0x0000),
            (-0.0, 0x8000),
            (1.0, 0x3c00),
            (-2.0, 0xc000),
            (0.1, 0x2e66),
            (1.0 / 3.0, 0x3555),
            (65504.0, 0x7bff),
            // Below the half-way point to 65536 (which is infinity).
            (65519.0, 0x7bff),
            // Half-way: the tie goes to the even neighbour, infinity.
            (65520.0, 0x7c00),
            (1e6, 0x7c00),
            (-1e300, 0xfc00),
            (f64::INFINITY, 0x7c00),
            (f64::NEG_INFINITY, 0xfc00),
            // Ties to even around 1: 1 + 2^-11 -> 1, 1 + 3*2^-11 -> 1 + 2^-9.
            (1.0 + 2f64.powi(-11), 0x3c00),
            (1.0 + 3.0 * 2f64.powi(-11), 0x3c02),
            (2f64.powi(-14), 0x0400),
            // Subnormals: the smallest, the largest, and ties between them.
            (2f64.powi(-24), 0x0001),
            (1023.0 * 2f64.powi(-24), 0x03ff),
            (2f64.powi(-25), 0x0000),
            (2f64.powi(-25) * 1.000001, 0x0001),
            (3.0 * 2f64.powi(-25), 0x0002),
            (5.0 * 2f64.powi(-25), 0x0002),
            (-(2f64.powi(-24)), 0x8001),
            (1e-300, 0x0000),
            (f64::from_bits(1), 0x0000),
            // The largest subnormal plus half a quantum rounds up to the
            // smallest normal.
            (1023.5 * 2f64.powi(-24), 0x0400),
        ];
        for &(x, want) in cases {
            assert_eq!(f16_from_f64(x), want, "{x:e}: {:#06x}", f16_from_f64(x));
        }
        assert_eq!(f16_from_f64(f64::NAN), 0x7e00);
        assert_eq!(f16_from_f64(-f64::NAN) & 0x8000, 0x8000);
        assert!(f16_to_f64(0x7e00).is_nan());
        assert!(f16_to_f64(0x7c01).is_nan());
        // A signalling NaN's payload stays non-zero and becomes quiet.
        assert_eq!(f16_from_f64(f64::from_bits(0x7ff0_0000_0000_0001)), 0x7e00);
        assert_eq!(f16_to_f64(0x7bff), 65504.0);
        assert_eq!(f16_to_f64(0x0001), 2f64.powi(-24));
        assert_eq!(f16_to_f64(0x8000).to_bits(), (-0.0f64).to_bits());
    }

    #[test]
    fn bf16_known_bit_patterns() {
        let cases: &[(f64, u16)] = &[
            (0.0, 0x0000),
            (-0.0, 0x8000),
            (1.0, 0x3f80),
            (1.0 / 3.0, 0x3eab),
            (std::f64::consts::PI, 0x4049),
            (0.1, 0x3dcd),
            (1.0 + 2f64.powi(-8), 0x3f80),
            (1.0 + 3.0 * 2f64.powi(-8), 0x3f82),
            (f64::from(f32::MAX), 0x7f80),
            (3.3895313892515355e38, 0x7f7f),
            (f64::INFINITY, 0x7f80),
            (2f64.powi(-133), 0x0001),
            (2f64.powi(-134), 0x0000),
            (3.0 * 2f64.powi(-134), 0x0002),
            (2f64.powi(-126), 0x0080),
            (65504.0, 0x4780),
        ];
        for &(x, want) in cases {
            assert_eq!(bf16_from_f64(x), want, "{x:e}: {:#06x}", bf16_from_f64(x));
        }
        assert_eq!(bf16_from_f64(f64::NAN), 0x7fc0);
        assert_eq!(bf16_to_f64(0x3f80), 1.0);
        assert_eq!(bf16_to_f64(0x0001), 2f64.powi(-133));
    }

    #[test]
    fn integers_round_in_one_step() {
        assert_eq!(f16_from_int(2049), 0x6800); // tie between 2048 and 2050 -> 2048
        assert_eq!(f16_from_int(2051), 0x6802); // tie -> 2052
        assert_eq!(f16_from_int(65520), 0x7c00);
        assert_eq!(f16_from_int(-65504), 0xfbff);
        assert_eq!(f16_from_int(i128::from(i64::MIN)), 0xfc00);
        assert_eq!(bf16_from_int(257), 0x4380); // 256
        assert_eq!(bf16_from_int(259), 0x4382); // 260
        assert_eq!(bf16_from_int(i128::from(i64::MAX)), 0x5f00); // 2^63
        assert_eq!(bf16_from_int(i128::from(u64::MAX)), 0x5f80); // 2^64
        // 2^62 + 2^54 + 1 is just above a bf16 tie: going through f64 would
        // round it onto the tie first and then down to 2^62.
        let above_tie = (1i128 << 62) + (1 << 54) + 1;
        assert_eq!(bf16_from_int(above_tie), 0x5e81);
        assert_eq!(bf16_from_f64(above_tie as f64), 0x5e80);
    }

    /// Every finite f16 reads back to itself, and every midpoint between
    /// neighbours rounds to the even one of the two.
    #[test]
    fn exhaustive_round_trips_and_midpoints() {
        for (to, from, max_finite) in [
            (
                f16_to_f64 as fn(u16) -> f64,
                f16_from_f64 as fn(f64) -> u16,
                0x7bffu16,
            ),
            (bf16_to_f64, bf16_from_f64, 0x7f7f),
        ] {
            for h in 0..=max_finite {
                let x = to(h);
                assert_eq!(from(x), h, "{h:#06x}");
                assert_eq!(from(-x), h | 0x8000, "-{h:#06x}");
                // Past the largest finite value, the next step would be
                // one more ulp (2^16 for f16), not infinity.
                let next = if h == max_finite {
                    2.0 * x - to(h - 1)
                } else {
                    to(h + 1)
                };
                let mid = (x + next) / 2.0;
                let even = if h % 2 == 0 { h } else { h + 1 };
                assert_eq!(from(mid), even, "midpoint above {h:#06x}");
                assert_eq!(from(mid.next_down()), h, "below midpoint above {h:#06x}");
                assert_eq!(from(mid.next_up()), h + 1, "above midpoint above {h:#06x}");
            }
        }
    }

    /// bf16 from f32 agrees with the usual bit trick on arbitrary floats.
    #[test]
    fn bf16_matches_the_f32_bit_trick() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let b = (state >> 32) as u32;
            let x = f32::from_bits(b);
            if x.is_nan() {
                continue;
            }
            let trick = ((b + 0x7fff + ((b >> 16) & 1)) >> 16) as u16;
            assert_eq!(bf16_from_f64(f64::from(x)), trick, "{b:#010x}");
        }
    }

    #[test]
    fn integers_wrap_to_the_width() {
        assert_eq!(bytes(ElementType::I8, Value::Int(200)), [200]);
        assert_eq!(ElementType::I8.round(Value::Int(200)), Value::Int(-56));
        assert_eq!(ElementType::I16.round(Value::Int(70000)), Value::Int(4464));
        assert_eq!(
            bytes(ElementType::I32, Value::Int(-2)),
            [0xfe, 0xff, 0xff, 0xff]
        );
        assert_eq!(
            bytes(ElementType::Index, Value::Int(1)),
            [1, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(ElementType::I1.round(Value::Int(2)), Value::Int(0));
        assert_eq!(ElementType::I1.round(Value::Int(-1)), Value::Int(1));
        assert_eq!(ElementType::I1.decode(&[0xff]), Value::Int(1));
        assert_eq!(ElementType::I32.round(Value::Float(-2.9)), Value::Int(-2));
        assert_eq!(
            ElementType::I64.round(Value::Float(1e300)),
            Value::Int(i64::MAX)
        );
        assert_eq!(
            ElementType::I32.round(Value::Float(f64::NAN)),
            Value::Int(0)
        );
        let mut out = Vec::new();
        ElementType::I8.encode_int(i128::from(u64::MAX), &mut out);
        assert_eq!(out, [0xff]);
    }

    #[test]
    fn floats_encode_little_endian() {
        assert_eq!(bytes(ElementType::F16, Value::Float(1.0)), [0x00, 0x3c]);
        assert_eq!(bytes(ElementType::BF16, Value::Int(1)), [0x80, 0x3f]);
        assert_eq!(
            bytes(ElementType::F32, Value::Float(1.0)),
            1f32.to_le_bytes()
        );
        assert_eq!(bytes(ElementType::F64, Value::Int(3)), 3f64.to_le_bytes());
        assert_eq!(
            ElementType::F32.round(Value::Float(0.1)),
            Value::Float(f64::from(0.1f32))
        );
        assert_eq!(
            ElementType::F16.round(Value::Int(70000)),
            Value::Float(f64::INFINITY)
        );
        for t in ElementType::ALL {
            assert_eq!(bytes(t, Value::Int(5)).len(), t.size());
            let want = if t == ElementType::I1 { 1.0 } else { 5.0 };
            assert_eq!(t.decode_f64(&bytes(t, Value::Int(5))), want);
        }
    }

    #[test]
    fn scalars_are_eight_bytes() {
        assert_eq!(
            ElementType::I8.encode_scalar(Value::Int(200)),
            (-56i64).to_le_bytes()
        );
        assert_eq!(
            ElementType::I1.encode_scalar(Value::Int(3)),
            1i64.to_le_bytes()
        );
        assert_eq!(
            ElementType::I32.encode_scalar(Value::Float(7.9)),
            7i64.to_le_bytes()
        );
        assert_eq!(
            ElementType::F16.encode_scalar(Value::Float(1.0 / 3.0)),
            f16_to_f64(0x3555).to_le_bytes()
        );
        assert_eq!(
            ElementType::F64.encode_scalar(Value::Int(2)),
            2f64.to_le_bytes()
        );
        for t in ElementType::ALL {
            let v = t.round(Value::Int(-1));
            assert_eq!(t.decode_scalar(t.encode_scalar(v)), v, "{t}");
        }
    }

    #[test]
    fn format_is_short_and_exact() {
        let f = |t: ElementType, x: f64| t.format(t.round(Value::Float(x)));
        assert_eq!(f(ElementType::F16, 1.0 / 3.0), "0.3333");
        assert_eq!(f(ElementType::F16, 0.1), "0.1");
        assert_eq!(f(ElementType::F16, 65504.0), "65500.0");
        assert_eq!(f(ElementType::F16, 2f64.powi(-24)), "6e-8");
        assert_eq!(f(ElementType::BF16, 1.0 / 3.0), "0.334");
        assert_eq!(f(ElementType::BF16, 3.0), "3.0");
        assert_eq!(f(ElementType::F32, 0.1), "0.1");
        assert_eq!(f(ElementType::F64, 0.1), "0.1");
        assert_eq!(f(ElementType::F16, f64::NEG_INFINITY), "-inf");
        assert_eq!(f(ElementType::BF16, f64::NAN), "NaN");
        assert_eq!(ElementType::I32.format(Value::Int(-7)), "-7");
        // Every f16 prints as text that reads back to it.
        for h in 0..0x7c00u16 {
            let x = f16_to_f64(h);
            let text = ElementType::F16.format(Value::Float(x));
            assert_eq!(f16_from_f64(text.parse().unwrap()), h, "{text}");
        }
    }

    #[test]
    fn represent_refuses_what_a_type_cannot_hold() {
        use ElementType::*;
        let int = Value::Int;
        let float = Value::Float;
        assert_eq!(I32.represent(int(-2147483648)), Ok(int(-2147483648)));
        assert!(
            I32.represent(int(2147483648))
                .unwrap_err()
                .0
                .contains("range")
        );
        assert!(I32.represent(float(4294967296.0)).is_err());
        assert_eq!(I32.represent(float(7.0)), Ok(int(7)));
        assert!(
            I32.represent(float(0.4))
                .unwrap_err()
                .0
                .contains("fraction")
        );
        assert!(I32.represent(float(f64::NAN)).is_err());
        assert!(I32.represent(float(f64::INFINITY)).is_err());
        assert!(I1.represent(int(2)).is_err());
        assert_eq!(I64.represent(int(i64::MIN)), Ok(int(i64::MIN)));
        assert!(I8.represent(int(200)).is_err());
        // Floats round; only a finite value beyond the largest overflows.
        assert_eq!(F16.represent(float(65504.0)), Ok(float(65504.0)));
        assert!(
            F16.represent(float(90000.0))
                .unwrap_err()
                .0
                .contains("65504")
        );
        assert!(F16.represent(int(70000)).is_err());
        assert_eq!(F16.represent(float(0.1)), Ok(F16.round(float(0.1))));
        assert!(F32.represent(float(1e39)).is_err());
        assert!(F32.represent(float(f64::INFINITY)).is_ok());
        assert!(F64.represent(float(f64::NAN)).is_ok());
    }
}
