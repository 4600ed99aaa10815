#!/usr/bin/python3
"""Run the examples of docs/cli.md and compare their output with the text shown.

    cli_doc_examples_test.py LANCE_ND_BINARY docs/cli.md

The ```sh blocks run one after the other in one fresh directory, with `lance-nd` on the PATH. A line
starting with "$ " is a command (a heredoc `<<'EOF'` takes the lines up to EOF with it); the
lines after it, up to the next command, are its expected stdout. Runs of blanks compare equal,
<time> stands for a UTC time such as 2026-01-31T12:00:00.000Z and <n> for a number.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN, DOC = sys.argv[1], sys.argv[2]
TIME = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"


def sessions(text):
    """The ```sh blocks, each a list of (command, expected lines, line number in the doc)."""
    out, block, in_sh = [], None, False
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not in_sh and line.strip() == "```sh":
            in_sh, block = True, []
        elif in_sh and line.strip() == "```":
            in_sh = False
            out.append(block)
        elif in_sh and line.startswith("$ "):
            command, start = line[2:], i + 1
            heredoc = re.search(r"<<'(\w+)'", command)
            if heredoc:
                while lines[i + 1] != heredoc.group(1):
                    i += 1
                    command += "\n" + lines[i]
                i += 1
                command += "\n" + lines[i]
            block.append([command, [], start])
        elif in_sh:
            block[-1][1].append(line)
        i += 1
    return out


def matches(expected, actual):
    pattern = r"\s+".join(
        re.escape(part).replace(re.escape("<time>"), TIME).replace(re.escape("<n>"), r"\d+")
        for part in expected.split())
    return re.fullmatch(pattern, actual.strip()) is not None or expected.split() == actual.split()


def main():
    with open(DOC) as f:
        blocks = sessions(f.read())
    failures = 0
    bindir = tempfile.mkdtemp()
    os.symlink(os.path.abspath(BIN), os.path.join(bindir, "lance-nd"))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
    with tempfile.TemporaryDirectory() as tmp:
        for command, expected, line in [c for block in blocks for c in block]:
            p = subprocess.run(["sh", "-c", command], cwd=tmp, env=env, capture_output=True,
                               text=True)
            want = [e for e in expected if e.strip()]
            got = [g for g in p.stdout.splitlines() if g.strip()]
            ok = len(want) == len(got) and all(matches(w, g) for w, g in zip(want, got))
            if not ok:
                failures += 1
                print(f"FAIL: {DOC}:{line}: $ {command}\n--- expected\n" + "\n".join(want) +
                      "\n--- got\n" + "\n".join(got) + "\n--- stderr\n" + p.stderr)
    shutil.rmtree(bindir)
    print(f"{sum(len(b) for b in blocks)} commands in {len(blocks)} blocks, {failures} failed")
    sys.exit(1 if failures or not blocks else 0)


main()
