//===- AscendDialect.td - the ascend target dialect --------*- tablegen -*-===//

#ifndef ASCEND_DIALECT_TD
#define ASCEND_DIALECT_TD

include "mlir/IR/OpBase.td"

def Ascend_Dialect : Dialect {
  let name = "ascend";
  let cppNamespace = "::pld::ascend";
  let summary = "The Ascend target: one op per PTO ISA instruction or CCE intrinsic group";
  let description = [{
    `ascend` is what pld lowers to before C++: kernels over `__gm__` pointers
    and the CommContext, UB tiles at planned offsets, tile loads and stores
    through global views, vector tile math, the PTO communication
    instructions (`TNOTIFY`, `TWAIT`, `TTEST`, `TPUT`, `TGET`, and the SDMA
    engine's `TGET_ASYNC`, `TPUT_ASYNC` with their session and wait), the ordering
    operations the target needs around them (`release` before a notify that
    publishes a payload, `acquire` after a wait and before the payload is
    read, pipe synchronisation between the load, vector and store pipes),
    and the host side: window allocation and task submission.

    One op is one instruction or intrinsic group, so a test of this level
    reads like the emitted C++. Every op lowers to a call into the
    project-owned runtime header `pld/runtime.h` through upstream EmitC
    (`convert-to-emitc`): on the device the header forwards to PTO ISA, on
    a host compiler it is the simulator.

    Functions keep `func.func`; a kernel carries the C++ `specifiers` it is
    emitted with (`extern "C"`, `__global__ __aicore__`), and every kernel
    and host function takes the CommContext (`!ascend.ctx`) first.
  }];
  let dependentDialects = ["::pld::PldDialect", "::mlir::emitc::EmitCDialect",
                           "::mlir::arith::ArithDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // Folds to constants (a valid shape known from the tile that made it).
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// Bytes of unified buffer (UB) an AIV core has on every supported chip.
    static constexpr int64_t kUnifiedBufferBytes = 196608;
    /// Tiles start on 32-byte boundaries of the UB.
    static constexpr int64_t kTileAlignment = 32;
  }];
}

class Ascend_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ascend_Dialect, mnemonic, traits>;

#endif // ASCEND_DIALECT_TD
