"""Inputs and golden outputs of the MoE showcase (examples/moe/moe.mlir),
with numpy only: PyPTO's tests/st/distributed/test_l3_ep_dispatch_combine.py
without torch.

    moe_reference.py inputs DIR [--ranks N] [--d D]
        writes DIR/{indices,x_norm,w_padded,idx_padded}.<rank>.npy, what
        `pld-run --load 'indices=DIR/indices.{rank}.npy' ...` loads;
    moe_reference.py check DUMP [--ranks N] [--d D]
        compares what `pld-run --dump DUMP` wrote with the goldens, exactly,
        and prints one line per check;
    moe_reference.py scale FILE --d D
        prints FILE (the example, D = 4096) with the hidden size D instead;
    moe_reference.py phases TRACE FILE
        the modelled span of each phase of FILE (its kernels, cut at its
        `// ---- name` comments) on each rank, from `pld-run --timing
        --trace TRACE` of it, as a markdown table.

The inputs are PyPTO's: x_norm[r, t, d] = bf16(r * 100 + t * 10 + d),
weights[r, t, k] = f32((r + 1) * 0.01 + t * 0.1 + k * 0.001), and TOPK
distinct experts per token drawn at random (numpy's generator seeded with
PyPTO's seed 20260510, not torch's randperm; redrawn until no expert gets
more than R routes). The goldens replay the protocol on the host as
PyPTO's _compute_golden_recv and _compute_golden_routed do; bf16 rounding
is to nearest, ties to even (torch's, and pl.cast's `round rint`), and the
f32 sum over TOPK runs in k order, as the kernel adds, so the check is
exact where PyPTO allows 2 bf16 ulps.
"""

import argparse
import os
import re
import sys

import numpy as np

T = 128  # tokens per rank
TOPK = 6  # experts per token
L = 16  # local experts per rank
R = 192  # receive cap per local expert
W_PAD = 8
IDX_PAD = 8
N_ROUTES = T * TOPK
SEED = 20260510

# The entry's arguments, by position (@moe in examples/moe/moe.mlir).
ARGS = [
    "indices", "x_norm", "w_padded", "idx_padded",
    "recv_x_out", "recv_w_out", "recv_idx_out", "recv_count_out",
    "recv_y", "routed_y", "scratch",
    "pub_counts", "count_done", "recv_x", "recv_w", "recv_idx",
    "data_done", "routed_y_buf", "combine_done",
]


def bf16(values):
    """f32 values rounded to bf16 (to nearest, ties to even), as f32."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


def routing(ranks):
    """indices[r, t, k]: TOPK distinct global experts per token."""
    experts = ranks * L
    seed = SEED
    while True:
        rng = np.random.default_rng(seed)
        indices = np.stack([
            np.stack([rng.permutation(experts)[:TOPK] for _ in range(T)])
            for _ in range(ranks)
        ]).astype(np.int32)
        per_expert = np.bincount(indices.ravel(), minlength=experts)
        if per_expert.max() <= R:
            return indices
        seed += 1


def inputs(ranks, d):
    indices = routing(ranks)
    r, t, col = np.ogrid[:ranks, :T, :d]
    x_norm = bf16((r * 100 + t * 10 + col).astype(np.float32))
    weights = np.array(
        [[[(rr + 1) * 0.01 + tt * 0.1 + kk * 0.001 for kk in range(TOPK)]
          for tt in range(T)] for rr in range(ranks)],
        dtype=np.float32,
    )
    w_padded = np.zeros((ranks, N_ROUTES, W_PAD), np.float32)
    w_padded[:, :, 0] = weights.reshape(ranks, N_ROUTES)
    idx_padded = np.zeros((ranks, N_ROUTES, IDX_PAD), np.int32)
    idx_padded[:, :, 0] = np.arange(N_ROUTES, dtype=np.int32)
    return indices, x_norm, weights, w_padded, idx_padded


def golden_recv(indices, x_norm, weights):
    """What each rank's dispatch stages out: PyPTO's _compute_golden_recv."""
    ranks, d = x_norm.shape[0], x_norm.shape[2]
    recv_x = np.zeros((ranks, L, R, d), np.float32)
    recv_w = np.zeros((ranks, L, R), np.float32)
    recv_idx = np.zeros((ranks, L, R), np.int32)
    count = np.zeros((ranks, L), np.int32)
    send = np.zeros((ranks, ranks, L), np.int32)
    for src in range(ranks):
        for eid in indices[src].ravel():
            send[src, eid // L, eid % L] += 1
    for dst in range(ranks):
        # Rank src's routes to expert e of dst start after those of the
        # ranks before it: the prefix sum over the published counts.
        offset = np.cumsum(send[:, dst], axis=0) - send[:, dst]
        for src in range(ranks):
            cursor = np.zeros(L, np.int32)
            for t in range(T):
                for k in range(TOPK):
                    eid = indices[src, t, k]
                    if eid // L != dst:
                        continue
                    e = eid % L
                    slot = offset[src, e] + cursor[e]
                    cursor[e] += 1
                    recv_x[dst, e, slot] = x_norm[src, t]
                    recv_w[dst, e, slot] = weights[src, t, k]
                    recv_idx[dst, e, slot] = t * TOPK + k
        count[dst] = send[:, dst].sum(axis=0)
    return recv_x, recv_w, recv_idx, count


def golden_routed(x_norm, weights):
    """routed_y[r, t] = sum over k of bf16(w[r, t, k] * x[r, t]) in f32."""
    acc = np.zeros(x_norm.shape, np.float32)
    for k in range(TOPK):
        acc = acc + bf16(weights[:, :, k, None] * x_norm)
    return acc


def golden_recv_y(recv_x, recv_w):
    """local_expert: bf16(f32(recv_x) * recv_w), row by row."""
    return bf16(recv_x * recv_w[..., None])


def write_inputs(directory, ranks, d):
    indices, x_norm, _, w_padded, idx_padded = inputs(ranks, d)
    os.makedirs(directory, exist_ok=True)
    for r in range(ranks):
        np.save(os.path.join(directory, f"indices.{r}.npy"), indices[r])
        # bf16 has no numpy dtype: f32 values a bf16 holds exactly.
        np.save(os.path.join(directory, f"x_norm.{r}.npy"), x_norm[r])
        np.save(os.path.join(directory, f"w_padded.{r}.npy"), w_padded[r])
        np.save(os.path.join(directory, f"idx_padded.{r}.npy"), idx_padded[r])


def check(dump, ranks, d):
    indices, x_norm, weights, _, _ = inputs(ranks, d)
    exp_x, exp_w, exp_idx, exp_count = golden_recv(indices, x_norm, weights)
    exp_y = golden_recv_y(exp_x, exp_w)
    exp_routed = golden_routed(x_norm, weights)

    def got(r, name):
        return np.load(os.path.join(dump, f"rank{r}.arg{ARGS.index(name)}.npy"))

    failures = 0

    def expect(what, ok):
        nonlocal failures
        print(f"{what}: {'ok' if ok else 'MISMATCH'}")
        failures += not ok

    for r in range(ranks):
        count = got(r, "recv_count_out").reshape(L)
        expect(f"rank {r} recv_count", np.array_equal(count, exp_count[r]))
        # Rows past an expert's count were never written: zero, as the
        # windows start.
        expect(f"rank {r} recv_x", np.array_equal(got(r, "recv_x_out").reshape(L, R, d), exp_x[r]))
        expect(f"rank {r} recv_w", np.array_equal(got(r, "recv_w_out"), exp_w[r]))
        expect(f"rank {r} recv_idx", np.array_equal(got(r, "recv_idx_out"), exp_idx[r]))
        # local_expert computes only the rows below each count.
        live = np.arange(R)[None, :] < exp_count[r][:, None]
        recv_y = got(r, "recv_y").reshape(L, R, d)
        expect(f"rank {r} recv_y", np.array_equal(recv_y[live], exp_y[r][live]))
        routed = got(r, "routed_y")
        diff = float(np.abs(routed - exp_routed[r]).max())
        expect(f"rank {r} routed_y (max |diff| {diff:g})", np.array_equal(routed, exp_routed[r]))
    routes = int(exp_count.sum())
    print(f"{ranks} ranks, {routes} routes, {failures} mismatches")
    return failures == 0


def scale(path, d):
    """The example with hidden size d: every `4096` in a shape, a tile or a
    transfer's shape is the hidden size, and nothing else is."""
    with open(path) as file:
        text = file.read()
    return re.sub(r"(?<![0-9])4096(?![0-9])", str(d), text)


def phases(trace, path):
    """Per rank, the first start and last end of the traced slices (waits,
    notifies, transfers, tile math) of the ops of each phase of `path`."""
    import json

    bounds = []  # (first line, name)
    kernel = None
    with open(path) as file:
        for number, line in enumerate(file, 1):
            if m := re.match(r"func\.func @(\w+)", line):
                kernel = m.group(1)
                bounds.append((number, kernel))
            elif m := re.match(r"\s*// ---- ([^:,(]+)", line):
                bounds.append((number, f"{kernel}: {m.group(1).strip()}"))

    def phase(line):
        name = None
        for first, label in bounds:
            if first <= line:
                name = label
        return name

    spans = {}
    with open(trace) as file:
        events = json.load(file)["traceEvents"]
    for event in events:
        if event["ph"] != "X":
            continue
        m = re.search(r":(\d+):\d+$", event.get("args", {}).get("op", ""))
        if not m:
            continue
        key = (phase(int(m.group(1))), event["pid"])
        span = spans.setdefault(key, [float("inf"), 0.0])
        span[0] = min(span[0], event["ts"])
        span[1] = max(span[1], event["ts"] + event["dur"])
    ranks = sorted({rank for _, rank in spans})
    print("| phase | " + " | ".join(f"rank {r} (us)" for r in ranks) + " |")
    print("|---|" + "---|" * len(ranks))
    for _, name in bounds:
        cells = [spans.get((name, r)) for r in ranks]
        if any(cells):
            print(f"| {name} | " + " | ".join(
                "-" if c is None else f"{c[0]:.1f} - {c[1]:.1f}" for c in cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["inputs", "check", "scale", "phases"])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--ranks", type=int, default=4)
    parser.add_argument("--d", type=int, default=4096, help="hidden size D")
    options = parser.parse_args()
    if options.command == "inputs":
        write_inputs(options.paths[0], options.ranks, options.d)
    elif options.command == "check":
        if not check(options.paths[0], options.ranks, options.d):
            sys.exit(1)
    elif options.command == "scale":
        sys.stdout.write(scale(options.paths[0], options.d))
    else:
        phases(options.paths[0], options.paths[1])


if __name__ == "__main__":
    main()
