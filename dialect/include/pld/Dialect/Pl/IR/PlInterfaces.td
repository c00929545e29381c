//===- PlInterfaces.td - pl type and op interfaces ---------*- tablegen -*-===//

#ifndef PL_INTERFACES_TD
#define PL_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Pl_GlobalMemoryTypeInterface : TypeInterface<"GlobalMemoryTypeInterface"> {
  let cppNamespace = "::pld::pl";
  let description = [{
    A shaped view of global memory that tile loads read from and tile stores
    write to, besides upstream `memref`. Dialects layered on `pl` (such as
    `pld`'s window-bound distributed tensors) implement it so the core tile
    ops accept their types without depending on them.
  }];
}

def Pl_MemoryAccessOpInterface : OpInterface<"MemoryAccessOpInterface"> {
  let cppNamespace = "::pld::pl";
  let description = [{
    The regions of global memory an op reads or writes, one `MemoryAccess`
    per region: the memory (a window-bound tensor or a memref), the rank
    whose copy it touches (a peer, or the op's own), whether it reads,
    writes or atomically adds, and the region as offsets and sizes in the
    memory's shape. The race rule of pld-verify reads every payload access
    through it (`pld-c/Interfaces.h`).
  }];
  let methods = [
    InterfaceMethod<[{Appends every region the op reads or writes.}],
      "void", "getMemoryAccesses",
      (ins "::llvm::SmallVectorImpl<::pld::pl::MemoryAccess> &":$accesses)>,
  ];
}

#endif // PL_INTERFACES_TD
