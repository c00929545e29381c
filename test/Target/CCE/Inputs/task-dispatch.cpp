//===- task-dispatch.cpp - A task's kernel run as the task runtime runs it ===//
//
// Calls the kernel of the task in `KERNEL` (an emitted file, compiled for
// the device against the PTO stub) as the task runtime dispatches it on
// each block and AIV lane (hw-native-sys/simpler @6ebaf77,
// src/a2a3/runtime/tensormap_and_ringbuffer/common/intrinsic.h): the
// runtime writes the logical block into the payload's LocalContext
// (args[48], lines 157-165) and the lane into the core's GlobalContext
// (args[49], lines 118-128), and does not program the registers that
// `get_block_idx()` and `get_subblockid()` read, which hold what they held
// (lines 52-76; 0 on both lanes under mixed dispatch). Prints what each row
// of the output holds.
//
//===----------------------------------------------------------------------===//

#include KERNEL

#include <cstdio>

// The registers the runtime does not program.
int64_t get_block_idx() { return 0; }
int64_t get_subblockid() { return 0; }

namespace {
// The fields of the runtime's contexts that its accessors read.
struct LocalContext {
  int32_t block_idx;
  int32_t block_num;
};
struct GlobalContext {
  int32_t sub_block_id;
};
constexpr int kLocalContextIndex = 48, kGlobalContextIndex = 49;
} // namespace

// The runtime's accessors (intrinsic.h:180-184, 208-212).
int32_t get_block_idx(int64_t *args) {
  return reinterpret_cast<LocalContext *>(args[kLocalContextIndex])->block_idx;
}
int32_t get_sub_block_id(int64_t *args) {
  return reinterpret_cast<GlobalContext *>(args[kGlobalContextIndex])
      ->sub_block_id;
}

int main() {
  constexpr int kBlocks = 2, kLanes = 2, kRows = kBlocks * kLanes, kCols = 16;
  int32_t out[kRows * kCols] = {};
  pld::rt::CommContext ctx{};
  for (int32_t block = 0; block < kBlocks; ++block) {
    for (int32_t lane = 0; lane < kLanes; ++lane) {
      LocalContext local{block, kBlocks};
      GlobalContext global{lane};
      int64_t args[kGlobalContextIndex + 1] = {};
      args[kLocalContextIndex] = reinterpret_cast<int64_t>(&local);
      args[kGlobalContextIndex] = reinterpret_cast<int64_t>(&global);
      // What the submission passes: the lanes per block and the offset.
      orchestrate_work(&ctx, args, kLanes, 1, out);
    }
  }
  for (int row = 0; row < kRows; ++row)
    std::printf("row %d: %d\n", row, out[row * kCols]);
  return 0;
}
