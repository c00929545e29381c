"""chown.py UID PATH: gives PATH to the user UID (needs root)."""

import os
import sys

os.chown(sys.argv[2], int(sys.argv[1]), -1)
