#!/usr/bin/env bash
# Tests of scripts/check-doc-refs.sh: a small tree that passes, then one broken citation at a
# time, each of which must fail with its own message.
set -euo pipefail
checker="$(cd "$(dirname "$0")" && pwd)/check-doc-refs.sh"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
failures=0

make_tree() {
  rm -rf "${tree:?}"/*
  mkdir -p "$tree/docs" "$tree/src/lance_nd/file" "$tree/tests/tool"
  printf '# A\n\n## 1. One\n\n### 1.2 Two\n\nSee §1.2 and [b](b.md).\n' >"$tree/docs/a.md"
  printf '# B\n\nSection numbers refer to a.md: §1, §1.2.\n' >"$tree/docs/b.md"
  printf '// Pages (docs/a.md §1.2).\n// More of it (§1).\nint x;\n' >"$tree/src/lance_nd/file/x.cc"
  printf '// Built from tool.cc: tests/tool/tool; see src/lance_nd/file/x.cc.\n' \
    >"$tree/tests/tool/tool.cc"
}

# expect NAME STATUS MESSAGE: the checker exits with STATUS and prints MESSAGE (a fixed string).
expect() {
  local name=$1 want_status=$2 want_message=$3 out status=0
  out=$(bash "$checker" "$tree" 2>&1) || status=$?
  if [[ $status -ne $want_status || "$out" != *"$want_message"* ]]; then
    echo "FAIL $name: exit $status (want $want_status), output:" >&2
    echo "$out" >&2
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

make_tree
expect "a tree whose citations resolve" 0 "every cited document, section and path exists"

make_tree
echo '// Layout (docs/missing.md).' >>"$tree/src/lance_nd/file/x.cc"
expect "a missing document" 1 "x.cc:4: cites docs/missing.md, which is not in the repository"

make_tree
echo '// Levels (docs/a.md §2.6).' >>"$tree/src/lance_nd/file/x.cc"
expect "a missing section" 1 "x.cc:4: §2.6 is not a section of docs/a.md"

make_tree
printf '// Contexts (§4.1).\n' >"$tree/src/lance_nd/file/y.cc"
expect "a section without a document" 1 "y.cc:1: §4.1 cites a section but no document before it"

make_tree
echo 'Bare §3 in a numbered document.' >>"$tree/docs/a.md"
expect "a missing section of the document itself" 1 "a.md:8: §3 is not a section of docs/a.md"

make_tree
echo '// See src/lance_nd/file/gone.h.' >>"$tree/src/lance_nd/file/x.cc"
expect "a missing path" 1 "x.cc:4: names src/lance_nd/file/gone.h, which is not in the repository"

make_tree
echo "// Data in /home/someone/tables." >>"$tree/src/lance_nd/file/x.cc"
expect "a machine path" 1 "x.cc:4: a machine-specific path: // Data in /home/someone/tables."

if ((failures)); then
  echo "check-doc-refs-test: $failures case(s) failed" >&2
  exit 1
fi
echo "check-doc-refs-test: all cases pass"
