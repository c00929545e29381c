//! Which algorithm each collective runs: the op's `algorithm`, else the
//! pass option where the collective has that algorithm, else `auto`, which
//! compares the candidates' modelled costs (`cost.rs`) for the op's static
//! rank count and size. Where the size is dynamic the two algorithms that
//! win at the small and the large end are both emitted, behind a runtime
//! branch on the size at their modelled crossover.

use super::{
    Collective, CollectiveAttributes,
    cost::{self, Case},
    pull,
    stream::{chunk_width, ub_chunk_width},
};
use crate::model::Model;
use melior::ir::ValueLike;
use pld_dialect::{enums::CollectiveAlgorithm, interfaces};
use pld_ir::{OpRef, ceil_div, types};

/// The rank count `auto` models where the signal's is dynamic: one node.
pub const ASSUMED_RANKS: i64 = 8;

/// How many times the fewest chunks that fit the unified buffer a chunk
/// loop may be split into when that is faster.
const MORE_CHUNKS: i64 = 8;

/// A wider chunk is preferred to a narrower one it costs at most this many
/// times as much as.
const WIDER_WITHIN: f64 = 1.02;

/// What an algorithm is given to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    One(CollectiveAlgorithm),
    /// `small` while the stream (or row) has at most `up_to` elements,
    /// `large` above.
    BySize {
        small: CollectiveAlgorithm,
        large: CollectiveAlgorithm,
        up_to: i64,
    },
}

/// The static facts of a collective that the choice depends on.
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    pub collective: Collective,
    pub element_bytes: i64,
    /// The rank count the signal is shaped for.
    pub ranks: Option<i64>,
    /// Elements of the stream (allreduce, broadcast) or of one row; on
    /// several cores, of one core's part.
    pub len: Option<i64>,
    /// Unified-buffer bytes the surrounding code's tiles hold across the
    /// collective.
    pub reserved: i64,
    /// An allgather's `local` is in the window (a distributed tensor), so
    /// peers can read it where it is.
    pub local_in_window: bool,
    /// The signal is a mesh signal `[N, 2]` (`[N, 2 C]` on C cores): the
    /// faster algorithms count their barriers on its second column
    /// (`credits::Credits::phase`).
    pub counters: bool,
    /// The vector cores of every rank the collective runs on (`core_num`).
    pub cores: i64,
    /// An allreduce with an `epoch` (and workspace): it runs the epoch
    /// algorithms, and only those.
    pub epoch: bool,
}

fn known(value: i64) -> Option<i64> {
    (value != types::DYNAMIC).then_some(value)
}

impl Facts {
    pub fn of(op: OpRef, collective: Collective, operands: &super::CollectiveOperands) -> Self {
        let signal = types::shape(operands.signal.r#type()).expect("a shaped signal");
        let attributes = CollectiveAttributes::of(op);
        let (ring, cores) = (attributes.ring, attributes.cores);
        let ranks = known(if ring { signal[1] } else { signal[0] });
        let (element_bytes, len) = match collective {
            Collective::Barrier => (1, Some(0)),
            _ => {
                let target = operands.target().r#type();
                let shape = types::shape(target).expect("a shaped target");
                let element = types::element_type(target).expect("a shaped target");
                let len = match collective {
                    Collective::Allreduce | Collective::Broadcast => shape
                        .iter()
                        .try_fold(1, |len, dim| known(*dim).map(|dim| len * dim)),
                    _ => known(shape[1]),
                };
                let element_bytes = types::byte_width(element).unwrap_or(1);
                // A core's part (`Stream::part`): the largest of `cores`.
                let len = len.map(|len| match cores {
                    1 => len,
                    _ => super::segments::size(len, cores, element_bytes),
                });
                (element_bytes, len)
            }
        };
        Self {
            collective,
            element_bytes,
            ranks,
            len,
            reserved: super::live::bytes_live_across(op),
            local_in_window: collective == Collective::Allgather
                && !types::is_memref(operands.local().r#type()),
            counters: !ring && signal.len() == 2 && signal[1] == 2 * cores,
            cores,
            epoch: operands.epoch.is_some(),
        }
    }

    /// The elements each chunk loop of `algorithm` covers: the stream, a
    /// row, or the longest segment.
    fn covered(&self, algorithm: CollectiveAlgorithm) -> Option<i64> {
        match algorithm {
            CollectiveAlgorithm::Twoshot
            | CollectiveAlgorithm::TwoshotPush
            | CollectiveAlgorithm::TwoshotEpoch
            | CollectiveAlgorithm::ScatterAllgather => {
                let (len, ranks) = (self.len?, self.ranks?);
                Some(super::segments::size(len, ranks, self.element_bytes))
            }
            _ => self.len,
        }
    }
}

/// The chunk tiles `algorithm` keeps live at once (0 for the seed's, which
/// stage two chunk tiles of `chunk-bytes`).
fn tiles(facts: &Facts, algorithm: CollectiveAlgorithm, unrolled: Option<i64>) -> i64 {
    use CollectiveAlgorithm as A;
    let collective = facts.collective;
    match algorithm {
        // The placeholder the chunk loop starts from, and the copy of the
        // result it carries (ascend-plan-ub copies a carried tile that the
        // next iteration's loads may overwrite: with one rank, the result
        // is this rank's own chunk).
        A::Oneshot => pull::reduce_tiles(unrolled) + 2,
        A::Twoshot | A::TwoshotEpoch => {
            pull::reduce_tiles(unrolled).max(pull::gather_tiles(unrolled))
        }
        A::OneshotEpoch => pull::reduce_tiles(unrolled),
        A::TwoshotPush => pull::reduce_tiles(unrolled),
        A::Direct if collective == Collective::ReduceScatter => pull::reduce_tiles(unrolled),
        // all_to_all, and an allgather whose `local` is in the window, load
        // their own row beside the pulls.
        A::Direct if collective == Collective::AllToAll || facts.local_in_window => {
            pull::gather_tiles(unrolled) + 1
        }
        A::Direct | A::ScatterAllgather => pull::gather_tiles(unrolled),
        _ => 0,
    }
}

/// The pass's sizing and model.
pub struct Chooser<'a> {
    pub chunk_bytes: i64,
    pub ub_bytes: i64,
    pub option: CollectiveAlgorithm,
    pub model: &'a Model,
}

/// What the pass decided for an op, and what it has to say about it.
pub struct Decision {
    pub choice: Choice,
    pub remark: Option<String>,
}

impl Chooser<'_> {
    /// The chunk width in elements `algorithm` runs `facts` with: of the
    /// widths that fit the unified buffer and split what a chunk loop
    /// covers evenly, the one the model finds fastest.
    /// The seed's algorithms keep their `chunk-bytes`.
    pub fn width(&self, facts: &Facts, algorithm: CollectiveAlgorithm) -> Result<i64, String> {
        let tiles = tiles(facts, algorithm, pull::unrolled(facts.ranks));
        if tiles == 0 {
            return Ok(chunk_width(
                facts.len,
                facts.element_bytes,
                self.chunk_bytes,
            ));
        }
        let widest = self.widest(facts, algorithm, tiles)?;
        Ok(self.fastest_width(facts, algorithm, widest))
    }

    /// Whether `algorithm`'s chunk tiles fit the unified buffer at all.
    fn fits(&self, facts: &Facts, algorithm: CollectiveAlgorithm) -> Result<(), String> {
        match tiles(facts, algorithm, pull::unrolled(facts.ranks)) {
            0 => Ok(()),
            tiles => self.widest(facts, algorithm, tiles).map(|_| ()),
        }
    }

    /// The widest chunk in elements for which `algorithm`'s `tiles` chunk
    /// tiles fit the unified buffer.
    fn widest(
        &self,
        facts: &Facts,
        algorithm: CollectiveAlgorithm,
        tiles: i64,
    ) -> Result<i64, String> {
        ub_chunk_width(
            facts.covered(algorithm),
            facts.element_bytes,
            self.ub_bytes - facts.reserved,
            tiles,
        )
        .ok_or_else(|| {
            format!(
                "pld-decompose-collectives: algorithm {} keeps {tiles} chunk tiles live{}, which \
                 {} bytes of unified buffer (ub-bytes){} cannot hold at 32 bytes each",
                algorithm.keyword(),
                facts
                    .ranks
                    .map_or(String::new(), |ranks| format!(" for {ranks} ranks")),
                self.ub_bytes,
                if facts.reserved > 0 {
                    format!(
                        " less the {} bytes of tiles live across the collective",
                        facts.reserved
                    )
                } else {
                    String::new()
                }
            )
        })
    }

    /// Where the elements a chunk loop covers are static, the even split
    /// into between the fewest chunks that fit (`widest`) and
    /// `MORE_CHUNKS` times as many whose modelled cost is least, or the
    /// widest within `WIDER_WITHIN` of it. More chunks pipeline: the
    /// transfers of one overlap the stores or combinations of the one
    /// before, at the price of issuing more instructions.
    fn fastest_width(&self, facts: &Facts, algorithm: CollectiveAlgorithm, widest: i64) -> i64 {
        let (Some(covered), Some(len)) = (facts.covered(algorithm), facts.len) else {
            return widest;
        };
        let ranks = facts.ranks.unwrap_or(ASSUMED_RANKS);
        let fewest = ceil_div(covered, widest);
        // An even split is a segmentation: `count` shares, 32-byte aligned.
        let mut widths: Vec<i64> = (fewest..=fewest * MORE_CHUNKS)
            .map(|count| super::segments::size(covered, count, facts.element_bytes))
            .collect();
        widths.dedup();
        let costs: Vec<f64> = widths
            .iter()
            .map(|width| self.cost_with(facts, algorithm, ranks, len, *width))
            .collect();
        let fastest = costs.iter().copied().fold(f64::INFINITY, f64::min);
        // The model charges a transfer by its bytes alone, while on the
        // device a wide one moves faster than a narrow one
        // (docs/performance.md): so the widest within 2% of the fastest.
        widths
            .into_iter()
            .zip(costs)
            .find(|(_, cost)| *cost <= fastest * WIDER_WITHIN)
            .map(|(width, _)| width)
            .expect("at least the widest")
    }

    /// The algorithm `op` runs, or why it cannot run the one it asks for.
    pub fn decide(&self, op: OpRef, facts: &Facts) -> Result<Decision, String> {
        let algorithms = interfaces::collective_algorithms(&op);
        // The pass option applies where the op has that algorithm and
        // runs the epoch algorithms exactly when it has an epoch.
        let option_applies =
            algorithms.contains(&self.option) && is_epoch_algorithm(self.option) == facts.epoch;
        let requested = CollectiveAttributes::of(op)
            .algorithm
            .unwrap_or(if option_applies {
                self.option
            } else {
                CollectiveAlgorithm::Auto
            });
        if algorithms.is_empty() {
            return Ok(Decision {
                choice: Choice::One(CollectiveAlgorithm::Auto),
                remark: None,
            });
        }
        if requested != CollectiveAlgorithm::Auto {
            if let Some(problem) = interfaces::algorithm_signal_problem(&op, requested) {
                return Err(format!("pld-decompose-collectives: {problem}"));
            }
            let algorithm = resolve(op, requested);
            self.fits(facts, algorithm)?;
            return Ok(Decision {
                choice: Choice::One(algorithm),
                remark: None,
            });
        }
        // On several cores, the algorithms that run on one core's part.
        let weighed = match facts.cores {
            1 => algorithms,
            _ => interfaces::partitioned_algorithms(&op),
        };
        let candidates: Vec<CollectiveAlgorithm> = weighed
            .into_iter()
            .filter(|algorithm| is_candidate(facts.collective, *algorithm))
            .filter(|algorithm| interfaces::algorithm_signal_problem(&op, *algorithm).is_none())
            .filter(|algorithm| self.fits(facts, *algorithm).is_ok())
            .collect();
        Ok(self.auto(facts, &candidates))
    }

    /// The modelled cost of `algorithm` on `facts` with a stream (or row)
    /// of `len` elements over `ranks` ranks.
    fn cost(&self, facts: &Facts, algorithm: CollectiveAlgorithm, ranks: i64, len: i64) -> f64 {
        let width = self.width(facts, algorithm).expect("a candidate fits");
        self.cost_with(facts, algorithm, ranks, len, width)
    }

    /// The same, in chunks of `width` elements.
    fn cost_with(
        &self,
        facts: &Facts,
        algorithm: CollectiveAlgorithm,
        ranks: i64,
        len: i64,
        width: i64,
    ) -> f64 {
        let element_bytes = facts.element_bytes;
        let seed_width = chunk_width(Some(len), element_bytes, self.chunk_bytes);
        let case = Case {
            ranks,
            bytes: len * element_bytes,
            seed_chunk: seed_width * element_bytes,
            chunk: width * element_bytes,
            element_bytes,
            local_in_window: facts.local_in_window,
            counters: facts.counters,
            cores: facts.cores,
        };
        cost::cost(self.model, facts.collective, algorithm, &case)
    }

    /// The cheapest of `candidates` on `facts` (static rank count and
    /// size) and its modelled cost in ns.
    pub fn cheapest(
        &self,
        facts: &Facts,
        candidates: &[CollectiveAlgorithm],
    ) -> (CollectiveAlgorithm, f64) {
        let (ranks, len) = (facts.ranks.unwrap_or(ASSUMED_RANKS), facts.len.unwrap_or(0));
        candidates
            .iter()
            .filter(|algorithm| self.fits(facts, **algorithm).is_ok())
            .map(|algorithm| (*algorithm, self.cost(facts, *algorithm, ranks, len)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("some candidate fits")
    }

    fn auto(&self, facts: &Facts, candidates: &[CollectiveAlgorithm]) -> Decision {
        let ranks = facts.ranks.unwrap_or(ASSUMED_RANKS);
        let ranks_text = match facts.ranks {
            Some(ranks) => format!("{ranks} ranks"),
            None => format!("{ranks} ranks (assumed: the rank count is dynamic)"),
        };
        let name = facts.collective.name();
        let ranks_text = match facts.cores {
            1 => ranks_text,
            cores => format!("{ranks_text} on {cores} cores each"),
        };
        let per_core = if facts.cores > 1 { " per core" } else { "" };
        let best = |len: i64| {
            *candidates
                .iter()
                .min_by(|a, b| {
                    self.cost(facts, **a, ranks, len)
                        .total_cmp(&self.cost(facts, **b, ranks, len))
                })
                .expect("every collective has a candidate")
        };
        if let Some(len) = facts.len {
            // Each candidate's cost once: it weighs chunk widths of its own.
            let costs: Vec<(CollectiveAlgorithm, f64)> = candidates
                .iter()
                .map(|algorithm| (*algorithm, self.cost(facts, *algorithm, ranks, len)))
                .collect();
            let (chosen, _) = *costs
                .iter()
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .expect("every collective has a candidate");
            let costs: Vec<String> = costs
                .iter()
                .map(|(algorithm, cost)| format!("{} {:.2} us", algorithm.keyword(), cost / 1000.0))
                .collect();
            return Decision {
                choice: Choice::One(chosen),
                remark: Some(format!(
                    "{name} auto: {} for {ranks_text} x {} bytes{per_core} (modelled {})",
                    chosen.keyword(),
                    len * facts.element_bytes,
                    costs.join(", ")
                )),
            };
        }
        // A dynamic size: the winners at either end of 32 bytes .. 1 GiB,
        // and the largest size at which the small end's still wins.
        let smallest = (32 / facts.element_bytes).max(1);
        let largest = (1 << 30) / facts.element_bytes;
        let (small, large) = (best(smallest), best(largest));
        if small == large {
            return Decision {
                choice: Choice::One(small),
                remark: Some(format!(
                    "{name} auto: {} at every size (the size is dynamic), for {ranks_text}",
                    small.keyword()
                )),
            };
        }
        let wins =
            |len: i64| self.cost(facts, small, ranks, len) <= self.cost(facts, large, ranks, len);
        let (mut low, mut high) = (smallest, largest);
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            if wins(middle) {
                low = middle;
            } else {
                high = middle;
            }
        }
        Decision {
            choice: Choice::BySize {
                small,
                large,
                up_to: low,
            },
            remark: Some(format!(
                "{name} auto: {} up to {} bytes, {} above, chosen at run time (the size is \
                 dynamic), for {ranks_text}",
                small.keyword(),
                low * facts.element_bytes,
                large.keyword()
            )),
        }
    }
}

/// Whether `auto` weighs `algorithm` for `collective`: every algorithm but
/// `auto` itself and the allreduce's aliases (`seed` and `ring` name
/// `seed_mesh` or `seed_ring`).
fn is_candidate(collective: Collective, algorithm: CollectiveAlgorithm) -> bool {
    use CollectiveAlgorithm as A;
    match algorithm {
        A::Auto => false,
        A::Seed | A::Ring => collective != Collective::Allreduce,
        _ => true,
    }
}

/// Whether `algorithm` is one of an allreduce's epoch algorithms.
pub fn is_epoch_algorithm(algorithm: CollectiveAlgorithm) -> bool {
    matches!(
        algorithm,
        CollectiveAlgorithm::OneshotEpoch | CollectiveAlgorithm::TwoshotEpoch
    )
}

/// The algorithm an alias stands for: an allreduce's `seed` is the seed
/// algorithm of its signal's mode; `ring` is the seed's ring.
fn resolve(op: OpRef, algorithm: CollectiveAlgorithm) -> CollectiveAlgorithm {
    let collective = Collective::of(op).expect("a collective");
    match (collective, algorithm) {
        (Collective::Allreduce, CollectiveAlgorithm::Seed) => {
            if CollectiveAttributes::of(op).ring {
                CollectiveAlgorithm::SeedRing
            } else {
                CollectiveAlgorithm::SeedMesh
            }
        }
        (Collective::Allreduce, CollectiveAlgorithm::Ring) => CollectiveAlgorithm::SeedRing,
        _ => algorithm,
    }
}
