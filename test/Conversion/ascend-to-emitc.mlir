// The ascend -> EmitC conversion (upstream convert-to-emitc through the
// ascend dialect's interface): every ascend op becomes one
// emitc.call_opaque "pld::rt::..." of the runtime header, enums spelled by
// name, never by value (pld's ge is 1 where PTO's GE is 3), and ops that can
// trap or block pass their site (or, without one, the op and its location)
// as a string literal. The tiles carry the offset ascend-plan-ub gives
// them; a tile without one is an error (ascend-to-emitc-invalid.mlir).
// RUN: pld-opt %s --split-input-file --convert-to-emitc --verify-each | FileCheck %s

// Types: the CommContext and __gm__ pointers are emitc pointers to
// __gm__-qualified opaque types, element types by their C++ name (the
// runtime header's f16 and bf16); tiles, views, task ids and the argument
// array are the runtime header's types. Specifiers stay on the function.
// CHECK-LABEL: emitc.func @types(
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ pld::rt::CommContext">>,
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ float">>,
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ double">>,
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ pld::rt::f16">>,
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ pld::rt::bf16">>,
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ bool">>,
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ int8_t">>,
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ int16_t">>,
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ int32_t">>,
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ int64_t">>,
// CHECK-SAME: %{{.*}}: !emitc.opaque<"pld::rt::Tile<pld::rt::f16, 16, 32>">,
// CHECK-SAME: %{{.*}}: !emitc.opaque<"pld::rt::View<pld::rt::bf16>">,
// CHECK-SAME: %{{.*}}: !emitc.opaque<"pld::rt::TaskId">,
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"const pld::rt::Arg">>)
// CHECK-SAME: attributes {specifiers = ["static __aicore__ inline"]}
// CHECK-NOT: ascend.
func.func @types(%ctx: !ascend.ctx, %f32: !ascend.gm<f32>, %f64: !ascend.gm<f64>, %f16: !ascend.gm<f16>, %bf16: !ascend.gm<bf16>, %i1: !ascend.gm<i1>, %i8: !ascend.gm<i8>, %i16: !ascend.gm<i16>, %i32: !ascend.gm<i32>, %i64: !ascend.gm<i64>, %tile: !ascend.tile<16x32xf16>, %view: !ascend.view<bf16>, %task: !ascend.task, %args: !ascend.args) attributes {specifiers = ["static __aicore__ inline"]} {
  return
}

// -----

// A kernel: ids and addresses, tiles, tile loads, math and stores, the
// communication instructions and the ordering ops.
// CHECK-LABEL: emitc.func @kernel(
// CHECK-SAME: %[[CTX:[^:]*]]: !emitc.ptr<!emitc.opaque<"__gm__ pld::rt::CommContext">>, %[[DATA:[^:]*]]: !emitc.ptr<!emitc.opaque<"__gm__ float">>, %[[SIG:[^:]*]]: !emitc.ptr<!emitc.opaque<"__gm__ int32_t">>, %[[N:[^:]*]]: !emitc.size_t)
// CHECK-SAME: specifiers = ["extern \22C\22", "__global__ __aicore__"]
// CHECK-DAG: %[[C1:.*]] = "emitc.constant"() <{value = 1 : index}> : () -> !emitc.size_t
// CHECK-DAG: %[[C64:.*]] = "emitc.constant"() <{value = 64 : index}> : () -> !emitc.size_t
// CHECK-DAG: %[[ONE:.*]] = "emitc.constant"() <{value = 1 : i32}> : () -> i32
// CHECK: call_opaque "pld::rt::rank"(%[[CTX]]) : ({{.*}}) -> i32
// CHECK: call_opaque "pld::rt::nranks"(%[[CTX]]) : ({{.*}}) -> i32
// CHECK: call_opaque "pld::rt::block_idx"() : () -> !emitc.size_t
// CHECK: call_opaque "pld::rt::subblock_idx"() : () -> !emitc.size_t
// CHECK: %[[CELL:.*]] = call_opaque "pld::rt::offset"(%[[SIG]], %[[C1]]) : ({{.*}}) -> !emitc.ptr<!emitc.opaque<"__gm__ int32_t">>
// The site travels as the last argument.
// CHECK: %[[PEER:.*]] = call_opaque "pld::rt::peer_ptr"(%[[CTX]], %[[CELL]], %[[C1]]) {args = [0 : index, 1 : index, 2 : index, #emitc.opaque<"\22pld.system.notify at k.mlir:3:5\22">]}
// CHECK: %[[VIEW:.*]] = call_opaque "pld::rt::view"(%[[DATA]], %[[C1]], %[[C64]], %[[C64]]) : ({{.*}}) -> !emitc.opaque<"pld::rt::View<float>">
// tile<T, R, C>(offset[, valid rows, valid cols]).
// CHECK: %[[T:.*]] = call_opaque "pld::rt::tile"() {args = [0], template_args = [#emitc.opaque<"float">, 1, 64]} : () -> !emitc.opaque<"pld::rt::Tile<float, 1, 64>">
// CHECK: %[[U:.*]] = call_opaque "pld::rt::tile"(%[[C1]], %[[N]]) {args = [256, 0 : index, 1 : index], template_args = [#emitc.opaque<"float">, 1, 64]}
// CHECK: call_opaque "pld::rt::tload"(%[[T]], %[[VIEW]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22pl.load at k.mlir:7:8\22">]}
// Without a site, the op and its location name it.
// CHECK: call_opaque "pld::rt::tload"(%[[U]], %[[VIEW]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22ascend.tload at {{.*}}ascend-to-emitc.mlir:[[@LINE+48]]:3\22">]}
// CHECK: call_opaque "pld::rt::pipe_sync"() {template_args = [#emitc.opaque<"pld::rt::Pipe::MTE2">, #emitc.opaque<"pld::rt::Pipe::V">]} : () -> ()
// Tile math names its op for the simulator's valid-shape checks.
// CHECK: call_opaque "pld::rt::tadd"(%[[U]], %[[T]], %[[T]]) {args = [0 : index, 1 : index, 2 : index, #emitc.opaque<"\22pl.add at k.mlir:8:10\22">]} : ({{.*}}) -> ()
// CHECK: call_opaque "pld::rt::tmax"(%[[U]], %[[T]], %[[U]])
// CHECK: call_opaque "pld::rt::tmin"(%[[U]], %[[T]], %[[U]])
// CHECK: call_opaque "pld::rt::tmul"(%[[U]], %[[T]], %[[U]])
// CHECK: call_opaque "pld::rt::tcopy"(%[[U]], %[[T]])
// The valid shape of a tile made here folds to what it was made with; the
// tensor a view lies in follows its extent.
// CHECK: call_opaque "pld::rt::view"(%[[DATA]], %[[C1]], %[[N]], %[[C64]], %[[DATA]], %[[N]]) : ({{.*}}) -> !emitc.opaque<"pld::rt::View<float>">
// CHECK: call_opaque "pld::rt::pipe_sync"() {template_args = [#emitc.opaque<"pld::rt::Pipe::V">, #emitc.opaque<"pld::rt::Pipe::MTE3">]}
// The atomic store and put are their own functions.
// CHECK: call_opaque "pld::rt::tstore"(%[[VIEW]], %[[U]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22pl.store at k.mlir:9:3\22">]}
// CHECK: call_opaque "pld::rt::tstore_atomic_add"(%[[VIEW]], %[[U]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22pld.tile.remote_store at k.mlir:10:3\22">]}
// CHECK: call_opaque "pld::rt::tput"(%[[VIEW]], %[[VIEW]], %[[T]]) {args = [0 : index, 1 : index, 2 : index, #emitc.opaque<"\22put\22">]}
// CHECK: call_opaque "pld::rt::tput_atomic_add"(%[[VIEW]], %[[VIEW]], %[[T]], %[[U]]) {args = [0 : index, 1 : index, 2 : index, 3 : index, #emitc.opaque<"\22put\22">]}
// CHECK: call_opaque "pld::rt::tget"(%[[VIEW]], %[[VIEW]], %[[T]], %[[U]]) {args = [0 : index, 1 : index, 2 : index, 3 : index, #emitc.opaque<"\22get\22">]}
// CHECK: call_opaque "pld::rt::release"() : () -> ()
// tnotify(cell, value, op, site, signal, dims...): the enum and the site
// sit between the operands.
// CHECK: call_opaque "pld::rt::tnotify"(%[[PEER]], %[[ONE]], %[[SIG]], %[[N]], %[[C1]]) {args = [0 : index, 1 : index, #emitc.opaque<"pld::rt::NotifyOp::AtomicAdd">, #emitc.opaque<"\22notify\22">, 2 : index, 3 : index, 4 : index]}
// CHECK: call_opaque "pld::rt::tnotify"(%[[PEER]], %[[ONE]], %[[SIG]]) {args = [0 : index, 1 : index, #emitc.opaque<"pld::rt::NotifyOp::Set">, #emitc.opaque<"\22notify\22">, 2 : index]}
// CHECK: call_opaque "pld::rt::twait"(%[[CELL]], %[[ONE]], %[[SIG]], %[[N]], %[[C1]]) {args = [0 : index, 1 : index, #emitc.opaque<"pld::rt::WaitCmp::GE">, #emitc.opaque<"\22wait\22">, 2 : index, 3 : index, 4 : index]}
// CHECK: call_opaque "pld::rt::twait"(%[[CELL]], %[[ONE]], %[[SIG]]) {args = [0 : index, 1 : index, #emitc.opaque<"pld::rt::WaitCmp::EQ">, #emitc.opaque<"\22wait\22">, 2 : index]}
// CHECK: call_opaque "pld::rt::ttest"(%[[CELL]], %[[ONE]]) {args = [0 : index, 1 : index, #emitc.opaque<"pld::rt::WaitCmp::EQ">]} : ({{.*}}) -> i1
// CHECK: call_opaque "pld::rt::acquire"() : () -> ()
// CHECK: %[[X:.*]] = call_opaque "pld::rt::read"(%[[CELL]]) {args = [0 : index, #emitc.opaque<"\22read\22">]} : ({{.*}}) -> i32
// write(ptr, value, site), as a store reads; the tensor follows the site.
// CHECK: call_opaque "pld::rt::write"(%[[CELL]], %[[X]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22write\22">]}
// CHECK: %[[Y:.*]] = call_opaque "pld::rt::read"(%[[CELL]], %[[SIG]], %[[N]]) {args = [0 : index, #emitc.opaque<"\22read\22">, 1 : index, 2 : index]} : ({{.*}}) -> i32
// CHECK: call_opaque "pld::rt::write"(%[[CELL]], %[[Y]], %[[SIG]], %[[N]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22write\22">, 2 : index, 3 : index]}
// CHECK-NOT: ascend.
// CHECK: return
func.func @kernel(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %sig: !ascend.gm<i32>, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1 : i32
  %r = ascend.rank %ctx
  %nr = ascend.nranks %ctx
  %b = ascend.block_idx
  %l = ascend.subblock_idx
  %cell = ascend.offset %sig, %c1 : !ascend.gm<i32>
  %p = ascend.peer_ptr %ctx, %cell, peer %c1 {site = "pld.system.notify at k.mlir:3:5"} : !ascend.gm<i32>
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %t = ascend.tile {offset = 0 : i64} : !ascend.tile<1x64xf32>
  %u = ascend.tile valid(%c1, %n) {offset = 256 : i64} : !ascend.tile<1x64xf32>
  ascend.tload %t, %v {site = "pl.load at k.mlir:7:8"} : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.tload %u, %v : !ascend.tile<1x64xf32>, !ascend.view<f32>
  ascend.pipe_sync mte2 -> v
  ascend.tadd %u, %t, %t {site = "pl.add at k.mlir:8:10"} : !ascend.tile<1x64xf32>
  ascend.tmax %u, %t, %u : !ascend.tile<1x64xf32>
  ascend.tmin %u, %t, %u : !ascend.tile<1x64xf32>
  ascend.tmul %u, %t, %u : !ascend.tile<1x64xf32>
  ascend.tcopy %u, %t : !ascend.tile<1x64xf32>
  %rows, %cols = ascend.valid_shape %u : !ascend.tile<1x64xf32>
  %w = ascend.view %data, rows %rows, cols %cols, stride %c64 in %data[%n] : !ascend.gm<f32> -> !ascend.view<f32>
  ascend.pipe_sync v -> mte3
  ascend.tstore %v, %u {site = "pl.store at k.mlir:9:3"} : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tstore %v, %u atomic add {site = "pld.tile.remote_store at k.mlir:10:3"} : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tput %v, %v, %t {site = "put"} : !ascend.view<f32>, !ascend.tile<1x64xf32>
  ascend.tput %v, %v, %t, %u atomic add {site = "put"} : !ascend.view<f32>, !ascend.tile<1x64xf32>, !ascend.tile<1x64xf32>
  ascend.tget %v, %v, %t, %u {site = "get"} : !ascend.view<f32>, !ascend.tile<1x64xf32>, !ascend.tile<1x64xf32>
  ascend.release
  ascend.tnotify %p, %one, op atomic_add, signal %sig[%n, %c1] {site = "notify"} : !ascend.gm<i32>
  ascend.tnotify %p, %one, op set, signal %sig[] {site = "notify"} : !ascend.gm<i32>
  ascend.twait %cell, %one, cmp ge, signal %sig[%n, %c1] {site = "wait"} : !ascend.gm<i32>
  ascend.twait %cell, %one, cmp eq, signal %sig[] {site = "wait"} : !ascend.gm<i32>
  %ready = ascend.ttest %cell, %one, cmp eq : !ascend.gm<i32>
  ascend.acquire
  %x = ascend.read %cell {site = "read"} : !ascend.gm<i32> -> i32
  ascend.write %x, %cell {site = "write"} : i32, !ascend.gm<i32>
  %y = ascend.read %cell in %sig[%n] {site = "read"} : !ascend.gm<i32> -> i32
  ascend.write %y, %cell in %sig[%n] {site = "write"} : i32, !ascend.gm<i32>
  return
}

// -----

// Every pipe by name; tiles of other element types.
// CHECK-LABEL: emitc.func @pipes_and_types
// CHECK: call_opaque "pld::rt::pipe_sync"() {template_args = [#emitc.opaque<"pld::rt::Pipe::S">, #emitc.opaque<"pld::rt::Pipe::All">]}
// CHECK: call_opaque "pld::rt::pipe_sync"() {template_args = [#emitc.opaque<"pld::rt::Pipe::M">, #emitc.opaque<"pld::rt::Pipe::MTE1">]}
// CHECK: %[[A:.*]] = call_opaque "pld::rt::tile"() {args = [1024], template_args = [#emitc.opaque<"pld::rt::f16">, 16, 32]} : () -> !emitc.opaque<"pld::rt::Tile<pld::rt::f16, 16, 32>">
// CHECK: call_opaque "pld::rt::tmul"(%[[A]], %[[A]], %[[A]])
// CHECK: %[[I:.*]] = call_opaque "pld::rt::tile"() {args = [3072], template_args = [#emitc.opaque<"int16_t">, 1, 16]}
// CHECK: call_opaque "pld::rt::tadd"(%[[I]], %[[I]], %[[I]]) {{.*}}: (!emitc.opaque<"pld::rt::Tile<int16_t, 1, 16>">,
func.func @pipes_and_types(%ctx: !ascend.ctx) attributes {specifiers = ["static __aicore__ inline"]} {
  ascend.pipe_sync s -> all
  ascend.pipe_sync m -> mte1
  %a = ascend.tile {offset = 1024 : i64} : !ascend.tile<16x32xf16>
  ascend.tmul %a, %a, %a : !ascend.tile<16x32xf16>
  %i = ascend.tile {offset = 3072 : i64} : !ascend.tile<1x16xi16>
  ascend.tadd %i, %i, %i : !ascend.tile<1x16xi16>
  return
}

// -----

// The valid shape of a tile that comes from elsewhere is read at run time:
// two calls.
// CHECK-LABEL: emitc.func @valid_shape(
// CHECK-SAME: %{{.*}}, %[[DATA:[^:]*]]: !emitc.ptr<{{.*}}>, %[[TILE:[^:]*]]: !emitc.opaque<"pld::rt::Tile<float, 1, 64>">
// CHECK: %[[ROWS:.*]] = call_opaque "pld::rt::valid_rows"(%[[TILE]]) : ({{.*}}) -> !emitc.size_t
// CHECK: %[[COLS:.*]] = call_opaque "pld::rt::valid_cols"(%[[TILE]]) : ({{.*}}) -> !emitc.size_t
// CHECK: call_opaque "pld::rt::view"(%[[DATA]], %[[ROWS]], %[[COLS]], %[[COLS]])
func.func @valid_shape(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %tile: !ascend.tile<1x64xf32>) attributes {specifiers = ["static __aicore__ inline"]} {
  %rows, %cols = ascend.valid_shape %tile : !ascend.tile<1x64xf32>
  %v = ascend.view %data, rows %rows, cols %cols, stride %cols : !ascend.gm<f32> -> !ascend.view<f32>
  ascend.tstore %v, %tile : !ascend.view<f32>, !ascend.tile<1x64xf32>
  return
}

// -----

// A kernel that defers its completion takes the task's dispatch payload
// after the CommContext, as pld::rt::DispatchPayload.
// CHECK-LABEL: emitc.func @deferring(
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ pld::rt::CommContext">>, %[[PAYLOAD:[^:]*]]: !emitc.opaque<"pld::rt::DispatchPayload">, %[[CELL:[^:]*]]: !emitc.ptr<!emitc.opaque<"__gm__ int32_t">>)
// defer_completion(payload, cell, expected, site, signal, dims...)
// CHECK: call_opaque "pld::rt::defer_completion"(%[[PAYLOAD]], %[[CELL]], %{{.*}}, %[[CELL]], %{{.*}}) {args = [0 : index, 1 : index, 2 : index, #emitc.opaque<"\22defer\22">, 3 : index, 4 : index]}
func.func @deferring(%ctx: !ascend.ctx, %payload: !ascend.dispatch_payload, %cell: !ascend.gm<i32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %one = arith.constant 1 : i32
  %c4 = arith.constant 4 : index
  ascend.defer_completion %payload, %cell, %one, signal %cell[%c4] {site = "defer"} : !ascend.gm<i32>
  return
}

// -----

// A task's kernel reads its block and lane from its payload; a kernel
// launched without one passes a null payload to a device function that
// takes one.
// CHECK-LABEL: emitc.func @task_indices(
// CHECK-SAME: %[[PAYLOAD:[^:]*]]: !emitc.opaque<"pld::rt::DispatchPayload">)
// CHECK: call_opaque "pld::rt::block_idx"(%[[PAYLOAD]]) : (!emitc.opaque<"pld::rt::DispatchPayload">) -> !emitc.size_t
// CHECK: call_opaque "pld::rt::subblock_idx"(%[[PAYLOAD]]) : (!emitc.opaque<"pld::rt::DispatchPayload">) -> !emitc.size_t
// CHECK: call_opaque "pld::rt::block_idx"() : () -> !emitc.size_t
// CHECK: %[[NONE:.*]] = call_opaque "pld::rt::no_payload"() : () -> !emitc.opaque<"pld::rt::DispatchPayload">
// CHECK: call @task_indices(%{{.*}}, %[[NONE]])
func.func @task_indices(%ctx: !ascend.ctx, %payload: !ascend.dispatch_payload) attributes {specifiers = ["static __aicore__ inline"]} {
  %b = ascend.block_idx from %payload
  %l = ascend.subblock_idx from %payload
  %native = ascend.block_idx
  return
}
func.func @native(%ctx: !ascend.ctx) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %none = ascend.no_payload
  func.call @task_indices(%ctx, %none) : (!ascend.ctx, !ascend.dispatch_payload) -> ()
  return
}

// -----

// Host code: windows, tasks (their dependencies as one pld::rt::Deps; a task
// without `if` is always dispatched), launches and lanes, the kernel by name.
// CHECK-LABEL: emitc.func @host(
// CHECK-SAME: %[[CTX:[^:]*]]: !emitc.ptr<!emitc.opaque<"__gm__ pld::rt::CommContext">>, %[[DATA:[^:]*]]: !emitc.ptr<!emitc.opaque<"__gm__ float">>, %[[SIG:[^:]*]]: !emitc.ptr<!emitc.opaque<"__gm__ int32_t">>, %[[GO:[^:]*]]: i1)
// CHECK-DAG: %[[C1:.*]] = "emitc.constant"() <{value = 1 : index}>
// CHECK-DAG: %[[C4:.*]] = "emitc.constant"() <{value = 4 : index}>
// CHECK: call_opaque "pld::rt::world_size"(%[[CTX]]) : ({{.*}}) -> i64
// CHECK: %[[BUF:.*]] = call_opaque "pld::rt::alloc_window"(%[[CTX]], %[[C4]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22buf\22">]} : ({{.*}}) -> !emitc.ptr<!emitc.opaque<"__gm__ int8_t">>
// CHECK: %[[F:.*]] = call_opaque "pld::rt::window_as"(%[[BUF]]) {template_args = [#emitc.opaque<"float">]} : ({{.*}}) -> !emitc.ptr<!emitc.opaque<"__gm__ float">>
// submit(ctx, name, blocks, dispatch, deps, kernel, args...)
// CHECK: %[[NODEPS:.*]] = call_opaque "pld::rt::deps"() : () -> !emitc.opaque<"pld::rt::Deps">
// CHECK: %[[T1:.*]] = call_opaque "pld::rt::submit"(%[[CTX]], %[[C1]], %[[NODEPS]], %[[DATA]], %[[SIG]], %[[C1]]) {args = [0 : index, #emitc.opaque<"\22first\22">, 1 : index, #emitc.opaque<"true">, 2 : index, #emitc.opaque<"kernel">, 3 : index, 4 : index, 5 : index]} : ({{.*}}) -> !emitc.opaque<"pld::rt::TaskId">
// CHECK: %[[DEPS:.*]] = call_opaque "pld::rt::deps"(%[[T1]]) : (!emitc.opaque<"pld::rt::TaskId">) -> !emitc.opaque<"pld::rt::Deps">
// CHECK: call_opaque "pld::rt::submit"(%[[CTX]], %[[C4]], %[[GO]], %[[DEPS]], %[[F]], %[[SIG]], %[[C1]]) {args = [0 : index, #emitc.opaque<"\22second\22">, 1 : index, 2 : index, 3 : index, #emitc.opaque<"kernel">, 4 : index, 5 : index, 6 : index]}
// launch(ctx, blocks, kernel, args...), run_on_lanes(ctx, body, args...)
// CHECK: call_opaque "pld::rt::launch"(%[[CTX]], %[[C1]], %[[DATA]], %[[SIG]], %[[C1]]) {args = [0 : index, 1 : index, #emitc.opaque<"kernel">, 2 : index, 3 : index, 4 : index]}
// CHECK: call_opaque "pld::rt::run_on_lanes"(%[[CTX]]) {args = [0 : index, #emitc.opaque<"lanes">]}
// A comm group's context: comm_group<ranks...>(ctx), launched with.
// CHECK: %[[GROUP:.*]] = call_opaque "pld::rt::comm_group"(%[[CTX]]) {template_args = [#emitc.opaque<"1">, #emitc.opaque<"2">]} : ({{.*}}) -> !emitc.ptr<!emitc.opaque<"__gm__ pld::rt::CommContext">>
// CHECK: call_opaque "pld::rt::launch"(%[[GROUP]], %[[C1]], %[[DATA]], %[[SIG]], %[[C1]])
func.func @kernel(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %sig: !ascend.gm<i32>, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  return
}
func.func @lanes(%ctx: !ascend.ctx) attributes {specifiers = ["static __aicore__ inline"]} {
  return
}
func.func @host(%ctx: !ascend.ctx, %data: !ascend.gm<f32>, %sig: !ascend.gm<i32>, %go: i1) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %w = ascend.world_size %ctx
  %b = ascend.alloc_window %ctx, %c4 {name = "buf"} : !ascend.gm<i8>
  %f = ascend.window_as %b : !ascend.gm<i8> -> !ascend.gm<f32>
  %t = ascend.submit @kernel(%data, %sig, %c1) ctx %ctx blocks %c1 name "first" : (!ascend.gm<f32>, !ascend.gm<i32>, index) -> !ascend.task
  %t2 = ascend.submit @kernel(%f, %sig, %c1) ctx %ctx deps [%t] blocks %c4 if %go name "second" : (!ascend.gm<f32>, !ascend.gm<i32>, index) -> !ascend.task
  ascend.launch @kernel(%data, %sig, %c1) ctx %ctx blocks %c1 : (!ascend.gm<f32>, !ascend.gm<i32>, index) -> ()
  ascend.run_on_lanes @lanes() ctx %ctx : () -> ()
  %group = ascend.comm_group %ctx ranks [1, 2]
  ascend.launch @kernel(%data, %sig, %c1) ctx %group blocks %c1 : (!ascend.gm<f32>, !ascend.gm<i32>, index) -> ()
  return
}

// -----

// An entry wrapper reads its arguments from the argument array: pointers and
// scalars with their C++ type as template argument.
// CHECK-LABEL: emitc.func @entry(
// CHECK-SAME: %{{.*}}: !emitc.ptr<!emitc.opaque<"__gm__ pld::rt::CommContext">>, %[[ARGS:[^:]*]]: !emitc.ptr<!emitc.opaque<"const pld::rt::Arg">>)
// CHECK: call_opaque "pld::rt::arg_ptr"(%[[ARGS]]) {args = [0 : index, 0], template_args = [#emitc.opaque<"float">]} : ({{.*}}) -> !emitc.ptr<!emitc.opaque<"__gm__ float">>
// CHECK: call_opaque "pld::rt::arg_dim"(%[[ARGS]]) {args = [0 : index, 0, 1]} : ({{.*}}) -> !emitc.size_t
// CHECK: call_opaque "pld::rt::arg_ptr"(%[[ARGS]]) {args = [0 : index, 1], template_args = [#emitc.opaque<"pld::rt::bf16">]} : ({{.*}}) -> !emitc.ptr<!emitc.opaque<"__gm__ pld::rt::bf16">>
// CHECK: call_opaque "pld::rt::arg_scalar"(%[[ARGS]]) {args = [0 : index, 2], template_args = [#emitc.opaque<"int32_t">]} : ({{.*}}) -> i32
// CHECK: call_opaque "pld::rt::arg_scalar"(%[[ARGS]]) {args = [0 : index, 3], template_args = [#emitc.opaque<"float">]} : ({{.*}}) -> f32
// CHECK: call_opaque "pld::rt::arg_scalar"(%[[ARGS]]) {args = [0 : index, 4], template_args = [#emitc.opaque<"int64_t">]} : ({{.*}}) -> !emitc.size_t
func.func @entry(%ctx: !ascend.ctx, %args: !ascend.args) attributes {specifiers = ["extern \"C\""]} {
  %p = ascend.arg_ptr %args[0] : !ascend.gm<f32>
  %d = ascend.arg_dim %args[0, 1]
  %h = ascend.arg_ptr %args[1] : !ascend.gm<bf16>
  %s = ascend.arg_scalar %args[2] : i32
  %x = ascend.arg_scalar %args[3] : f32
  %i = ascend.arg_scalar %args[4] : index
  return
}

// -----

// The cube: each tile kind is its own handle type and maker (mat, left,
// right, acc), and the cube's ops are runtime calls that pass their site;
// the fixpipe's store is a tstore of an Acc handle (its overload converts).
// CHECK-LABEL: emitc.func @cube
// CHECK: %[[MAT:.*]] = call_opaque "pld::rt::mat"(%{{.*}}, %{{.*}}) {args = [0, 0 : index, 1 : index], template_args = [#emitc.opaque<"pld::rt::f16">, 32, 64]} : ({{.*}}) -> !emitc.opaque<"pld::rt::Mat<pld::rt::f16, 32, 64>">
// CHECK: %[[LEFT:.*]] = call_opaque "pld::rt::left"() {args = [0], template_args = [#emitc.opaque<"pld::rt::f16">, 32, 32]} : () -> !emitc.opaque<"pld::rt::Left<pld::rt::f16, 32, 32>">
// CHECK: %[[RIGHT:.*]] = call_opaque "pld::rt::right"() {args = [512], {{.*}} -> !emitc.opaque<"pld::rt::Right<pld::rt::f16, 32, 16>">
// CHECK: %[[ACC:.*]] = call_opaque "pld::rt::acc"() {{.*}} -> !emitc.opaque<"pld::rt::Acc<float, 32, 16>">
// CHECK: call_opaque "pld::rt::tload"(%[[MAT]], %{{.*}})
// CHECK: call_opaque "pld::rt::textract"(%[[LEFT]], %[[MAT]], %{{.*}}, %{{.*}}) {args = [0 : index, 1 : index, 2 : index, 3 : index, #emitc.opaque<"\22pl.matmul at k.mlir:4:8\22">]}
// CHECK: call_opaque "pld::rt::tmatmul"(%[[ACC]], %[[LEFT]], %[[RIGHT]]) {args = [0 : index, 1 : index, 2 : index, #emitc.opaque<"\22pl.matmul at k.mlir:4:8\22">]}
// CHECK: call_opaque "pld::rt::tmatmul_acc"(%[[ACC]], %[[LEFT]], %[[RIGHT]])
// CHECK: call_opaque "pld::rt::tstore"(%{{.*}}, %[[ACC]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22pl.store at k.mlir:5:3\22">]}
// CHECK: call_opaque "pld::rt::pipe_sync"() {template_args = [#emitc.opaque<"pld::rt::Pipe::M">, #emitc.opaque<"pld::rt::Pipe::FIX">]}
func.func @cube(%a: !ascend.gm<f16>, %c: !ascend.gm<f16>, %n: index) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %mat = ascend.tile valid(%c16, %n) {offset = 0 : i64} : !ascend.tile<32x64xf16, mat>
  %left = ascend.tile {offset = 0 : i64} : !ascend.tile<32x32xf16, left>
  %right = ascend.tile {offset = 512 : i64} : !ascend.tile<32x16xf16, right>
  %acc = ascend.tile {offset = 0 : i64} : !ascend.tile<32x16xf32, acc>
  %v = ascend.view %a, rows %c16, cols %n, stride %n : !ascend.gm<f16> -> !ascend.view<f16>
  ascend.tload %mat, %v {site = "pl.load at k.mlir:2:9"} : !ascend.tile<32x64xf16, mat>, !ascend.view<f16>
  ascend.textract %left, %mat, row %c0, col %c16 {site = "pl.matmul at k.mlir:4:8"} : !ascend.tile<32x32xf16, left>, !ascend.tile<32x64xf16, mat>
  ascend.tmatmul %acc, %left, %right {site = "pl.matmul at k.mlir:4:8"} : !ascend.tile<32x16xf32, acc>, !ascend.tile<32x32xf16, left>, !ascend.tile<32x16xf16, right>
  ascend.tmatmul_acc %acc, %left, %right {site = "pl.matmul at k.mlir:4:8"} : !ascend.tile<32x16xf32, acc>, !ascend.tile<32x32xf16, left>, !ascend.tile<32x16xf16, right>
  %w = ascend.view %c, rows %c16, cols %c16, stride %c16 : !ascend.gm<f16> -> !ascend.view<f16>
  ascend.tstore_acc %w, %acc {site = "pl.store at k.mlir:5:3"} : !ascend.view<f16>, !ascend.tile<32x16xf32, acc>
  ascend.pipe_sync m -> fix
  return
}

// -----

// SDMA: the kernel's workspace parameter and its session and events are the
// runtime header's types; the session is built on its planned scratch
// offset and goes by reference to the posts and waits, each with its site.
// Host code gets the workspace from the runtime.
// CHECK-LABEL: emitc.func @sdma(
// CHECK-SAME: %[[WS:[^:]*]]: !emitc.opaque<"pld::rt::SdmaWorkspace">, %[[ID:[^:]*]]: i32,
// CHECK: %[[S:.*]] = call_opaque "pld::rt::sdma_session"(%[[WS]], %[[ID]]) {args = [0 : index, 1 : index, 256, #emitc.opaque<"\22session\22">]} : (!emitc.opaque<"pld::rt::SdmaWorkspace">, i32) -> !emitc.opaque<"pld::rt::AsyncSession">
// CHECK: %[[E:.*]] = call_opaque "pld::rt::tget_async"(%[[V:.*]], %[[V]], %[[S]]) {args = [0 : index, 1 : index, 2 : index, #emitc.opaque<"\22get\22">]} : ({{.*}}) -> !emitc.opaque<"pld::rt::AsyncEvent">
// CHECK: call_opaque "pld::rt::wait_async"(%[[E]], %[[S]]) {args = [0 : index, 1 : index, #emitc.opaque<"\22get\22">]}
// CHECK: %[[F:.*]] = call_opaque "pld::rt::tput_async"(%[[V]], %[[V]], %[[S]])
// CHECK: call_opaque "pld::rt::wait_async"(%[[F]], %[[S]])
// A task's kernel passes its payload last: the lane of its channel.
// CHECK-LABEL: emitc.func @sdma_task(
// CHECK-SAME: %[[TWS:[^:]*]]: !emitc.opaque<"pld::rt::SdmaWorkspace">, %[[TID:[^:]*]]: i32, %[[P:[^:]*]]: !emitc.opaque<"pld::rt::DispatchPayload">
// CHECK: call_opaque "pld::rt::sdma_session"(%[[TWS]], %[[TID]], %[[P]]) {args = [0 : index, 1 : index, 256, #emitc.opaque<"\22session\22">, 2 : index]}
// CHECK-LABEL: emitc.func @sdma_host(
// CHECK: call_opaque "pld::rt::sdma_workspace"(%{{.*}}) : (!emitc.ptr<!emitc.opaque<"__gm__ pld::rt::CommContext">>) -> !emitc.opaque<"pld::rt::SdmaWorkspace">
func.func @sdma(%ctx: !ascend.ctx, %ws: !ascend.sdma_workspace, %id: i32, %data: !ascend.gm<f32>) attributes {specifiers = ["extern \"C\"", "__global__ __aicore__"]} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %s = ascend.sdma_session %ws, sync_id %id {offset = 256 : i64, site = "session"}
  %v = ascend.view %data, rows %c1, cols %c64, stride %c64 : !ascend.gm<f32> -> !ascend.view<f32>
  %e = ascend.tget_async %v, %v, session %s {site = "get"} : !ascend.view<f32>
  ascend.wait_async %e, session %s {site = "get"}
  %f = ascend.tput_async %v, %v, session %s {site = "put"} : !ascend.view<f32>
  ascend.wait_async %f, session %s {site = "put"}
  return
}
func.func @sdma_task(%ws: !ascend.sdma_workspace, %id: i32, %payload: !ascend.dispatch_payload) {
  %s = ascend.sdma_session %ws, sync_id %id from %payload {offset = 256 : i64, site = "session"}
  return
}
func.func @sdma_host(%ctx: !ascend.ctx) -> !ascend.sdma_workspace {
  %ws = ascend.sdma_workspace %ctx
  return %ws : !ascend.sdma_workspace
}
