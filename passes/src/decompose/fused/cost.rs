//! What `auto` weighs for a GEMM fused with communication: the GEMM on the
//! cube cores, and the fused form's communication gated by it (or gating
//! it), in closed form over the machine model (the one `pld-run --timing`
//! charges by); docs/pld-decompose-collectives.md, "GEMMs fused with
//! communication" and the sections after it, lists the formulas. Every rank
//! runs the same schedule, so one rank's is modelled, a peer's events at
//! the times of this rank's matching ones.

use super::{TILE_COLS, TILE_ROWS, Tiling};
use crate::model::Model;
use pld_ir::ceil_div;

/// The K of an L0 step and of an L1 panel of a 128 x 256 f16 or bf16 block
/// on the 910B (half of L0B is 64 x 256 of f16; a panel holds four steps),
/// as the lowering takes them (docs/lowering.md, "The cube").
const STEP_K: i64 = 64;
const PANEL_K: i64 = 4 * STEP_K;

/// One block of the product, `rows` x `cols`, over the whole K: its loads
/// into L1, extractions and products overlap (double buffering), then the
/// last panel's products and the fixpipe's store follow.
pub fn block_ns(model: &Model, tiling: &Tiling, rows: i64, cols: i64) -> f64 {
    let (k, e) = (tiling.k as f64, tiling.input_bytes as f64);
    let loads = k * (rows + cols) as f64 * e / model.l1_load_bytes_per_ns;
    let extracts =
        k * e * (rows as f64 / model.l0a_bytes_per_ns + cols as f64 / model.l0b_bytes_per_ns);
    let repeats = |depth: i64| {
        ceil_div(rows, 16) * ceil_div(depth, 32 / tiling.input_bytes) * ceil_div(cols, 16)
    };
    let steps = ceil_div(tiling.k, STEP_K);
    let products = (6 * steps + repeats(tiling.k)) as f64 / model.cube_cycles_per_ns;
    let last_panel = (6 + repeats(PANEL_K.min(tiling.k))) as f64 / model.cube_cycles_per_ns;
    let store = (rows * cols * tiling.output_bytes) as f64 / model.fixpipe_bytes_per_ns;
    loads.max(extracts).max(products) + last_panel + store
}

/// The extents of tile `t`.
fn extents(tiling: &Tiling, tile: i64) -> (i64, i64) {
    let row = tile / tiling.tiles_across * TILE_ROWS;
    let col = tile % tiling.tiles_across * TILE_COLS;
    (
        tiling.tile_rows.min(tiling.m - row),
        tiling.tile_cols.min(tiling.n - col),
    )
}

/// Cube core b's tile of round r (allreduce.rs, `tile_of`).
fn tile_of(tiling: &Tiling, cores: i64, core: i64, round: i64) -> Option<i64> {
    let tile = round * cores + (core + round) % cores;
    (tile < tiling.tiles).then_some(tile)
}

/// When each tile is published: cube core b computes its tile of each
/// round one after the other.
fn published(model: &Model, tiling: &Tiling, cores: i64) -> Vec<f64> {
    let mut done = vec![0.0; tiling.tiles as usize];
    for core in 0..cores {
        let mut clock = 0.0;
        for round in 0..ceil_div(tiling.tiles, cores) {
            if let Some(tile) = tile_of(tiling, cores, core, round) {
                let (rows, cols) = extents(tiling, tile);
                clock += block_ns(model, tiling, rows, cols);
                done[tile as usize] = clock;
            }
        }
    }
    done
}

/// What one of `lanes` vector cores of a rank pushes to peers at, all
/// pushing at once: a core's own rate, or its share of the rank's ingress
/// (a peer's, by symmetry) or of its links, where those bind.
fn push_rate(model: &Model, ranks: i64, lanes: i64) -> f64 {
    let (n, lanes) = (ranks as f64, lanes as f64);
    model
        .core_push_bytes_per_ns
        .min(model.ingress_bytes_per_ns / lanes)
        .min(model.link_write_bytes_per_ns * (n - 1.0).max(1.0) / lanes)
}

/// The GEMM alone on `cores` cube cores: its busiest core.
pub fn compute_ns(model: &Model, tiling: &Tiling, cores: i64) -> f64 {
    published(model, tiling, cores)
        .into_iter()
        .fold(0.0, f64::max)
}

/// The fused form on `ranks` ranks, its tiles published as the GEMM
/// computes them.
pub fn pipelined_ns(model: &Model, tiling: &Tiling, ranks: i64, cores: i64) -> f64 {
    communication_ns(
        model,
        tiling,
        ranks,
        cores,
        &published(model, tiling, cores),
    )
}

/// When the fused form's communication ends if tile t is published at
/// `ready[t]`, for rank 0 (every rank's schedule is alike): round by
/// round, each of the C lanes reduce-scatters its cube core's tile, then
/// allgathers its items of the round before (allreduce.rs, `Assigned`),
/// each once every rank has added into it. A push goes at one core's rate,
/// or at the lanes' share of the ingress and the links where those bind.
fn communication_ns(model: &Model, tiling: &Tiling, ranks: i64, cores: i64, ready: &[f64]) -> f64 {
    let n = ranks as f64;
    let rate = push_rate(model, ranks, cores);
    let subtile = (tiling.subtile_rows * tiling.tile_cols * tiling.output_bytes) as f64;
    let push = subtile / rate + model.issue_ns;
    let rounds = ceil_div(tiling.tiles, cores);
    // This rank's allgather items, in order: item j stores subtile j / P
    // (of tile (j / P / S) n) into one of the P = n - 1 peers, on lane
    // C - 1 - (j mod C).
    let per = (ranks - 1).max(1);
    let items = ceil_div(tiling.tiles, ranks) * tiling.subtiles * per;
    let owned_tile = |j: i64| j / per / tiling.subtiles * ranks;
    let mut lanes = vec![0.0f64; cores as usize];
    let mut reduced = vec![0.0; tiling.tiles as usize];
    let mut next = 0;
    for round in 0..=rounds {
        // Reduce-scatter: on average (n - 1) / n of a lane's tiles are
        // another rank's, each its subtiles' pushes after the owner's "base
        // stored" hop.
        for (lane, clock) in lanes.iter_mut().enumerate() {
            if let Some(tile) = tile_of(tiling, cores, lane as i64, round) {
                *clock = clock.max(ready[tile as usize] + model.alpha_ns)
                    + tiling.subtiles as f64 * push * (n - 1.0) / n;
                reduced[tile as usize] = *clock + model.alpha_ns;
            }
        }
        // Allgather the items of the round before.
        while next < items && (round == rounds || owned_tile(next) < round * cores) {
            let lane = (cores - 1 - next % cores) as usize;
            let tile = owned_tile(next).min(tiling.tiles - 1);
            lanes[lane] = lanes[lane].max(reduced[tile as usize]) + push;
            next += 1;
        }
    }
    lanes.into_iter().fold(0.0, f64::max) + model.alpha_ns
}

/// The GEMM of `blocks` blocks of rows tiled alike (`tiling` one block)
/// on `cores` cube cores, item j (block `j / T`, tile `j mod T`) on core `j
/// mod C` after the core's earlier ones, `first_core` the core of item 0:
/// when each item is done.
fn blocks_published(
    model: &Model,
    tiling: &Tiling,
    blocks: i64,
    cores: i64,
    first_core: i64,
) -> Vec<f64> {
    let mut clocks = vec![0.0; cores as usize];
    (0..blocks * tiling.tiles)
        .map(|item| {
            let (rows, cols) = extents(tiling, item % tiling.tiles);
            let core = ((item + first_core) % cores) as usize;
            clocks[core] += block_ns(model, tiling, rows, cols);
            clocks[core]
        })
        .collect()
}

/// The GEMM of `ranks` blocks of rows on `cores` cube cores: the busiest
/// core (the unfused forms' GEMM task).
pub fn blocks_compute_ns(model: &Model, tiling: &Tiling, ranks: i64, cores: i64) -> f64 {
    blocks_published(model, tiling, ranks, cores, 0)
        .into_iter()
        .fold(0.0, f64::max)
}

/// Pushing tile `t` of a block at `rate` bytes per ns: its bytes as stored,
/// and an issue per subtile.
fn tile_push_ns(model: &Model, tiling: &Tiling, tile: i64, rate: f64) -> f64 {
    let (rows, cols) = extents(tiling, tile);
    let subtiles = ceil_div(rows, tiling.subtile_rows);
    (rows * cols * tiling.output_bytes) as f64 / rate + subtiles as f64 * model.issue_ns
}

/// matmul_reduce_scatter's fused form on `ranks` ranks: the cube cores
/// compute the own block first, straight into `out`, each tile's base
/// announced a hop later; lane L of 2 C moves the other items cube core L
/// mod C publishes, every other one, in order, each once its base is there
/// too; a tile of the own block is done a hop after the last peer's
/// addition to it (the same tile of each block of the order, on the rank
/// that far behind).
pub fn reduce_scatter_fused_ns(model: &Model, tiling: &Tiling, ranks: i64, cores: i64) -> f64 {
    let tiles = tiling.tiles;
    let published = blocks_published(model, tiling, ranks, cores, 0);
    // The lanes that have tiles to push share the links.
    let rate = push_rate(model, ranks, (2 * cores).min((ranks - 1) * tiles).max(1));
    let mut lanes = vec![0.0f64; (2 * cores) as usize];
    let mut done = published.clone();
    for item in tiles..ranks * tiles {
        let tile = item % tiles;
        let lane = (item % cores + cores * (item / cores % 2)) as usize;
        let start = lanes[lane]
            .max(published[item as usize])
            .max(published[tile as usize] + model.alpha_ns);
        done[item as usize] = start + tile_push_ns(model, tiling, tile, rate);
        lanes[lane] = done[item as usize];
    }
    let gemm = published.iter().copied().fold(0.0, f64::max);
    (0..tiles)
        .map(|tile| {
            (1..ranks)
                .map(|block| done[(block * tiles + tile) as usize] + model.alpha_ns)
                .fold(0.0, f64::max)
        })
        .chain(lanes)
        .fold(gemm, f64::max)
}

/// The time to copy `bytes` within a rank on `cores` vector cores (a load
/// and a store each).
pub fn local_copy_ns(model: &Model, bytes: f64, cores: i64) -> f64 {
    bytes / cores as f64
        * (1.0 / model.local_load_bytes_per_ns + 1.0 / model.local_store_bytes_per_ns)
}

/// allgather_matmul's fused form on `ranks` ranks: lane L of 2 C puts items
/// L, L + 2 C, ... (chunk `j / (n - 1)` to the peer `j mod (n - 1) + 1`
/// behind) once the peers' grants have come (a hop), each arriving a hop
/// after its last byte, then this rank's own chunks locally; the cube cores
/// compute the own tiles, then the peers' in the order they are sent, each
/// once its chunk has arrived.
pub fn allgather_fused_ns(model: &Model, tiling: &Tiling, ranks: i64, cores: i64) -> f64 {
    let chunks = tiling.tile_row_count();
    let peers = ranks - 1;
    // The lanes that have chunks to put share the links.
    let rate = push_rate(model, ranks, (2 * cores).min(peers * chunks).max(1));
    let chunk_bytes = |chunk: i64| {
        ((tiling.tile_rows.min(tiling.m - chunk * TILE_ROWS)) * tiling.k * tiling.input_bytes)
            as f64
    };
    let mut lanes = vec![model.alpha_ns; (2 * cores) as usize];
    let mut arrived = vec![0.0f64; (peers * chunks) as usize];
    for item in 0..(peers + 1) * chunks {
        let lane = (item % (2 * cores)) as usize;
        if item < peers * chunks {
            let bytes = chunk_bytes(item / peers);
            lanes[lane] += bytes / rate + ceil_div(bytes as i64, 32768) as f64 * model.issue_ns;
            arrived[item as usize] = lanes[lane] + model.alpha_ns;
        } else {
            lanes[lane] += local_copy_ns(model, chunk_bytes(item - peers * chunks), 1);
        }
    }
    let mut clocks: Vec<f64> = blocks_published(model, tiling, 1, cores, 0)
        .into_iter()
        .enumerate()
        .fold(vec![0.0; cores as usize], |mut clocks, (tile, done)| {
            clocks[tile % cores as usize] = done;
            clocks
        });
    for remote in 0..peers * tiling.tiles {
        let core = ((tiling.tiles + remote) % cores) as usize;
        let row = remote / tiling.tiles_across;
        let (chunk, k) = (row / peers, row % peers);
        let tile = chunk * tiling.tiles_across + remote % tiling.tiles_across;
        let (rows, cols) = extents(tiling, tile);
        let start = clocks[core].max(arrived[(chunk * peers + k) as usize]);
        clocks[core] = start + block_ns(model, tiling, rows, cols);
    }
    clocks.into_iter().chain(lanes).fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// gemm_ar's tile (128 x 256, K = 6144, f16 in and out) models where
    /// the simulator puts it (test/Execution/cube.test: 34.7 us).
    #[test]
    fn a_gemm_ar_block() {
        let tiling = Tiling::new(5416, 6144, 1408, 2, 2);
        let ns = block_ns(&Model::ascend_910b(), &tiling, 128, 256);
        assert!((34_000.0..35_500.0).contains(&ns), "{ns}");
    }

    /// The fused form's communication once the GEMM is done (the vendor's
    /// "sequential").
    fn sequential_ns(model: &Model, tiling: &Tiling, ranks: i64, cores: i64) -> f64 {
        let compute = compute_ns(model, tiling, cores);
        let ready = vec![compute; tiling.tiles as usize];
        communication_ns(model, tiling, ranks, cores, &ready)
    }

    /// Fusing pays off where there are tiles to overlap (gemm_ar's shape:
    /// the vendor measured 1.443x), not where one tile row, computed in one
    /// round, is all there is: then the communication follows the GEMM as
    /// in sequence.
    #[test]
    fn fusion_wins_large_and_loses_small() {
        let model = Model::ascend_910b();
        let large = Tiling::new(5416, 6144, 1408, 2, 2);
        let small = Tiling::new(128, 6144, 1408, 2, 2);
        assert!(pipelined_ns(&model, &large, 8, 24) * 1.443 < sequential_ns(&model, &large, 8, 24));
        let (pipelined, sequential) = (
            pipelined_ns(&model, &small, 8, 24),
            sequential_ns(&model, &small, 8, 24),
        );
        assert!(pipelined > sequential * 0.95, "{pipelined} {sequential}");
    }

    /// pto-isa's allgather_gemm (README.md, "Measured Performance", fp16 in,
    /// fp32 out, its default 20 compute blocks) on 8 ranks: M = 8192 and
    /// 16384, K = N = 4096, measured 1439 and 2585 us; the fused form models
    /// within 5% of both.
    #[test]
    fn allgather_gemm_as_measured() {
        let model = Model::ascend_910b();
        for (rows, measured) in [(1024, 1439.0), (2048, 2585.0)] {
            let tiling = Tiling::new(rows, 4096, 4096, 2, 4);
            let us = allgather_fused_ns(&model, &tiling, 8, 20) / 1000.0;
            assert!((us / measured - 1.0).abs() < 0.05, "{rows}: {us} us");
        }
    }

    /// matmul_reduce_scatter's pushes hide behind a deep GEMM (the fused
    /// form within a tenth of the GEMM alone) but not behind one tile per
    /// block (each tile's push by one core takes longer than the GEMM).
    #[test]
    fn reduce_scatter_hides_behind_a_deep_gemm() {
        let model = Model::ascend_910b();
        let deep = Tiling::new(128, 8192, 4096, 2, 2);
        let fused = reduce_scatter_fused_ns(&model, &deep, 8, 24);
        assert!(
            fused < blocks_compute_ns(&model, &deep, 8, 24) * 1.1,
            "{fused}"
        );
        let shallow = Tiling::new(128, 64, 256, 2, 2);
        let fused = reduce_scatter_fused_ns(&model, &shallow, 8, 24);
        assert!(
            fused > blocks_compute_ns(&model, &shallow, 8, 24) * 4.0,
            "{fused}"
        );
    }
}
