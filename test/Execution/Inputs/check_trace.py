"""Checks a pld-run --trace file (and its --timeline picture): which ranks
have waits, whether every wait ends at an arrow from a notify, and whether
the picture has a row per rank and an arrow per wait.

usage: check_trace.py TRACE.json (TIMELINE.svg | -) RANKS
"""

import json
import sys

trace_path, svg_path, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
events = json.load(open(trace_path))["traceEvents"]
waits = [e for e in events if e["ph"] == "X" and e["name"] == "wait"]
notifies = [e for e in events if e["ph"] == "X" and e["name"] == "notify"]
with_waits = {e["pid"] for e in waits}
if with_waits != set(range(ranks)):
    sys.exit(f"ranks with waits: {sorted(with_waits)}")
print(f"{ranks} ranks, each with waits")
starts = {e["id"]: e for e in events if e["ph"] == "s"}
ends = [e for e in events if e["ph"] == "f"]
notify_at = {(e["pid"], e["tid"], e["ts"]) for e in notifies}
released = [
    end
    for end in ends
    if end["id"] in starts
    and (starts[end["id"]]["pid"], starts[end["id"]]["tid"], starts[end["id"]]["ts"]) in notify_at
]
if len(released) == len(waits):
    print("every wait released by an arrow from a notify")
else:
    print(f"{len(released)} arrows from notifies for {len(waits)} waits")
if svg_path != "-":
    svg = open(svg_path).read()
    rows = sum(1 for r in range(ranks) if f">rank {r} block 0 lane 0</text>" in svg)
    arrows = svg.count("marker-end")
    print(f"svg: {rows} ranks, {'one arrow per wait' if arrows == len(waits) else f'{arrows} arrows for {len(waits)} waits'}")
