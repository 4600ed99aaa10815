#!/bin/sh
# Compares lance_nd_bench_tool built at an earlier commit with the same tool built at another
# (default HEAD), run alternately, each run a fresh process, on the same 130 MB grids file.
#
#   bench/regression.sh [-n RUNS] [-w WORK_DIR] [-e ENV=VALUE] BASE_COMMIT [NEW_COMMIT]
#
# Each commit is checked out in its own worktree under WORK_DIR (default /tmp/lance-nd-regression)
# and built there in build/release (the `release` preset's flags and directory, so ccache, which
# sees paths relative to the source tree, shares objects with every other release build), niced;
# the working tree's uncommitted changes are not measured. -e adds a third build: NEW_COMMIT run with
# ENV=VALUE set (for example -e LANCE_ND_RECYCLE_MB=0). The data (`lance_nd_bench_tool gen DIR
# 2000`) is made once in WORK_DIR/data. Prints every run, then per build the median and best of
# the scan (MB/s), take (ms), write (s) and minor page faults, and the ratios to BASE_COMMIT
# (bench/regression_runs.py). RUNS defaults to 6.
set -eu

runs=6
work=/tmp/lance-nd-regression
extra_env=""
while getopts n:w:e: opt; do
  case $opt in
    n) runs=$OPTARG ;;
    w) work=$OPTARG ;;
    e) extra_env=$OPTARG ;;
    *) sed -n '2,14p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '2,14p' "$0" >&2; exit 2; }
repo=$(git rev-parse --show-toplevel)
# Resolved once: a commit made by someone else meanwhile changes neither the builds nor labels.
base=$(git -C "$repo" rev-parse --short=10 "$1^{commit}")
new=$(git -C "$repo" rev-parse --short=10 "${2:-HEAD}^{commit}")
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"

# build COMMIT: prints the path of its lance_nd_bench_tool.
build() {
  sha=$(git -C "$repo" rev-parse --short=10 "$1^{commit}")
  tree=$work/wt-$sha
  if [ ! -d "$tree" ]; then
    git -C "$repo" worktree add --detach "$tree" "$sha" >&2
  fi
  if [ ! -f "$tree/build/release/CMakeCache.txt" ]; then
    cmake -S "$tree" -B "$tree/build/release" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DLANCE_ND_BUILD_BENCHMARKS=ON -DLANCE_ND_BUILD_TESTS=ON >&2
  fi
  nice -n 5 cmake --build "$tree/build/release" --target lance_nd_bench_tool -j 2 >&2
  echo "$tree/build/release/bench/lance_nd_bench_tool"
}

base_tool=$(build "$base")
new_tool=$(build "$new")
data=$work/data
if [ ! -f "$data/grids.arrow" ]; then
  mkdir -p "$data"
  "$new_tool" gen "$data" 2000 >&2
fi

base_label=$(git -C "$repo" rev-parse --short "$base")
new_label=$(git -C "$repo" rev-parse --short "$new")
set -- "$base_label=$base_tool" "$new_label=$new_tool"
if [ -n "$extra_env" ]; then
  set -- "$@" "$new_label+env=$new_tool,$extra_env"
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/regression_runs.py" --reps "$runs" "$data" "$@"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
