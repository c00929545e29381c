// pld-verify's race rule on scalar writes (races/lines.rs): two AI cores
// that write different scalars into one 64-byte line, unordered, lose one
// of them on the device (each core's data cache writes the whole line
// back). Each case with its near miss; pld-run --sanitize race reports the
// same at run time (Execution/blocks.test).
// RUN: pld-opt %s --split-input-file --pld-verify=remarks=false --verify-diagnostics

// Four blocks write their index into neighbouring elements: one line.
func.func @packed(%out: memref<1x64xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c4 = arith.constant 4 : index
  %t = pl.spmd %c4 name "write" {
    %b = pl.get_block_idx
    %v = arith.index_cast %b : index to i32
    // expected-error @+2 {{scalar writes share a cache line on 2 ranks: this pl.write on rank 0 task "write" block 1 writes [0, 1) x [1, 2) of rank 0's argument 0 of @packed, in the 64-byte line that pl.write on rank 0 task "write" block 0 writes ([0, 1) x [0, 1)), and no happens-before order puts one before the other: each core's data cache writes the whole line back, so the core that flushes last overwrites the other's value; give each core its own 64-byte line, or order the writes with a notify and a wait}}
    // expected-note @+1 {{the other pl.write, on rank 0 task "write" block 0}}
    pl.write %v, %out[0, %b] : memref<1x64xi32>
  }
  return
}

// -----

// Near miss: 16 elements (64 bytes) apart, a line per block.
func.func @padded(%out: memref<1x64xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %t = pl.spmd %c4 name "write" {
    %b = pl.get_block_idx
    %col = arith.muli %b, %c16 : index
    %v = arith.index_cast %b : index to i32
    pl.write %v, %out[0, %col] : memref<1x64xi32>
  }
  return
}

// -----

// Near miss: the second task depends on the first, so its write into the
// same line comes after the first's.
func.func @ordered(%out: memref<1x64xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %first = pl.at level core_group name "first" {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1 : i32
    pl.write %v, %out[0, %c0] : memref<1x64xi32>
  }
  %second = pl.at level core_group name "second" deps [%first] {
    %c1 = arith.constant 1 : index
    %v = arith.constant 2 : i32
    pl.write %v, %out[0, %c1] : memref<1x64xi32>
  }
  return
}

// -----

// Two independent tasks, one line: reported.
func.func @independent(%out: memref<1x64xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  %first = pl.at level core_group name "first" {
    %c0 = arith.constant 0 : index
    %v = arith.constant 1 : i32
    // expected-note @+1 {{the other pl.write, on rank 0 task "first"}}
    pl.write %v, %out[0, %c0] : memref<1x64xi32>
  }
  %second = pl.at level core_group name "second" {
    %c15 = arith.constant 15 : index
    %v = arith.constant 2 : i32
    // expected-error @+1 {{scalar writes share a cache line on 2 ranks: this pl.write on rank 0 task "second" writes [0, 1) x [15, 16)}}
    pl.write %v, %out[0, %c15] : memref<1x64xi32>
  }
  return
}
