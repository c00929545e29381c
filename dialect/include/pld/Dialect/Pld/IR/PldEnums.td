//===- PldEnums.td - pld enumerations -----------------------*- tablegen -*-===//
//
// The C++ enums alone (no dialect), so that -gen-enum-decls on this file
// emits exactly this dialect's enums.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_ENUMS_TD
#define PLD_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def Pld_NotifyOpEnum : I32EnumAttr<"NotifyOp", "signal deposit mode", [
    I32EnumAttrCase<"AtomicAdd", 0, "atomic_add">,
    I32EnumAttrCase<"Set", 1, "set">]> {
  let cppNamespace = "::pld";
  let genSpecializedAttr = 0;
}

def Pld_WaitCmpEnum : I32EnumAttr<"WaitCmp", "wait predicate", [
    I32EnumAttrCase<"Eq", 0, "eq">,
    I32EnumAttrCase<"Ge", 1, "ge">]> {
  let cppNamespace = "::pld";
  let genSpecializedAttr = 0;
}

// What a signal op does to its cell (SignalOpInterface).
def Pld_SignalEffectEnum : I32EnumAttr<"SignalEffect", "what a signal op does to its cell", [
    I32EnumAttrCase<"NotifySet", 0, "notify_set">,
    I32EnumAttrCase<"NotifyAtomicAdd", 1, "notify_atomic_add">,
    I32EnumAttrCase<"WaitEq", 2, "wait_eq">,
    I32EnumAttrCase<"WaitGe", 3, "wait_ge">]> {
  let cppNamespace = "::pld";
  let genSpecializedAttr = 0;
}

def Pld_ReduceOpEnum : I32EnumAttr<"ReduceOp", "reduction operator", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"Prod", 3, "prod">]> {
  let cppNamespace = "::pld";
  let genSpecializedAttr = 0;
}

def Pld_AtomicTypeEnum : I32EnumAttr<"AtomicType", "remote-store combine mode", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Add", 1, "add">]> {
  let cppNamespace = "::pld";
  let genSpecializedAttr = 0;
}

// What moves the bytes of a `pld.tensor.put` / `pld.tensor.get` (its
// `engine`): the core's own MTE pipes through staging tiles in the unified
// buffer, or the SDMA engine from global memory to global memory.
def Pld_TransferEngineEnum : I32EnumAttr<"TransferEngine",
    "the engine that moves a put's or a get's bytes", [
    I32EnumAttrCase<"Mte", 0, "mte">,
    I32EnumAttrCase<"Sdma", 1, "sdma">]> {
  let cppNamespace = "::pld";
  let genSpecializedAttr = 0;
  let description = [{
    `mte` (the default): the AI core moves the region itself, chunk by
    chunk through a staging tile in its unified buffer (TLOAD on MTE2, then
    TSTORE on MTE3; `pld-expand-transfers`), which `chunk_rows`,
    `chunk_cols` and `pipeline` size. `sdma`: the core hands the region to
    the SDMA engine (PTO's `TPUT_ASYNC` / `TGET_ASYNC`), which copies it
    from global memory to global memory without a staging tile and without
    the core's pipes, and waits for it to complete; it costs a launch of
    some 2.5 us and then moves bytes at the SDMA rate, so it pays off for
    large regions (docs/target/pto-isa.md, "SDMA transfers").
  }];
}

def Pld_CollectiveModeEnum : I32EnumAttr<"CollectiveMode",
    "allreduce algorithm", [
    I32EnumAttrCase<"Mesh", 0, "mesh">,
    I32EnumAttrCase<"Ring", 1, "ring">]> {
  let cppNamespace = "::pld";
  let genSpecializedAttr = 0;
}

// How pld-decompose-collectives decomposes a collective
// (docs/pld-decompose-collectives.md). Each collective takes `auto`, `seed`
// and its own alternatives (CollectiveOpInterface::getAlgorithms); an
// allreduce's `mode` stays the layout of the signal the user provides.
def Pld_CollectiveAlgorithmEnum : I32EnumAttr<"CollectiveAlgorithm",
    "collective algorithm", [
    I32EnumAttrCase<"Auto", 0, "auto">,
    I32EnumAttrCase<"Oneshot", 1, "oneshot">,
    I32EnumAttrCase<"Twoshot", 2, "twoshot">,
    I32EnumAttrCase<"Ring", 3, "ring">,
    I32EnumAttrCase<"SeedMesh", 4, "seed_mesh">,
    I32EnumAttrCase<"SeedRing", 5, "seed_ring">,
    I32EnumAttrCase<"Star", 6, "star">,
    I32EnumAttrCase<"ScatterAllgather", 7, "scatter_allgather">,
    I32EnumAttrCase<"Direct", 8, "direct">,
    I32EnumAttrCase<"Seed", 9, "seed">,
    I32EnumAttrCase<"TwoshotPush", 10, "twoshot_push">,
    I32EnumAttrCase<"Fused", 11, "fused">,
    I32EnumAttrCase<"Unfused", 12, "unfused">,
    I32EnumAttrCase<"OneshotEpoch", 13, "oneshot_epoch">,
    I32EnumAttrCase<"TwoshotEpoch", 14, "twoshot_epoch">]> {
  let cppNamespace = "::pld";
  let genSpecializedAttr = 0;
}

def Pld_TargetProfileEnum : I32EnumAttr<"TargetProfile",
    "the Ascend chip a module is compiled for", [
    I32EnumAttrCase<"Ascend910B", 0, "Ascend910B">,
    I32EnumAttrCase<"Ascend950", 1, "Ascend950">]> {
  let cppNamespace = "::pld";
  let genSpecializedAttr = 0;
}

#endif // PLD_ENUMS_TD
