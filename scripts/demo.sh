#!/usr/bin/env bash
# make demo: bring a real climatology (NOAA COADS, from Debian's ferret-datasets) into a
# versioned lance-nd table chunked by time, look at it, filter it, read regions from it and
# export it back to netCDF-4. Usage: scripts/demo.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: scripts/demo.sh BUILD_DIR}
cli="$build/tools/cli/lance-nd"
source_nc=/usr/share/ferret-vis/data/coads_climatology.cdf
work="$build/demo"
[[ -x "$cli" ]] || { echo "demo: $cli is missing; run 'make build' first" >&2; exit 1; }
# 77: ctest's "skipped" for the test that runs this script.
[[ -f "$source_nc" ]] || { echo "demo: $source_nc is missing; run 'make setup'" >&2; exit 77; }

rm -rf "$work" && mkdir -p "$work"
table="$work/coads.lance"
bold=$(tput bold 2>/dev/null || true)
plain=$(tput sgr0 2>/dev/null || true)
step() { printf '\n%s== %s ==%s\n' "$bold" "$*" "$plain"; }
show() { printf '%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }
start=$(date +%s%N)

step "1. Import COADS (12 months x 90 x 180, 7 variables), one row per month, with stats"
show "$cli" import "$table" "$source_nc" --id coads --chunks TIME=1 --stats
src_bytes=$(stat -c %s "$source_nc")
table_bytes=$(du -sb "$table" | cut -f1)
echo "source: $src_bytes bytes (classic netCDF, uncompressed); table: $table_bytes bytes"

step "2. What is in the table"
show "$cli" info "$table"
show "$cli" ls "$table"

step "3. Filters: months 6-8 by their chunk position (exact), then months where some SST exceeds 31 Deg C (stats)"
show "$cli" cat "$table" --filter "__global_attrs__.chunk_index BETWEEN 5 AND 7" --project TIME
"$cli" cat "$table" --prune "SST.values > 31" --project TIME > "$work/warm.jsonl"
echo "months with some SST above 31 Deg C (by the per-row min/max stats): $(wc -l < "$work/warm.jsonl") of 12"

step "4. Region reads: SST time series at one point (nearest to 0.5N 180E), and a box"
show "$cli" slice "$table" --id coads --var SST --sel COADSY=0.5,COADSX=180
show "$cli" slice "$table" --id coads --var AIRT --isel TIME=0,COADSY=40:43,COADSX=90:94

step "5. Export the dataset back to netCDF-4 and compare with the source"
show "$cli" export "$table" "$work/coads_export.nc" --id coads
# The data sections must agree; the headers differ in the file's name and format.
if diff <(ncdump "$source_nc" | sed -n '/^data:/,$p') \
        <(ncdump "$work/coads_export.nc" | sed -n '/^data:/,$p') > /dev/null; then
  echo "export: every value equals the source (ncdump data sections are identical)"
else
  echo "export: the data differ from the source" >&2
  exit 1
fi

step "6. Versions"
show "$cli" versions "$table"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
printf '\n%sdemo finished in %d.%03d s; the table is at %s%s\n' "$bold" \
  $((elapsed_ms / 1000)) $((elapsed_ms % 1000)) "$table" "$plain"
