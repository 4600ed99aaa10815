#!/bin/sh
# Soak of the differential test (tests/differential): many more seeds than ctest runs.
#   scripts/soak-differential.sh [FIRST_SEED] [COUNT] [BUILD_DIR] [NAME]
# Defaults: seeds 1000..1999, build/dev. Needs the oracle in interop/node_modules. Prints every failing seed with the command that repeats
# it; add such a seed to tests/differential/seeds.txt as a regression case once it is fixed.
# The page-shape coverage of the run is written to BUILD_DIR/NAME.md and .json (NAME defaults
# to soak_page_shapes; give each of several parallel soaks its own name; their JSON files can be
# summarised together: tests/differential/summarize_coverage.mjs A.json B.json).
set -eu
first=${1:-1000}
count=${2:-1000}
build=${3:-build/dev}
name=${4:-soak_page_shapes}
root=$(cd "$(dirname "$0")/.." && pwd)
tool="$root/$build/tests/differential/differential_tool"
[ -x "$tool" ] || { echo "build the differential_tool target first ($tool)" >&2; exit 2; }
work="$root/$build/${name}_work"  # passing tables are removed; failing ones stay for inspection
rm -rf "$work"
node "$root/tests/differential/run.mjs" --tool "$tool" --work "$work" --from "$first" --count "$count" \
  --coverage "$root/$build/$name.md" --coverage-json "$root/$build/$name.json" --quiet yes
