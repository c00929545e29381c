//===- PldDialect.td - the pld distributed dialect ---------*- tablegen -*-===//

#ifndef PLD_DIALECT_TD
#define PLD_DIALECT_TD

include "mlir/IR/OpBase.td"

def Pld_Dialect : Dialect {
  let name = "pld";
  let cppNamespace = "::pld";
  let summary = "One-sided distributed communication over per-rank windows";
  let description = [{
    `pld` holds the distributed primitives of the PyPTO `pld` layer, one op per
    Python entry point and named after its full path (`pld.system.notify` is
    `pld.system.notify(...)`):

    * the system substrate: `world_size`, `get_comm_ctx`, `rank`, `nranks`,
      the signal handshake `notify`/`wait` and the deferred `defer_wait`;
    * window management: `alloc_window_buffer` and `window`;
    * one-sided remote memory access: `pld.tile.remote_load`,
      `pld.tile.remote_store`, `pld.tensor.remote_store`, `pld.tensor.put`,
      `pld.tensor.get`;
    * collectives: `allreduce`, `reduce_scatter`, `allgather`, `broadcast`,
      `barrier`, `all_to_all`.

    Every rank runs the same kernel; a window buffer sits at the same offset on
    every rank, so an element of a `!pld.dtensor` names the same cell in every
    peer's window. Per-op rules are checked by the op verifiers; rules that
    need context (host versus InCore code, task-scope contracts, protocol
    analysis) are checked by the `pld-verify` pass.

    A module names the chip it is compiled for with
    `pld.target = #pld.target<Ascend910B>` or `#pld.target<Ascend950>`; a
    module without the attribute targets **Ascend910B** (A2/A3), the default
    profile. The profile decides, for instance, whether bf16 atomic add is
    available (Ascend910B only).
  }];
  let dependentDialects = ["::pld::pl::PlDialect",
                           "::mlir::arith::ArithDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  // `pld.tensor.dim` folds to an index constant.
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// The discardable module attribute that names the target profile
    /// (`#pld.target<Ascend910B>` or `#pld.target<Ascend950>`). Without it a
    /// module targets Ascend910B.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("pld.target");
    }
  }];
}

class Pld_Op<string mnemonic, list<Trait> traits = []>
    : Op<Pld_Dialect, mnemonic, traits>;

#endif // PLD_DIALECT_TD
