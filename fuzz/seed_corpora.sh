#!/usr/bin/env bash
# Seed the fuzz corpora with real files: Lance files, manifests, transactions and deletion files
# written by Lance 12 (LanceDB 0.39, interop/node_modules) and by lance-nd's own writer, then
# minimise each corpus with libFuzzer's -merge=1 into a fresh folder (see fuzz/README.md).
#
#   fuzz/seed_corpora.sh BUILD_DIR WORK_DIR
# BUILD_DIR: a fuzz-preset build with the fuzz targets and table_interop_tool built.
# WORK_DIR:  scratch folder (the tables, the gathered seeds, the merged corpora).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
work=$(mkdir -p "$2" && cd "$2" && pwd)
tool=$build/tests/table_interop/table_interop_tool
max_seed=24576  # bytes; bigger files make every execution slow
run() { nice -n 10 "$@" > /dev/null 2>&1; }

# ---- Lance 12 writes tables (2.1 and 2.2; constant list<utf8> columns; deletions; txns)
[ -d "$work/lance12/fri" ] || run node "$src/tests/file_read_interop/make_tables.mjs" "$work/lance12/fri"
[ -d "$work/lance12/nd" ] || run node "$src/fuzz/make_lance12_seeds.mjs" "$work/lance12/nd"
[ -d "$work/lance12/del" ] || run node "$src/tests/table_read_testdata/make_deletions_table.mjs" "$work/lance12/del"
[ -d "$work/lance12/rid" ] || run node "$src/tests/table_read_testdata/make_rowids_table.mjs" \
  "$work/lance12/rid" "$work/lance12/rid.json"
[ -d "$work/lance12/mlt" ] || run node "$src/tests/table_interop/make_lance_table.mjs" "$work/lance12/mlt"

# ---- lance-nd reads each Lance 12 table (IPC file + stream) and writes it again as a table
mkdir -p "$work/ipc" "$work/ours"
for t in $(find "$work/lance12" -name '*.lance' -type d -prune); do
  name=$(basename "$(dirname "$t")")_$(basename "$t" .lance)
  "$tool" dump "$t" "$work/ipc/$name.arrow" > /dev/null 2>&1 || continue
  python3 - "$work/ipc/$name.arrow" "$work/ipc/$name.arrows" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()          # ARROW1 + pad, stream, footer, int32 len, ARROW1
footer_len = struct.unpack("<i", b[-10:-6])[0]
open(sys.argv[2], "wb").write(b[8:len(b) - 10 - footer_len])
EOF
  ours=$work/ours/$name.lance
  rm -rf "$ours"
  "$tool" create "$ours" "$work/ipc/$name.arrow" > /dev/null 2>&1 || continue
  "$tool" append "$ours" "$work/ipc/$name.arrow" > /dev/null 2>&1 || true
  "$tool" delete "$ours" 0 2 $((1 << 32)) > /dev/null 2>&1 || true
  "$tool" compact "$ours" > /dev/null 2>&1 || true
done

# ---- gather per target
seeds=$work/seeds
rm -rf "$seeds"
add() {  # add TARGET FILE...
  mkdir -p "$seeds/$1"
  local t=$1; shift
  for f in "$@"; do
    [ "$(stat -c %s "$f")" -le $max_seed ] && cp "$f" "$seeds/$t/$(echo "$f" | md5sum | cut -c1-12)"
  done
  return 0
}
tables="$work/lance12 $work/ours"
add file_footer $(find $tables -path '*/data/*.lance' -type f)
add file_page_read $(find $tables -path '*/data/*.lance' -type f)
add table_manifest $(find $tables -name '*.manifest' -type f) $(find $tables -name '*.txn' -type f)
add table_transaction $(find $tables -name '*.txn' -type f)
add table_deletion $(find $tables -path '*/_deletions/*' -type f)
add array_ipc_file $(find $tables -path '*/_deletions/*.arrow' -type f) $(find "$work/ipc" -name '*.arrow')
add array_ipc_stream $(find "$work/ipc" -name '*.arrows')
add nd_row_decoder $(find "$work/ipc" -name '*nd*.arrows')

# ---- merge the old corpus and the seeds into a fresh, minimal corpus
for dir in "$seeds"/*; do
  target=$(basename "$dir")
  fresh=$work/merged/$target
  rm -rf "$fresh" && mkdir -p "$fresh"
  nice -n 10 "$build/fuzz/${target}_fuzz" -merge=1 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
    "$fresh" "$src/fuzz/corpus/$target" "$dir" > "$work/merge_$target.log" 2>&1
  # Hand-named seeds stay under their names (the seed tests in src/ check them by name);
  # merge's copy of one (named by its SHA-1) goes.
  for f in "$src/fuzz/corpus/$target"/*; do
    name=$(basename "$f")
    [[ $name =~ ^[0-9a-f]{40}$ ]] && continue
    rm -f "$fresh/$(sha1sum "$f" | cut -c1-40)"
    cp "$f" "$fresh/$name"
  done
  rm -rf "$src/fuzz/corpus/$target" && cp -r "$fresh" "$src/fuzz/corpus/$target"
  echo "$target: $(ls "$fresh" | wc -l) files, $(du -sk "$fresh" | cut -f1) KB"
done
