// The C API: dialect handles, registration, type constructors and a full
// parse/verify/print round through plain C.
// RUN: %cc %s -o %t %capi_link_flags
// RUN: %t 2>&1 | FileCheck %s

#include "pld-c/Dialects.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

#include <stdio.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static const char *kProgram =
    "func.func @k(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) "
    "attributes {pl.kernel = #pl.kernel<incore>} {\n"
    "  pld.system.notify %s[0, 0], peer %p, value %v, op set : "
    "!pld.dtensor<2x1xi32>\n"
    "  return\n"
    "}\n";

static const char *kBadProgram =
    "func.func @k(%s: !pld.dtensor<2x1xi32>, %p: index, %v: i32) {\n"
    "  pld.system.notify %s[0], peer %p, value %v, op set : "
    "!pld.dtensor<2x1xi32>\n"
    "  return\n"
    "}\n";

int main(void) {
  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  pldRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);

  MlirDialect pld = mlirDialectHandleLoadDialect(mlirGetDialectHandle__pld__(), context);
  MlirDialect pl = mlirDialectHandleLoadDialect(mlirGetDialectHandle__pl__(), context);
  MlirStringRef pldName = mlirDialectGetNamespace(pld);
  MlirStringRef plName = mlirDialectGetNamespace(pl);
  // CHECK: dialects: pld pl
  printf("dialects: %.*s %.*s\n", (int)pldName.length, pldName.data,
         (int)plName.length, plName.data);

  int64_t shape[] = {4, mlirShapedTypeGetDynamicSize()};
  MlirType dt = pldDistributedTensorTypeGet(context, 2, shape, mlirF32TypeGet(context));
  // CHECK: type: !pld.dtensor<4x?xf32>
  printf("type: ");
  mlirTypePrint(dt, printToStdout, NULL);
  // A DT is a shaped type for the generic C API too.
  // CHECK: is dtensor 1, rank 2, dynamic dim 1: 1, is tile 0
  printf("\nis dtensor %d, rank %d, dynamic dim 1: %d, is tile %d\n",
         pldTypeIsADistributedTensor(dt), (int)mlirShapedTypeGetRank(dt),
         mlirShapedTypeIsDynamicDim(dt, 1), plTypeIsATile(dt));

  int64_t tileShape[] = {1, 64};
  MlirType tile = plTileTypeGet(context, 2, tileShape, mlirF16TypeGet(context));
  // CHECK: tile: !pl.tile<1x64xf16>
  printf("tile: ");
  mlirTypePrint(tile, printToStdout, NULL);
  printf("\n");

  // CHECK: ctx !pld.comm_ctx, ptr !pld.ptr, task !pl.task_id
  printf("ctx ");
  mlirTypePrint(pldCommCtxTypeGet(context), printToStdout, NULL);
  printf(", ptr ");
  mlirTypePrint(pldPtrTypeGet(context), printToStdout, NULL);
  printf(", task ");
  mlirTypePrint(plTaskIdTypeGet(context), printToStdout, NULL);
  printf("\n");

  // An invalid type is reported and comes back null.
  // CHECK: error: distributed tensor dimensions are positive or dynamic ('?'), found 0
  // CHECK: invalid type is null: 1
  int64_t zero[] = {0};
  fflush(stdout);
  MlirType bad = pldDistributedTensorTypeGet(context, 1, zero, mlirF32TypeGet(context));
  printf("invalid type is null: %d\n", mlirTypeIsNull(bad));

  MlirModule module = mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kProgram));
  MlirOperation op = mlirModuleGetOperation(module);
  // CHECK: parsed 1, verified 1
  printf("parsed %d, verified %d\n", !mlirModuleIsNull(module), mlirOperationVerify(op));
  // CHECK: pld.system.notify %arg0[0, 0], peer %arg1, value %arg2, op set : !pld.dtensor<2x1xi32>
  mlirOperationPrint(op, printToStdout, NULL);
  printf("\n");
  mlirModuleDestroy(module);

  // CHECK: error: 'pld.system.notify' op expected one offset entry per dimension of 'target' (2), found 1
  // CHECK: bad program rejected: 1
  fflush(stdout);
  MlirModule badModule = mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kBadProgram));
  printf("bad program rejected: %d\n", mlirModuleIsNull(badModule));

  mlirContextDestroy(context);
  return 0;
}
