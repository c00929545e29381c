"""cache_lru.py CACHE -- PLD-RUN...: pld-run's cache cap, entry by entry.

Runs PLD-RUN... with PLD_RUN_CACHE=CACHE (a directory that does not exist
yet), adds three 1 MiB entries last used long ago (old, middle) and just now
(recent), and runs it again under two caps, printing which entries each run
left. The runtime library is copied from the suite's shared cache when it is
there, so that only the first run's program is compiled.
"""

import glob
import os
import shutil
import subprocess
import sys
import time

cache, separator, command = sys.argv[1], sys.argv[2], sys.argv[3:]
assert separator == "--" and command, __doc__
MIB = 1 << 20


def run(cap=None):
    env = dict(os.environ, PLD_RUN_CACHE=cache)
    env.pop("PLD_RUN_CACHE_MAX", None)
    if cap is not None:
        env["PLD_RUN_CACHE_MAX"] = str(cap)
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)


def size(path):
    return sum(
        os.path.getsize(os.path.join(root, name))
        for root, _, names in os.walk(path)
        for name in names
    )


def entry(name, used):
    path = os.path.join(cache, "program-" + name)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "prog"), "wb") as file:
        file.write(b"\0" * MIB)
    stamp = os.path.join(path, "used")
    open(stamp, "w").close()
    os.utime(stamp, (used, used))


def real():
    return sorted(
        p for p in glob.glob(os.path.join(cache, "*-*"))
        if len(os.path.basename(p).split("-", 1)[1]) == 64
    )


def report(title):
    names = ["old", "middle", "recent"]
    left = [
        f"{name} {'kept' if os.path.isdir(os.path.join(cache, 'program-' + name)) else 'evicted'}"
        for name in names
    ]
    kinds = [os.path.basename(p).split("-")[0] for p in real()]
    for kind in ["runtime", "program"]:
        left.append(f"{kind} {'kept' if kind in kinds else 'evicted'}")
    print(f"{title}: {', '.join(left)}")


# A cache directory pld-run creates is private (a compiler that fails at
# once stops the run right after it).
fresh = cache + "-fresh"
env = dict(os.environ, PLD_RUN_CACHE=fresh, PLD_CXX="false")
assert subprocess.run(command, env=env, capture_output=True).returncode == 2
print(f"mode {oct(os.stat(fresh).st_mode & 0o777)}")

os.makedirs(cache, mode=0o700)
shared = os.environ.get("PLD_RUN_CACHE")
built = [
    runtime
    for runtime in glob.glob(os.path.join(shared or "/nonexistent", "runtime-*"))
    if os.path.exists(os.path.join(runtime, "libpld_sim_plain.a"))
]
if built:
    # The one the suite used last is this build's.
    runtime = max(built, key=lambda path: os.path.getmtime(path))
    shutil.copytree(runtime, os.path.join(cache, os.path.basename(runtime)),
                    ignore=shutil.ignore_patterns(".staging-*"))

run()
now = time.time()
entry("old", now - 3 * 86400)
entry("middle", now - 2 * 86400)
entry("recent", now)
ours = sum(size(p) for p in real())
run(cap=ours + 3 * MIB // 2)
report("cap 3/2 MiB above the run's entries")

entry("old", now - 3 * 86400)
entry("middle", now - 2 * 86400)
entry("recent", now)
for path in real():
    stamp = os.path.join(path, "used")
    os.utime(stamp, (now - 10 * 86400, now - 10 * 86400))
run(cap=0)
report("cap 0, the run's entries least recent")

kinds = [os.path.basename(p).split("-")[0] for p in real()]
print(f"keys: {kinds.count('runtime')} runtime and {kinds.count('program')} program, each 64 hex digits")
