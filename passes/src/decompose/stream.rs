//! A collective's target seen as one `[1, L]` stream of elements (or one
//! core's contiguous part of it), and the width of the chunks that stream
//! moves in.

use melior::ir::{Type, ValueLike};
use pld_ir::{Builder, Ix, Val, ceil_div, types};

/// A window tensor viewed as `[1, L]`: the `len` elements from column
/// `base` on (all of it, or one core's part).
pub struct Stream<'c> {
    pub view: Val<'c>,
    pub base: Ix<'c>,
    pub len: Ix<'c>,
    /// At most this many elements, where that is static (a core's part of
    /// a static stream has a dynamic length but a static bound).
    pub bound: Option<i64>,
    pub element: Type<'c>,
}

impl<'c> Stream<'c> {
    /// Views `target` as `[1, L]`, reshaping it unless it already is one row.
    pub fn of(builder: &Builder<'c>, target: Val<'c>) -> Self {
        let shape = types::shape(target.r#type()).expect("a collective target is shaped");
        let element = types::element_type(target.r#type()).expect("a collective target is shaped");
        if shape.len() == 2 && shape[0] == 1 {
            let len = builder.dim(target, 1);
            return Self {
                view: target,
                base: Ix::Const(0),
                len,
                bound: len.constant(),
                element,
            };
        }
        let len = (0..shape.len()).fold(Ix::Const(1), |len, dim| {
            builder.mul(len, builder.dim(target, dim))
        });
        let static_len = len.constant().unwrap_or(types::DYNAMIC);
        let row =
            pld_dialect::types::distributed_tensor(builder.context, &[1, static_len], element)
                .expect("a [1, L] view of a valid tensor is valid");
        let dynamic: Vec<Val> = match len.constant() {
            Some(_) => vec![],
            None => vec![builder.value(len)],
        };
        Self {
            view: builder.reshape(target, row, &dynamic),
            base: Ix::Const(0),
            len,
            bound: len.constant(),
            element,
        }
    }

    /// The `[1, len]` row of `target` (an `[N, len]` tensor), whole.
    pub fn row(builder: &Builder<'c>, target: Val<'c>) -> Self {
        let len = builder.dim(target, 1);
        Self {
            view: target,
            base: Ix::Const(0),
            len,
            bound: len.constant(),
            element: types::element_type(target.r#type()).expect("a shaped target"),
        }
    }

    /// How many chunks of `width` elements cover the stream: a constant 1
    /// where the static bound fits one chunk (a non-empty part of a core,
    /// whatever its length), so that one-chunk forms apply.
    pub fn chunks(&self, builder: &Builder<'c>, width: i64) -> Ix<'c> {
        match self.bound {
            Some(bound) if bound <= width => Ix::Const(1),
            _ => builder.ceil_div(self.len, Ix::Const(width)),
        }
    }

    /// Part `block` of `cores` of the stream: the stream split into `cores`
    /// parts as [`super::segments::Segments`] splits it over ranks (32-byte
    /// aligned, every part but the last non-empty one of the same length).
    /// The caller runs only non-empty parts.
    pub fn part(self, builder: &Builder<'c>, block: Ix<'c>, cores: i64) -> Self {
        let element_bytes = types::byte_width(self.element).expect("a sized element type");
        let parts =
            super::segments::Segments::of_len(builder, self.len, Ix::Const(cores), element_bytes);
        let (start, len) = parts.segment(builder, block);
        let bound = self
            .bound
            .map(|bound| super::segments::size(bound, cores, element_bytes));
        Self {
            base: builder.add(self.base, start),
            len,
            bound,
            ..self
        }
    }

    /// Where element `offset` of the stream is in its view.
    pub fn at(&self, builder: &Builder<'c>, offset: Ix<'c>) -> [Ix<'c>; 2] {
        [Ix::Const(0), builder.add(self.base, offset)]
    }

    /// The `[1, width]` tile that carries one chunk.
    pub fn tile(&self, builder: &Builder<'c>, width: i64) -> Type<'c> {
        pld_dialect::types::tile(builder.context, &[1, width], self.element)
            .expect("a positive chunk width makes a valid tile")
    }

    /// How many elements of the stream chunk `offset` covers, at most `width`
    /// (a ragged tail, or nothing past the end).
    pub fn valid(&self, builder: &Builder<'c>, offset: Ix<'c>, width: i64) -> Ix<'c> {
        builder.chunk_extent(self.len, offset, width)
    }

    /// Chunk `chunk` of `width` elements: where it starts in the view and
    /// its valid `[1, elements]`.
    pub fn chunk(
        &self,
        builder: &Builder<'c>,
        chunk: Ix<'c>,
        width: i64,
    ) -> ([Ix<'c>; 2], [Ix<'c>; 2]) {
        let offset = builder.mul(chunk, Ix::Const(width));
        (
            self.at(builder, offset),
            [Ix::Const(1), self.valid(builder, offset, width)],
        )
    }
}

/// The chunk width in elements: `chunk_bytes` worth, or for a short static
/// stream the smallest 32-byte-aligned width that covers it.
pub fn chunk_width(len: Option<i64>, element_bytes: i64, chunk_bytes: i64) -> i64 {
    let full = chunk_bytes / element_bytes;
    match len {
        Some(len) if len * element_bytes <= chunk_bytes => {
            ceil_div(len * element_bytes, 32) * 32 / element_bytes
        }
        _ => full,
    }
}

/// The chunk width in elements of an algorithm that keeps `tiles` chunk
/// tiles live at once: the widest 32-byte multiple for which they all fit
/// `ub_bytes`, or for a short static stream the smallest one that covers it.
/// `None` when not even 32-byte chunks fit.
pub fn ub_chunk_width(
    len: Option<i64>,
    element_bytes: i64,
    ub_bytes: i64,
    tiles: i64,
) -> Option<i64> {
    let bytes = ub_bytes.max(0) / tiles / 32 * 32;
    (bytes >= 32).then(|| chunk_width(len, element_bytes, bytes))
}
