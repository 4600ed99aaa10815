#!/bin/sh
# `lance-nd inspect TABLE` on the Lance 12 golden table: key lines of the text and JSON output.
#   inspect_table_test.sh LANCE_ND_BINARY GOLDEN_TABLE_DIR
set -u
bin=$1
table=$2
fail=0
out=$("$bin" inspect "$table") || { echo "FAIL: inspect exited with $?"; exit 1; }
expect() {  # expect TEXT OUTPUT-NAME
  if ! printf '%s\n' "$2" | grep -qF -- "$1"; then
    echo "FAIL: missing line: $1"
    fail=1
  fi
}
reject() {
  if printf '%s\n' "$2" | grep -qF -- "$1"; then
    echo "FAIL: unexpected line: $1"
    fail=1
  fi
}
expect "versions: 4 (V2 manifest names)" "$out"
expect "  version 1  2026-11-29T13:44:19.510224319Z  Overwrite" "$out"
expect "  version 2  2026-11-29T13:44:19.696870545Z  Append" "$out"
expect "  version 3  2026-11-29T13:44:19.843831596Z  Delete" "$out"
expect "  version 4  2026-11-29T13:44:19.868579763Z  Merge" "$out"
expect "version 4 (latest)" "$out"
expect "  operation: Merge (read version 3)" "$out"
expect "  writer: lance 12.0.0" "$out"
expect "  data format: lance 2.2" "$out"
expect "  feature flags: reader 1, writer 1" "$out"
expect "  max fragment id: 1" "$out"
expect "  id: int64 not null  [id 0, parent -1]" "$out"
expect "      item: string  [id 4, parent 3]" "$out"
expect "  extra: struct  [id 5, parent -1]" "$out"
expect "    note: string  [id 6, parent 5]" "$out"
expect "fragments: 2, 13 rows (15 physical)" "$out"
expect "    data file 000111100000001010111111cb6ccf4254973740717f27624f.lance: fields [0, 2, 4], columns [0, 1, 2], 1224 bytes, format 2.2" "$out"
expect "    deletion file _deletions/1-2-14064554641985903325.arrow: arrow, 1 deleted rows" "$out"
expect "tags: 0" "$out"

v1=$("$bin" inspect "$table" --version 1) || { echo "FAIL: inspect --version 1 exited with $?"; exit 1; }
expect "version 1" "$v1"
expect "  operation: Overwrite (read version 0)" "$v1"
expect "fragments: 1, 10 rows (10 physical)" "$v1"
reject "version 4 (latest)" "$v1"
reject "extra: struct" "$v1"
reject "deletion file" "$v1"

json=$("$bin" inspect "$table" --json) || { echo "FAIL: inspect --json exited with $?"; exit 1; }
expect '"operation": "Merge"' "$json"
expect '"max_fragment_id": 1' "$json"
expect '"num_deleted_rows": 1' "$json"
if command -v python3 >/dev/null 2>&1; then
  printf '%s\n' "$json" | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert [v["version"] for v in j["versions"]] == [1, 2, 3, 4], j["versions"]
m = j["manifest"]
assert [(f["name"], f["id"], f["parent_id"]) for f in m["fields"]][-2:] == [("extra", 5, -1), ("note", 6, 5)]
assert [f["id"] for f in m["fragments"]] == [0, 1]
assert m["fragments"][0]["files"][0]["fields"] == [0, 2, 4]
' || { echo "FAIL: JSON content"; fail=1; }
fi

if "$bin" inspect "$table" --version 9 >/dev/null 2>&1; then
  echo "FAIL: --version 9 should fail"
  fail=1
fi
# Tags, read through the table layer: a copy of the table with two tag files as Lance 12
# writes them, a temporary file that is not a tag, then a tag file that is not JSON.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$table" "$tmp/t"
mkdir -p "$tmp/t/_refs/tags"
printf '{\n  "branch": null,\n  "version": 1,\n  "createdAt": "2026-11-29T13:44:20Z",\n  "updatedAt": "2026-11-29T13:44:20Z",\n  "manifestSize": 100,\n  "metadata": {}\n}' >"$tmp/t/_refs/tags/first.json"
printf '{\n  "branch": null,\n  "version": 3,\n  "createdAt": "2026-11-29T13:44:21Z",\n  "updatedAt": "2026-11-29T13:44:21Z",\n  "manifestSize": 100,\n  "metadata": {}\n}' >"$tmp/t/_refs/tags/b-second.json"
printf 'partial' >"$tmp/t/_refs/tags/.tmp-123"
tagged=$("$bin" inspect "$tmp/t") || { echo "FAIL: inspect with tags exited with $?"; exit 1; }
expect "tags: 2" "$tagged"
expect "  b-second -> version 3 (created 2026-11-29T13:44:21Z)" "$tagged"
expect "  first -> version 1 (created 2026-11-29T13:44:20Z)" "$tagged"
tagged_json=$("$bin" inspect "$tmp/t" --json) || { echo "FAIL: inspect --json with tags"; exit 1; }
expect '"name": "b-second"' "$tagged_json"
printf 'not json' >"$tmp/t/_refs/tags/broken.json"
broken=$("$bin" inspect "$tmp/t") || { echo "FAIL: inspect with a broken tag exited with $?"; exit 1; }
expect "tags: 0" "$broken"
expect "broken.json" "$broken"

[ $fail -eq 0 ] && echo "OK inspect TABLE"
exit $fail
