//! Integer arithmetic on known values, as `arith`'s folders do it but
//! without touching the IR: what a computed value is when its operands are
//! known (or when it is known whatever they are, as x - x is 0). The module's
//! value facts supply operands that flow through regions and calls.

use crate::read as ir;
use melior::dialect::arith::CmpiPredicate;
use melior::ir::{
    Type, TypeLike, Value, ValueLike,
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::ops::arith;

/// `value` wrapped to the signed range of a `width`-bit integer.
fn wrap(value: i128, width: u32) -> i64 {
    if width >= 64 {
        return value as i64;
    }
    let shift = 128 - width;
    ((value << shift) >> shift) as i64
}

/// The bit width of an integer or index type (index is 64 bits).
fn width(r#type: Type) -> Option<u32> {
    if r#type.is_index() {
        return Some(64);
    }
    // SAFETY: the width is only read from a confirmed integer type.
    unsafe {
        mlir_sys::mlirTypeIsAInteger(r#type.to_raw())
            .then(|| mlir_sys::mlirIntegerTypeGetWidth(r#type.to_raw()))
    }
}

fn unsigned(value: i64, width: u32) -> u128 {
    if width >= 64 {
        value as u64 as u128
    } else {
        (value as u64 & ((1u64 << width) - 1)) as u128
    }
}

/// The predicate an `arith.cmpi` attribute value stands for (melior's
/// enum is `repr(i64)` in MLIR's order).
fn predicate_of(value: i64) -> Option<CmpiPredicate> {
    use CmpiPredicate::*;
    [Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge]
        .into_iter()
        .find(|predicate| *predicate as i64 == value)
}

/// The predicate of `op`, when it is an `arith.cmpi`.
pub fn cmpi_predicate(op: &OperationRef) -> Option<CmpiPredicate> {
    let predicate = IntegerAttribute::try_from(arith::CmpIOp::get_predicate(op)?).ok()?;
    predicate_of(predicate.value())
}

/// `predicate(a, b)` on `width`-bit integers.
fn compare(predicate: CmpiPredicate, a: i64, b: i64, width: u32) -> bool {
    let (ua, ub) = (unsigned(a, width), unsigned(b, width));
    match predicate {
        CmpiPredicate::Eq => a == b,
        CmpiPredicate::Ne => a != b,
        CmpiPredicate::Slt => a < b,
        CmpiPredicate::Sle => a <= b,
        CmpiPredicate::Sgt => a > b,
        CmpiPredicate::Sge => a >= b,
        CmpiPredicate::Ult => ua < ub,
        CmpiPredicate::Ule => ua <= ub,
        CmpiPredicate::Ugt => ua > ub,
        CmpiPredicate::Uge => ua >= ub,
    }
}

/// The value `op`'s single result has, given `known` for its operands.
pub fn fold(op: &OperationRef, known: impl Fn(Value) -> Option<i64>) -> Option<i64> {
    let result = op.result(0).ok()?;
    let bits = width(result.r#type())?;
    let operand = |index: usize| ir::operand_at(op, index);
    let value = |index: usize| operand(index).and_then(&known);
    let same = || operand(0).is_some() && operand(0) == operand(1);
    let name = ir::name(op);
    let folded: i128 = match name {
        arith::ConstantOp::NAME => {
            return IntegerAttribute::try_from(arith::ConstantOp::get_value(op)?)
                .ok()
                .map(|attribute| attribute.signed_value());
        }
        // Known whatever the operands are.
        arith::SubIOp::NAME | arith::XOrIOp::NAME if same() => 0,
        arith::MulIOp::NAME | arith::AndIOp::NAME if value(0) == Some(0) || value(1) == Some(0) => {
            0
        }
        arith::SelectOp::NAME => {
            return match value(0) {
                Some(0) => value(2),
                Some(_) => value(1),
                None => value(1).filter(|then| value(2) == Some(*then)),
            };
        }
        arith::IndexCastOp::NAME | arith::ExtSIOp::NAME | arith::TruncIOp::NAME => {
            value(0)? as i128
        }
        arith::IndexCastUIOp::NAME | arith::ExtUIOp::NAME => {
            let source = width(operand(0)?.r#type())?;
            unsigned(value(0)?, source) as i128
        }
        arith::CmpIOp::NAME => {
            let source = width(operand(0)?.r#type())?;
            compare(cmpi_predicate(op)?, value(0)?, value(1)?, source) as i128
        }
        _ => {
            let (a, b) = (value(0)? as i128, value(1)? as i128);
            let (ua, ub) = (unsigned(a as i64, bits), unsigned(b as i64, bits));
            match name {
                arith::AddIOp::NAME => a + b,
                arith::SubIOp::NAME => a - b,
                arith::MulIOp::NAME => a * b,
                arith::AndIOp::NAME => a & b,
                arith::OrIOp::NAME => a | b,
                arith::XOrIOp::NAME => a ^ b,
                arith::MinSIOp::NAME => a.min(b),
                arith::MaxSIOp::NAME => a.max(b),
                arith::MinUIOp::NAME => ua.min(ub) as i128,
                arith::MaxUIOp::NAME => ua.max(ub) as i128,
                arith::DivSIOp::NAME if b != 0 => a / b,
                arith::RemSIOp::NAME if b != 0 => a % b,
                arith::DivUIOp::NAME if ub != 0 => (ua / ub) as i128,
                arith::RemUIOp::NAME if ub != 0 => (ua % ub) as i128,
                arith::CeilDivSIOp::NAME if b != 0 => {
                    let quotient = a / b;
                    quotient + i128::from(a % b != 0 && (a < 0) == (b < 0))
                }
                arith::FloorDivSIOp::NAME if b != 0 => {
                    let quotient = a / b;
                    quotient - i128::from(a % b != 0 && (a < 0) != (b < 0))
                }
                arith::ShLIOp::NAME if (0..bits as i128).contains(&b) => a << b,
                arith::ShRSIOp::NAME if (0..bits as i128).contains(&b) => a >> b,
                arith::ShRUIOp::NAME if (0..bits as i128).contains(&b) => (ua >> b) as i128,
                _ => return None,
            }
        }
    };
    Some(wrap(folded, bits))
}

#[cfg(test)]
mod tests {
    use super::{compare, predicate_of, wrap};
    use melior::dialect::arith::CmpiPredicate;

    #[test]
    fn wraps_to_the_width() {
        assert_eq!(wrap(i128::from(i32::MAX) + 1, 32), i64::from(i32::MIN));
        assert_eq!(wrap(255, 8), -1);
        assert_eq!(wrap(-1, 64), -1);
    }

    #[test]
    fn unsigned_predicates_see_the_bits() {
        // -1 as i32 is the largest unsigned value.
        assert!(compare(CmpiPredicate::Ugt, -1, 1, 32));
        assert!(!compare(CmpiPredicate::Sgt, -1, 1, 32));
    }

    #[test]
    fn predicates_have_mlir_values() {
        // arith.cmpi's `ugt` is 8 in MLIR's ArithBase.td; 10 is none.
        assert_eq!(predicate_of(8), Some(CmpiPredicate::Ugt));
        assert_eq!(predicate_of(10), None);
    }
}
