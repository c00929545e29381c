//===- PlDialect.td - the pl core dialect ------------------*- tablegen -*-===//
//
// `pl` is the small core the distributed primitives of `pld` stand on: tiles
// and tile arithmetic, task scopes, SPMD launches and split-AIV regions, and
// the host/InCore kind of a kernel function. Upstream func, scf, arith,
// memref and cf provide everything else.
//
//===----------------------------------------------------------------------===//

#ifndef PL_DIALECT_TD
#define PL_DIALECT_TD

include "mlir/IR/OpBase.td"

def Pl_Dialect : Dialect {
  let name = "pl";
  let cppNamespace = "::pld::pl";
  let summary = "Core tile, task and kernel-kind constructs that pld programs use";
  let description = [{
    The `pl` dialect mirrors the parts of the PyPTO `pl.*` front end that the
    distributed `pld` primitives are written against:

    * `!pl.tile<...>`: an on-chip (UB/L0) tile with a static shape, and the
      tile operations `pl.load`, `pl.store`, `pl.add`, `pl.max`, `pl.min`,
      `pl.mul`, `pl.sub`, their tile-scalar forms `pl.adds` ... `pl.mins`,
      `pl.full`, `pl.cast`, `pl.matmul`, plus the scalar accesses `pl.read`/`pl.write`;
    * task scopes: `pl.at` (a task at a hardware level, with name hint,
      dependencies, an optional dispatch predicate and `allow_early_resolve`)
      and `pl.spmd` (a multi-block launch), both returning a `!pl.task_id`;
    * `pl.split_aiv` regions that run on the two AIV sub-lanes, with
      `pl.get_aiv_id` and `pl.get_block_idx`;
    * the `pl.kernel` function attribute (`#pl.kernel<host>` for a host
      orchestrator, `#pl.kernel<incore>` for an AI-core kernel).

    Plain global-memory tensors are upstream `memref`s.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The discardable function attribute that holds a `#pl.kernel<...>`.
    static constexpr ::llvm::StringLiteral getKernelAttrName() {
      return ::llvm::StringLiteral("pl.kernel");
    }
  }];
}

class Pl_Op<string mnemonic, list<Trait> traits = []>
    : Op<Pl_Dialect, mnemonic, traits>;

#endif // PL_DIALECT_TD
