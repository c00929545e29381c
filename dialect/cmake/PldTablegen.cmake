# pld_dialect_tablegen(<Name> <dialect>): the .inc files of one dialect, from
# <Name>Enums.td (enums alone) and <Name>Ops.td (dialect, types, attributes,
# ops), as the target <Name>IncGen.
function(pld_dialect_tablegen name dialect)
  set(LLVM_TARGET_DEFINITIONS ${name}Enums.td)
  mlir_tablegen(${name}Enums.h.inc -gen-enum-decls)
  mlir_tablegen(${name}Enums.cpp.inc -gen-enum-defs)

  set(LLVM_TARGET_DEFINITIONS ${name}Ops.td)
  mlir_tablegen(${name}Dialect.h.inc -gen-dialect-decls -dialect=${dialect})
  mlir_tablegen(${name}Dialect.cpp.inc -gen-dialect-defs -dialect=${dialect})
  mlir_tablegen(${name}Types.h.inc -gen-typedef-decls -typedefs-dialect=${dialect})
  mlir_tablegen(${name}Types.cpp.inc -gen-typedef-defs -typedefs-dialect=${dialect})
  mlir_tablegen(${name}Attrs.h.inc -gen-attrdef-decls -attrdefs-dialect=${dialect})
  mlir_tablegen(${name}Attrs.cpp.inc -gen-attrdef-defs -attrdefs-dialect=${dialect})
  mlir_tablegen(${name}Ops.h.inc -gen-op-decls)
  mlir_tablegen(${name}Ops.cpp.inc -gen-op-defs)
  add_public_tablegen_target(${name}IncGen)

  # Every op's operand groups, for the C API's pldOperationGetOperandGroup:
  # the records as JSON (llvm-tblgen), then the table
  # (gen-operand-groups.py), which the C++ compiler checks against the
  # accessors ODS generates.
  set(records ${CMAKE_CURRENT_BINARY_DIR}/${name}Records.json)
  set(groups ${CMAKE_CURRENT_BINARY_DIR}/${name}OperandGroups.inc)
  add_custom_command(OUTPUT ${records}
    COMMAND ${LLVM_TOOLS_BINARY_DIR}/llvm-tblgen --dump-json
      -I ${PLD_SOURCE_INCLUDE_DIR} -I ${MLIR_INCLUDE_DIRS}
      ${CMAKE_CURRENT_SOURCE_DIR}/${name}Ops.td -o ${records} -d ${records}.d
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${name}Ops.td
    DEPFILE ${records}.d)
  add_custom_command(OUTPUT ${groups}
    COMMAND ${Python3_EXECUTABLE} ${PLD_GEN_OPERAND_GROUPS} ${records} ${groups}
      ${name}_
    DEPENDS ${records} ${PLD_GEN_OPERAND_GROUPS})
  add_custom_target(${name}OperandGroupsGen DEPENDS ${groups})
  add_dependencies(${name}IncGen ${name}OperandGroupsGen)
endfunction()
