//===- Passes.td - pld's passes ----------------------------*- tablegen -*-===//
//
// Every pld pass, declared once: its argument, summary, description,
// options (typed) and statistics. The passes are written in Rust and reach
// MLIR through the pass bridge (pld-c/PassBridge.h); pld-passes' build
// script reads this file for their names, option tables and typed option
// structs, and scripts/gen-docs.sh renders it as docs/passes.md.
//
// No pass names an anchor op: a bridged pass runs on whatever op it is
// scheduled on (usually builtin.module).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_PASSES
#define PLD_PASSES

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// pld level
//===----------------------------------------------------------------------===//

def PldVerify : Pass<"pld-verify"> {
  let summary = "Check the contextual rules of pld programs: placement, "
                "target profile, the defer_wait contract and the signal "
                "protocol";
  let description = [{
    Checks the rules of pld programs that no single op can check, and
    changes nothing:

    - placement: host-only and InCore-only ops. Code is InCore inside a
      function marked `pl.kernel = #pl.kernel<incore>` and inside the body
      of a task (`pl.at`, `pl.spmd`); host code in a function marked
      `#pl.kernel<host>`; an unmarked function is of `default-kind`;
    - target: the module's chip profile (`pld.target`, Ascend910B when
      absent) and the HOST rail's collective limits;
    - collective operands judged by value (a broadcast's root), accesses
      inside their tensor, and what the lowering cannot express;
    - the `defer_wait` contract;
    - the signal protocol: waits that never return, notifies that fire
      twice, Set/AtomicAdd mixing, signals reused without a rising epoch,
      writer/reader region disagreement, notify before data;
    - data races, by running every rank through the IR for each rank count
      of `ranks` and ordering its accesses by pld's happens-before.

    Rules judge values, not spellings (folding plus MLIR's dataflow
    analyses). Every rule with its message, an example and the fix:
    `docs/pld-verify.md`.
  }];
  let options = [
    Option<"defaultKind", "default-kind", "std::string", /*default=*/"\"host\"",
           "Kind of a function without a pl.kernel attribute: host or incore">,
    Option<"ranks", "ranks", "std::string", /*default=*/"\"\"",
           "Rank counts the program must run on, comma-separated (each in "
           "1..=64): the race rule runs each, and a trap there is a warning, "
           "a hang an error. Empty: it runs 2, 3 and 4, and those the program "
           "traps or hangs on are counts it is not written for (a remark)">,
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Whether the race rule remarks on the functions it cannot "
           "decide: true or false">,
    Option<"launches", "launches", "int64_t", /*default=*/"1",
           "Launches of each entry the race rule runs in sequence (in "
           "1..=16), as pld-run --launches makes them: every rank finishes "
           "a launch before any starts the next, and the windows keep what "
           "a launch left">,
    Option<"blocks", "blocks", "int64_t", /*default=*/"1",
           "Blocks an entry kernel (pl.kernel<incore>) is launched on (in "
           "1..=64), as pld-run --blocks launches it: each block runs the "
           "kernel with its pl.get_block_idx; host code runs once per rank">,
    Option<"entry", "entry", "std::string", /*default=*/"\"\"",
           "The entry launches and blocks apply to (a function name, with "
           "or without @), as pld-run launches one entry: the others run "
           "once, on one block. Empty: every entry">,
  ];
  let statistics = [
    Statistic<"numErrors", "errors", "Errors the rules reported">,
    Statistic<"numWarnings", "warnings",
              "Warnings: what the rules could not decide statically">,
    Statistic<"numEntriesRun", "race-entries-run",
              "Entry functions the race rule ran">,
    Statistic<"numEntriesShared", "race-entries-shared",
              "Entry functions judged by the verdict of one with the same "
              "structure (re-running only the runs that showed a rank count "
              "it fails on or cannot decide)">,
    Statistic<"numRuns", "race-runs",
              "Runs of the race rule: every rank's run through the IR, once "
              "per rank count and binding of the entry's arguments">,
  ];
}

def PldDecomposeCollectives : Pass<"pld-decompose-collectives"> {
  let summary = "Decompose every collective into pulls, tile math and "
                "signal handshakes: the seed's algorithms (semantics §4) or "
                "faster ones, chosen by a cost model";
  let description = [{
    Every collective (`pld.tensor.allreduce`, `reduce_scatter`, `allgather`,
    `broadcast`, `barrier`, `all_to_all`) becomes an algorithm written with
    pld-level ops: notify/wait, tile loads, remote loads, puts and gets,
    tile math, scf and arith. The output is ordinary pld that `pld-verify`
    checks like hand-written code.

    The algorithm is the op's `algorithm` attribute, else the `algorithm`
    option; `auto` chooses per op with a cost model over the machine model
    (`model`, `model-overrides`) and, where a size is dynamic, with a
    runtime branch. Collectives in host code run on the HOST rail, as a
    call of a generated kernel. A GEMM fused with communication
    (`pld.tensor.matmul_allreduce`, `matmul_reduce_scatter`,
    `allgather_matmul`) becomes tasks of its host orchestrator: `fused`
    moves the GEMM's tiles (or, for the allgather, its operand's chunks) on
    vector cores as they come, `unfused` runs the GEMM and the collective
    one after the other, and `auto` weighs the two. Every collective is checked before anything is
    rewritten: an error leaves the input as it was.

    Each algorithm as a per-rank timeline, the cost model, the remarks and
    the diagnostics: `docs/pld-decompose-collectives.md`.
  }];
  let options = [
    Option<"chunkBytes", "chunk-bytes", "int64_t", /*default=*/"16384",
           "Bytes per chunk of the seed algorithms (a multiple of 32, at "
           "most 65536); a shorter static stream shrinks it to the smallest "
           "32-byte-aligned width that covers it">,
    Option<"ubBytes", "ub-bytes", "int64_t", /*default=*/"196608",
           "Unified-buffer bytes the other algorithms size their chunks by: "
           "the widest 32-byte chunk whose live tiles all fit">,
    Option<"algorithm", "algorithm", "std::string", /*default=*/"\"auto\"",
           "The algorithm of every collective without an algorithm "
           "attribute that has it (the others choose automatically): auto, "
           "oneshot, twoshot, twoshot_push, ring, seed-mesh, seed-ring, "
           "star, scatter-allgather, direct, seed; oneshot-epoch or "
           "twoshot-epoch for an allreduce with an epoch (and only for "
           "those); fused or unfused for a GEMM fused with communication">,
    Option<"model", "model", "std::string", /*default=*/"\"910b\"",
           "The machine model auto decides with: 910b">,
    Option<"modelOverrides", "model-overrides", "std::string",
           /*default=*/"",
           "Model parameters to override, KEY=VALUE,... (docs/performance.md "
           "lists them)">,
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Whether auto says what it chose and the modelled costs: true or "
           "false">,
    Option<"defaultKind", "default-kind", "std::string", /*default=*/"\"host\"",
           "Kind of a function without a pl.kernel attribute (host or "
           "incore): a collective in host code runs on the HOST rail, as a "
           "call of a generated kernel">,
  ];
  let statistics = [
    Statistic<"numCollectives", "collectives",
              "Collectives decomposed (GEMMs fused with communication too)">,
  ];
}

def PldExpandTransfers : Pass<"pld-expand-transfers"> {
  let summary = "Expand put, get and tensor.remote_store into staged chunk "
                "loops of tile loads and stores (pipeline §3)";
  let description = [{
    Every `pld.tensor.put`, `pld.tensor.get` and `pld.tensor.remote_store`
    becomes a loop over chunks of its region, moved through a staging tile
    of at most `ub-bytes` over the two innermost dimensions (outer
    dimensions are looped over). A put loads a chunk of the local source
    with `pl.load` and pushes it with `pld.tile.remote_store` (atomically
    for an atomic put); a get reads it with `pld.tile.remote_load` and
    stores it with `pl.store`. Ragged edges use `valid`. A `pipeline`
    transfer moves chunks in pairs through two tiles, so that the load of
    one chunk overlaps the store of the previous one. A put or get with
    `engine sdma` is left as it is: the SDMA engine moves it whole, without
    staging (`convert-pld-to-ascend`).

    A put or get without a region moves the whole tensor, so its two
    shapes must be equal; the op's verifier checks the static extents.
    Before each one whose extent is dynamic on either side, the pass puts a
    `cf.assert` per such dimension (the simulator traps where it fails,
    naming the transfer).

    Chunking, the remarks it makes and its diagnostics:
    `docs/pld-expand-transfers.md`.
  }];
  let options = [
    Option<"ubBytes", "ub-bytes", "int64_t", /*default=*/"196608",
           "Bytes of unified buffer the staging tiles may use (both tiles of "
           "a pipeline counted); a written chunking that does not fit is "
           "shrunk, rows first">,
  ];
  let statistics = [
    Statistic<"numTransfers", "transfers",
              "Transfers expanded into chunk loops">,
    Statistic<"numShapeChecks", "shape-checks",
              "Run-time checks that a whole-tensor put or get moves equal "
              "dynamic extents">,
  ];
}

//===----------------------------------------------------------------------===//
// Lowering to the ascend target dialect
//===----------------------------------------------------------------------===//

def ConvertPldToAscend : Pass<"convert-pld-to-ascend"> {
  let summary = "Lower pld and pl (after pld-to-ascend-pipeline) to the "
                "ascend target dialect: kernels over __gm__ pointers and the "
                "CommContext, host code that submits tasks";
  let description = [{
    Takes the output of `pld-to-ascend-pipeline` (collectives and transfers
    already expanded, except puts and gets with `engine sdma`, which become
    SDMA transfers here) and lowers every function to the `ascend` dialect:
    InCore kernels over `__gm__` pointers and the CommContext, host
    orchestrators that submit their outlined task bodies, and entry
    wrappers. Input it cannot lower (an unexpanded transfer, an op outside
    any function) is an error, so nothing unlowered reaches the C++
    printer.

    What every op becomes and the kernel ABI: `docs/lowering.md`.
  }];
  let options = [
    Option<"defaultKind", "default-kind", "std::string", /*default=*/"\"host\"",
           "Kind of a function without a pl.kernel attribute: host or incore">,
  ];
}

def AscendPlanUb : Pass<"ascend-plan-ub"> {
  let summary = "Choose the unified-buffer offset of every ascend tile, "
                "sharing bytes between tiles that are never live together";
  let description = [{
    Assigns every `ascend.tile` its offset in the core's unified buffer,
    first-fit on 32-byte boundaries, sharing bytes between tiles that are
    never live together. Callees are planned first, and a tile live across
    a call sits above everything the callee may use. An
    `ascend.sdma_session` is planned the same way: its 256-byte scratch
    buffer lives until the session's last use. Tiles that cannot be live
    together within `ub-bytes` are an error naming them.

    The planning rules: `docs/lowering.md` ("Unified-buffer planning").
  }];
  let options = [
    Option<"ubBytes", "ub-bytes", "int64_t", /*default=*/"196608",
           "Bytes of unified buffer a core's tiles may use">,
  ];
}

def AscendInsertSync : Pass<"ascend-insert-sync"> {
  let summary = "Insert release between a payload access and a notify, "
                "acquire between a wait and a payload access, and pipe syncs "
                "between load, vector and store pipes (mode=check: report "
                "missing ones instead)";
  let description = [{
    Makes the ordering the target needs around communication explicit: an
    `ascend.release` between a payload access and the notify that publishes
    it, an `ascend.acquire` between a wait and the payload access that
    relies on it, and an `ascend.pipe_sync` where one of the load, vector
    and store pipes relies on another's work. The SDMA engine counts as a
    peer: a post (`ascend.tget_async`, `tput_async`) gets a release before
    it as a notify does, and its `ascend.wait_async` an acquire after it as
    a wait does; a notify, call or return that a post may reach before its
    wait is an error in both modes. What is already there is kept. With
    `mode=check` it inserts nothing and reports each missing release or
    acquire, naming both ops.

    The ordering rules and why: `docs/lowering.md` ("Ordering").
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"insert\"",
           "insert: add what is missing; check: report a notify after a "
           "payload access without release or a payload access after a wait "
           "without acquire">,
  ];
  let statistics = [
    Statistic<"numSyncs", "syncs",
              "Releases, acquires and pipe syncs inserted">,
  ];
}

#endif // PLD_PASSES
