//===- AscendEnums.td - ascend enumerations ----------------*- tablegen -*-===//
//
// The enums of PTO ISA, with PTO's own integer values. pld's enums map to
// them by name, never by value: pld's `ge` is 1, PTO's `GE` is 3.
//
//===----------------------------------------------------------------------===//

#ifndef ASCEND_ENUMS_TD
#define ASCEND_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def Ascend_NotifyOpEnum : I32EnumAttr<"NotifyOp",
    "pto::comm::NotifyOp", [
    I32EnumAttrCase<"AtomicAdd", 0, "atomic_add">,
    I32EnumAttrCase<"Set", 1, "set">]> {
  let cppNamespace = "::pld::ascend";
  let genSpecializedAttr = 0;
}

def Ascend_WaitCmpEnum : I32EnumAttr<"WaitCmp",
    "pto::comm::WaitCmp (the subset pld waits with)", [
    I32EnumAttrCase<"EQ", 0, "eq">,
    I32EnumAttrCase<"GE", 3, "ge">]> {
  let cppNamespace = "::pld::ascend";
  let genSpecializedAttr = 0;
}

def Ascend_AtomicTypeEnum : I32EnumAttr<"AtomicType", "pto::AtomicType", [
    I32EnumAttrCase<"AtomicNone", 0, "none">,
    I32EnumAttrCase<"AtomicAdd", 1, "add">]> {
  let cppNamespace = "::pld::ascend";
  let genSpecializedAttr = 0;
}

def Ascend_PipeEnum : I32EnumAttr<"Pipe", "a hardware pipe (pipe_t), by name", [
    I32EnumAttrCase<"S", 0, "s">,
    I32EnumAttrCase<"V", 1, "v">,
    I32EnumAttrCase<"M", 2, "m">,
    I32EnumAttrCase<"MTE1", 3, "mte1">,
    I32EnumAttrCase<"MTE2", 4, "mte2">,
    I32EnumAttrCase<"MTE3", 5, "mte3">,
    I32EnumAttrCase<"All", 6, "all">]> {
  let cppNamespace = "::pld::ascend";
  let genSpecializedAttr = 0;
}

#endif // ASCEND_ENUMS_TD
