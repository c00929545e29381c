//! A stream split into one segment per rank, at 32-byte-aligned boundaries
//! so that every segment's chunks start on a tile row's alignment: segment
//! `i` is `[b(i), b(i + 1))` with `b(i) = floor(i L / n)` rounded down to a
//! multiple of `A = 32 / element bytes` elements, `b(0) = 0`, `b(n) = L`.
//! Every segment is at most `ceil(L / n) + A - 1` long, so all ranks run
//! the same number of chunks for every segment.

use crate::ir::{Builder, Ix};
use melior::dialect::arith::CmpiPredicate;

#[derive(Clone, Copy)]
pub struct Segments<'c> {
    pub len: Ix<'c>,
    pub ranks: Ix<'c>,
    /// Elements per 32 bytes.
    pub align: i64,
}

impl<'c> Segments<'c> {
    pub fn new(len: Ix<'c>, ranks: Ix<'c>, element_bytes: i64) -> Self {
        Self {
            len,
            ranks,
            align: (32 / element_bytes).max(1),
        }
    }

    /// `b(i)`.
    pub fn bound(&self, builder: &Builder<'c>, index: Ix<'c>) -> Ix<'c> {
        let at = builder.div(builder.mul(index, self.len), self.ranks);
        let aligned = builder.mul(
            builder.div(at, Ix::Const(self.align)),
            Ix::Const(self.align),
        );
        if self.align == 1 {
            return aligned;
        }
        let last = builder.cmp(CmpiPredicate::Eq, index, self.ranks);
        builder.select(last, self.len, aligned)
    }

    /// Segment `index` as (start, length).
    pub fn segment(&self, builder: &Builder<'c>, index: Ix<'c>) -> (Ix<'c>, Ix<'c>) {
        let start = self.bound(builder, index);
        let end = self.bound(builder, builder.add(index, Ix::Const(1)));
        (start, builder.sub(end, start))
    }

    /// A length no segment exceeds.
    pub fn longest(&self, builder: &Builder<'c>) -> Ix<'c> {
        builder.add(
            builder.ceil_div(self.len, self.ranks),
            Ix::Const(self.align - 1),
        )
    }
}

/// The static [`Segments::longest`].
pub fn longest(len: i64, ranks: i64, element_bytes: i64) -> i64 {
    crate::ir::ceil_div(len, ranks) + (32 / element_bytes).max(1) - 1
}
