//===- Patterns.h - the ascend -> EmitC patterns, by op family --*- C++ -*-===//
//
// Internal to the AscendToEmitC conversion: one populate function per op
// family, each defined in the file of that name.
// `populateAscendToEmitCPatterns` adds the six ascend families; the
// dialect's ConvertToEmitCPatternInterface adds the upstream one.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_LIB_CONVERSION_ASCENDTOEMITC_PATTERNS_H
#define PLD_LIB_CONVERSION_ASCENDTOEMITC_PATTERNS_H

namespace mlir {
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

namespace pld::ascend {

/// Queries.cpp: the CommContext's fields, the core's ids, and pointers and
/// views into global memory (rank, nranks, world_size, block_idx,
/// subblock_idx, offset, peer_ptr, view).
void populateQueryPatterns(mlir::TypeConverter &converter,
                           mlir::RewritePatternSet &patterns);

/// Tiles.cpp: unified-buffer tiles and the PTO instructions on them (tile,
/// valid_shape, tload, tstore, tadd, tmax, tmin, tmul, tsub, their tile-scalar
/// forms, texpands, tcopy).
void populateTilePatterns(mlir::TypeConverter &converter,
                          mlir::RewritePatternSet &patterns);

/// Signals.cpp: signal cells and ordering (tnotify, twait, ttest,
/// defer_completion, release, acquire, pipe_sync).
void populateSignalPatterns(mlir::TypeConverter &converter,
                            mlir::RewritePatternSet &patterns);

/// Memory.cpp: global-memory traffic and windows (read, write, tput, tget,
/// sdma_workspace, sdma_session, tget_async, tput_async, wait_async,
/// alloc_window, window_as).
void populateMemoryPatterns(mlir::TypeConverter &converter,
                            mlir::RewritePatternSet &patterns);

/// Tasks.cpp: host launches and tasks, and the arguments of entry wrappers
/// (submit, launch, run_on_lanes, run_mixed, cross_core_signal,
/// cross_core_wait, ffts_addr, set_ffts_base_addr, arg_ptr, arg_dim,
/// arg_scalar).
void populateTaskPatterns(mlir::TypeConverter &converter,
                          mlir::RewritePatternSet &patterns);

/// Checks.cpp: run-time checks (check).
void populateCheckPatterns(mlir::TypeConverter &converter,
                           mlir::RewritePatternSet &patterns);

/// Upstream.cpp: arith, scf and func ops that upstream's EmitC conversions
/// (LLVM 22) leave behind or convert wrongly under pld's types.
void populateUpstreamGapPatterns(mlir::TypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);

} // namespace pld::ascend

#endif // PLD_LIB_CONVERSION_ASCENDTOEMITC_PATTERNS_H
