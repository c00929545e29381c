"""Moves the first notify after the first store of a task of a decomposed
module (stdin) before that store (stdout): the mutation of
test/Execution/fused.test and its siblings, a tile or chunk published
before it is stored.

usage: publish_early.py [TASK [STORE]]: the task's name (default
"matmul_allreduce.matmul") and the op that stores (default "pl.store")."""
import sys

name = sys.argv[1] if len(sys.argv) > 1 else "matmul_allreduce.matmul"
op = sys.argv[2] if len(sys.argv) > 2 else "pl.store"
lines = sys.stdin.read().split("\n")
task = next(i for i, l in enumerate(lines) if f'name "{name}"' in l)
store = next(i for i in range(task, len(lines)) if op in lines[i])
notify = next(i for i in range(store, len(lines)) if "pld.system.notify" in lines[i])
moved = lines[store + 1 : notify + 1]
del lines[store + 1 : notify + 1]
lines[store:store] = moved
print("\n".join(lines))
