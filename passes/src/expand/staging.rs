//! The staging tile of a transfer: its shape from the written chunking, and
//! the largest shape that fits the unified buffer when that one does not.

/// The 2-D staging tile `[rows, cols]` of a transfer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    pub rows: i64,
    pub cols: i64,
}

/// The written stage: `[min(rows, chunk_rows), min(cols, chunk_cols)]`, a
/// chunk of 0 meaning the full (then static) extent. `None` extents are
/// dynamic; the verifier guarantees a chunk for those.
pub fn written(
    rows: Option<i64>,
    cols: Option<i64>,
    chunk_rows: i64,
    chunk_cols: i64,
) -> Option<Stage> {
    let pick = |extent: Option<i64>, chunk: i64| match (extent, chunk) {
        (Some(extent), 0) => Some(extent),
        (Some(extent), chunk) => Some(extent.min(chunk)),
        (None, 0) => None,
        (None, chunk) => Some(chunk),
    };
    Some(Stage {
        rows: pick(rows, chunk_rows)?,
        cols: pick(cols, chunk_cols)?,
    })
}

/// The bytes a staging tile of `stage` takes in the unified buffer: its rows
/// are padded to whole 32-byte blocks on the target.
pub fn bytes(stage: Stage, element_bytes: i64) -> i64 {
    stage.rows * padded_row_bytes(stage.cols, element_bytes)
}

fn padded_row_bytes(cols: i64, element_bytes: i64) -> i64 {
    (cols * element_bytes + 31) / 32 * 32
}

/// Fits `tiles` staging tiles of `stage` (of `element_bytes` elements) into
/// `ub_bytes`, shrinking the rows first, then the columns (to a multiple of
/// 32 bytes). `None` when not even one 32-byte row fits.
pub fn fit(stage: Stage, element_bytes: i64, tiles: i64, ub_bytes: i64) -> Option<Stage> {
    let per_tile = ub_bytes / tiles;
    let row_bytes = padded_row_bytes(stage.cols, element_bytes);
    if stage.rows * row_bytes <= per_tile {
        return Some(stage);
    }
    if row_bytes <= per_tile {
        return Some(Stage {
            rows: per_tile / row_bytes,
            cols: stage.cols,
        });
    }
    let block = 32 / element_bytes.clamp(1, 32);
    let cols = (per_tile / element_bytes) / block * block;
    (cols > 0).then_some(Stage { rows: 1, cols })
}
