#!/bin/sh
# pld-reduce's interestingness test: a module is interesting (exit 1) while
# pld-verify still rejects world_size in InCore code. pld-reduce passes the
# candidate file last.
for candidate; do :; done
if pld-opt "$candidate" --pld-verify 2>&1 \
    | grep -q "'pld.system.world_size' is only legal in host code, but it stands in InCore code"; then
  exit 1
fi
exit 0
