"""count.py N DIR: succeeds iff DIR holds exactly N entries (listing them
otherwise)."""

import os
import sys

want, directory = int(sys.argv[1]), sys.argv[2]
found = sorted(os.listdir(directory))
if len(found) != want:
    print(f"count.py: {directory} holds {found}, expected {want} entries",
          file=sys.stderr)
    sys.exit(1)
