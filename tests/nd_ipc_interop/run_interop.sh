#!/usr/bin/env bash
# Drives one direction of the nd IPC interop test (see CMakeLists.txt beside this file):
#   run_interop.sh forward|reverse TOOL NODE INTEROP_DIR WORK_DIR
# forward: lance-nd EncodeRows -> IPC -> apache-arrow JS -> LanceDB createTable (Lance 2.2)
#          -> toArrow -> IPC -> lance-nd: schema, field metadata, arrays and rows must match.
# reverse: apache-arrow JS builds nd batches -> LanceDB (Lance 2.2) -> toArrow -> IPC ->
#          lance-nd RowDecoder: rows must match the JSON sidecar the script wrote.
# Both also check that the checker catches a planted difference. Exit 77 = skipped.
set -euo pipefail
[[ $# -eq 5 ]] || { echo "usage: $0 forward|reverse TOOL NODE INTEROP_DIR WORK_DIR" >&2; exit 2; }
direction=$1 tool=$2 node=$3 interop=$4 work=$5

if [[ ! -d "$interop/node_modules/@lancedb/lancedb" || ! -d "$interop/node_modules/apache-arrow" ]]; then
  echo "interop: the oracle is not installed in $interop/node_modules." >&2
  echo "interop: run 'make setup' (or: cd interop && npm install) and re-run." >&2
  exit 1
fi
rm -rf "$work"
mkdir -p "$work"

# Planting a difference must make the check fail, and fail for the planted reason.
expect_failure() {
  local reason=$1
  shift
  local out
  if out=$("$@" 2>&1); then
    echo "interop: FAILED: the checker accepted planted data ($reason): $*" >&2
    exit 1
  fi
  if ! grep -q -- "$reason" <<<"$out"; then
    echo "interop: FAILED: the planted difference was reported for another reason:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "interop: planted difference detected ($reason)"
}

case "$direction" in
  forward)
    "$tool" write-ipc "$work/out"
    mkdir -p "$work/back"
    for f in "$work"/out/*; do
      base=$(basename "$f")
      format=file
      [[ "$base" == *.arrows ]] && format=stream
      "$node" "$interop/nd_lance_roundtrip.mjs" "$f" "$work/back/$base" "$work/db" \
        --format "$format" --report "$work/back/$base.report.json"
    done
    "$tool" check-ipc "$work/back"
    # Plant: give every case the read-back data of cpp_plain (different variables and rows).
    mkdir -p "$work/planted"
    cp "$work/back/cpp_plain.arrows" "$work/planted/cpp_plain.arrows"
    cp "$work/back/cpp_plain.arrows" "$work/planted/cpp_mixed.arrow"
    expect_failure "cpp_mixed: wrote 12 columns, read back 2" "$tool" check-ipc "$work/planted"
    # Plant: the extension name of 'temp' lost on the way back.
    mkdir -p "$work/planted_md"
    cp "$work/back/cpp_plain.arrows" "$work/planted_md/"
    "$node" "$interop/nd_ipc_edit.mjs" "$work/back/cpp_mixed.arrow" "$work/planted_md/cpp_mixed.arrow" \
      drop-metadata temp ARROW:extension:name
    expect_failure "field temp: wrote metadata" "$tool" check-ipc "$work/planted_md"
    ;;
  reverse)
    "$node" "$interop/nd_js_batches.mjs" "$work/out" "$work/db"
    for j in "$work"/out/*.json; do
      stem=${j%.json}
      ipc=$stem.arrow
      [[ -f "$ipc" ]] || ipc=$stem.arrows
      "$tool" check-json "$ipc" "$j"
    done
    # Plant: one changed value and one changed attribute in the sidecar of js_mixed.
    sed 's/271\.5/271.75/' "$work/out/js_mixed.json" >"$work/planted_value.json"
    expect_failure "variable 'temp': values" "$tool" check-json "$work/out/js_mixed.arrow" \
      "$work/planted_value.json"
    sed 's/"hPa"/"Pa"/' "$work/out/js_mixed.json" >"$work/planted_attr.json"
    expect_failure "variable 'pressure': attributes" "$tool" check-json \
      "$work/out/js_mixed.arrow" "$work/planted_attr.json"
    ;;
  *)
    echo "usage: $0 forward|reverse TOOL NODE INTEROP_DIR WORK_DIR" >&2
    exit 2
    ;;
esac
echo "interop: $direction: ok"
