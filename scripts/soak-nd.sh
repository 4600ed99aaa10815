#!/usr/bin/env bash
# Soak of the random nd table interop (tests/nd_table_interop): seeds FROM..TO, each written by
# LanceDB and by lance-nd in Lance 2.1 and 2.2 and checked value for value both ways.
#   scripts/soak-nd.sh FROM TO [BUILD_DIR]        (BUILD_DIR defaults to build/dev)
# Prints each mismatch with its seed and the command that repeats it, then the totals; exits 1
# when any seed mismatched.
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 FROM TO [BUILD_DIR]" >&2; exit 2; }
from=$1 to=$2
root=$(cd "$(dirname "$0")/.." && pwd)
build=${3:-$root/build/dev}
tool=$build/tests/nd_table_interop/nd_table_tool
[[ -x "$tool" ]] || { echo "soak-nd: build nd_table_tool first ($tool)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/soak-nd.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A copy of the tool, so that rebuilding during a long soak does not disturb it.
cp "$tool" "$work/nd_table_tool"
node "$root/tests/nd_table_interop/nd_tables.mjs" --tool "$work/nd_table_tool" --work "$work/run" \
  --from "$from" --to "$to"
