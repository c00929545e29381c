//! Maps keyed by IR handles. Passes key ops and values by their pointer
//! (`to_raw().ptr as usize`); std's SipHash resists adversarial keys these
//! keys cannot be, at several times the cost, and hashing showed up as a
//! tenth of the lowering's run time. Pointers are already unique: one
//! multiplication spreads their bits.

use std::{
    collections::{HashMap, HashSet},
    hash::{BuildHasherDefault, Hasher},
};

/// A hasher for pointer-sized keys (Fibonacci hashing).
#[derive(Default, Clone, Copy)]
pub struct PtrHasher(u64);

impl Hasher for PtrHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Keys other than integers (tuples hash their parts one by one).
        for byte in bytes {
            self.write_u64(u64::from(*byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}

/// A map keyed by IR handles (pointers).
pub type PtrMap<K, V> = HashMap<K, V, BuildHasherDefault<PtrHasher>>;
/// A set of IR handles (pointers).
pub type PtrSet<K> = HashSet<K, BuildHasherDefault<PtrHasher>>;
