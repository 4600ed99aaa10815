#!/usr/bin/env python3
"""Add LANCE_ND_EXPORT where tests/exported_symbols/check_export_marks.cmake asks for it.

    scripts/mark-exports.py HEADER...

Same rule as the check: a non-template class or struct defined at namespace scope, and a
function declared at namespace scope without a body, outside internal/detail namespaces.
Lines already marked are left alone; `lance_nd/export.h` is included when a mark is added.
"""
import re
import sys

SKIP = re.compile(r"^(inline|constexpr|template|using|namespace|class|struct|enum|static_assert|"
                  r"typedef|extern|friend|return) ")


def mark(path):
    lines = open(path).read().split("\n")
    if any('extern "C" {' in l for l in lines):
        return 0
    in_internal, previous, changed = False, "", 0
    for i, line in enumerate(lines):
        if re.match(r"^namespace (internal|detail) \{", line):
            in_internal = True
        elif re.match(r"^\}  // namespace (internal|detail)", line):
            in_internal = False
        if not in_internal and "LANCE_ND_EXPORT" not in line:
            m = re.match(r"^(class|struct) (\w)", line)
            if m and not line.endswith(";") and not previous.startswith("template"):
                lines[i] = line.replace(m.group(1) + " ", m.group(1) + " LANCE_ND_EXPORT ", 1)
                changed += 1
            elif (re.match(r"^[A-Za-z_]", line) and "(" in line and not SKIP.match(line)
                  and not line.endswith("{")):
                lines[i] = "LANCE_ND_EXPORT " + line
                changed += 1
        previous = lines[i]
    if changed and not any('"lance_nd/export.h"' in l for l in lines):
        ours = [i for i, l in enumerate(lines) if l.startswith('#include "lance_nd/')]
        if ours:
            lines.insert(ours[0], '#include "lance_nd/export.h"')
        else:  # after the last system include, or after #pragma once, as its own block
            anchor = [i for i, l in enumerate(lines) if l.startswith("#include") or
                      l.startswith("#pragma once")][-1]
            lines[anchor + 1:anchor + 1] = ["", '#include "lance_nd/export.h"']
    open(path, "w").write("\n".join(lines))
    return changed


if __name__ == "__main__":
    total = sum(mark(p) for p in sys.argv[1:])
    print(f"mark-exports: {total} declarations marked")
