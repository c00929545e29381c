"""Prints a function with `depth` nested scf.for loops or pl.at tasks."""

import sys

kind, depth = sys.argv[1], int(sys.argv[2])
print("func.func @deep(%n: index) attributes {pl.kernel = #pl.kernel<host>} {")
print("  %c0 = arith.constant 0 : index")
print("  %c1 = arith.constant 1 : index")
for level in range(depth):
    if kind == "scf.for":
        print(f"  scf.for %i{level} = %c0 to %n step %c1 {{")
    else:
        print(f'  %t{level} = pl.at level core_group name "t{level}" {{')
print("  }" * depth)
print("  return")
print("}")
