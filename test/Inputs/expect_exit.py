"""expect_exit.py N -- CMD...: runs CMD and succeeds iff it exits with N.

lit's `not` only tells zero from non-zero; the tools' exit statuses say
more (pld-run: 3 deadlock, 4 trap, 5 sanitizer report), and tests check them.
"""

import subprocess
import sys

want, separator, command = sys.argv[1], sys.argv[2], sys.argv[3:]
assert separator == "--" and command, __doc__
code = subprocess.call(command)
if code != int(want):
    print(f"expect_exit.py: {command[0]} exited with {code}, expected {want}",
          file=sys.stderr)
    sys.exit(1)
