//===- AscendToEmitC.h - ascend ops as calls into pld/runtime.h -*- C++ -*-===//
//
// The ascend dialect's ConvertToEmitCPatternInterface: `convert-to-emitc`
// lowers ascend together with arith, func, scf and memref under one type
// converter. Every ascend op becomes an `emitc.call_opaque` into the
// project-owned runtime header `pld/runtime.h`.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_CONVERSION_ASCENDTOEMITC_H
#define PLD_CONVERSION_ASCENDTOEMITC_H

namespace mlir {
class DialectRegistry;
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

namespace pld::ascend {

/// ascend types as the C++ types of the runtime header (`__gm__ float*`,
/// `pld::rt::Tile<float, 1, 64>`, ...).
void populateAscendToEmitCTypeConversions(mlir::TypeConverter &typeConverter);

/// One pattern per ascend op.
void populateAscendToEmitCPatterns(mlir::TypeConverter &typeConverter,
                                   mlir::RewritePatternSet &patterns);

/// Attaches the ConvertToEmitCPatternInterface to the ascend dialect.
void registerConvertAscendToEmitCInterface(mlir::DialectRegistry &registry);

} // namespace pld::ascend

#endif // PLD_CONVERSION_ASCENDTOEMITC_H
