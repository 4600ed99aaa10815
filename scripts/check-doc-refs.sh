#!/usr/bin/env bash
# Check that what the repository cites exists in the repository:
#
#   scripts/check-doc-refs.sh [ROOT]
#
# - every `*.md` a file names (docs/lance-file-format.md, README.md, ../x/README.md) exists,
#   resolved from the citing file's folder, then from docs/, then from ROOT;
# - every path into the tree (src/..., tests/..., docs/..., ...) exists, or names a program the
#   build makes from it (tests/x/tool for tests/x/tool.cc, or an add_executable target);
# - every section `§N.M` exists as a heading "N.M ..." of the document it refers to: the last
#   document cited before it on the same line; else, in a Markdown file with numbered sections,
#   that file; else the last document cited earlier in the file; else (Markdown) the file itself;
# - no machine-specific home or work directory appears in a committed file.
# Files under build trees, node_modules, fuzz corpora and test data are not read, nor this
# checker and its test (their examples are broken on purpose).
# Exit status 1 with one line per problem ("file:line: ..."), 0 when everything resolves.
set -euo pipefail
root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
cd "$root"

# Names that scripts write (usage lines), not documents of the repository.
output_names=" OUT.md TABLE.md NAME.md name.md soak_a.md soak_b.md "
top_dirs='src|include|tools|tests|bench|fuzz|cmake|scripts|docs|interop|examples|proto|fbs|\.ci'
problems=0

report() {
  echo "$1" >&2
  problems=$((problems + 1))
}

list_files() {
  find . \( -name .git -o -name node_modules -o -name corpus -o -name regressions \
    -o -name testdata -o -path './build' -o -path './build-*' \) -prune -o -type f \
    \( -name '*.md' -o -name '*.h' -o -name '*.cc' -o -name '*.mjs' -o -name '*.js' \
    -o -name '*.sh' -o -name '*.proto' -o -name '*.fbs' -o -name '*.cmake' -o -name '*.txt' \
    -o -name 'CMakeLists.txt' -o -name Makefile -o -name run -o -name '.clang-*' \) -print |
    sed 's|^\./||' | grep -v -E '^scripts/check-doc-refs(-test)?\.sh$' | sort
}

# The document a citation `ref` in file `from` names, or "" when it is not in the repository.
resolve_doc() {
  local from_dir=$1 ref=$2 c
  for c in "$from_dir/$ref" "docs/$ref" "$ref"; do
    if [[ -f "$c" ]]; then
      realpath --relative-to="$root" "$c"
      return
    fi
  done
}

# Whether `section` (N, N.M, ... or "Appendix X") is a heading of document `doc`.
has_section() {
  local doc=$1 section=$2 pattern
  if [[ "$section" == Appendix* ]]; then
    pattern="^#+ +${section}([ .:]|$)"
  else
    pattern="^#+ +${section//./\\.}([ .]|$)"
  fi
  grep -q -E "$pattern" "$doc"
}

# A path into the tree that does not exist may name a program built from it.
is_built_program() {
  local path=$1 dir base
  dir=$(dirname "$path")
  base=$(basename "$path")
  [[ -f "$path.cc" ]] && return 0
  [[ -f "$dir/CMakeLists.txt" ]] && grep -q -E "add_executable\(\s*$base\b" "$dir/CMakeLists.txt"
}

check_paths() {
  local file=$1 dir line tok rest
  dir=$(dirname "$file")
  # Tokens followed by a glob or placeholder character (`tests/file_*_interop`) are patterns.
  while IFS=: read -r line tok; do
    [[ "$tok" == *[*{\<] || "$tok" == *...* || "$tok" == *.rs || "$tok" == *.md ]] && continue
    tok=${tok%%[.,:;]}
    tok=${tok%.}
    [[ -e "$tok" || -e "$dir/$tok" ]] && continue
    is_built_program "$tok" && continue
    # Generated on purpose and ignored by git (interop/node_modules, made by the setup).
    git check-ignore -q "$tok" 2>/dev/null && continue
    report "$file:$line: names $tok, which is not in the repository"
  done < <(grep -n -o -P "(?<![A-Za-z0-9_./\$}-])(${top_dirs})/[A-Za-z0-9_./-]*[*{<]?" "$file" || true)
}

check_citations() {
  local file=$1 dir line tok current_doc="" line_doc="" last_line="" target is_md=0 numbered=0
  dir=$(dirname "$file")
  [[ "$file" == *.md ]] && is_md=1
  # A Markdown file with numbered sections cites its own sections with a bare §.
  ((is_md)) && grep -q -E '^#+ +[0-9]+(\.[0-9]+)* ' "$file" && numbered=1
  while IFS=: read -r line tok; do
    if [[ "$line" != "$last_line" ]]; then
      line_doc=""
      last_line=$line
    fi
    case "$tok" in
      §* | Appendix*)
        target=$line_doc
        [[ -z "$target" ]] && ((numbered)) && target=$file
        [[ -z "$target" ]] && target=$current_doc
        [[ -z "$target" ]] && ((is_md)) && target=$file
        [[ "$target" == "?" ]] && continue  # its document is missing: reported once
        [[ "$tok" == Appendix* && -z "$line_doc" ]] && continue  # only "doc.md, Appendix A"
        if [[ -z "$target" ]]; then
          report "$file:$line: $tok cites a section but no document before it"
        elif ! has_section "$target" "${tok#§}"; then
          report "$file:$line: $tok is not a section of $target"
        fi
        ;;
      *)
        [[ "$output_names" == *" $(basename "$tok") "* || "$tok" == BUILD_DIR/* ]] && continue
        [[ "$tok" == build/* ]] && continue  # files a run writes into the build tree
        target=$(resolve_doc "$dir" "$tok")
        if [[ -z "$target" ]]; then
          report "$file:$line: cites $tok, which is not in the repository"
          line_doc="?"
          current_doc="?"
          continue
        fi
        line_doc=$target
        current_doc=$target
        ;;
    esac
  done < <(grep -n -o -P \
    '(?<![A-Za-z0-9_./$}-])[A-Za-z0-9_.-][A-Za-z0-9_./-]*\.md\b|§[0-9]+(\.[0-9]+)*|Appendix [A-Z]\b' \
    "$file" || true)
}

count=0
while IFS= read -r f; do
  grep -I -q . "$f" || continue  # binary
  check_citations "$f"
  check_paths "$f"
  count=$((count + 1))
done < <(list_files)

# Machine-specific locations: home and work directories of one machine.
while IFS=: read -r file line text; do
  report "$file:$line: a machine-specific path: $text"
done < <(list_files | xargs grep -n -I -E '(^|[^A-Za-z0-9_.])/(home|work|Users)/' || true)

if ((problems)); then
  echo "check-doc-refs: $problems problem(s) in $count files" >&2
  exit 1
fi
echo "check-doc-refs: $count files, every cited document, section and path exists"
