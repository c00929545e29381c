"""crash.py [VAR=VALUE]... -- TOOL ARGS...: starts TOOL with its standard
input an open pipe, lets it reach the point where it waits, sends it
SIGSEGV, and prints what it wrote to stderr and how it ended."""

import os
import signal
import subprocess
import sys
import time

separator = sys.argv.index("--")
env = dict(os.environ)
for item in sys.argv[1:separator]:
    name, value = item.split("=", 1)
    env[name] = value
# Under the sanitizers (scripts/sanitize.sh) their runtime would catch the
# signal, print its own report and exit 1; the signal here is sent from
# outside, so there is nothing for it to find: leave the signal to the tool.
for runtime in ("ASAN_OPTIONS", "UBSAN_OPTIONS"):
    env[runtime] = ":".join(filter(None, [env.get(runtime), "handle_segv=0"]))
tool = subprocess.Popen(sys.argv[separator + 1:], stdin=subprocess.PIPE,
                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
time.sleep(2)
tool.send_signal(signal.SIGSEGV)
try:
    _, stderr = tool.communicate(timeout=60)
    ending = (f"crashed with signal {-tool.returncode}" if tool.returncode < 0
              else f"exited with {tool.returncode}")
except subprocess.TimeoutExpired:
    tool.kill()
    _, stderr = tool.communicate()
    ending = "still running 60 s after the signal: killed"
sys.stdout.write(stderr.decode(errors="replace"))
print(ending)
