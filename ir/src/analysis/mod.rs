//! The analyses pld's passes and its Ascend target share.

pub mod facts;
pub mod fold;
pub mod liveness;
pub mod place;
pub mod structure;
