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
    I32EnumAttrCase<"All", 6, "all">,
    // The cube's store pipe (L0C to global memory); PTO's PIPE_FIX.
    I32EnumAttrCase<"FIX", 7, "fix">]> {
  let cppNamespace = "::pld::ascend";
  let genSpecializedAttr = 0;
}

// pto::TileType, with PTO's values (include/pto/common/type.hpp:123): what a
// tile is for, and so the on-chip memory it lives in and its layout rules.
def Ascend_TileKindEnum : I32EnumAttr<"TileKind",
    "pto::TileType: a tile's role and the memory it lives in", [
    I32EnumAttrCase<"Vec", 0, "vec">,
    I32EnumAttrCase<"Mat", 1, "mat">,
    I32EnumAttrCase<"Left", 2, "left">,
    I32EnumAttrCase<"Right", 3, "right">,
    I32EnumAttrCase<"Acc", 4, "acc">]> {
  let cppNamespace = "::pld::ascend";
  let genSpecializedAttr = 0;
}

// The two kinds of AI core of a block: the cube core and a vector core.
def Ascend_CoreEnum : I32EnumAttr<"Core", "an AI core of a block: the cube or a vector core", [
    I32EnumAttrCase<"AIC", 0, "aic">,
    I32EnumAttrCase<"AIV", 1, "aiv">]> {
  let cppNamespace = "::pld::ascend";
  let genSpecializedAttr = 0;
}

#endif // ASCEND_ENUMS_TD
