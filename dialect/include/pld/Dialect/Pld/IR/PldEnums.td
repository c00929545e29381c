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
    I32EnumAttrCase<"TwoshotPush", 10, "twoshot_push">]> {
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
