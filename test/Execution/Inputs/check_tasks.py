"""Checks a pld-run --trace file for what a task orchestration leaves in
it: every thread's life (host, tasks, kernel lanes), every deferred
condition with the arrow from the notify that made it hold, and what a
stopped run left blocked.

usage: check_tasks.py TRACE.json
"""

import json
import sys

events = json.load(open(sys.argv[1]))["traceEvents"]
slices = [e for e in events if e["ph"] == "X"]
for rank in sorted({e["pid"] for e in slices}):
    lives = sorted({e["name"] for e in slices if e["pid"] == rank and e["cat"] == "thread"})
    print(f"rank {rank}: {', '.join(lives)}")
notifies = {(e["pid"], e["tid"], e["ts"]) for e in slices if e["name"] == "notify"}
starts = {e["id"]: e for e in events if e["ph"] == "s"}
# Where each arrow from a notify ends, with the rank it comes from.
arrows = []
for end in (e for e in events if e["ph"] == "f"):
    start = starts.get(end["id"])
    if start and (start["pid"], start["tid"], start["ts"]) in notifies:
        arrows.append((end["pid"], end["tid"], end["ts"], start["pid"]))
deferred = [e for e in slices if e["name"] == "deferred"]
from_peer = sum(
    1
    for e in deferred
    if any(
        (pid, tid) == (e["pid"], e["tid"]) and e["ts"] <= ts <= e["ts"] + e["dur"] + 1e-3 and src != pid
        for pid, tid, ts, src in arrows
    )
)
if deferred:
    print(f"{len(deferred)} deferred conditions, {from_peer} released by a peer's notify")
for e in sorted((e for e in slices if e["name"] == "blocked"), key=lambda e: (e["pid"], e["args"]["on"])):
    print(f"blocked on rank {e['pid']}: {e['args']['on'].split(';')[0]}")
