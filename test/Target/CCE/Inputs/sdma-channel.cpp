//===- sdma-channel.cpp - The SDMA channel of a task's kernel per AIV lane ===//
//
// Calls the kernel of the task in `KERNEL` (an emitted file, compiled for
// the device against the PTO stub) on both AIV cores of cluster 3 as the
// task runtime dispatches them (hw-native-sys/simpler @6ebaf77,
// src/a2a3/runtime/tensormap_and_ringbuffer/common/intrinsic.h): the lane
// is in the core's GlobalContext (args[49], lines 104-110 and 180-184); the
// register `get_subblockid()` reads 0 on both lanes under the runtime's
// mixed dispatch (lines 52-67); `get_block_idx()` is the cluster the
// runtime's own launch gave the core. Prints the channel each lane's
// session posts on, which the stub's BuildAsyncSession keeps and the
// transfer's wait reads.
//
//===----------------------------------------------------------------------===//

#include KERNEL

#include <cstdio>

namespace {
constexpr int32_t kCluster = 3;
int32_t g_lane = 0;
} // namespace

// The registers: the launch's cluster, a mixed launch, a stale lane.
int64_t get_block_idx() { return kCluster; }
int64_t get_subblockdim() { return 2; }
int64_t get_subblockid() { return 0; }

namespace {
// The field of the runtime's context that get_sub_block_id reads.
struct GlobalContext {
  int32_t sub_block_id;
};
constexpr int kGlobalContextIndex = 49;
} // namespace

int32_t get_sub_block_id(int64_t *args) {
  return reinterpret_cast<GlobalContext *>(args[kGlobalContextIndex])
      ->sub_block_id;
}

// The stub declares the global tensors the transfer posts; nothing here
// reads them.
template <int64_t S1, int64_t S2, int64_t S3, int64_t S4, int64_t S5>
template <typename... Extents>
pto::Shape<S1, S2, S3, S4, S5>::Shape(Extents...) {}
template <int64_t S1, int64_t S2, int64_t S3, int64_t S4, int64_t S5>
template <typename... Strides>
pto::Stride<S1, S2, S3, S4, S5>::Stride(Strides...) {}
template <typename Element, typename Shape, typename Stride, pto::Layout L>
pto::GlobalTensor<Element, Shape, Stride, L>::GlobalTensor(DType *,
                                                           const Shape &,
                                                           const Stride &) {}

bool pto::comm::AsyncEvent::Wait(const AsyncSession &session) const {
  std::printf("lane %d: channel %u\n", g_lane, session.channelGroupIdx);
  return true;
}

int main() {
  float window[2][64] = {};
  pld::rt::CommContext ctx{};
  ctx.rankId = 0;
  ctx.windowsIn[0] = reinterpret_cast<uint64_t>(window[0]);
  ctx.windowsIn[1] = reinterpret_cast<uint64_t>(window[1]);
  float out[64] = {};
  uint8_t workspace[256] = {};
  for (g_lane = 0; g_lane < 2; ++g_lane) {
    GlobalContext global{g_lane};
    int64_t args[kGlobalContextIndex + 1] = {};
    args[kGlobalContextIndex] = reinterpret_cast<int64_t>(&global);
    // What the submission passes: the workspace, sync id 0, the output,
    // the peer and the window.
    orchestrate_pull(&ctx, args, workspace, 0, out, 1, window[0]);
  }
  return 0;
}
