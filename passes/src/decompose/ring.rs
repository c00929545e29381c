//! Ring allreduce (semantics §4): reduce-scatter, then allgather, each rank
//! pulling from its left neighbour `(me - 1 + n) % n`.
//!
//! The stream splits into n segments at `floor(i * L / n)` (for f16 rounded
//! down to 16 elements, one 32-byte block). Reduce-scatter step s = 1..n-1
//! combines segment `(me - s - 1) mod n` with the neighbour's copy, on
//! signal row s - 1; after it rank r holds the full reduction of segment r.
//! Allgather step s copies segment `(me - s) mod n` from the neighbour, on
//! row n - 2 + s. Every step moves its segment in C chunks (C from the
//! largest segment, so that all ranks run the same barriers); chunk c is
//! framed by the barriers "ready" (2c + 1) and "read-complete" (2c + 2) of
//! the step's row. The epilogue subtracts 2C from every row.

use super::{
    credits::{Cells, Credits},
    stream::{Stream, chunk_width},
};
use melior::{dialect::arith::CmpiPredicate, ir::TypeLike};
use pld_dialect::enums::ReduceOp;
use pld_ir::{Builder, Ix, Val, types};

/// What a ring step does with one chunk between its two barriers: given the
/// chunk's offsets and valid shape, the tile to store.
type ChunkStep<'a, 'c> = dyn Fn(&Builder<'c>, &[Ix<'c>], &[Ix<'c>]) -> Val<'c> + 'a;

/// f16 segment boundaries are multiples of this many elements.
const F16_ALIGNMENT: i64 = 16;

pub fn allreduce<'c>(
    builder: &Builder<'c>,
    stream: &Stream<'c>,
    credits: Credits<'c>,
    op: ReduceOp,
    chunk_bytes: i64,
) {
    let element_bytes = types::byte_width(stream.element).expect("a combinable element type");
    let round = stream.element.is_f16();
    let width = chunk_width(stream.len.constant(), element_bytes, chunk_bytes);
    let tile = stream.tile(builder, width);
    let (me, ranks) = (credits.me, credits.ranks);

    // The longest segment decides the chunk count of every step.
    let mut longest = builder.ceil_div(stream.len, ranks);
    if round {
        longest = builder.add(longest, Ix::Const(F16_ALIGNMENT - 1));
    }
    let chunks = builder.ceil_div(longest, Ix::Const(width));
    let left = builder.rem(builder.sub(builder.add(me, ranks), Ix::Const(1)), ranks);

    let bound = |builder: &Builder<'c>, index: Ix<'c>| -> Ix<'c> {
        let at = builder.div(builder.mul(index, stream.len), ranks);
        if !round {
            return at;
        }
        let aligned = builder.mul(
            builder.div(at, Ix::Const(F16_ALIGNMENT)),
            Ix::Const(F16_ALIGNMENT),
        );
        let last = builder.cmp(CmpiPredicate::Eq, index, ranks);
        builder.select(last, stream.len, aligned)
    };
    // Runs `chunk(builder, at, valid)` for every chunk of `segment`, between
    // the ready and read-complete barriers of `row`; the closure returns the
    // tile to store once everybody has read.
    let steps = |builder: &Builder<'c>, segment: Ix<'c>, row: Ix<'c>, chunk: &ChunkStep<'_, 'c>| {
        let start = bound(builder, segment);
        let length = builder.sub(bound(builder, builder.add(segment, Ix::Const(1))), start);
        let row_credits = credits.with_cells(Cells::Row(row));
        builder.for_each(Ix::Const(0), chunks, |builder, c| {
            let into = builder.mul(c, Ix::Const(width));
            let valid = [
                Ix::Const(1),
                builder.clamp_to(builder.sub(length, into), Ix::Const(width)),
            ];
            let at = stream.at(builder, builder.add(start, into));
            let twice = builder.mul(c, Ix::Const(2));
            row_credits.barrier(builder, builder.add(twice, Ix::Const(1)));
            let result = chunk(builder, &at, &valid);
            row_credits.barrier(builder, builder.add(twice, Ix::Const(2)));
            builder.store(result, stream.view, &at, Some(&valid));
        });
    };

    // Reduce-scatter.
    builder.for_each(Ix::Const(1), ranks, |builder, step| {
        let back = builder.add(step, Ix::Const(1));
        let segment = builder.rem(
            builder.sub(builder.add(me, builder.mul(ranks, Ix::Const(2))), back),
            ranks,
        );
        let row = builder.sub(step, Ix::Const(1));
        steps(builder, segment, row, &|builder, at, valid| {
            let local = builder.load(stream.view, at, tile, Some(valid));
            let remote = builder.remote_load(stream.view, left, at, tile, Some(valid));
            builder.combine(op, local, remote)
        });
    });
    // Allgather.
    builder.for_each(Ix::Const(1), ranks, |builder, step| {
        let segment = builder.rem(builder.sub(builder.add(me, ranks), step), ranks);
        let row = builder.add(builder.sub(ranks, Ix::Const(2)), step);
        steps(builder, segment, row, &|builder, at, valid| {
            builder.remote_load(stream.view, left, at, tile, Some(valid))
        });
    });

    // Epilogue: every row ran 2C barriers.
    let rows = builder.mul(builder.sub(ranks, Ix::Const(1)), Ix::Const(2));
    let count = builder.mul(chunks, Ix::Const(2));
    builder.for_each(Ix::Const(0), rows, |builder, row| {
        credits.with_cells(Cells::Row(row)).epilogue(builder, count);
    });
}
