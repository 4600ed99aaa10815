#!/usr/bin/env bash
# Lint lance-nd: clang-format (check only, never rewrites) and clang-tidy 14.
#
#   scripts/lint.sh BUILD_DIR [--format-only | --tidy-only] [--changed] [FILE...]
#
# - clang-format --dry-run --Werror on every *.h / *.cc under include/ src/ tools/ tests/ fuzz/
#   bench/ examples/ python/ (or on the FILEs given), using .clang-format. BUILD_DIR is not used.
# - clang-tidy (.clang-tidy) on every translation unit of BUILD_DIR/compile_commands.json under
#   src/ and tools/ (or the FILEs given), excluding generated code (*.pb.cc, anything inside a
#   build directory). GoogleTest files (*_test.cc) are checked without cert-err58-cpp, which
#   flags every TEST() registration.
# - --changed: clang-tidy only what a change touches: the *.cc / *.h files under include/ src/
#   tools/ that differ between LINT_BASE (default HEAD^1, the first parent) and HEAD. A changed
#   source is checked itself; a changed header through its own source (same name) or else the
#   first source that includes it. Only findings on the lines the change adds or modifies count
#   (clang-tidy --line-filter): code the change does not touch is not held to the rules here
#   (`make lint` checks everything). With no base commit (a single-commit clone) nothing is
#   checked, and the script says so. At most LINT_MAX_UNITS (default 80) sources are checked, the
#   most changed first; the rest are listed.
# `make lint` calls this with build/$(PRESET), `make lint-format` with --format-only and
# `make lint-changed` with --tidy-only --changed; `.ci/run` runs the last two. LINT_JOBS sets
# clang-tidy's parallelism (default 2). Exit status 1 if anything is reported.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

usage() {
  echo "usage: $0 BUILD_DIR [--format-only | --tidy-only] [--changed] [FILE...]" >&2
  exit 2
}
[[ $# -ge 1 ]] || usage
build=$1
shift
do_format=1
do_tidy=1
changed=0
files=()
for a in "$@"; do
  case "$a" in
    --format-only) do_tidy=0 ;;
    --tidy-only) do_format=0 ;;
    --changed) changed=1 ;;
    -*) usage ;;
    *) files+=("$(realpath "$a")") ;;
  esac
done
jobs=${LINT_JOBS:-2}
clang_format=$(command -v clang-format-14 || command -v clang-format || true)
clang_tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
status=0

is_source() { [[ "$1" == *.h || "$1" == *.cc ]]; }
# Generated code and build trees, judged by the path inside the repository (the checkout itself
# may live under a folder called build).
is_generated() {
  local rel=${1#"$root"/}
  [[ "$rel" == *.pb.cc || "$rel" == *.pb.h || "$rel" == *_generated.h || "$rel" == build/* ||
     "$rel" == build-* || "$rel" == */build/* || "$rel" == /* ]]
}

# ---- clang-format ----
if ((do_format)); then
  [[ -n "$clang_format" ]] || { echo "lint: clang-format not found (scripts/setup-debian.sh)" >&2; exit 2; }
  fmt_files=()
  if ((${#files[@]})); then
    for f in "${files[@]}"; do is_source "$f" && ! is_generated "$f" && fmt_files+=("$f"); done
  else
    while IFS= read -r -d '' f; do
      is_generated "$root/${f#./}" || fmt_files+=("$f")
    done < <(find include src tools tests fuzz bench examples python \( -name '*.h' -o -name '*.cc' \) \
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

# The translation units to check for a change: each changed source, and one source per changed
# header. Prints "<lines added> <absolute path>" per changed file (a unit may appear twice).
changed_units() {
  local base=$1 f unit added
  local -a units=("${@:2}")
  while IFS=$'\t' read -r added _ f; do
    [[ -f "$f" ]] || continue  # deleted or renamed away
    [[ "$added" =~ ^[0-9]+$ ]] || added=0
    f="$root/$f"
    if [[ "$f" == *.cc ]]; then
      echo "$added $f"
      continue
    fi
    # A header: its own source when there is one (include/lance_nd/<dir>/<name>.h ->
    # src/lance_nd/<dir>/<name>.cc, or <name>.cc beside it), else the first source that includes
    # it by its full path, else one beside it that includes it by name.
    local rel=${f#"$root"/} own inc
    own=${rel%.h}.cc
    [[ "$own" == include/* ]] && own=src/${own#include/}
    inc=${rel#include/}
    inc=${inc#src/}
    unit=""
    for u in "${units[@]}"; do
      [[ "$u" == "$root/$own" ]] && { unit=$u; break; }
    done
    if [[ -z "$unit" ]]; then
      for u in "${units[@]}"; do
        grep -q -F "#include \"$inc\"" "$u" && { unit=$u; break; }
      done
    fi
    if [[ -z "$unit" ]]; then
      for u in "${units[@]}"; do
        [[ "$(dirname "$u")" == "$(dirname "$f")" ]] || continue
        grep -q -F "#include \"$(basename "$f")\"" "$u" && { unit=$u; break; }
      done
    fi
    if [[ -n "$unit" ]]; then
      echo "$added $unit"
    else
      echo "lint: $f: no translation unit includes it; not checked by clang-tidy" >&2
    fi
  done < <(git diff --numstat --no-renames --diff-filter=ACMR "$base" HEAD -- \
             'include/*.h' 'src/*.h' 'src/*.cc' 'tools/*.h' 'tools/*.cc')
}

# clang-tidy's --line-filter JSON for the lines the change adds or modifies in each changed file
# (files by their path in the repository; clang-tidy matches the end of a diagnostic's path).
# A very large change gets one span per file, to stay within the kernel's argument size.
changed_lines_filter() {
  local base=$1 spans json
  spans=$(git diff -U0 --no-renames --diff-filter=ACMR "$base" HEAD -- \
            'include/*.h' 'src/*.h' 'src/*.cc' 'tools/*.h' 'tools/*.cc' |
          awk '/^\+\+\+ b\// { file = substr($0, 7); next }
               /^@@/ { split($3, a, ","); start = substr(a[1], 2) + 0
                       n = (a[2] == "") ? 1 : a[2] + 0
                       if (n > 0) print file, start, start + n - 1 }')
  json=$(awk_filter "$spans" all)
  ((${#json} < 100000)) || json=$(awk_filter "$spans" span)
  echo "$json"
}
awk_filter() {
  awk -v mode="$2" '
    { if (!($1 in first)) { order[++n] = $1; first[$1] = $2 }
      last[$1] = $3; ranges[$1] = ranges[$1] (ranges[$1] == "" ? "" : ",") "[" $2 "," $3 "]" }
    END { printf "["
          for (i = 1; i <= n; ++i) {
            f = order[i]
            r = (mode == "span") ? "[" first[f] "," last[f] "]" : ranges[f]
            printf "%s{\"name\":\"%s\",\"lines\":[%s]}", (i > 1 ? "," : ""), f, r
          }
          printf "]\n" }' <<<"$1"
}

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
  line_filter=""
  mapfile -t all_units < <(sed -n 's/^ *"file": "\(.*\)",\{0,1\}$/\1/p' "$db" | sort -u)
  units=()
  for f in "${all_units[@]}"; do
    f=$(realpath -m "$f")
    is_generated "$f" && continue
    [[ "$f" == "$root/src/"* || "$f" == "$root/tools/"* || ${#files[@]} -gt 0 ]] && units+=("$f")
  done
  if ((changed)); then
    base=${LINT_BASE:-HEAD^1}
    if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
      echo "lint: clang-tidy: base $base not found (LINT_BASE, or a clone with history); nothing checked"
      exit $status
    fi
    # Units by lines changed, most first; past LINT_MAX_UNITS (default 80, about 20 minutes on
    # two cores) the least changed are left out, so a huge merge stays within CI's budget.
    mapfile -t ranked < <(changed_units "$base" "${units[@]}" |
      awk '{ sum[$2] += $1 } END { for (u in sum) print sum[u], u }' | sort -k1,1nr -k2,2)
    if ((${#ranked[@]} == 0)); then
      echo "lint: clang-tidy: no C++ source under include/ src/ tools/ changed since $base"
      exit $status
    fi
    max_units=${LINT_MAX_UNITS:-80}
    files=()
    for r in "${ranked[@]:0:max_units}"; do files+=("${r#* }"); done
    echo "lint: clang-tidy: ${#ranked[@]} translation units touched since $base; checking the changed lines"
    if ((${#ranked[@]} > max_units)); then
      echo "lint: clang-tidy: only the $max_units most changed (LINT_MAX_UNITS); not checked:"
      for r in "${ranked[@]:max_units}"; do echo "  ${r#* }"; done
    fi
    line_filter=$(changed_lines_filter "$base")
  fi
  tidy_files=()
  for f in "${units[@]}"; do
    if ((${#files[@]})); then
      for g in "${files[@]}"; do [[ "$f" == "$g" ]] && tidy_files+=("$f"); done
    else
      tidy_files+=("$f")
    fi
  done
  if ((${#tidy_files[@]})); then
    out=$(mktemp)
    trap 'rm -rf "$out"' EXIT
    started=$(date +%s)
    # The compile database may carry g++-only warning flags (-Wno-restrict): clang must not
    # report them as unknown.
    printf '%s\0' "${tidy_files[@]}" | LINE_FILTER=$line_filter xargs -0 -n 1 -P "$jobs" sh -c '
      f=$1; extra=""
      case "$f" in *_test.cc) extra="--checks=-cert-err58-cpp" ;; esac
      "$0" -p "'"$build"'" --quiet --extra-arg=-Wno-unknown-warning-option \
        ${LINE_FILTER:+"--line-filter=$LINE_FILTER"} $extra "$f" 2>/dev/null ||
        { echo "lint: clang-tidy failed on $f"; exit 1; }
    ' "$clang_tidy" >"$out" || status=1
    if grep -q "warning:\|error:\|lint: clang-tidy failed" "$out"; then
      cat "$out"
      status=1
    fi
    if ((status == 0)); then
      echo "lint: clang-tidy: ${#tidy_files[@]} files ok ($(($(date +%s) - started)) s)"
    else
      echo "lint: clang-tidy reported problems (see above)" >&2
    fi
  elif ((${#files[@]})); then
    echo "lint: clang-tidy: none of the files given is a translation unit of $db" >&2
  fi
fi
exit $status
