"""Checks that timed runs (pld-run --timing --stats=json) agree on every
modelled time, per rank and in all, and prints the model's parameters.

usage: same_clock.py RUN.json...
"""

import json
import sys

runs = [json.load(open(path)) for path in sys.argv[1:]]
clocks = [
    (run["modelled_ns"], [rank["modelled_ns"] for rank in run["ranks"]]) for run in runs
]
if any(clock != clocks[0] for clock in clocks):
    sys.exit(f"modelled times differ: {clocks}")
print(f"modelled_ns equal in {len(runs)} runs")
print("model: " + " ".join(sorted(runs[0]["model"])))
