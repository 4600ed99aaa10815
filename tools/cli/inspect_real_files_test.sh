#!/bin/sh
# `lance-nd inspect` on real files others wrote (tests/lance_testdata): a transaction kept only in
# a `.txn` file is shown, and a column of a type lance-nd does not read does not block inspect.
#   inspect_real_files_test.sh LANCE_ND_BINARY TESTDATA_DIR
set -u
bin=$1
data=$2
fail=0
expect() {  # expect TEXT OUTPUT
  if ! printf '%s\n' "$2" | grep -qF -- "$1"; then
    echo "FAIL: missing line: $1"
    fail=1
  fi
}
run() {
  "$bin" inspect "$@" 2>&1 || { echo "FAIL: lance-nd inspect $* exited with $?"; fail=1; }
}

out=$(run "$data/v0.15.0/v2_with_files.lance")
expect "  version 1  2024-08-19T18:33:24.229997829Z  Overwrite" "$out"
expect "  operation: Overwrite (read version 0)" "$out"

out=$(run --json "$data/v0.15.0/v2_with_files.lance")
expect '"operation": "Overwrite"' "$out"
expect '"read_version": 0' "$out"

for v in 2_1 2_2; do
  table="$data/lancedb_0.39/dict_decimal_$v.lance"
  out=$(run "$table")
  expect "  operation: Overwrite (read version 0)" "$out"
  expect "  dict_utf8_int8: dict:string:int8:false  [id 1, parent -1]" "$out"
  expect "  dec256_60_20: decimal:256:60:20  [id 7, parent -1]" "$out"
  expect "  time_ms: time32:ms  [id 8, parent -1]" "$out"
  file=$(ls "$table"/data/*.lance)
  out=$(run "$file")
  expect "  dict_utf8_int8: dict:string:int8:false  [id 1, parent -1, column 1]" "$out"
  expect "  time_ms: time32:ms  [id 8, parent -1, column 8]" "$out"
  expect "      not readable: field 'time_ms' (id 8): logical type 'time32:ms' is not supported by lance-nd" "$out"
  expect "  column 8 time_ms (field 8): 1 page" "$out"
  expect "  packed_xy: struct  [id 9, parent -1, column 9]" "$out"
  expect "      not readable: field 'packed_xy' (id 9) is a packed struct, which lance-nd does not read" "$out"
done
exit $fail
