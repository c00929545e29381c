// Option values are checked when the pipeline is parsed.
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{chunk-bytes=100})' 2>&1 | FileCheck %s --check-prefix=CHUNK
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{chunk-bytes=131072})' 2>&1 | FileCheck %s --check-prefix=CHUNK-LARGE
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{algorithm=fastest})' 2>&1 | FileCheck %s --check-prefix=ALGORITHM
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{model=h100})' 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{model-overrides=alpha_ns=-1})' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{model-overrides=alpha=1})' 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{ub-bytes=16})' 2>&1 | FileCheck %s --check-prefix=DECOMPOSE-UB
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{remarks=maybe})' 2>&1 | FileCheck %s --check-prefix=REMARKS
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-expand-transfers{ub-bytes=16})' 2>&1 | FileCheck %s --check-prefix=UB
// RUN: not pld-opt %s --pass-pipeline='builtin.module(pld-to-ascend-pipeline{algorithm=fastest})' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// The near misses: both spellings of an algorithm, several overrides.
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-decompose-collectives{algorithm=seed-mesh model=910b model-overrides=alpha_ns=500,issue_ns=10 remarks=false ub-bytes=32})' -o /dev/null
// RUN: pld-opt %s --pass-pipeline='builtin.module(pld-to-ascend-pipeline{algorithm=scatter_allgather model-overrides=ingress_bytes_per_ns=100})' -o /dev/null
// RUN: pld-opt %s --help | FileCheck %s --check-prefix=HELP

// CHUNK: pld-decompose-collectives: expected chunk-bytes to be a positive multiple of 32 of at most 65536, found 100
// CHUNK-LARGE: found 131072
// ALGORITHM: pld-decompose-collectives: expected algorithm to be one of auto, oneshot, twoshot, ring, seed_mesh, seed_ring, star, scatter_allgather, direct, seed, twoshot_push, fused, unfused, oneshot_epoch, twoshot_epoch ('-' for '_' too), found 'fastest'
// MODEL: pld-decompose-collectives: unknown machine model 'h100' (known: 910b)
// NEGATIVE: pld-decompose-collectives: model-overrides: model parameter alpha_ns must be a non-negative number, found -1
// KEY: pld-decompose-collectives: model-overrides: unknown model parameter 'alpha' (known: alpha_ns, link_bytes_per_ns,
// DECOMPOSE-UB: pld-decompose-collectives: expected ub-bytes to be an integer in [32, 196608], found '16'
// REMARKS: pld-decompose-collectives: expected remarks to be 'true' or 'false', found 'maybe'
// UB: pld-expand-transfers: expected ub-bytes to be an integer >= 32, found '16'
// PIPELINE: expected algorithm to be one of auto,

// HELP: --pld-decompose-collectives
// HELP: --algorithm=
// HELP: --chunk-bytes=
// HELP: --default-kind=
// HELP: --model=
// HELP: --model-overrides=
// HELP: --remarks=
// HELP: --ub-bytes=
// HELP: --pld-expand-transfers
// HELP: --ub-bytes=
// HELP: --pld-to-ascend-pipeline
// HELP: --algorithm=
// HELP: --chunk-bytes=
// HELP: --default-kind=
// HELP: --model=
// HELP: --model-overrides=
// HELP: --ub-bytes=
// HELP: --pld-to-cce-pipeline
// HELP: --algorithm=

func.func @empty() {
  return
}
