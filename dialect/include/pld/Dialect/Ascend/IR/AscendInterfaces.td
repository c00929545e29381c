//===- AscendInterfaces.td - ascend op interfaces ----------*- tablegen -*-===//

#ifndef ASCEND_INTERFACES_TD
#define ASCEND_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Ascend_TileWriterOpInterface : OpInterface<"TileWriterOpInterface"> {
  let cppNamespace = "::pld::ascend";
  let description = [{
    An op that writes a tile it takes as an operand (its destination): a
    load, the vector math, a conversion, a copy, an extraction, a matrix
    multiply's accumulator. `ascend-plan-ub` asks it for a tile's first
    writer (`pld-c/Interfaces.h`), instead of reading an operand by name.
  }];
  let methods = [
    InterfaceMethod<[{The tile the op writes.}],
      "::mlir::Value", "getWrittenTile", (ins), [{}],
      /*defaultImplementation=*/[{ return $_op.getDst(); }]>,
  ];
}

#endif // ASCEND_INTERFACES_TD
