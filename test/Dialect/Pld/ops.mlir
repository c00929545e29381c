// Every pld op and type round-trips through the custom syntax and through
// the generic form.
// RUN: pld-opt %s | pld-opt | FileCheck %s
// RUN: pld-opt %s --mlir-print-op-generic | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @types
// CHECK-SAME: !pld.dtensor<4x?xf32>
// CHECK-SAME: !pld.comm_ctx
// CHECK-SAME: !pld.ptr
func.func @types(%dt: !pld.dtensor<4x?xf32>, %ctx: !pld.comm_ctx, %buf: !pld.ptr) {
  return
}

// CHECK-LABEL: func.func @host_system
func.func @host_system(%sig: !pld.dtensor<2x1xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // CHECK: pld.system.world_size
  %n = pld.system.world_size
  // CHECK: pld.system.world_rank
  %me = pld.system.world_rank
  // CHECK: pld.system.get_comm_ctx %{{.*}} : !pld.dtensor<2x1xi32>
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<2x1xi32>
  return
}

// CHECK-LABEL: func.func @incore_system
func.func @incore_system(%sig: !pld.dtensor<2x1xi32>, %peer: index, %v: i32) attributes {pl.kernel = #pl.kernel<incore>} {
  %ctx = pld.system.get_comm_ctx %sig : !pld.dtensor<2x1xi32>
  // CHECK: pld.system.rank %{{.*}}{{$}}
  %me = pld.system.rank %ctx
  // CHECK: pld.system.nranks %{{.*}}{{$}}
  %n = pld.system.nranks %ctx
  // The index forms, which peers and offsets take without a cast.
  // CHECK: pld.system.rank %{{.*}} : index
  %me_index = pld.system.rank %ctx : index
  // CHECK: pld.system.nranks %{{.*}} : index
  %n_index = pld.system.nranks %ctx : index
  // The i32 form may name its type, and prints without it.
  // CHECK: pld.system.rank %{{.*}}{{$}}
  %me_i32 = pld.system.rank %ctx : i32
  // CHECK: pld.system.notify %{{.*}}[%{{.*}}, 0], peer %{{.*}}, value %{{.*}}, op atomic_add : !pld.dtensor<2x1xi32>
  pld.system.notify %sig[%peer, 0], peer %peer, value %v, op atomic_add : !pld.dtensor<2x1xi32>
  // CHECK: pld.system.notify %{{.*}}[1, 0], peer %{{.*}}, value %{{.*}}, op set : !pld.dtensor<2x1xi32>
  pld.system.notify %sig[1, 0], peer %peer, value %v, op set : !pld.dtensor<2x1xi32>
  // CHECK: pld.system.wait %{{.*}}[0, 0], expected %{{.*}}, cmp eq : !pld.dtensor<2x1xi32>
  pld.system.wait %sig[0, 0], expected %v, cmp eq : !pld.dtensor<2x1xi32>
  // CHECK: pld.system.wait %{{.*}}[%{{.*}}, 0], expected %{{.*}}, cmp ge : !pld.dtensor<2x1xi32>
  pld.system.wait %sig[%peer, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  // CHECK: pld.system.defer_wait %{{.*}}[0, 0], expected %{{.*}}, cmp ge : !pld.dtensor<2x1xi32>
  pld.system.defer_wait %sig[0, 0], expected %v, cmp ge : !pld.dtensor<2x1xi32>
  return
}

// CHECK-LABEL: func.func @windows
func.func @windows(%n: index) -> (!pld.dtensor<4x?xf32>, !pld.dtensor<2x1xi32>) {
  // CHECK: pld.tensor.alloc_window_buffer "signal" bytes 4096
  %sbuf = pld.tensor.alloc_window_buffer "signal" bytes 4096
  // CHECK: pld.tensor.alloc_window_buffer "dyn" bytes %{{.*}}
  %dbuf = pld.tensor.alloc_window_buffer "dyn" bytes %n
  // CHECK: pld.tensor.alloc_window_buffer "data" shape [4, %{{.*}}] dtype f32
  %buf = pld.tensor.alloc_window_buffer "data" shape [4, %n] dtype f32
  // CHECK: pld.tensor.alloc_window_buffer "group" bytes 256 ranks [1, 2]
  %gbuf = pld.tensor.alloc_window_buffer "group" bytes 256 ranks [1, 2]
  // CHECK: pld.tensor.alloc_window_buffer "one" shape [1, 64] dtype f32 ranks [3]
  %obuf = pld.tensor.alloc_window_buffer "one" shape [1, 64] dtype f32 ranks [3]
  // CHECK: pld.tensor.window %{{.*}}(%{{.*}}) : !pld.dtensor<4x?xf32>
  %data = pld.tensor.window %buf(%n) : !pld.dtensor<4x?xf32>
  // CHECK: pld.tensor.window %{{.*}} : !pld.dtensor<2x1xi32>
  %sig = pld.tensor.window %sbuf : !pld.dtensor<2x1xi32>
  return %data, %sig : !pld.dtensor<4x?xf32>, !pld.dtensor<2x1xi32>
}

// CHECK-LABEL: func.func @views
func.func @views(%v: !pld.dtensor<64xf32>, %d: !pld.dtensor<4x?xf32>, %len: index) -> index {
  // CHECK: pld.tensor.reshape %{{.*}} : !pld.dtensor<64xf32> to !pld.dtensor<1x64xf32>
  %row = pld.tensor.reshape %v : !pld.dtensor<64xf32> to !pld.dtensor<1x64xf32>
  // CHECK: pld.tensor.reshape %{{.*}}(%{{.*}}) : !pld.dtensor<4x?xf32> to !pld.dtensor<1x?xf32>
  %flat = pld.tensor.reshape %d(%len) : !pld.dtensor<4x?xf32> to !pld.dtensor<1x?xf32>
  // CHECK: pld.tensor.dim %{{.*}}, 1 : !pld.dtensor<4x?xf32>
  %cols = pld.tensor.dim %d, 1 : !pld.dtensor<4x?xf32>
  return %cols : index
}

// CHECK-LABEL: func.func @rma
func.func @rma(%data: !pld.dtensor<2x64xf32>, %acc: !pld.dtensor<16x16xi32>, %p: index, %n: index,
               %t: !pl.tile<1x32xf32>, %ti: !pl.tile<16x16xi32>, %m: memref<1x64xf32>) attributes {pl.kernel = #pl.kernel<incore>} {
  // CHECK: pld.tile.remote_load %{{.*}}[0, 0], peer %{{.*}} : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  %a = pld.tile.remote_load %data[0, 0], peer %p : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // CHECK: pld.tile.remote_load %{{.*}}[1, 32], peer %{{.*}} valid [1, %{{.*}}] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  %b = pld.tile.remote_load %data[1, 32], peer %p valid [1, %n] : !pld.dtensor<2x64xf32> -> !pl.tile<1x64xf32>
  // CHECK: pld.tile.remote_store %{{.*}}, %{{.*}}[0, 32], peer %{{.*}} : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  pld.tile.remote_store %t, %data[0, 32], peer %p : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  // CHECK: pld.tile.remote_store %{{.*}}, %{{.*}}[0, 0], peer %{{.*}} atomic add : !pl.tile<16x16xi32>, !pld.dtensor<16x16xi32>
  pld.tile.remote_store %ti, %acc[0, 0], peer %p atomic add : !pl.tile<16x16xi32>, !pld.dtensor<16x16xi32>
  // CHECK: pld.tile.remote_store %{{.*}}, %{{.*}}[1, 32], peer %{{.*}} valid [1, %{{.*}}] atomic add : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  pld.tile.remote_store %t, %data[1, 32], peer %p valid [1, %n] atomic add : !pl.tile<1x32xf32>, !pld.dtensor<2x64xf32>
  // CHECK: pld.tensor.remote_store %{{.*}}, %{{.*}}[1, 0], peer %{{.*}} : memref<1x64xf32>, !pld.dtensor<2x64xf32>
  pld.tensor.remote_store %m, %data[1, 0], peer %p : memref<1x64xf32>, !pld.dtensor<2x64xf32>
  return
}

// CHECK-LABEL: func.func @put_get
func.func @put_get(%dst: !pld.dtensor<8x128xf32>, %src: memref<8x128xf32>, %win: !pld.dtensor<8x128xf32>,
                   %dyn: !pld.dtensor<?x?xf32>, %dsrc: memref<?x?xf32>, %p: index, %r: index) {
  // CHECK: pld.tensor.put %{{.*}}, peer %{{.*}}, %{{.*}} : !pld.dtensor<8x128xf32>, memref<8x128xf32>
  pld.tensor.put %dst, peer %p, %src : !pld.dtensor<8x128xf32>, memref<8x128xf32>
  // A static side sizes the whole transfer (a dynamic one is checked equal at
  // run time), so no chunk is needed.
  // CHECK: pld.tensor.put %{{.*}}, peer %{{.*}}, %{{.*}} : !pld.dtensor<?x?xf32>, memref<8x128xf32>
  pld.tensor.put %dyn, peer %p, %src : !pld.dtensor<?x?xf32>, memref<8x128xf32>
  // CHECK: pld.tensor.put %{{.*}}, peer %{{.*}}, %{{.*}} chunk_rows 4 chunk_cols 64 pipeline : !pld.dtensor<8x128xf32>, !pld.dtensor<8x128xf32>
  pld.tensor.put %dst, peer %p, %win chunk_rows 4 chunk_cols 64 pipeline : !pld.dtensor<8x128xf32>, !pld.dtensor<8x128xf32>
  // CHECK: pld.tensor.put %{{.*}}, peer %{{.*}}, %{{.*}} dst_offsets [%{{.*}}, 0] src_offsets [0, 0] shape [1, 128] atomic add : !pld.dtensor<8x128xf32>, memref<8x128xf32>
  pld.tensor.put %dst, peer %p, %src dst_offsets [%r, 0] src_offsets [0, 0] shape [1, 128] atomic add : !pld.dtensor<8x128xf32>, memref<8x128xf32>
  // CHECK: pld.tensor.put %{{.*}}, peer %{{.*}}, %{{.*}} chunk_rows 2 chunk_cols 32 : !pld.dtensor<?x?xf32>, memref<?x?xf32>
  pld.tensor.put %dyn, peer %p, %dsrc chunk_rows 2 chunk_cols 32 : !pld.dtensor<?x?xf32>, memref<?x?xf32>
  // CHECK: pld.tensor.get %{{.*}}, peer %{{.*}}, %{{.*}} : memref<8x128xf32>, !pld.dtensor<8x128xf32>
  pld.tensor.get %src, peer %p, %dst : memref<8x128xf32>, !pld.dtensor<8x128xf32>
  // CHECK: pld.tensor.get %{{.*}}, peer %{{.*}}, %{{.*}} dst_offsets [1, 0] src_offsets [0, 0] shape [1, 128] chunk_cols 64 : memref<8x128xf32>, !pld.dtensor<8x128xf32>
  pld.tensor.get %src, peer %p, %dst dst_offsets [1, 0] src_offsets [0, 0] shape [1, 128] chunk_cols 64 : memref<8x128xf32>, !pld.dtensor<8x128xf32>
  // The SDMA engine: printed only when not the default (mte), and no chunk
  // needed for a dynamic extent.
  // CHECK: pld.tensor.put %{{.*}}, peer %{{.*}}, %{{.*}} engine sdma : !pld.dtensor<8x128xf32>, memref<8x128xf32>
  pld.tensor.put %dst, peer %p, %src engine sdma : !pld.dtensor<8x128xf32>, memref<8x128xf32>
  // CHECK: pld.tensor.get %{{.*}}, peer %{{.*}}, %{{.*}} dst_offsets [%{{.*}}, 0] src_offsets [0, 0] shape [1, 128] engine sdma : memref<8x128xf32>, !pld.dtensor<8x128xf32>
  pld.tensor.get %src, peer %p, %dst dst_offsets [%r, 0] src_offsets [0, 0] shape [1, 128] engine sdma : memref<8x128xf32>, !pld.dtensor<8x128xf32>
  // CHECK: pld.tensor.put %{{.*}}, peer %{{.*}}, %{{.*}} engine sdma : !pld.dtensor<?x?xf32>, memref<?x?xf32>
  pld.tensor.put %dyn, peer %p, %dsrc engine sdma : !pld.dtensor<?x?xf32>, memref<?x?xf32>
  // CHECK: pld.tensor.get %{{.*}}, peer %{{.*}}, %{{.*}} : memref<8x128xf32>, !pld.dtensor<8x128xf32>
  // CHECK-NOT: engine
  pld.tensor.get %src, peer %p, %dst engine mte : memref<8x128xf32>, !pld.dtensor<8x128xf32>
  return
}

// CHECK-LABEL: func.func @collectives
func.func @collectives(%data: !pld.dtensor<1x4097xf32>, %h: !pld.dtensor<1x17xf16>, %sig: !pld.dtensor<4x1xi32>,
                       %ring: !pld.dtensor<6x4xi32>, %rows: !pld.dtensor<4x64xf32>, %rows2: !pld.dtensor<4x64xf32>,
                       %row: !pld.dtensor<1x64xf32>, %local: memref<1x64xf32>, %vsig: !pld.dtensor<4xi32>, %root: index,
                       %sig2: !pld.dtensor<4x2xi32>, %hws: !pld.dtensor<2x17xf16>, %spare: !pld.dtensor<7x4xi32>,
                       %one: !pld.dtensor<1x1xi32>, %send: memref<1xi32>, %recv: !pld.dtensor<1xi32>,
                       %vsend: !pld.dtensor<4xi32>, %vrecv: !pld.dtensor<4xi32>) {
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op sum : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  %0 = pld.tensor.allreduce %data, %sig, op sum : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op max mode ring : !pld.dtensor<1x17xf16>, !pld.dtensor<6x4xi32>
  %1 = pld.tensor.allreduce %h, %ring, op max mode ring : !pld.dtensor<1x17xf16>, !pld.dtensor<6x4xi32>
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op sum algorithm twoshot core_num 2 : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x2xi32>
  %7 = pld.tensor.allreduce %data, %sig2, op sum algorithm twoshot core_num 2 : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x2xi32>
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op sum epoch %{{.*}} workspace %{{.*}} : !pld.dtensor<1x17xf16>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x17xf16>
  %10 = pld.tensor.allreduce %h, %sig2, op sum epoch %root workspace %hws : !pld.dtensor<1x17xf16>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x17xf16>
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op max algorithm oneshot_epoch core_num 2 epoch %{{.*}} workspace %{{.*}} : !pld.dtensor<1x17xf16>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x17xf16>
  %11 = pld.tensor.allreduce %h, %sig2, op max algorithm oneshot_epoch core_num 2 epoch %root workspace %hws : !pld.dtensor<1x17xf16>, !pld.dtensor<4x2xi32>, !pld.dtensor<2x17xf16>
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op sum mode ring : !pld.dtensor<1x17xf16>, !pld.dtensor<7x4xi32>
  %16 = pld.tensor.allreduce %h, %spare, op sum mode ring : !pld.dtensor<1x17xf16>, !pld.dtensor<7x4xi32>
  // CHECK: pld.tensor.all_to_all %{{.*}}, %{{.*}}, %{{.*}} algorithm seed : memref<1x64xf32>, !pld.dtensor<1x64xf32>, !pld.dtensor<1x1xi32>
  %17 = pld.tensor.all_to_all %local, %row, %one algorithm seed : memref<1x64xf32>, !pld.dtensor<1x64xf32>, !pld.dtensor<1x1xi32>
  // CHECK: pld.tensor.all_to_all_v %{{.*}}, %{{.*}}, %{{.*}} counts %{{.*}} to %{{.*}} : memref<1x64xf32>, !pld.dtensor<1x64xf32>, !pld.dtensor<1x1xi32>, memref<1xi32>, !pld.dtensor<1xi32>
  %18 = pld.tensor.all_to_all_v %local, %row, %one counts %send to %recv : memref<1x64xf32>, !pld.dtensor<1x64xf32>, !pld.dtensor<1x1xi32>, memref<1xi32>, !pld.dtensor<1xi32>
  // CHECK: pld.tensor.all_to_all_v %{{.*}}, %{{.*}}, %{{.*}} counts %{{.*}} to %{{.*}} algorithm seed : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32>
  %19 = pld.tensor.all_to_all_v %rows, %rows2, %vsig counts %vsend to %vrecv algorithm seed : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32>
  // PyPTO's [world_size] signal, for every mesh collective on one core.
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op sum : !pld.dtensor<1x4097xf32>, !pld.dtensor<4xi32>
  %12 = pld.tensor.allreduce %data, %vsig, op sum : !pld.dtensor<1x4097xf32>, !pld.dtensor<4xi32>
  // CHECK: pld.tensor.reduce_scatter %{{.*}}, %{{.*}}, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>
  %13 = pld.tensor.reduce_scatter %rows, %vsig, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>
  // CHECK: pld.tensor.broadcast %{{.*}}, %{{.*}}, root %{{.*}} : !pld.dtensor<1x4097xf32>, !pld.dtensor<4xi32>
  %14 = pld.tensor.broadcast %data, %vsig, root %root : !pld.dtensor<1x4097xf32>, !pld.dtensor<4xi32>
  // CHECK: pld.tensor.barrier %{{.*}} : !pld.dtensor<4xi32>
  pld.tensor.barrier %vsig : !pld.dtensor<4xi32>
  // CHECK: pld.tensor.all_to_all %{{.*}}, %{{.*}}, %{{.*}} : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>
  %15 = pld.tensor.all_to_all %rows, %rows2, %vsig : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>
  // CHECK: pld.tensor.broadcast %{{.*}}, %{{.*}}, root %{{.*}} core_num 2 : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x2xi32>
  %8 = pld.tensor.broadcast %data, %sig2, root %root core_num 2 : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x2xi32>
  // CHECK: pld.tensor.reduce_scatter %{{.*}}, %{{.*}}, op sum algorithm direct core_num 2 : !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  %9 = pld.tensor.reduce_scatter %rows, %sig2, op sum algorithm direct core_num 2 : !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  // CHECK: pld.tensor.reduce_scatter %{{.*}}, %{{.*}}, op prod : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  %2 = pld.tensor.reduce_scatter %rows, %sig, op prod : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.allgather %{{.*}}, %{{.*}}, %{{.*}} : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  %3 = pld.tensor.allgather %row, %rows, %sig : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.allgather %{{.*}}, %{{.*}}, %{{.*}} : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>
  %4 = pld.tensor.allgather %local, %rows, %vsig : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4xi32>
  // CHECK: pld.tensor.broadcast %{{.*}}, %{{.*}}, root %{{.*}} : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  %5 = pld.tensor.broadcast %data, %sig, root %root : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.barrier %{{.*}} : !pld.dtensor<4x1xi32>
  pld.tensor.barrier %sig : !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.all_to_all %{{.*}}, %{{.*}}, %{{.*}} : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  %6 = pld.tensor.all_to_all %rows, %rows2, %sig : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// A signal [N, 2]: a cell per rank and a column of counters, for every
// collective with a credit signal.
// CHECK-LABEL: func.func @counted_signals
func.func @counted_signals(%data: !pld.dtensor<1x64xf32>, %rows: !pld.dtensor<4x64xf32>, %rows2: !pld.dtensor<4x64xf32>,
                           %row: !pld.dtensor<1x64xf32>, %sig: !pld.dtensor<4x2xi32>, %root: index) {
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>
  %0 = pld.tensor.allreduce %data, %sig, op sum : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>
  // CHECK: pld.tensor.reduce_scatter %{{.*}}, %{{.*}}, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  %1 = pld.tensor.reduce_scatter %rows, %sig, op sum : !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  // CHECK: pld.tensor.allgather %{{.*}}, %{{.*}}, %{{.*}} : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  %2 = pld.tensor.allgather %row, %rows, %sig : !pld.dtensor<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  // CHECK: pld.tensor.broadcast %{{.*}}, %{{.*}}, root %{{.*}} : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>
  %3 = pld.tensor.broadcast %data, %sig, root %root : !pld.dtensor<1x64xf32>, !pld.dtensor<4x2xi32>
  // CHECK: pld.tensor.barrier %{{.*}} : !pld.dtensor<4x2xi32>
  pld.tensor.barrier %sig : !pld.dtensor<4x2xi32>
  // CHECK: pld.tensor.all_to_all %{{.*}}, %{{.*}}, %{{.*}} : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  %4 = pld.tensor.all_to_all %rows, %rows2, %sig : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x2xi32>
  return
}

// Every collective with alternatives takes an optional algorithm; `auto`
// written out stays written (it overrides the pass option).
// CHECK-LABEL: func.func @algorithms
func.func @algorithms(%data: !pld.dtensor<1x4097xf32>, %sig: !pld.dtensor<4x1xi32>, %ring: !pld.dtensor<6x4xi32>,
                      %rows: !pld.dtensor<4x64xf32>, %rows2: !pld.dtensor<4x64xf32>, %local: memref<1x64xf32>,
                      %root: index) {
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op sum algorithm oneshot : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  %0 = pld.tensor.allreduce %data, %sig, op sum algorithm oneshot : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op sum algorithm auto : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  %1 = pld.tensor.allreduce %data, %sig, op sum algorithm auto : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op sum algorithm twoshot_push : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  %p = pld.tensor.allreduce %data, %sig, op sum algorithm twoshot_push : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op max mode ring algorithm twoshot : !pld.dtensor<1x4097xf32>, !pld.dtensor<6x4xi32>
  %2 = pld.tensor.allreduce %data, %ring, op max mode ring algorithm twoshot : !pld.dtensor<1x4097xf32>, !pld.dtensor<6x4xi32>
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op min mode ring algorithm seed_ring : !pld.dtensor<1x4097xf32>, !pld.dtensor<6x4xi32>
  %3 = pld.tensor.allreduce %data, %ring, op min mode ring algorithm seed_ring : !pld.dtensor<1x4097xf32>, !pld.dtensor<6x4xi32>
  // CHECK: pld.tensor.allreduce %{{.*}}, %{{.*}}, op sum algorithm seed_mesh : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  %4 = pld.tensor.allreduce %data, %sig, op sum algorithm seed_mesh : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.reduce_scatter %{{.*}}, %{{.*}}, op prod algorithm direct : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  %5 = pld.tensor.reduce_scatter %rows, %sig, op prod algorithm direct : !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.allgather %{{.*}}, %{{.*}}, %{{.*}} algorithm seed : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  %6 = pld.tensor.allgather %local, %rows, %sig algorithm seed : memref<1x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.broadcast %{{.*}}, %{{.*}}, root %{{.*}} algorithm scatter_allgather : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  %7 = pld.tensor.broadcast %data, %sig, root %root algorithm scatter_allgather : !pld.dtensor<1x4097xf32>, !pld.dtensor<4x1xi32>
  // CHECK: pld.tensor.all_to_all %{{.*}}, %{{.*}}, %{{.*}} algorithm direct : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  %8 = pld.tensor.all_to_all %rows, %rows2, %sig algorithm direct : !pld.dtensor<4x64xf32>, !pld.dtensor<4x64xf32>, !pld.dtensor<4x1xi32>
  return
}

// The target profile module attribute.
// CHECK-LABEL: module attributes {pld.target = #pld.target<Ascend950>}
module attributes {pld.target = #pld.target<Ascend950>} {
}

// CHECK-LABEL: func.func @fused
func.func @fused(%a: memref<200x48xf16>, %b: memref<48x300xf16>, %c: !pld.dtensor<200x300xf32>,
                 %h: !pld.dtensor<200x300xf16>, %bf: memref<200x48xbf16>, %bb: !pld.dtensor<48x300xbf16>,
                 %s: !pld.dtensor<8x4xi32>, %s1: !pld.dtensor<24x2xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // CHECK: %[[T:.*]] = pld.tensor.matmul_allreduce %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, op sum : memref<200x48xf16>, memref<48x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<24x2xi32>
  %t = pld.tensor.matmul_allreduce %a, %b, %c, %s1, op sum : memref<200x48xf16>, memref<48x300xf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<24x2xi32>
  // CHECK: pld.tensor.matmul_allreduce %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, op sum algorithm fused core_num 2 deps[%[[T]]] : memref<200x48xf16>, memref<48x300xf16>, !pld.dtensor<200x300xf16>, !pld.dtensor<8x4xi32>
  %u = pld.tensor.matmul_allreduce %a, %b, %h, %s, op sum algorithm fused core_num 2 deps [%t] : memref<200x48xf16>, memref<48x300xf16>, !pld.dtensor<200x300xf16>, !pld.dtensor<8x4xi32>
  // CHECK: pld.tensor.matmul_allreduce %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, op sum algorithm unfused core_num 2 : memref<200x48xbf16>, !pld.dtensor<48x300xbf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<8x4xi32>
  %v = pld.tensor.matmul_allreduce %bf, %bb, %c, %s, op sum algorithm unfused core_num 2 : memref<200x48xbf16>, !pld.dtensor<48x300xbf16>, !pld.dtensor<200x300xf32>, !pld.dtensor<8x4xi32>
  return
}

// CHECK-LABEL: func.func @matmul_reduce_scatter
func.func @matmul_reduce_scatter(%a: memref<360x40xf16>, %b: memref<40x300xf16>, %p: !pld.dtensor<360x300xf32>,
                                 %o: !pld.dtensor<45x300xf32>, %om: memref<45x300xf32>, %ph: !pld.dtensor<360x300xbf16>,
                                 %oh: !pld.dtensor<45x300xbf16>, %bf: !pld.dtensor<360x40xbf16>, %bb: memref<40x300xbf16>,
                                 %s: !pld.dtensor<8x4xi32>, %s1: !pld.dtensor<8x2xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // CHECK: %[[T:.*]] = pld.tensor.matmul_reduce_scatter %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, op sum : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, !pld.dtensor<45x300xf32>, !pld.dtensor<8x2xi32>
  %t = pld.tensor.matmul_reduce_scatter %a, %b, %p, %o, %s1, op sum : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, !pld.dtensor<45x300xf32>, !pld.dtensor<8x2xi32>
  // CHECK: pld.tensor.matmul_reduce_scatter %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, op sum algorithm unfused core_num 2 deps[%[[T]]] : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, memref<45x300xf32>, !pld.dtensor<8x4xi32>
  %u = pld.tensor.matmul_reduce_scatter %a, %b, %p, %om, %s, op sum algorithm unfused core_num 2 deps [%t] : memref<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf32>, memref<45x300xf32>, !pld.dtensor<8x4xi32>
  // CHECK: pld.tensor.matmul_reduce_scatter %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, op sum algorithm fused core_num 2 : !pld.dtensor<360x40xbf16>, memref<40x300xbf16>, !pld.dtensor<360x300xbf16>, !pld.dtensor<45x300xbf16>, !pld.dtensor<8x4xi32>
  %v = pld.tensor.matmul_reduce_scatter %bf, %bb, %ph, %oh, %s, op sum algorithm fused core_num 2 : !pld.dtensor<360x40xbf16>, memref<40x300xbf16>, !pld.dtensor<360x300xbf16>, !pld.dtensor<45x300xbf16>, !pld.dtensor<8x4xi32>
  return
}

// CHECK-LABEL: func.func @allgather_matmul
func.func @allgather_matmul(%a: memref<45x40xf16>, %g: !pld.dtensor<360x40xf16>, %b: memref<40x300xf16>,
                            %c: memref<360x300xf32>, %ch: !pld.dtensor<360x300xf16>, %ab: !pld.dtensor<45x40xbf16>,
                            %gb: !pld.dtensor<360x40xbf16>, %bb: !pld.dtensor<40x300xbf16>,
                            %s: !pld.dtensor<8x4xi32>, %s1: !pld.dtensor<8x2xi32>) attributes {pl.kernel = #pl.kernel<host>} {
  // CHECK: %[[T:.*]] = pld.tensor.allgather_matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<45x40xf16>, !pld.dtensor<360x40xf16>, memref<40x300xf16>, memref<360x300xf32>, !pld.dtensor<8x2xi32>
  %t = pld.tensor.allgather_matmul %a, %g, %b, %c, %s1 : memref<45x40xf16>, !pld.dtensor<360x40xf16>, memref<40x300xf16>, memref<360x300xf32>, !pld.dtensor<8x2xi32>
  // CHECK: pld.tensor.allgather_matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} algorithm fused core_num 2 deps[%[[T]]] : memref<45x40xf16>, !pld.dtensor<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf16>, !pld.dtensor<8x4xi32>
  %u = pld.tensor.allgather_matmul %a, %g, %b, %ch, %s algorithm fused core_num 2 deps [%t] : memref<45x40xf16>, !pld.dtensor<360x40xf16>, memref<40x300xf16>, !pld.dtensor<360x300xf16>, !pld.dtensor<8x4xi32>
  // CHECK: pld.tensor.allgather_matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} algorithm unfused core_num 2 : !pld.dtensor<45x40xbf16>, !pld.dtensor<360x40xbf16>, !pld.dtensor<40x300xbf16>, memref<360x300xf32>, !pld.dtensor<8x4xi32>
  %v = pld.tensor.allgather_matmul %ab, %gb, %bb, %c, %s algorithm unfused core_num 2 : !pld.dtensor<45x40xbf16>, !pld.dtensor<360x40xbf16>, !pld.dtensor<40x300xbf16>, memref<360x300xf32>, !pld.dtensor<8x4xi32>
  return
}
