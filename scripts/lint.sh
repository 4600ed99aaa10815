#!/usr/bin/env bash
# Lint lance-nd: clang-format (check only, never rewrites) and clang-tidy 14.
#
#   scripts/lint.sh BUILD_DIR [--format-only | --tidy-only] [FILE...]
#
# - clang-format --dry-run --Werror on every *.h / *.cc under include/ src/ tools/ tests/ fuzz/
#   bench/ examples/ (or on the FILEs given), using .clang-format.
# - clang-tidy (.clang-tidy) on every translation unit of BUILD_DIR/compile_commands.json under
#   src/ and tools/ (or the FILEs given), excluding generated code (*.pb.cc, anything inside a
#   build directory). GoogleTest files (*_test.cc) are checked without cert-err58-cpp, which
#   flags every TEST() registration.
# `make lint` calls this with build/$(PRESET). LINT_JOBS sets clang-tidy's parallelism
# (default 2). Exit status 1 if anything is reported.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

usage() {
  echo "usage: $0 BUILD_DIR [--format-only | --tidy-only] [FILE...]" >&2
  exit 2
}
[[ $# -ge 1 ]] || usage
build=$1
shift
do_format=1
do_tidy=1
files=()
for a in "$@"; do
  case "$a" in
    --format-only) do_tidy=0 ;;
    --tidy-only) do_format=0 ;;
    -*) usage ;;
    *) files+=("$(realpath "$a")") ;;
  esac
done
jobs=${LINT_JOBS:-2}
clang_format=$(command -v clang-format-14 || command -v clang-format || true)
clang_tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
status=0

is_source() { [[ "$1" == *.h || "$1" == *.cc ]]; }
is_generated() { [[ "$1" == *.pb.cc || "$1" == *.pb.h || "$1" == */build/* || "$1" == *_generated.h ]]; }

# ---- clang-format ----
if ((do_format)); then
  [[ -n "$clang_format" ]] || { echo "lint: clang-format not found (scripts/setup-debian.sh)" >&2; exit 2; }
  fmt_files=()
  if ((${#files[@]})); then
    for f in "${files[@]}"; do is_source "$f" && ! is_generated "$f" && fmt_files+=("$f"); done
  else
    while IFS= read -r -d '' f; do
      is_generated "$f" || fmt_files+=("$f")
    done < <(find include src tools tests fuzz bench examples \( -name '*.h' -o -name '*.cc' \) \
               -type f -print0 2>/dev/null | sort -z)
  fi
  if ((${#fmt_files[@]})); then
    if ! "$clang_format" --dry-run --Werror --style=file "${fmt_files[@]}"; then
      echo "lint: clang-format: files above differ from .clang-format (fix: clang-format -i FILE)" >&2
      status=1
    else
      echo "lint: clang-format: ${#fmt_files[@]} files ok"
    fi
  fi
fi

# ---- clang-tidy ----
if ((do_tidy)); then
  [[ -n "$clang_tidy" ]] || { echo "lint: clang-tidy not found (scripts/setup-debian.sh)" >&2; exit 2; }
  db="$build/compile_commands.json"
  [[ -f "$db" ]] || { echo "lint: $db missing: configure first (cmake --preset dev)" >&2; exit 2; }
  # Sources include generated protobuf and flatbuffers headers: make sure they exist.
  # (A target that does not exist in this build is skipped; a failing one shows up as tidy errors.)
  for t in lance_nd_proto lance_nd_fbs_gen; do
    cmake --build "$build" --target "$t" >/dev/null 2>&1 || true
  done
  # CMake writes one `"file": "..."` line per translation unit.
  mapfile -t units < <(sed -n 's/^ *"file": "\(.*\)",\{0,1\}$/\1/p' "$db" | sort -u)
  tidy_files=()
  for f in "${units[@]}"; do
    f=$(realpath -m "$f")
    is_generated "$f" && continue
    if ((${#files[@]})); then
      for g in "${files[@]}"; do [[ "$f" == "$g" ]] && tidy_files+=("$f"); done
    elif [[ "$f" == "$root/src/"* || "$f" == "$root/tools/"* ]]; then
      tidy_files+=("$f")
    fi
  done
  if ((${#tidy_files[@]})); then
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    printf '%s\0' "${tidy_files[@]}" | xargs -0 -n 1 -P "$jobs" sh -c '
      f=$1; extra=""
      case "$f" in *_test.cc) extra="--checks=-cert-err58-cpp" ;; esac
      "$0" -p "'"$build"'" --quiet $extra "$f" 2>/dev/null || { echo "lint: clang-tidy failed on $f"; exit 1; }
    ' "$clang_tidy" >"$out" || status=1
    if grep -q "warning:\|error:\|lint: clang-tidy failed" "$out"; then
      cat "$out"
      status=1
    fi
    if ((status == 0)); then
      echo "lint: clang-tidy: ${#tidy_files[@]} files ok"
    else
      echo "lint: clang-tidy reported problems (see above)" >&2
    fi
  fi
fi
exit $status
