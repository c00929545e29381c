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

def Pld_TargetProfileEnum : I32EnumAttr<"TargetProfile",
    "the Ascend chip a module is compiled for", [
    I32EnumAttrCase<"Ascend910B", 0, "Ascend910B">,
    I32EnumAttrCase<"Ascend950", 1, "Ascend950">]> {
  let cppNamespace = "::pld";
  let genSpecializedAttr = 0;
}

#endif // PLD_ENUMS_TD
