//===- detail.h - The simulator library's entry points ----------*- C++ -*-===//
//
// What host.h forwards to. The templates in host.h only erase the element
// type (into a DType and a byte size) and call these non-template functions,
// which live in lowering/runtime/sim/ and are compiled once per build, so an
// emitted program compiles little more than its own code.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_RUNTIME_HOST_DETAIL_H
#define PLD_RUNTIME_HOST_DETAIL_H

#include <cstdint>

namespace pld::rt {

struct CommContext;
enum class NotifyOp : uint8_t;
enum class Core : uint8_t;

/// What the task runtime hands a task's kernel after its CommContext: on
/// the device the dispatch payload that the runtime's `get_async_ctx`,
/// `get_block_idx` and `get_sub_block_id` read (task_runtime.h); here, the
/// simulator's task, null for a kernel launched without one.
struct DispatchPayload {
  void *task;
};
enum class WaitCmp : uint8_t;

/// What host code passes a kernel that moves data with SDMA, with a sync id
/// (on the device the host runtime's SDMA workspace, `__gm__ uint8_t *`).
/// The simulator keeps the SDMA state per simulated thread: the workspace
/// is only a token that must be there.
struct SdmaWorkspace {
  const void *token;
};

/// A kernel's SDMA session: its scratch buffer in the thread's unified
/// buffer and its sync id (on the device PTO's `AsyncSession`).
struct AsyncSession {
  void *scratch = nullptr;
  int32_t sync_id = 0;
};

/// One SDMA transfer's completion (on the device PTO's `AsyncEvent`): when
/// it ends in modelled time, and the race detector's clock of its accesses,
/// which its wait publishes.
struct AsyncEvent {
  double end = 0;
  uint32_t accessed = 0;
};

namespace detail {

/// Element types a tile or view may hold (semantics §2's i1 is one byte).
enum class DType : uint8_t {
  I1,
  I8,
  U8,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  F16,
  BF16,
  F32,
  F64
};

template <typename T> struct DTypeOf;
template <> struct DTypeOf<bool> {
  static constexpr DType value = DType::I1;
};
template <> struct DTypeOf<char> {
  static constexpr DType value = DType::I8;
};
template <> struct DTypeOf<signed char> {
  static constexpr DType value = DType::I8;
};
template <> struct DTypeOf<unsigned char> {
  static constexpr DType value = DType::U8;
};
template <> struct DTypeOf<short> {
  static constexpr DType value = DType::I16;
};
template <> struct DTypeOf<unsigned short> {
  static constexpr DType value = DType::U16;
};
template <> struct DTypeOf<int> {
  static constexpr DType value = DType::I32;
};
template <> struct DTypeOf<unsigned> {
  static constexpr DType value = DType::U32;
};
template <> struct DTypeOf<long> {
  static constexpr DType value = DType::I64;
};
template <> struct DTypeOf<unsigned long> {
  static constexpr DType value = DType::U64;
};
template <> struct DTypeOf<long long> {
  static constexpr DType value = DType::I64;
};
template <> struct DTypeOf<unsigned long long> {
  static constexpr DType value = DType::U64;
};
template <> struct DTypeOf<_Float16> {
  static constexpr DType value = DType::F16;
};
template <> struct DTypeOf<__bf16> {
  static constexpr DType value = DType::BF16;
};
template <> struct DTypeOf<float> {
  static constexpr DType value = DType::F32;
};
template <> struct DTypeOf<double> {
  static constexpr DType value = DType::F64;
};

template <typename T> struct NonDeduced {
  using type = T;
};

/// A tile with its element type erased: `rows` x `cols` is the static shape
/// (rows are `cols` elements apart), `valid_rows` x `valid_cols` the valid
/// one.
struct TileRef {
  void *data;
  int64_t rows, cols;
  int64_t valid_rows, valid_cols;
  DType dtype;
  int32_t elem_bytes;
};

/// A 2-D global-memory region with its element type erased, and the tensor
/// it lies in (null `tensor`: not said).
struct ViewRef {
  void *data;
  int64_t rows, cols, row_stride;
  DType dtype;
  int32_t elem_bytes;
  const void *tensor;
  int64_t tensor_bytes;
};

/// A kernel call with its arguments bound; `invoke` may run on several
/// threads at once, `destroy` runs once after every call returned.
struct Closure {
  void *self;
  void (*invoke)(void *self, CommContext *ctx);
  void (*destroy)(void *self);
};

enum class BinOp : uint8_t { Add, Max, Min, Mul, Sub };

/// The cube's own memories, each a tile kind of PTO: L1 (`Mat`), L0A
/// (`Left`), L0B (`Right`) and L0C (`Acc`).
enum class CubeMemory : uint8_t { L1, L0A, L0B, L0C };
enum class Transfer : uint8_t { Put, PutAtomicAdd, Get };

// Context and identity.
void *peer_ptr(const CommContext *ctx, void *local, int64_t peer,
               const char *site);
int64_t block_idx();
int64_t subblock_idx();
[[noreturn]] void check_failed(const char *message, const char *site);

// Tiles (tiles.cpp, transfer.cpp).
void *bind_tile(int64_t ub_offset, int64_t bytes, int64_t align, int64_t rows,
                int64_t cols, int64_t valid_rows, int64_t valid_cols);
void tload(const TileRef &dst, const ViewRef &src, const char *site);
void tstore(const ViewRef &dst, const TileRef &src, bool atomic_add,
            const char *site);
void tile_binary(BinOp op, const TileRef &dst, const TileRef &a,
                 const TileRef &b, const char *site);
/// `dst = a op scalar`, `scalar` pointing at one element of the tiles' type.
void tile_scalar(BinOp op, const TileRef &dst, const TileRef &a,
                 const void *scalar, const char *site);
/// TCVT: `src` converted to `dst`'s element type, rounding by PTO's
/// RoundMode value `round`.
void tile_convert(const TileRef &dst, const TileRef &src, uint8_t round,
                  const char *site);
/// Every element of `dst`'s valid shape = `*scalar`.
void tile_fill(const TileRef &dst, const void *scalar, const char *site);
void tile_copy(const TileRef &dst, const TileRef &src, const char *site);
void transfer(Transfer kind, const ViewRef &dst, const ViewRef &src,
              const TileRef &ping, const TileRef *pong, const char *site);

// The cube (memory.cpp, cube.cpp). A Mat tile is loaded with `tload`.
void *bind_cube_tile(CubeMemory memory, int64_t offset, int64_t bytes,
                     int64_t rows, int64_t cols, int64_t valid_rows,
                     int64_t valid_cols);
void textract(const TileRef &dst, CubeMemory to, const TileRef &src,
              int64_t row, int64_t col, const char *site);
void tmatmul(const TileRef &c, const TileRef &a, const TileRef &b,
             bool accumulate, const char *site);
/// An Acc tile into global memory through the fixpipe, which converts its
/// elements to the view's type.
void tstore_acc(const ViewRef &dst, const TileRef &src, const char *site);

// SDMA transfers (transfer.cpp): global memory to global memory on the
// SDMA engine, through the calling thread's session.
const void *sdma_workspace(const CommContext *ctx);
AsyncSession sdma_session(const void *workspace, int32_t sync_id,
                          int64_t ub_offset, const char *site);
AsyncEvent sdma_transfer(bool push, const ViewRef &dst, const ViewRef &src,
                         AsyncSession &session, const char *site);
void wait_async(const AsyncEvent &event, AsyncSession &session,
                const char *site);

// Scalar global-memory access: bounds checks (inside the tensor when
// `tensor` is not null). A check returns true when it made the access
// itself, into `out` or from `in`: a peer's window that this process cannot
// address (the MPI backend's rma mode, sim/remote.h). Otherwise the access
// stays in the caller, so that it is an access ThreadSanitizer sees there.
bool check_read(const void *p, int64_t bytes, const char *site,
                const void *tensor, int64_t tensor_bytes, void *out);
bool check_write(const void *p, int64_t bytes, const char *site,
                 const void *tensor, int64_t tensor_bytes, const void *in);

/// Stores the scalar argument (`i` for integer dtypes, `f` for float ones)
/// converted to `dtype` at `out`.
void scalar_as(int64_t i, double f, DType dtype, void *out);

// Signals and ordering (signals.cpp).
void tnotify(int32_t *cell, int32_t value, NotifyOp op, const char *site,
             const int32_t *base, const int64_t *dims, int ndims);
void twait(int32_t *cell, int32_t expected, WaitCmp cmp, const char *site,
           const int32_t *base, const int64_t *dims, int ndims);
bool ttest(int32_t *cell, int32_t expected, WaitCmp cmp);
void release();
void acquire();

// Host side and tasks (tasks.cpp).
uint8_t *alloc_window(const CommContext *ctx, int64_t bytes, const char *name);
/// The calling rank's context of the comm group of world ranks `ranks`
/// (ascending), made once per rank and group and kept for the run.
CommContext *comm_group(const CommContext *ctx, const int64_t *ranks,
                        int64_t count);
/// Traps unless the calling rank is a member of `ctx`'s group: `what` uses
/// a group's context on a rank outside it.
void check_member(const CommContext *ctx, const char *what);
uint8_t *handoff_workspace(const CommContext *ctx, int64_t bytes);
int64_t submit(CommContext *ctx, const char *name, int64_t blocks,
               bool dispatch, const int64_t *deps, int64_t ndeps,
               Closure kernel);
/// The task the calling thread runs for (what a deferring kernel receives as
/// its dispatch payload), or null.
void *current_task();
void defer_completion(void *task, int32_t *cell, int32_t expected,
                      const char *site, const int32_t *base,
                      const int64_t *dims, int ndims);
void launch(CommContext *ctx, int64_t blocks, Closure kernel);
void run_on_lanes(CommContext *ctx, Closure body);

// Mixed kernels (mixed.cpp).
void run_mixed(CommContext *ctx, Closure aic, Closure aiv);
void cross_core_signal(Core src, Core dst);
void cross_core_wait(Core src, Core dst);

template <typename Call> Closure closure(Call call) {
  return {
      new Call(call),
      [](void *self, CommContext *ctx) { (*static_cast<Call *>(self))(ctx); },
      [](void *self) { delete static_cast<Call *>(self); }};
}

/// Binds `args` to `kernel`; the copy of each argument converts it to the
/// kernel's parameter type once, here, as a direct call would.
template <typename... P, typename... A>
Closure bind(void (*kernel)(CommContext *, P...), A... args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "a kernel takes the context and then one value per parameter");
  return closure([kernel, ... bound = static_cast<P>(args)](CommContext *ctx) {
    kernel(ctx, bound...);
  });
}

/// A task's kernel: bound as any kernel, except that one taking the
/// dispatch payload after the context receives the payload of the task it
/// runs for (the runtime's, not an argument of the submission).
template <typename... P, typename... A>
Closure bind_task(void (*kernel)(CommContext *, P...), A... args) {
  return bind(kernel, args...);
}
template <typename... P, typename... A>
Closure bind_task(void (*kernel)(CommContext *, DispatchPayload, P...),
                  A... args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "a kernel takes the context, the payload and then one value "
                "per parameter");
  return closure([kernel, ... bound = static_cast<P>(args)](CommContext *ctx) {
    kernel(ctx, DispatchPayload{current_task()}, bound...);
  });
}

} // namespace detail
} // namespace pld::rt

#endif // PLD_RUNTIME_HOST_DETAIL_H
