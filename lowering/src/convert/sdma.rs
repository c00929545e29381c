//! A put or get with `engine sdma`: the SDMA engine copies the region from
//! global memory to global memory (PTO's `TPUT_ASYNC` / `TGET_ASYNC`), so it
//! reaches this pass whole (`pld-expand-transfers` leaves it) and becomes,
//! for each 2-D block of the region, a post and its wait:
//!
//! ```text
//! %s = ascend.sdma_session %workspace, sync_id %id    (once, at the kernel's entry)
//! %e = ascend.tput_async %dst_view, %src_view, session %s
//! ascend.wait_async %e, session %s
//! ```
//!
//! The region's innermost dimension is a view's columns; the dimensions
//! above it are the view's rows as far as they step by whole rows of both
//! tensors (every dimension between them covered whole on both sides), and
//! the rest are looped over. A view whose rows are contiguous on both sides
//! is one post on the device (`device.h`).
//!
//! The session lives in the kernel: a device function, a split-AIV region
//! or a kernel with cube work cannot move data with SDMA yet (an error at
//! the transfer).

use super::ConvertError;
use super::{Kind, buffer::Buffer, signature::FunctionConverter};
use melior::ir::{BlockLike, RegionLike, operation::OperationLike};
use pld_ir::build::ascend::{AscendBuilder, Site};
use pld_ir::{Builder, Ix, OpRef, Val, attributes::put_or_get, build::erase_op};

/// One SDMA transfer, read from its op.
struct Transfer<'c> {
    /// A put (the destination is the peer's), else a get.
    push: bool,
    dst: Buffer<'c>,
    src: Buffer<'c>,
    peer: Ix<'c>,
    dst_offsets: Vec<Ix<'c>>,
    src_offsets: Vec<Ix<'c>>,
    extent: Vec<Ix<'c>>,
    /// The dimensions from here to the second-to-last are a view's rows;
    /// those before it are looped over.
    first_row: usize,
    session: Val<'c>,
}

impl<'c> FunctionConverter<'_, 'c> {
    /// A put or get with `engine sdma`.
    pub(super) fn convert_sdma_transfer(
        &mut self,
        builder: &Builder<'c>,
        op: OpRef<'c>,
        site: Site,
    ) -> Result<(), ConvertError> {
        let transfer = put_or_get(&op).expect("dispatched on transfers");
        let session = self.sdma_session(op, site)?;
        let (push, peer) = (transfer.push, transfer.peer);
        let dst = self.buffer(transfer.dst)?;
        let src = self.buffer(transfer.src)?;
        let rank = dst.dims.len();
        if rank == 0 {
            return Err("a transfer of a 0-D tensor cannot be lowered".into());
        }
        let (dst_offsets, src_offsets, extent) = match transfer.region {
            Some(region) => (region.dst_offsets, region.src_offsets, region.sizes),
            // The whole local slice: the static size where either side has
            // one, else the source's.
            None => (
                vec![Ix::Const(0); rank],
                vec![Ix::Const(0); rank],
                dst.dims
                    .iter()
                    .zip(&src.dims)
                    .map(|(d, s)| if d.constant().is_some() { *d } else { *s })
                    .collect(),
            ),
        };
        // Dimension `dim` is covered whole on both sides: the one above it
        // steps by whole rows.
        let whole = |dim: usize| {
            extent[dim].constant().is_some_and(|size| {
                dst.dims[dim].constant() == Some(size) && src.dims[dim].constant() == Some(size)
            })
        };
        let mut first_row = rank.saturating_sub(2);
        while first_row > 0 && whole(first_row) {
            first_row -= 1;
        }
        let transfer = Transfer {
            push,
            dst,
            src,
            peer: Ix::Dyn(peer),
            dst_offsets,
            src_offsets,
            extent,
            first_row,
            session,
        };
        self.sdma_blocks(builder, &transfer, &mut Vec::new(), site);
        erase_op(op);
        Ok(())
    }

    /// The kernel's SDMA session, built at its entry by the first transfer
    /// that needs it.
    fn sdma_session(&mut self, op: OpRef<'c>, site: Site) -> Result<Val<'c>, ConvertError> {
        if let Some(session) = self.session {
            return Ok(session);
        }
        let Some((workspace, sync_id)) = self.sdma.filter(|_| !self.cube.mixed) else {
            let (here, fix) = match self.function.kind {
                _ if self.cube.mixed => (
                    "a kernel with cube work",
                    "its vector half runs as a device function",
                ),
                Kind::Device => (
                    "a device function or a pl.split_aiv region",
                    "move the transfer to the kernel",
                ),
                Kind::Host => ("host code", "move the transfer to a kernel"),
                Kind::Kernel => ("this function", "move the transfer to a kernel"),
            };
            return Err(format!(
                "'{}' with engine sdma cannot be lowered in {here}: the SDMA session is built \
                 once per kernel, from the workspace the kernel receives, and is not passed to \
                 callees yet ({fix})",
                pld_ir::read::name(op)
            )
            .into());
        };
        let entry = self
            .function
            .op
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
            .and_then(|block| block.first_operation())
            .expect("a kernel with a transfer has a body");
        // SAFETY: see the documentation of `pld_ir`.
        let first: OpRef = unsafe { OpRef::from_raw(entry.to_raw()) };
        let session = Builder::before(first).at(op.location()).sdma_session(
            workspace,
            sync_id,
            self.payload,
            site,
        );
        self.session = Some(session);
        Ok(session)
    }

    /// Loops over the dimensions above the rows, then moves the block at
    /// `outer`.
    fn sdma_blocks(
        &self,
        builder: &Builder<'c>,
        transfer: &Transfer<'c>,
        outer: &mut Vec<Ix<'c>>,
        site: Site,
    ) {
        if outer.len() == transfer.first_row {
            self.sdma_block(builder, transfer, outer, site);
            return;
        }
        builder.for_each_or_once(transfer.extent[outer.len()], |builder, index| {
            let mut outer = outer.clone();
            outer.push(index);
            self.sdma_blocks(builder, transfer, &mut outer, site);
        });
    }

    /// One post of a 2-D block and its wait: the block at `outer` on the
    /// dimensions above the rows.
    fn sdma_block(
        &self,
        builder: &Builder<'c>,
        transfer: &Transfer<'c>,
        outer: &[Ix<'c>],
        site: Site,
    ) {
        let place = |offsets: &[Ix<'c>]| -> Vec<Ix<'c>> {
            offsets
                .iter()
                .enumerate()
                .map(|(dim, offset)| match outer.get(dim) {
                    Some(index) => builder.add(*offset, *index),
                    None => *offset,
                })
                .collect()
        };
        // The looped dimensions are one row's worth of the block.
        let mut extents = vec![Ix::Const(1); transfer.first_row];
        extents.extend_from_slice(&transfer.extent[transfer.first_row..]);
        let peer = Some(transfer.peer);
        let dst = self.region_view(
            builder,
            &transfer.dst,
            &place(&transfer.dst_offsets),
            &extents,
            peer.filter(|_| transfer.push),
            site,
        );
        let src = self.region_view(
            builder,
            &transfer.src,
            &place(&transfer.src_offsets),
            &extents,
            peer.filter(|_| !transfer.push),
            site,
        );
        let event = builder.sdma_transfer(transfer.push, dst, src, transfer.session, site);
        builder.wait_async(event, transfer.session, site);
    }
}
