//! Keys of IR handles, and maps keyed by them. An op or a value is keyed by
//! its pointer ([`OpKey`], [`ValueKey`]: typed, so that an op's key is never
//! looked up among values'); std's SipHash resists adversarial keys these
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

/// The identity of a live op (its pointer): equal for two handles of the
/// same op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpKey(usize);

/// The identity of a live value (its pointer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueKey(usize);

impl OpKey {
    /// The key of `op`.
    pub fn of<'c>(op: impl crate::read::OpHandle<'c>) -> Self {
        OpKey(op.raw_op().ptr as usize)
    }
}

impl ValueKey {
    /// The key of `value`.
    pub fn of<'c>(value: impl melior::ir::ValueLike<'c>) -> Self {
        ValueKey(value.to_raw().ptr as usize)
    }
}
