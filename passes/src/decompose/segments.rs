//! A stream split into one segment per rank: segment `i` is
//! `[min(i S, L), min((i + 1) S, L))` with `S = ceil(L / n)` rounded up to a
//! multiple of `A = 32 / element bytes` elements, so that every segment
//! starts on a tile row's 32-byte alignment. Every segment but the last
//! non-empty one has exactly S elements (a few at the end may be empty), so
//! S is also the longest, and all ranks run `ceil(S / W)` chunks for every
//! segment.

use super::stream::Stream;
use pld_ir::{Builder, Ix, ceil_div};

#[derive(Clone, Copy)]
pub struct Segments<'c> {
    /// Where the stream starts in its view.
    base: Ix<'c>,
    pub len: Ix<'c>,
    /// S.
    pub size: Ix<'c>,
}

impl<'c> Segments<'c> {
    /// `stream` split into `ranks` segments.
    pub fn new(
        builder: &Builder<'c>,
        stream: &Stream<'c>,
        ranks: Ix<'c>,
        element_bytes: i64,
    ) -> Self {
        Self {
            base: stream.base,
            ..Self::of_len(builder, stream.len, ranks, element_bytes)
        }
    }

    /// `len` elements from 0 on, split into `ranks` segments.
    pub fn of_len(builder: &Builder<'c>, len: Ix<'c>, ranks: Ix<'c>, element_bytes: i64) -> Self {
        let align = Ix::Const(alignment(element_bytes));
        let share = builder.ceil_div(len, ranks);
        Self {
            base: Ix::Const(0),
            len,
            size: builder.mul(builder.ceil_div(share, align), align),
        }
    }

    /// Segment `index` as (start, length), from the stream's start.
    pub fn segment(&self, builder: &Builder<'c>, index: Ix<'c>) -> (Ix<'c>, Ix<'c>) {
        let start = builder.min(builder.mul(index, self.size), self.len);
        (
            start,
            builder.clamp_to(builder.sub(self.len, start), self.size),
        )
    }

    /// Chunk `chunk` of `width` elements of segment `index`, as the
    /// `[0, column]` of the view it starts at and its valid `[1, elements]`
    /// (0 past the segment's end).
    pub fn chunk(
        &self,
        builder: &Builder<'c>,
        index: Ix<'c>,
        chunk: Ix<'c>,
        width: i64,
    ) -> ([Ix<'c>; 2], [Ix<'c>; 2]) {
        let (start, length) = self.segment(builder, index);
        let into = builder.mul(chunk, Ix::Const(width));
        (
            [
                Ix::Const(0),
                builder.add(self.base, builder.add(start, into)),
            ],
            [
                Ix::Const(1),
                builder.clamp_to(builder.sub(length, into), Ix::Const(width)),
            ],
        )
    }
}

/// Elements per 32 bytes.
fn alignment(element_bytes: i64) -> i64 {
    (32 / element_bytes).max(1)
}

/// The static S, in elements.
pub fn size(len: i64, ranks: i64, element_bytes: i64) -> i64 {
    let align = alignment(element_bytes);
    ceil_div(ceil_div(len, ranks), align) * align
}
