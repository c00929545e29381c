//! The alpha-beta cost model that `allreduce=auto` decides with.
//!
//! A credit barrier costs one signal latency `alpha`; moving a byte into a
//! rank costs `beta`. Mesh: `(1 + C) alpha + (n - 1) S beta` (every rank
//! reads every peer's whole stream). Ring: `4 (n - 1) C' alpha +
//! 2 (n - 1) / n S beta` (2(n-1) steps of C' chunks, two barriers each; the
//! bandwidth lower bound). Small streams favour mesh, large ones the ring.

use super::{mesh, ring};

/// The model's parameters (options `alpha-ns`, `beta-ns-per-byte`, whose
/// defaults, 1000 ns and 0.04 ns/byte, are a ~1 us signal round trip and
/// ~25 GB/s per link).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostModel {
    pub alpha_ns: f64,
    pub beta_ns_per_byte: f64,
}

/// The modelled time of both algorithms, in nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct Costs {
    pub mesh_ns: f64,
    pub ring_ns: f64,
}

impl CostModel {
    /// Both costs of an allreduce of `len` elements over `ranks` ranks.
    pub fn allreduce(
        &self,
        len: i64,
        ranks: i64,
        element_bytes: i64,
        is_f16: bool,
        chunk_bytes: i64,
    ) -> Costs {
        let bytes = (len * element_bytes) as f64;
        let n = ranks as f64;
        let mesh_barriers = mesh::barrier_count(len, element_bytes, chunk_bytes) as f64;
        let ring_barriers =
            ring::barrier_count(len, ranks, element_bytes, is_f16, chunk_bytes) as f64;
        Costs {
            mesh_ns: mesh_barriers * self.alpha_ns + (n - 1.0) * bytes * self.beta_ns_per_byte,
            ring_ns: ring_barriers * self.alpha_ns
                + 2.0 * (n - 1.0) / n * bytes * self.beta_ns_per_byte,
        }
    }
}
