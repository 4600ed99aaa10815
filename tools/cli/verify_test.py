#!/usr/bin/python3
"""`lance-nd verify`: exit codes and messages (issue 33).

    verify_test.py LANCE_ND_BINARY

An untouched table verifies with exit 0 and one summary line (also as --json); a damaged data
file (seeded byte flips in its footer) exits 1 naming the fragment and the data file; a missing
table and a missing version exit 1 with their usual messages.
"""
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)


def run(*args, stdin=None):
    p = subprocess.run([BIN, *args], input=stdin, capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode(), p.stderr.decode("utf-8", "replace")


ROWS = "\n".join(
    json.dumps({"global_attrs": {"id": f"r{i}"},
                "arrays": {"t": {"dtype": "float32", "dim_names": ["x"], "dim_sizes": [3],
                                 "values": [i, i + 1, i + 2]},
                           "s": {"dtype": "utf8", "dim_names": ["y"], "dim_sizes": [2],
                                 "values": ["hello", f"w{i}"]}}})
    for i in range(5)) + "\n"

with tempfile.TemporaryDirectory() as tmp:
    table = os.path.join(tmp, "t.lance")
    rc, _, err = run("append", table, "-", "--create", stdin=ROWS.encode())
    check(rc == 0, f"append: exit {rc}: {err}")
    run("append", table, "-", stdin=ROWS.encode())

    rc, out, err = run("verify", table)
    check(rc == 0 and err == "", f"verify of an untouched table: exit {rc}, stderr {err!r}")
    check(out == "verified 10 rows in 2 fragments, 3 columns: ok\n", f"summary {out!r}")
    rc, out, _ = run("verify", table, "--version", "1", "--json")
    doc = json.loads(out)
    check(rc == 0 and doc["ok"] and doc["rows"] == 5 and doc["fragments"] == 1,
          f"verify --version 1 --json: exit {rc}, {out!r}")

    rc, _, err = run("verify", os.path.join(tmp, "none.lance"))
    check(rc == 1 and err.startswith("lance-nd: verify: no table at "), f"missing: {rc} {err!r}")
    rc, _, err = run("verify", table, "--version", "7")
    check(rc == 1 and "has no version 7" in err, f"missing version: {rc} {err!r}")

    data = sorted(glob.glob(os.path.join(table, "data", "*.lance")))
    rng = random.Random(33)
    detected = 0
    for trial in range(20):
        path = rng.choice(data)
        original = open(path, "rb").read()
        damaged = bytearray(original)
        # The footer and offset tables: the last 40 bytes always are structure.
        damaged[len(damaged) - 1 - rng.randrange(40)] ^= 1 + rng.randrange(255)
        open(path, "wb").write(damaged)
        rc, out, err = run("verify", table)
        if rc == 0:
            # A flip verify cannot see must leave the table readable.
            rc_cat, _, err_cat = run("cat", table)
            check(rc_cat == 0, f"trial {trial}: verify ok but cat failed: {err_cat!r}")
        else:
            detected += 1
            check(rc == 1, f"trial {trial}: exit {rc}")
            check(err.count("\n") == 1 and err.startswith("lance-nd: verify: version 2 is "
                                                          "damaged: fragment "),
                  f"trial {trial}: stderr {err!r}")
            check(f"data file {os.path.relpath(path, tmp)}" in err or path in err,
                  f"trial {trial}: {err!r} does not name {path}")
            rc_j, out_j, _ = run("verify", table, "--json")
            doc = json.loads(out_j)
            check(rc_j == 1 and not doc["ok"] and doc["problem"]["data_file"].endswith(
                os.path.basename(path)), f"trial {trial}: --json {out_j!r}")
        open(path, "wb").write(original)
    check(detected >= 10, f"only {detected} of 20 footer flips were reported")
    rc, _, _ = run("verify", table)
    check(rc == 0, "restored table verifies")

if FAILURES:
    print(f"{len(FAILURES)} failure(s)")
    sys.exit(1)
print("ok")
