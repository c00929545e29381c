//===- scalars.cpp - Scalar arguments of entry functions ------------------===//

#include "elements.h"

#include <cstring>

namespace pld::rt::detail {

using namespace pld::sim;

void scalar_as(int64_t i, double f, DType dtype, void *out) {
  visit(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T value;
    if constexpr (std::is_same_v<T, bool>)
      value = (i & 1) != 0; // i1 is the low bit, as in MLIR.
    else if constexpr (std::is_integral_v<T>)
      value = static_cast<T>(i);
    else if constexpr (std::is_same_v<T, BFloat16>)
      value = narrow_bf16(static_cast<float>(f));
    else
      value = static_cast<T>(f);
    std::memcpy(out, &value, sizeof value);
  });
}

} // namespace pld::rt::detail
