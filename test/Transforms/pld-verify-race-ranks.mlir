// pld-verify's `ranks` option: the rank counts the race rule runs a program
// on. Two writers of rank 0's row exist only from 3 ranks on.
// RUN: pld-opt %s --pld-verify='ranks=2' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO --allow-empty
// RUN: not pld-opt %s --pld-verify='ranks=3' -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: not pld-opt %s --pld-verify='ranks=2,0' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not pld-opt %s --pld-verify='remarks=maybe' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS

// TWO-NOT: error
// THREE: error: data race on 3 ranks: this pld.tile.remote_store on rank 2 writes [0, 1) x [0, 64) of rank 0's argument 0 of @two_writers
// BAD: expected ranks to be rank counts in 1..=64 separated by commas, found '2,0'
// REMARKS: expected remarks to be 'true' or 'false', found 'maybe'

func.func @two_writers(%data: !pld.dtensor<2x64xf32>, %sig: !pld.dtensor<4x1xi32>) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<4x1xi32>
  %me32 = pld.system.rank %ctx
  %n32 = pld.system.nranks %ctx
  %me = arith.index_cast %me32 : i32 to index
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %others = arith.subi %n32, %one : i32
  %is_root = arith.cmpi eq, %me, %c0 : index
  scf.if %is_root {
    pld.system.wait %sig[0, 0], expected %others, cmp ge : !pld.dtensor<4x1xi32>
  } else {
    %row = pl.load %data[1, 0] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
    pld.tile.remote_store %row, %data[0, 0], peer %c0 : !pl.tile<1x64xf32>, !pld.dtensor<2x64xf32>
    pld.system.notify %sig[0, 0], peer %c0, value %one, op atomic_add : !pld.dtensor<4x1xi32>
  }
  return
}
