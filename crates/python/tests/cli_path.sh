#!/usr/bin/env bash
# Prints the path of the `yomi` binary that `cargo test --workspace` builds (the README's test
# command), building it if needed: after that command this is a no-op. Used by
# .ci/python.sh and by conftest.py when $YOMI_CLI is not set.
set -euo pipefail
cd "$(dirname "$0")/../../.."
cargo test --workspace --no-run --quiet --message-format=json "$@" |
    python3 -c '
import json, sys
found = None
for line in sys.stdin:  # every line: stopping early would break the pipe cargo writes to
    m = json.loads(line)
    t = m.get("target", {})
    # The binary itself, not the test harness of its unit tests (also a "bin" artifact).
    if (
        m.get("reason") == "compiler-artifact"
        and t.get("name") == "yomi"
        and "bin" in t.get("kind", [])
        and not m["profile"]["test"]
    ):
        found = m["executable"]
if found is None:
    sys.exit("cargo test --workspace built no yomi binary")
print(found)
'
