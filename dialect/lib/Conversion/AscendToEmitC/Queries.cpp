//===- Queries.cpp - context, ids and addresses as runtime calls ----------===//
//
// The CommContext's fields, the core's ids, and pointers and views into
// global memory. Each is a plain call of `pld::rt`: an accessor of the
// CommContext (rank, nranks), a CCE intrinsic (`get_block_idx()`,
// `get_subblockid()`) or the task runtime's (`get_block_idx(payload)`,
// `get_sub_block_id(payload)`), or pointer arithmetic on the device, the
// simulator's world on the host.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Patterns.h"

using namespace mlir;
using namespace pld::ascend;
using namespace pld::ascend::detail;

void pld::ascend::populateQueryPatterns(TypeConverter &converter,
                                        RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<PlainCall<RankOp>>(converter, context, "pld::rt::rank");
  patterns.add<PlainCall<NranksOp>>(converter, context, "pld::rt::nranks");
  patterns.add<PlainCall<WorldSizeOp>>(converter, context,
                                       "pld::rt::world_size");
  patterns.add<PlainCall<BlockIdxOp>>(converter, context, "pld::rt::block_idx");
  patterns.add<PlainCall<SubblockIdxOp>>(converter, context,
                                         "pld::rt::subblock_idx");
  patterns.add<PlainCall<NoPayloadOp>>(converter, context,
                                       "pld::rt::no_payload");
  patterns.add<PlainCall<OffsetOp>>(converter, context, "pld::rt::offset");
  // The simulator traps, naming the site, on a peer outside the world or a
  // local pointer outside this rank's window.
  patterns.add<PlainCall<PeerPtrOp>>(converter, context, "pld::rt::peer_ptr",
                                     /*withSite=*/true);
  // The tensor a view lies in, when the op names one, is two more operands:
  // it only serves the simulator's bounds check.
  patterns.add<PlainCall<ViewOp>>(converter, context, "pld::rt::view");
}
