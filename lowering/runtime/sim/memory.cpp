//===- memory.cpp - Bounds checks, peer addresses, unified buffers --------===//

#include "memory.h"

#include "race.h"
#include "remote.h"

#include "report.h"
#include "tiles.h"
#include "values.h"
#include "world.h"

#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

namespace pld::sim {

World &world() {
  static World instance;
  return instance;
}

namespace {

struct Region {
  Place place;
  int32_t arg; ///< The global buffer's argument index; -1 for a window.
  uintptr_t begin, end;
};

bool find(uintptr_t address, Region &region) {
  World &w = world();
  auto base = reinterpret_cast<uintptr_t>(w.windows);
  uint64_t span = w.win_size * static_cast<uint64_t>(w.nranks);
  if (w.windows && address >= base && address - base < span) {
    auto rank = static_cast<int32_t>((address - base) / w.win_size);
    uintptr_t begin = base + static_cast<uint64_t>(rank) * w.win_size;
    region = {{true, rank}, -1, begin, begin + w.win_size};
    return true;
  }
  if (std::optional<HandoffPlace> at = handoff_place(w, address)) {
    uintptr_t begin = address - at->offset;
    region = {{false, at->rank}, kHandoffArg, begin, begin + w.handoff_size};
    return true;
  }
  for (const GlobalBuffer &buffer : w.globals) {
    if (address >= buffer.begin && address < buffer.end) {
      region = {{false, buffer.rank}, buffer.arg, buffer.begin, buffer.end};
      return true;
    }
  }
  return false;
}

/// For a report: the region that starts last at or before `address`, if
/// `address` is within a window's size past its end (a likely overrun).
bool nearest(uintptr_t address, Region &region) {
  World &w = world();
  bool found = false;
  auto consider = [&](const Region &candidate) {
    if (candidate.begin <= address &&
        address - candidate.end < w.win_size + 1 &&
        (!found || candidate.begin > region.begin)) {
      region = candidate;
      found = true;
    }
  };
  auto base = reinterpret_cast<uintptr_t>(w.windows);
  for (int32_t r = 0; w.windows && r < w.nranks; ++r) {
    uintptr_t begin = base + static_cast<uint64_t>(r) * w.win_size;
    consider({{true, r}, -1, begin, begin + w.win_size});
  }
  for (const GlobalBuffer &buffer : w.globals)
    consider({{false, buffer.rank}, buffer.arg, buffer.begin, buffer.end});
  return found;
}

[[noreturn]] void out_of_bounds(uintptr_t begin, uint64_t bytes, const char *op,
                                const char *site) {
  std::string details;
  Region region{};
  if (find(begin, region) || nearest(begin, region)) {
    if (region.place.window && region.place.rank != self().id.rank)
      details += "  peer: " + std::to_string(region.place.rank) + "\n";
    uint64_t offset = begin - region.begin;
    details +=
        "  bytes: [" + std::to_string(offset) + ", " +
        std::to_string(offset + bytes) + ") of rank " +
        std::to_string(region.place.rank) + "'s " +
        (region.place.window ? std::string("window") : arg_label(region.arg)) +
        ", which has " + std::to_string(region.end - region.begin) + " bytes\n";
  } else {
    details += "  bytes: [" + hex(begin) + ", " + hex(begin + bytes) +
               ") lie in no window and no global buffer\n";
  }
  details += "  window size: " + std::to_string(world().win_size) + " bytes\n";
  trap(op_site(op, site) + " out of bounds", details);
}

} // namespace

Place check_range(const void *p, uint64_t bytes, const char *op,
                  const char *site) {
  auto begin = reinterpret_cast<uintptr_t>(p);
  Region region{};
  if (!find(begin, region) || bytes > region.end - begin)
    out_of_bounds(begin, bytes, op, site);
  return region.place;
}

void check_view_shape(const rt::detail::ViewRef &view, const char *op,
                      const char *site) {
  if (view.rows < 0 || view.cols < 0 || view.row_stride < 0)
    trap(op_site(op, site) + " on a view with a negative shape or stride",
         "  view: " + std::to_string(view.rows) + " x " +
             std::to_string(view.cols) + ", row stride " +
             std::to_string(view.row_stride) + "\n");
}

std::optional<uintptr_t> tensor_at(const void *p, const void *tensor) {
  Region access{}, home{};
  if (!find(reinterpret_cast<uintptr_t>(p), access) ||
      !find(reinterpret_cast<uintptr_t>(tensor), home) ||
      access.place.window != home.place.window)
    return std::nullopt;
  auto base = reinterpret_cast<uintptr_t>(tensor);
  // A peer address: the tensor at the same offset of the peer's window.
  if (access.place.window)
    return access.begin + (base - home.begin);
  if (home.begin != access.begin)
    return std::nullopt;
  return base;
}

void check_in_tensor(const void *p, uint64_t bytes, const void *tensor,
                     uint64_t tensor_bytes, const char *op, const char *site,
                     const std::string &shape) {
  if (!tensor)
    return;
  auto begin = reinterpret_cast<uintptr_t>(p);
  std::optional<uintptr_t> at = tensor_at(p, tensor);
  uintptr_t base = at.value_or(reinterpret_cast<uintptr_t>(tensor));
  if (at && begin >= base && bytes <= tensor_bytes &&
      begin - base <= tensor_bytes - bytes)
    return;
  // Offsets in bytes from the tensor's first element (as if both were in
  // one buffer, which is what the report needs).
  auto offset = static_cast<int64_t>(begin - base);
  trap(op_site(op, site) + " outside its tensor",
       "  access: " + shape + ", bytes [" + std::to_string(offset) + ", " +
           std::to_string(offset + static_cast<int64_t>(bytes)) +
           ") from the tensor's first element\n  tensor: " +
           std::to_string(tensor_bytes) + " bytes at " +
           describe_address(base) + "\n");
}

std::string cell_coordinates(int64_t index, const int64_t *dims, int ndims) {
  // Row-major, the first coordinate unbounded, so that a cell past the
  // end reads as one (cell [8, 0] of a signal [8, 1]).
  std::vector<int64_t> at(static_cast<size_t>(std::max(ndims, 1)), 0);
  for (int d = ndims - 1; d > 0; --d) {
    int64_t extent = std::max<int64_t>(dims[d], 1);
    at[d] = ((index % extent) + extent) % extent;
    index = (index - at[d]) / extent;
  }
  at[0] = index;
  std::string text = "[";
  for (size_t d = 0; d < at.size(); ++d)
    text += (d ? ", " : "") + std::to_string(at[d]);
  return text + "]";
}

std::string check_signal_cell(int32_t *cell, const char *op, const char *site,
                              const int32_t *base, const int64_t *dims,
                              int ndims) {
  check_range(cell, sizeof(int32_t), op, site);
  check_values_known(cell, sizeof(int32_t), op, site);
  if (reinterpret_cast<uintptr_t>(cell) % alignof(int32_t) != 0)
    trap(op_site(op, site) + ": the signal cell at " +
         describe_address(reinterpret_cast<uintptr_t>(cell)) +
         " is not 4-byte aligned");
  if (!base)
    return "";
  int64_t cells = 1;
  for (int d = 0; d < ndims; ++d)
    cells *= dims[d];
  std::optional<uintptr_t> signal = tensor_at(cell, base);
  auto address = reinterpret_cast<uintptr_t>(cell);
  int64_t index =
      signal ? (static_cast<int64_t>(address) - static_cast<int64_t>(*signal)) /
                   static_cast<int64_t>(sizeof(int32_t))
             : -1;
  if (signal && index >= 0 && index < cells)
    return cell_coordinates(index, dims, ndims);
  std::string signal_shape = "[";
  for (int d = 0; d < ndims; ++d)
    signal_shape += (d ? ", " : "") + std::to_string(dims[d]);
  signal_shape += "]";
  std::string where = signal ? cell_coordinates(index, dims, ndims)
                             : "at " + describe_address(address);
  uintptr_t start = signal.value_or(reinterpret_cast<uintptr_t>(base));
  trap(op_site(op, site) + ": cell " + where + " outside signal " +
           signal_shape,
       "  signal: " + std::to_string(cells) + " cells at " +
           describe_address(start) + "\n");
}

Place check_view(const rt::detail::ViewRef &view, const char *op,
                 const char *site) {
  check_view_shape(view, op, site);
  // Elements from the first of row 0 to the last of the last row.
  int64_t span = 0;
  int64_t bytes = 0;
  if (__builtin_mul_overflow(view.rows - 1, view.row_stride, &span) ||
      __builtin_add_overflow(span, view.cols, &span) ||
      __builtin_mul_overflow(span, int64_t{view.elem_bytes}, &bytes))
    trap(op_site(op, site) + " on a view whose extent overflows");
  Place place = check_range(view.data, static_cast<uint64_t>(bytes), op, site);
  check_in_tensor(view.data, static_cast<uint64_t>(bytes), view.tensor,
                  static_cast<uint64_t>(view.tensor_bytes), op, site,
                  "a " + std::to_string(view.rows) + " x " +
                      std::to_string(view.cols) + " region with row stride " +
                      std::to_string(view.row_stride));
  return place;
}

bool is_remote(const Place &place) {
  return place.window && place.rank != self().id.rank;
}

timing::Route route_from(const Place &place) {
  return {is_remote(place), place.rank, self().id.rank};
}

timing::Route route_to(const Place &place) {
  return {is_remote(place), self().id.rank, place.rank};
}

uint64_t payload_bytes(const rt::detail::ViewRef &view) {
  return static_cast<uint64_t>(view.rows) * static_cast<uint64_t>(view.cols) *
         static_cast<uint64_t>(view.elem_bytes);
}

} // namespace pld::sim

namespace pld::rt::detail {

using namespace pld::sim;

void *peer_ptr(const CommContext *ctx, void *local, int64_t peer,
               const char *site) {
  uint32_t me = ctx->rankId;
  if (me >= ctx->rankNum)
    check_member(ctx, "peer_ptr");
  if (peer < 0 || peer >= ctx->rankNum)
    trap(op_site("peer_ptr", site) + ": peer " + std::to_string(peer) +
         " is outside [0, " + std::to_string(ctx->rankNum) + ")");
  auto address = reinterpret_cast<uintptr_t>(local);
  uint64_t window = ctx->windowsIn[me];
  if (address < window || address - window >= ctx->winSize)
    trap(op_site("peer_ptr", site) +
             ": the local address is not inside this rank's window",
         "  address: " + describe_address(address) +
             "\n  window size: " + std::to_string(ctx->winSize) + " bytes\n");
  return reinterpret_cast<void *>(ctx->windowsIn[peer] + (address - window));
}

int64_t block_idx() { return self().id.block; }

int64_t subblock_idx() { return self().id.lane; }

void check_failed(const char *message, const char *site) {
  trap((site && *site ? std::string(site) + ": " : std::string("check: ")) +
       message);
}

namespace {

/// Traps unless a `rows` x `cols` tile of `bytes` bytes at `offset` lies in
/// the `capacity`-byte memory `memory` names, at a multiple of `align`
/// (`alignment` says which), with its valid shape inside it.
void check_binding(const char *memory, int64_t capacity, int64_t offset,
                   int64_t bytes, int64_t align, const char *alignment,
                   int64_t rows, int64_t cols, int64_t valid_rows,
                   int64_t valid_cols) {
  std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
  std::string at =
      std::string(" at ") + memory + " offset " + std::to_string(offset);
  if (offset < 0 || offset > capacity - bytes)
    trap("a " + shape + " tile of " + std::to_string(bytes) + " bytes" + at +
         " does not fit the " + std::to_string(capacity) + "-byte buffer");
  if (offset % align != 0)
    trap("a " + shape + " tile" + at + " is not aligned to " + alignment);
  if (valid_rows < 0 || valid_rows > rows || valid_cols < 0 ||
      valid_cols > cols)
    trap("valid shape " + std::to_string(valid_rows) + " x " +
         std::to_string(valid_cols) + " does not fit a " + shape + " tile");
}

/// The calling thread's `bytes`-byte memory in `slot`, made on first use.
uint8_t *own_memory(uint8_t *&slot, int64_t bytes) {
  if (!slot) {
    slot = static_cast<uint8_t *>(
        std::aligned_alloc(64, static_cast<size_t>(bytes)));
    // Never-written local memory is undefined on the device.
    std::memset(slot, kUnwrittenByte, static_cast<size_t>(bytes));
  }
  return slot;
}

} // namespace

void *bind_tile(int64_t ub_offset, int64_t bytes, int64_t align, int64_t rows,
                int64_t cols, int64_t valid_rows, int64_t valid_cols) {
  // The cube core has no unified buffer; a mixed kernel's cube half is
  // compiled for it alone, where device.h drops vector instructions.
  if (self().id.core == Core::AIC)
    trap("a unified-buffer tile on the AIC: the cube core has no unified "
         "buffer (vector work belongs in the mixed kernel's AIV half)");
  check_binding("unified-buffer", kUbBytes, ub_offset, bytes, align,
                "its element size", rows, cols, valid_rows, valid_cols);
  return own_memory(self().ub, kUbBytes) + ub_offset;
}

// A cube memory has an a2a3 core's size and PTO's 32-byte alignment
// (host.h's kL1Bytes..., from pto-isa's common/buffer_limits.hpp).
void *bind_cube_tile(CubeMemory memory, int64_t offset, int64_t bytes,
                     int64_t rows, int64_t cols, int64_t valid_rows,
                     int64_t valid_cols) {
  struct Info {
    const char *name;
    int64_t capacity;
  };
  static const Info infos[] = {{"L1", kL1Bytes},
                               {"L0A", kL0aBytes},
                               {"L0B", kL0bBytes},
                               {"L0C", kL0cBytes}};
  const Info &info = infos[static_cast<int>(memory)];
  // Likewise the vector core of a mixed kernel has no cube memories.
  if (self().mixed && self().id.core == Core::AIV)
    trap(std::string("an ") + info.name +
         " tile on the AIV of a mixed kernel: the vector core has no cube "
         "memories (cube work belongs in the AIC half)");
  check_binding(info.name, info.capacity, offset, bytes, kCubeAlignBytes,
                "32 bytes", rows, cols, valid_rows, valid_cols);
  uint8_t *&slot = self().cube[static_cast<int>(memory)];
  return own_memory(slot, info.capacity) + offset;
}

bool check_read(const void *p, int64_t bytes, const char *site,
                const void *tensor, int64_t tensor_bytes, void *out) {
  doing(site);
  Place place = check_range(p, static_cast<uint64_t>(bytes), "read", site);
  check_values_known(p, static_cast<uint64_t>(bytes), "read", site);
  check_in_tensor(p, static_cast<uint64_t>(bytes), tensor,
                  static_cast<uint64_t>(tensor_bytes), "read", site,
                  "one element");
  if (timing::enabled())
    timing::scalar(is_remote(place));
  race::access(p, static_cast<uint64_t>(bytes), race::Access::Read, "read",
               site);
  self().released = false;
  std::optional<WindowByte> at = remote_peer_byte(p);
  if (at)
    remote()->get(*at, 1, bytes, bytes, static_cast<uint8_t *>(out), bytes);
  return at.has_value();
}

bool check_write(const void *p, int64_t bytes, const char *site,
                 const void *tensor, int64_t tensor_bytes, const void *in) {
  doing(site);
  Place place = check_range(p, static_cast<uint64_t>(bytes), "write", site);
  values_known(p, static_cast<uint64_t>(bytes));
  if (timing::enabled())
    timing::scalar(is_remote(place));
  check_in_tensor(p, static_cast<uint64_t>(bytes), tensor,
                  static_cast<uint64_t>(tensor_bytes), "write", site,
                  "one element");
  race::scalar_write(p, static_cast<uint64_t>(bytes), site);
  self().released = false;
  std::optional<WindowByte> at = remote_peer_byte(p);
  if (at)
    remote()->put(*at, 1, bytes, bytes, static_cast<const uint8_t *>(in),
                  bytes);
  return at.has_value();
}

} // namespace pld::rt::detail
