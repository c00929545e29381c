//! The closed-form costs `auto` decides with, over the machine model of
//! `pld_passes::model` (the one `pld-run --timing` charges ops by).
//!
//! A rank's time is charged for what is on its critical path: a barrier is
//! one signal hop plus issuing its notifies and waits; `k` pulls in flight
//! on distinct links take the longer of one link's time and the rank's
//! ingress cap; combining and local loads and stores go at their rates;
//! the seed algorithms pull one peer after the other and wait at a barrier
//! per chunk. docs/pld-decompose-collectives.md lists every formula.

use super::{Collective, pull};
use crate::model::Model;
use pld_dialect::enums::CollectiveAlgorithm;
use pld_ir::ceil_div;

/// What a collective moves, and in which chunks each algorithm moves it.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// n.
    pub ranks: i64,
    /// S: the stream (allreduce, broadcast) or one row (the row
    /// collectives), in bytes.
    pub bytes: i64,
    /// Bytes per chunk of the seed algorithms (`chunk-bytes`).
    pub seed_chunk: i64,
    /// Bytes per chunk of the algorithm being costed (sized to the unified
    /// buffer).
    pub chunk: i64,
    pub element_bytes: i64,
    /// An allgather's `local` is in the window: `direct` reads it there,
    /// with no copy and barrier to publish it first.
    pub local_in_window: bool,
    /// The faster algorithms' barriers are counted: one wait each.
    pub counters: bool,
    /// The vector cores of every rank that run the collective, each on its
    /// part of `bytes` (which is one part's).
    pub cores: i64,
}

/// The bytes of the longest segment of `algorithm`: `ceil(S / n)`, and for
/// the seed's ring on f16 up to 15 elements more (its boundaries are
/// rounded down to 16 elements), for the others rounded up to 32 bytes.
fn longest_segment(
    algorithm: CollectiveAlgorithm,
    bytes: i64,
    ranks: i64,
    element_bytes: i64,
) -> i64 {
    let share = ceil_div(bytes.max(1), ranks.max(1));
    match algorithm {
        CollectiveAlgorithm::SeedRing if element_bytes == 2 => share + 30,
        CollectiveAlgorithm::SeedRing => share,
        _ => ceil_div(share, 32) * 32,
    }
}

/// The model's charges, for n ranks.
struct Charges<'m> {
    model: &'m Model,
    n: f64,
    counters: bool,
}

impl Charges<'_> {
    /// A credit barrier: one signal hop and n - 1 notifies (a wait on a
    /// value that has arrived costs nothing; on counters, the self-notify
    /// travels with the hop).
    fn barrier(&self) -> f64 {
        self.model.alpha_ns + (self.n - 1.0) * self.model.issue_ns
    }

    /// The epilogue of a call of the seed's algorithms: a self-notify per
    /// peer cell.
    fn seed_epilogue(&self) -> f64 {
        self.issue(self.n - 1.0)
    }

    /// What pulling in arrival order saves one unrolled chunk on counters
    /// (docs/pld-decompose-collectives.md): all pulls but the last go out
    /// while the later announcements still travel.
    fn in_turn(&self) -> f64 {
        if self.counters {
            self.issue(self.n - 2.0)
        } else {
            0.0
        }
    }

    /// The epilogue of a call of the faster algorithms: as the seed's, but
    /// none on counters.
    fn epilogue(&self) -> f64 {
        if self.counters {
            0.0
        } else {
            self.seed_epilogue()
        }
    }

    /// Issuing `count` notifies or waits.
    fn issue(&self, count: f64) -> f64 {
        count * self.model.issue_ns
    }

    /// `k` pulls of `w` bytes on distinct links, issued by one core: its
    /// load engine moves them one after the other at a core's remote rate,
    /// and they share the rank's ingress.
    fn pull(&self, k: f64, w: f64) -> f64 {
        if k <= 0.0 {
            return 0.0;
        }
        self.link(w)
            .max(k * w / self.model.ingress_bytes_per_ns)
            .max(k * w / self.model.core_pull_bytes_per_ns)
    }

    /// One pull of `w` bytes, alone: the slower of the link and the core.
    fn link(&self, w: f64) -> f64 {
        w / self
            .model
            .link_bytes_per_ns
            .min(self.model.core_pull_bytes_per_ns)
    }

    /// A push of `w` bytes into a peer: the slower of the link and the core.
    fn push(&self, w: f64) -> f64 {
        w / self
            .model
            .link_write_bytes_per_ns
            .min(self.model.core_push_bytes_per_ns)
    }

    /// A load of `w` bytes from the core's own memory (MTE2).
    fn load(&self, w: f64) -> f64 {
        w / self.model.local_load_bytes_per_ns
    }

    /// A store of `w` bytes into the core's own memory (MTE3).
    fn store(&self, w: f64) -> f64 {
        w / self.model.local_store_bytes_per_ns
    }

    /// A load and a store of `w` bytes.
    fn copy(&self, w: f64) -> f64 {
        self.load(w) + self.store(w)
    }

    /// `k` combinations of `w`-byte tiles.
    fn combine(&self, k: f64, w: f64) -> f64 {
        k * w / self.model.combine_bytes_per_ns
    }

    /// Combining the n chunks of `w` bytes of a reduction: n - 1
    /// combinations, each at least its issuing.
    fn combined(&self, w: f64) -> f64 {
        (self.n - 1.0) * (w / self.model.combine_bytes_per_ns).max(self.model.issue_ns)
    }

    /// Issuing one chunk of a parallel pull: a load or pull and a
    /// combination or store per rank, and the chunk's bookkeeping.
    fn chunk_issue(&self) -> f64 {
        self.issue(2.0 * self.n + 2.0)
    }

    /// A reduction in `count` chunks of `w` bytes: the own chunk loaded and
    /// every peer's pulled at once, combined in rank order and stored. The
    /// first chunk pays issuing its pulls, the pulls, combinations and store
    /// in turn; each later one the longest of its pulls, its combinations
    /// and its issuing, since its pulls go out as the combinations of the
    /// chunk before free their tiles. That start costs the pipeline half a
    /// chunk's combinations once.
    fn reduction(&self, count: f64, w: f64) -> f64 {
        let pull = self.pull(self.n - 1.0, w);
        let combine = self.combined(w);
        let later = count - 1.0;
        self.issue(self.n - 1.0)
            + pull
            + combine
            + self.store(w)
            + later * pull.max(combine).max(self.chunk_issue())
            + later.min(1.0) * combine / 2.0
    }

    /// [`Self::reduction`] whose every reduced chunk is also pushed into
    /// every peer (at the link's write rate).
    fn reduction_push(&self, count: f64, w: f64) -> f64 {
        let peers = self.n - 1.0;
        let pull = self.pull(peers, w);
        let combine = self.combined(w);
        // One core's store engine pushes the chunk to every peer in turn.
        let push = (peers * self.push(w)).max(peers * w / self.model.ingress_bytes_per_ns);
        let later = count - 1.0;
        // The chunks do not overlap their phases as the model of the
        // pulls alone would have them: measured, a later chunk costs one
        // pull, its pushes and its combinations in turn.
        let issue = self.issue(3.0 * self.n + 1.0);
        self.issue(2.0 * peers)
            + pull
            + combine
            + push
            + later * (self.link(w) + push + combine).max(issue)
    }

    /// A gather in `count` chunks of `w` bytes that stores `rows` rows: the
    /// first chunk pays issuing its pulls, the pulls, then its stores; each
    /// later one the longest of its pulls, its stores and its issuing. A
    /// later chunk's pulls wait for the first store of the chunk before to
    /// free a tile, which costs the pipeline one store once.
    fn gather(&self, count: f64, w: f64, rows: f64) -> f64 {
        let pull = self.pull(self.n - 1.0, w);
        let stores = rows * self.store(w);
        let later = count - 1.0;
        self.issue(self.n - 1.0)
            + pull
            + stores
            + later * pull.max(stores).max(self.chunk_issue())
            + later.min(1.0) * self.store(w)
    }
}

/// `S` bytes in chunks of at most `chunk`: how many, and their mean size.
fn chunks(bytes: i64, chunk: i64) -> (f64, f64) {
    let count = ceil_div(bytes.max(1), chunk.max(1)).max(1);
    (count as f64, bytes.max(1) as f64 / count as f64)
}

/// The modelled time of `algorithm` running `collective` on `case`, in ns.
pub fn cost(
    model: &Model,
    collective: Collective,
    algorithm: CollectiveAlgorithm,
    case: &Case,
) -> f64 {
    use CollectiveAlgorithm as A;
    // C cores run the algorithm side by side, each on its part: each has a
    // C-th of every link and of the rank's ingress, and its own engines.
    let shared = |rate: f64| rate / case.cores.max(1) as f64;
    let model = &Model {
        link_bytes_per_ns: shared(model.link_bytes_per_ns),
        link_write_bytes_per_ns: shared(model.link_write_bytes_per_ns),
        ingress_bytes_per_ns: shared(model.ingress_bytes_per_ns),
        ..*model
    };
    let c = Charges {
        model,
        n: case.ranks as f64,
        counters: case.counters,
    };
    let n = c.n;
    let peers = n - 1.0;
    let s = case.bytes as f64;
    let segment = longest_segment(algorithm, case.bytes, case.ranks, case.element_bytes);
    match (collective, algorithm) {
        (Collective::Allreduce, A::SeedMesh) | (Collective::ReduceScatter, A::Seed) => {
            let (count, w) = chunks(case.bytes, case.seed_chunk);
            (1.0 + count) * c.barrier()
                + count * (c.copy(w) + peers * c.link(w) + c.combine(peers, w) + c.chunk_issue())
                + c.seed_epilogue()
        }
        (Collective::Allreduce, A::SeedRing) => {
            let (count, w) = chunks(segment, case.seed_chunk);
            4.0 * peers * count * c.barrier()
                + peers * count * (2.0 * c.link(w) + c.combine(1.0, w) + c.copy(w) + c.store(w))
                + c.seed_epilogue()
        }
        (Collective::Allreduce, A::Oneshot) if chunks(case.bytes, case.chunk).0 == 1.0 => {
            // One chunk: the own load travels with the entry barrier's
            // announcements, "read" is announced once the pulls landed and
            // the combinations run during its hop; the store follows it.
            let w = case.bytes.max(1) as f64;
            c.barrier()
                + c.pull(peers, w).max(c.issue(peers))
                + c.issue(peers + 1.0)
                + model.alpha_ns
                + c.issue(1.0)
                + c.store(w)
                + c.epilogue()
        }
        (Collective::Allreduce, A::Oneshot) => {
            let (count, w) = chunks(case.bytes, case.chunk);
            // Per chunk: the pulls, the combinations, the own load and a
            // store, the announcements and the waits for them.
            let per_chunk =
                c.pull(peers, w) + c.combine(peers, w) + c.copy(w) + c.issue(2.0 * peers);
            // The wait for a chunk's announcements comes one chunk later:
            // it costs only what the next chunk's work does not hide, but
            // the last one's hop is on the path.
            c.barrier()
                + count * per_chunk
                + (count - 1.0) * (model.alpha_ns - per_chunk).max(0.0)
                + model.alpha_ns
                + c.issue(peers)
        }
        (Collective::Allreduce, A::Twoshot) => {
            let (count, w) = chunks(segment, case.chunk);
            // No flag per chunk, so each phase pipelines its chunks.
            3.0 * c.barrier() + c.reduction(count, w) + c.gather(count, w, peers) + c.epilogue()
        }
        (Collective::Allreduce, A::TwoshotPush) => {
            let (count, w) = chunks(segment, case.chunk);
            2.0 * c.barrier() + c.reduction_push(count, w) + c.epilogue()
        }
        (Collective::Allreduce, A::OneshotEpoch) => {
            // The copy into the workspace row, one flag hop (its notifies
            // and waits), then the reduction from the peers' rows.
            let (count, w) = chunks(case.bytes, case.chunk);
            count * c.copy(w) + c.barrier() + c.issue(peers) + c.reduction(count, w)
        }
        (Collective::Allreduce, A::TwoshotEpoch) => {
            // Two flag hops around the reduce-scatter (whose chunks are
            // also stored into the workspace row), then the allgather.
            let (count, w) = chunks(segment, case.chunk);
            2.0 * (c.barrier() + c.issue(peers))
                + c.reduction(count, w)
                + count * c.store(w)
                + c.gather(count, w, peers)
        }
        (Collective::ReduceScatter, A::Direct) => {
            let (count, w) = chunks(case.bytes, case.chunk);
            // One chunk, pulled at once: the exit goes out once the pulls
            // landed, and the combinations run during its hop.
            let hidden = if count == 1.0 && case.ranks <= pull::MAX_UNROLLED {
                c.combined(w) + c.in_turn()
            } else {
                0.0
            };
            2.0 * c.barrier() + c.reduction(count, w) - hidden + c.epilogue()
        }
        (Collective::Allgather, A::Direct) if !case.local_in_window => {
            let (count, w) = chunks(case.bytes, case.chunk);
            // The private `local` is published first, through two tiles
            // (ping/pong).
            let copy = count * c.load(w).max(c.store(w)) + c.store(w);
            3.0 * c.barrier() + copy + c.gather(count, w, peers) + c.epilogue()
        }
        (Collective::Allgather, A::Direct) | (Collective::AllToAll, A::Direct) => {
            let (count, w) = chunks(case.bytes, case.chunk);
            // The own chunk is loaded beside the pulls and stored with them.
            let hidden = if count == 1.0 && case.ranks <= pull::MAX_UNROLLED {
                c.in_turn()
            } else {
                0.0
            };
            2.0 * c.barrier() + c.gather(count, w, n) - hidden + c.epilogue()
        }
        (Collective::Allgather | Collective::AllToAll | Collective::AllToAllV, A::Seed) => {
            // One put after the other, each staged through one tile (and
            // for all_to_all_v a count read and set beside it).
            let counts = if collective == Collective::AllToAllV {
                c.issue(2.0 * n)
            } else {
                0.0
            };
            2.0 * c.barrier()
                + peers * (c.load(s) + c.push(s))
                + c.copy(s)
                + c.chunk_issue()
                + counts
                + c.seed_epilogue()
        }
        (Collective::Broadcast, A::Seed) => {
            2.0 * c.barrier() + c.link(s) + c.store(s) + c.seed_epilogue()
        }
        (Collective::Broadcast, A::Star) => {
            // Ping/pong: each store hides behind the next pull.
            let (_, w) = chunks(case.bytes, case.seed_chunk);
            2.0 * c.barrier() + c.link(s) + c.store(w) + c.epilogue()
        }
        (Collective::Broadcast, A::ScatterAllgather) => {
            let (count, w) = chunks(segment, case.chunk);
            // The scatter goes through one tile: a pull, then its store.
            let scatter = c.link(w) + c.store(w);
            let gather = c.pull(peers, w).max(peers * c.store(w));
            3.0 * c.barrier() + count * (scatter + gather) + c.store(w) + c.epilogue()
        }
        _ => f64::INFINITY,
    }
}
