//===- PlInterfaces.td - pl type interfaces ----------------*- tablegen -*-===//

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

#endif // PL_INTERFACES_TD
