//! Accesses outside their memory, judged by value: a region or a signal
//! cell whose offsets are computed (`%half = arith.constant 32`, `%r + 1`
//! with a known `%r`) and leave the tensor's static shape. The op
//! verifiers check the offsets written as literals; these are the ones
//! they cannot see. Every op is read through its ODS interfaces
//! (`pld_dialect::interfaces`).

use crate::verify::declarations::{Declaration, Declarations};
use melior::ir::{Value, ValueLike, operation::OperationRef};
use pld_dialect::interfaces::Index;
use pld_ir::pass::report::Report;
use pld_ir::types;

/// The known value of an index entry.
fn known(index: &Index) -> Option<i64> {
    match index {
        Index::Constant(value) => Some(*value),
        Index::Value(value) => pld_ir::analysis::facts::constant_int(*value),
        Index::Unknown => None,
    }
}

fn interval(offset: i64, size: i64) -> String {
    format!("[{offset}, {})", offset + size)
}

/// Checks one region of `memory` against its static shape.
fn check_region(
    op: &OperationRef,
    memory: Value,
    offsets: &[Index],
    sizes: &[Index],
    what: &str,
    report: &mut Report,
) {
    let Some(shape) = types::shape(memory.r#type()) else {
        return;
    };
    if shape.len() != offsets.len() || offsets.len() != sizes.len() {
        return;
    }
    let mut known_region = Vec::with_capacity(shape.len());
    let mut outside = false;
    for ((dim, offset), size) in shape.iter().zip(offsets).zip(sizes) {
        let (Some(offset), Some(size)) = (known(offset), known(size)) else {
            return;
        };
        outside |= offset < 0 || (*dim != types::DYNAMIC && offset + size > *dim);
        known_region.push((offset, size));
    }
    // Put into words only for the error: this runs for every access.
    if outside {
        let region: Vec<String> = known_region.iter().map(|(o, s)| interval(*o, *s)).collect();
        let cell: Vec<String> = known_region.iter().map(|(o, _)| o.to_string()).collect();
        let place = if what == "cell" {
            format!("[{}]", cell.join(", "))
        } else {
            region.join(" x ")
        };
        let shape_text: Vec<String> = shape
            .iter()
            .map(|d| {
                if *d == types::DYNAMIC {
                    "?".to_owned()
                } else {
                    d.to_string()
                }
            })
            .collect();
        report.error(
            op,
            &format!(
                "{what} {place} lies outside {} of shape [{}]",
                if what == "cell" {
                    "its signal"
                } else {
                    "the tensor it accesses"
                },
                shape_text.join(", ")
            ),
            &[],
        );
    }
}

pub fn check<'c, 'a>(
    ops: &[OperationRef<'c, 'a>],
    declared: &mut Declarations<'c, 'a>,
    report: &mut Report,
) {
    for op in ops {
        let declaration = declared.of(op);
        if let Declaration::Accesses(accesses) = &declaration {
            for access in accesses.iter() {
                if let Some((offsets, sizes)) = &access.region {
                    check_region(op, access.memory, offsets, sizes, "the region", report);
                }
            }
        } else if let Declaration::Signal(signal) = &declaration {
            let ones = vec![Index::Constant(1); signal.cell.len()];
            check_region(op, signal.signal, &signal.cell, &ones, "cell", report);
        }
    }
}
