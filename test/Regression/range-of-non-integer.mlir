// A collective in host code is outlined into a kernel whose arguments are
// distributed tensors; pld-verify, run again on the lowered module, asked the
// integer-range analysis about them and read a zero-width range (undefined
// behaviour in APInt, reported by UBSan under scripts/sanitize.sh). A value
// that is not an integer now has no range. Found by fuzzing.
// RUN: pld-opt %s --pld-to-ascend-pipeline | FileCheck %s

// CHECK-LABEL: func.func @host_all_to_all
// CHECK: call @[[KERNEL:.*]](%arg0, %arg1, %arg2)
// CHECK: func.func private @[[KERNEL]]({{.*}}) attributes {pl.kernel = #pl.kernel<incore>}
// CHECK: pld.system.wait
func.func @host_all_to_all(%in: !pld.dtensor<4x?xf16>, %t: !pld.dtensor<4x?xf16>, %s: !pld.dtensor<4x1xi32>) {
  %r = pld.tensor.all_to_all %in, %t, %s : !pld.dtensor<4x?xf16>, !pld.dtensor<4x?xf16>, !pld.dtensor<4x1xi32>
  return
}
