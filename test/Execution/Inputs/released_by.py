"""Prints, for every wait in a pld-run --trace file, which rank's notify the
arrow that ends at it starts from ("itself" for the waiter's own rank), in
the order of the waits.

usage: released_by.py TRACE.json
"""

import json
import sys

events = json.load(open(sys.argv[1]))["traceEvents"]
starts = {e["id"]: e for e in events if e["ph"] == "s"}
ends = [e for e in events if e["ph"] == "f"]
waits = sorted((e for e in events if e["ph"] == "X" and e["name"] == "wait"), key=lambda e: e["ts"])
for wait in waits:
    # The arrow ends where the wait does, or where it starts for a wait that
    # held at once (drawn 1 ns wide); times in microseconds, rounded.
    end = next(
        (e for e in ends if (e["pid"], e["tid"]) == (wait["pid"], wait["tid"])
         and wait["ts"] - 1e-3 < e["ts"] < wait["ts"] + wait["dur"] + 1e-3),
        None,
    )
    if end is None:
        print(f"wait on rank {wait['pid']}: no arrow")
        continue
    source = starts[end["id"]]["pid"]
    print(f"wait on rank {wait['pid']} released by {'itself' if source == wait['pid'] else f'rank {source}'}")
