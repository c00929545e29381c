//===- convert.h - TCVT's conversions, one element at a time ----*- C++ -*-===//
//
// What the vector unit's TCVT does to one element, for the pairs a2a3 has
// (npu/a2a3/TCvt.hpp:753-895 in hw-native-sys/pto-isa):
// - float to a narrower float rounds by the RoundMode (vconv_f322f16r/a/f/
//   c/z/o, :88-116); CAST_NONE rounds to nearest even;
// - f32 to f32 rounds to an integral value (vconv_f322f32r/a/f/c/z,
//   :118-145; CAST_NONE and CAST_ODD round to nearest even);
// - float to an integer rounds by the RoundMode, CAST_NONE toward zero
//   (the default of each switch, e.g. :196); the result saturates, except
//   into 8- and 16-bit integers, which keep the low bits (the defaults
//   npu/a5/TCvt.hpp:3046-3070 documents: "PyTorch-compatible truncation");
// - an integer to a float is the nearest value, ties to even; an integer
//   to a narrower integer keeps the low bits (the same a5 defaults), to a
//   wider one extends the sign.
// PTO's CPU TCVT (cpu/TCvt.hpp:104-190) rounds float to integer the same
// way but leaves narrowing floats to the host's rounding and out-of-range
// integers undefined.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_SIM_CONVERT_H
#define PLD_SIM_CONVERT_H

#include "elements.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace pld::sim {

/// PTO's RoundMode values (common/type.hpp:251-259).
enum class Round : uint8_t { None, Rint, Round, Floor, Ceil, Trunc, Odd };

/// `x` rounded to an integral value by `mode` (`fallback` for CAST_NONE).
inline double to_integral(double x, Round mode, Round fallback) {
  if (mode == Round::None)
    mode = fallback;
  switch (mode) {
  case Round::Round:
    return std::round(x);
  case Round::Floor:
    return std::floor(x);
  case Round::Ceil:
    return std::ceil(x);
  case Round::Trunc:
    return std::trunc(x);
  case Round::Odd: {
    double below = std::floor(x);
    if (x - below != 0.5)
      return std::rint(x);
    return std::fmod(below, 2.0) != 0 ? below : below + 1;
  }
  case Round::None:
  case Round::Rint:
    break;
  }
  return std::rint(x);
}

/// The value of a floating-point element, exactly.
template <typename T> double float_value(T value) {
  return static_cast<double>(to_float(value));
}

/// The 16-bit pattern of a half-width float and back.
template <typename T> uint16_t bits_of(T value) {
  uint16_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
template <typename T> T of_bits(uint16_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof bits);
  return value;
}

/// The neighbour of the finite half-width float `r` toward `up` or down.
template <typename T> T neighbour(T r, bool up) {
  uint16_t bits = bits_of(r);
  bool negative = bits & 0x8000;
  if ((bits & 0x7fff) == 0) // +-0: the smallest subnormal of the direction.
    return of_bits<T>(up ? 0x0001 : 0x8001);
  // Sign and magnitude: away from zero is one more in the magnitude.
  bits = (up != negative) ? bits + 1 : bits - 1;
  return of_bits<T>(bits);
}

/// `x` (an f32 value) as the half-width float `T`, rounded by `mode`.
template <typename T> T narrow(float x, Round mode) {
  T nearest = from_float<T>(x); // to nearest, ties to even
  double exact = x, got = float_value(nearest);
  if (got == exact || std::isnan(exact) || std::isinf(got))
    return nearest;
  T other = neighbour(nearest, exact > got);
  double lo = std::min(got, float_value(other));
  T below = got < exact ? nearest : other;
  T above = got < exact ? other : nearest;
  switch (mode) {
  case Round::Floor:
    return below;
  case Round::Ceil:
    return above;
  case Round::Trunc:
    return exact > 0 ? below : above;
  case Round::Round: {
    double to_below = exact - lo, to_above = float_value(above) - exact;
    if (to_below != to_above)
      return nearest;
    return exact > 0 ? above : below; // a tie: away from zero
  }
  case Round::Odd:
    return (bits_of(below) & 1) ? below : above;
  case Round::None:
  case Round::Rint:
    break;
  }
  return nearest;
}

/// `value` converted from `S` to `D` as TCVT converts it.
template <typename D, typename S> D convert(S value, Round mode) {
  constexpr bool kFromFloat = !kIsInt<S>, kToFloat = !kIsInt<D>;
  if constexpr (kFromFloat && kToFloat) {
    float x = to_float(value);
    if constexpr (std::is_same_v<D, float> && std::is_same_v<S, float>)
      return static_cast<float>(
          to_integral(x, mode == Round::Odd ? Round::Rint : mode, Round::Rint));
    else if constexpr (sizeof(D) == 2)
      return narrow<D>(x, mode); // f16, bf16
    else
      return from_float<D>(x); // widening is exact
  } else if constexpr (kFromFloat) {
    double x = to_integral(float_value(value), mode, Round::Trunc);
    if (std::isnan(x))
      return 0;
    if constexpr (sizeof(D) <= 2) {
      // Keeps the low bits of the 64-bit integer.
      double wide = std::clamp(x, -9.2e18, 9.2e18);
      return static_cast<D>(static_cast<int64_t>(wide));
    } else {
      double lowest = static_cast<double>(std::numeric_limits<D>::lowest());
      double highest = static_cast<double>(std::numeric_limits<D>::max());
      if (x <= lowest)
        return std::numeric_limits<D>::lowest();
      if (x >= highest)
        return std::numeric_limits<D>::max();
      return static_cast<D>(x);
    }
  } else if constexpr (kToFloat) {
    return from_float<D>(static_cast<float>(value));
  } else {
    // Integers: sign extension, or the low bits (C++20 converts modulo 2^n).
    return static_cast<D>(value);
  }
}

} // namespace pld::sim

#endif // PLD_SIM_CONVERT_H
