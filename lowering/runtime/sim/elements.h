//===- elements.h - Element types: dispatch, math, atomics ------*- C++ -*-===//

#ifndef PLD_SIM_ELEMENTS_H
#define PLD_SIM_ELEMENTS_H

#include "pld/runtime/host.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace pld::sim {

using rt::detail::DType;

/// bf16 as its bits. The library never holds a __bf16 value: on x86 the
/// backend keeps one in a float register and calls __truncsfbf2 to store it,
/// which Debian 12's libgcc lacks.
struct BFloat16 {
  uint16_t bits;
};

template <typename T> struct Tag {
  using type = T;
};

/// Calls `f(Tag<T>{})` with the C++ type of `dtype`.
template <typename F> decltype(auto) visit(DType dtype, F &&f) {
  switch (dtype) {
  case DType::I1:
    return f(Tag<bool>{});
  case DType::I8:
    return f(Tag<int8_t>{});
  case DType::U8:
    return f(Tag<uint8_t>{});
  case DType::I16:
    return f(Tag<int16_t>{});
  case DType::U16:
    return f(Tag<uint16_t>{});
  case DType::I32:
    return f(Tag<int32_t>{});
  case DType::U32:
    return f(Tag<uint32_t>{});
  case DType::I64:
    return f(Tag<int64_t>{});
  case DType::U64:
    return f(Tag<uint64_t>{});
  case DType::F16:
    return f(Tag<_Float16>{});
  case DType::BF16:
    return f(Tag<BFloat16>{});
  case DType::F32:
    return f(Tag<float>{});
  case DType::F64:
    break;
  }
  return f(Tag<double>{});
}

template <typename T>
inline constexpr bool kIsInt =
    std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <typename T>
inline constexpr bool kIsHalf =
    std::is_same_v<T, _Float16> || std::is_same_v<T, BFloat16>;

inline float widen(BFloat16 value) {
  uint32_t word = uint32_t{value.bits} << 16;
  float out;
  std::memcpy(&out, &word, sizeof out);
  return out;
}

inline BFloat16 narrow_bf16(float value) {
  uint32_t word;
  std::memcpy(&word, &value, sizeof word);
  if ((word & 0x7fffffffu) > 0x7f800000u) // NaN: keep it a (quiet) NaN.
    return {static_cast<uint16_t>((word >> 16) | 0x40)};
  // Round to nearest, ties to even.
  return {static_cast<uint16_t>((word + 0x7fffu + ((word >> 16) & 1)) >> 16)};
}

template <typename T> float to_float(T value) {
  if constexpr (std::is_same_v<T, BFloat16>)
    return widen(value);
  else
    return static_cast<float>(value);
}

template <typename T> T from_float(float value) {
  if constexpr (std::is_same_v<T, BFloat16>)
    return narrow_bf16(value);
  else
    return static_cast<T>(value);
}

/// Arithmetic as the vector unit does it: integers wrap; f16 and bf16 round
/// once per operation (through float, which is exact for +, - and *).
template <typename T> T add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>)
    return a != b;
  else if constexpr (kIsInt<T>)
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) +
                          static_cast<std::make_unsigned_t<T>>(b));
  else if constexpr (kIsHalf<T>)
    return from_float<T>(to_float(a) + to_float(b));
  else
    return a + b;
}

template <typename T> T sub(T a, T b) {
  if constexpr (std::is_same_v<T, bool>)
    return a != b;
  else if constexpr (kIsInt<T>)
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) -
                          static_cast<std::make_unsigned_t<T>>(b));
  else if constexpr (kIsHalf<T>)
    return from_float<T>(to_float(a) - to_float(b));
  else
    return a - b;
}

template <typename T> T mul(T a, T b) {
  if constexpr (std::is_same_v<T, bool>)
    return a && b;
  else if constexpr (kIsInt<T>)
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) *
                          static_cast<std::make_unsigned_t<T>>(b));
  else if constexpr (kIsHalf<T>)
    return from_float<T>(to_float(a) * to_float(b));
  else
    return a * b;
}

template <typename T> T max(T a, T b) {
  if constexpr (kIsHalf<T>)
    return to_float(a) < to_float(b) ? b : a;
  else
    return a < b ? b : a;
}

template <typename T> T min(T a, T b) {
  if constexpr (kIsHalf<T>)
    return to_float(b) < to_float(a) ? b : a;
  else
    return b < a ? b : a;
}

/// `*p += v` as one atomic read-modify-write. 4- and 8-byte types use
/// std::atomic_ref; narrower ones compare-and-swap the aligned 32-bit word
/// that contains them, which also keeps the neighbours in that word intact.
/// Relaxed: ordering is the job of release()/tnotify.
template <typename T> void atomic_add(T *p, T v) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    std::atomic_ref<T>(*p).fetch_add(v, std::memory_order_relaxed);
  } else {
    auto address = reinterpret_cast<uintptr_t>(p);
    auto *word = reinterpret_cast<uint32_t *>(address & ~uintptr_t{3});
    size_t shift = address & 3;
    std::atomic_ref<uint32_t> atomic(*word);
    uint32_t old = atomic.load(std::memory_order_relaxed);
    uint32_t next;
    do {
      T current;
      std::memcpy(&current, reinterpret_cast<uint8_t *>(&old) + shift,
                  sizeof(T));
      T sum = add(current, v);
      next = old;
      std::memcpy(reinterpret_cast<uint8_t *>(&next) + shift, &sum, sizeof(T));
    } while (
        !atomic.compare_exchange_weak(old, next, std::memory_order_relaxed));
  }
}

inline int64_t dtype_bytes(DType dtype) {
  return visit(dtype, [](auto tag) {
    return static_cast<int64_t>(sizeof(typename decltype(tag)::type));
  });
}

} // namespace pld::sim

#endif // PLD_SIM_ELEMENTS_H
