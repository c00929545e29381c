//===- PlEnums.td - pl enumerations -----------------------*- tablegen -*-===//
//
// The C++ enums alone (no dialect), so that -gen-enum-decls on this file
// emits exactly this dialect's enums.
//
//===----------------------------------------------------------------------===//

#ifndef PL_ENUMS_TD
#define PL_ENUMS_TD

include "mlir/IR/EnumAttr.td"

def Pl_KernelKindEnum : I32EnumAttr<"KernelKind", "where a function runs", [
    I32EnumAttrCase<"Host", 0, "host">,
    I32EnumAttrCase<"InCore", 1, "incore">]> {
  let cppNamespace = "::pld::pl";
  let genSpecializedAttr = 0;
}

// How an op touches a region (MemoryAccessOpInterface).
def Pl_AccessKindEnum : I32EnumAttr<"AccessKind", "how an access touches memory", [
    I32EnumAttrCase<"Read", 0, "read">,
    I32EnumAttrCase<"Write", 1, "write">,
    I32EnumAttrCase<"AtomicAdd", 2, "atomic_add">]> {
  let cppNamespace = "::pld::pl";
  let genSpecializedAttr = 0;
}

def Pl_LevelEnum : I32EnumAttr<"Level", "the hardware level a task runs at", [
    I32EnumAttrCase<"Core", 0, "core">,
    I32EnumAttrCase<"CoreGroup", 1, "core_group">]> {
  let cppNamespace = "::pld::pl";
  let genSpecializedAttr = 0;
}

def Pl_SplitModeEnum : I32EnumAttr<"SplitMode",
    "how a split-AIV region divides work between the two AIV sub-lanes", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"UpDown", 1, "up_down">,
    I32EnumAttrCase<"LeftRight", 2, "left_right">]> {
  let cppNamespace = "::pld::pl";
  let genSpecializedAttr = 0;
}

// PTO's RoundMode values (include/pto/common/type.hpp:251-259), so that a
// mode is the same number on both sides.
def Pl_RoundModeEnum : I32EnumAttr<"RoundMode",
    "how a conversion rounds (PTO's RoundMode)", [
    I32EnumAttrCase<"None", 0, "none">,
    I32EnumAttrCase<"Rint", 1, "rint">,
    I32EnumAttrCase<"Round", 2, "round">,
    I32EnumAttrCase<"Floor", 3, "floor">,
    I32EnumAttrCase<"Ceil", 4, "ceil">,
    I32EnumAttrCase<"Trunc", 5, "trunc">,
    I32EnumAttrCase<"Odd", 6, "odd">]> {
  let cppNamespace = "::pld::pl";
  let genSpecializedAttr = 0;
}

#endif // PL_ENUMS_TD
