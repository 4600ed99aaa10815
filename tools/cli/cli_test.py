#!/usr/bin/python3
"""The lance-nd table commands end to end, on seeded generated JSON Lines.

    cli_test.py LANCE_ND_BINARY

Rows are generated here (every dtype, nulls, NaN and infinities, scalars, empty dimensions,
typed and bare attributes of every type, list attributes), appended with `append --create`,
read back with `cat` and compared with the input by meaning (bare attributes typed as the
contract says, floats rounded to their dtype). Then filters, projection, limits, versions,
delete, restore, compact, widen and cleanup, and every error case: its exit status, its single
stderr line, and a table version that did not move.
"""
import json
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1]
FAILURES = []

INT_RANGES = {
    "int8": (-2**7, 2**7 - 1), "int16": (-2**15, 2**15 - 1), "int32": (-2**31, 2**31 - 1),
    "int64": (-2**63, 2**63 - 1), "uint8": (0, 2**8 - 1), "uint16": (0, 2**16 - 1),
    "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1), "date32": (-800000, 800000),
}
TEMPORAL = ([f"timestamp[{u}]" for u in ("s", "ms", "us", "ns")] +
            [f"timestamp[{u}, tz=UTC]" for u in ("s", "ms", "us", "ns")] +
            [f"duration[{u}]" for u in ("s", "ms", "us", "ns")])
FLOATS = ["float16", "float32", "float64"]
LEAVES = (list(INT_RANGES) + FLOATS + ["bool", "utf8", "large_utf8", "binary", "large_binary"] +
          TEMPORAL)
DTYPES = LEAVES + ["list<int32>", "list<float64>", "list<utf8>", "list<list<int16>>"]
DIMS = ["x", "y", "time"]


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)


def run(*args, stdin=None):
    p = subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def ok(*args, stdin=None):
    rc, out, err = run(*args, stdin=stdin)
    check(rc == 0, f"{' '.join(args)}: exit {rc}, stderr {err!r}")
    return out


# --- generation -------------------------------------------------------------------------------

def leaf_value(rng, dtype):
    if dtype == "bool":
        return rng.random() < 0.5
    if dtype in INT_RANGES:
        lo, hi = INT_RANGES[dtype]
        return rng.choice([lo, hi, 0, rng.randint(lo, hi)])
    if dtype.startswith(("timestamp", "duration")):
        return rng.randint(-2**62, 2**62)
    if dtype in FLOATS:
        special = rng.random()
        if special < 0.1:
            return rng.choice(["NaN", "Infinity", "-Infinity"])
        return rng.randint(-4000, 4000) / 4  # exact in float16 .. float64
    if dtype in ("utf8", "large_utf8"):
        return "".join(rng.choice("aZ9 _-é\"\\/\n✓") for _ in range(rng.randint(0, 6)))
    if dtype in ("binary", "large_binary"):
        import base64
        return base64.b64encode(bytes(rng.randrange(256) for _ in range(rng.randint(0, 6)))).decode()
    raise ValueError(dtype)


def value(rng, dtype, nulls=True):
    if nulls and rng.random() < 0.15:
        return None
    if dtype.startswith("list<"):
        item = dtype[5:-1]
        return [value(rng, item) for _ in range(rng.randint(0, 3))]
    return leaf_value(rng, dtype)


def attribute(rng, dtype):
    """A typed attribute, or (for the kinds that have one) sometimes the bare JSON value."""
    v = value(rng, dtype, nulls=False)
    bare = {"utf8": isinstance(v, str), "int64": True, "bool": True,
            "float64": isinstance(v, float), "list<utf8>": isinstance(v, list) and bool(v) and None not in v}
    if bare.get(dtype) and rng.random() < 0.5:
        return v
    return {"dtype": dtype, "value": v}


def attributes(rng, kinds):
    out = {}
    for key, dtype in kinds.items():
        if rng.random() < 0.4:
            out[key] = attribute(rng, dtype)
    return out


def universe(rng):
    """One dtype per variable, per (variable, attribute key) and per global key."""
    variables = {f"v_{re.sub('[^a-z0-9]', '_', d)}": d for d in DTYPES}
    keys = ["units", "scale", "valid_range", "flag", "note"]
    attr_kinds = {v: {k: rng.choice(DTYPES) for k in keys} for v in variables}
    global_kinds = {"id": "utf8", "n": "int64", "w": rng.choice(DTYPES), "tags": "list<utf8>"}
    return variables, attr_kinds, global_kinds


def row(rng, u, index, p_var=0.3):
    variables, attr_kinds, global_kinds = u
    sizes = {d: rng.randint(0, 3) for d in DIMS}
    arrays = {}
    for name, dtype in variables.items():
        if rng.random() > p_var:
            continue
        dims = [d for d in DIMS if rng.random() < 0.5]
        dim_sizes = [sizes[d] for d in dims]
        count = math.prod(dim_sizes)
        spec = {"dtype": dtype}
        if dims or rng.random() < 0.5:
            spec["dim_names"] = dims
            spec["dim_sizes"] = dim_sizes
        spec["values"] = [value(rng, dtype) for _ in range(count)]
        a = attributes(rng, attr_kinds[name])
        if a:
            spec["attrs"] = a
        arrays[name] = spec
    out = {"arrays": arrays}
    g = attributes(rng, global_kinds)
    g["id"] = f"r{index}"  # every row has an id, for filters
    out["global_attrs"] = g
    return out


# --- comparison by meaning -----------------------------------------------------------------

def bare_dtype(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int64"
    if isinstance(v, float):
        return "float64"
    if isinstance(v, str):
        return "utf8"
    items = {bare_dtype(x) for x in v if x is not None}
    if items <= {"int64", "float64"} and "float64" in items:
        return "list<float64>"
    return f"list<{items.pop()}>"


def norm_value(dtype, v):
    if v is None:
        return None
    if dtype.startswith("list<"):
        return [norm_value(dtype[5:-1], x) for x in v]
    if dtype in FLOATS:
        if isinstance(v, str):
            return v  # "NaN", "Infinity", "-Infinity"
        f = float(v)
        fmt = {"float16": "e", "float32": "f", "float64": "d"}[dtype]
        f = struct.unpack(fmt, struct.pack(fmt, f))[0]
        return "Infinity" if f == math.inf else "-Infinity" if f == -math.inf else f
    return v


def norm_attrs(attrs):
    out = {}
    for key, tv in (attrs or {}).items():
        if isinstance(tv, dict):
            out[key] = (tv["dtype"], norm_value(tv["dtype"], tv["value"]))
        else:
            d = bare_dtype(tv)
            out[key] = (d, norm_value(d, tv))
    return out


def norm_row(r):
    arrays = {}
    for name, spec in r.get("arrays", {}).items():
        arrays[name] = (spec["dtype"], spec.get("dim_names", []), spec.get("dim_sizes", []),
                        norm_value(f"list<{spec['dtype']}>", spec["values"]),
                        norm_attrs(spec.get("attrs")))
    return {"arrays": arrays, "global_attrs": norm_attrs(r.get("global_attrs"))}


def cat(table, *args):
    return [json.loads(line) for line in ok("cat", table, *args).splitlines()]


def info(table):
    return json.loads(ok("info", table, "--json"))


def same_rows(got, want, what):
    check(len(got) == len(want), f"{what}: {len(got)} rows, expected {len(want)}")
    for i, (g, w) in enumerate(zip(got, want)):
        if norm_row(g) != norm_row(w):
            check(False, f"{what}: row {i} differs:\n got  {json.dumps(g)}\n want {json.dumps(w)}")
            return


def check_cat_shape(rows, table):
    """Typed values only, no empty parts, arrays in table column order."""
    order = [v["name"] for v in info(table)["variables"]]
    for r in rows:
        check("global_attrs" not in r or r["global_attrs"], "cat wrote empty global_attrs")
        names = list(r["arrays"])
        check(names == sorted(names, key=order.index), f"arrays not in table order: {names}")
        for spec in r["arrays"].values():
            check("attrs" not in spec or spec["attrs"], "cat wrote empty attrs")
            check(set(spec) <= {"dtype", "dim_names", "dim_sizes", "values", "attrs"}, spec)
            for tv in list(spec.get("attrs", {}).values()) + list(r.get("global_attrs", {}).values()):
                check(isinstance(tv, dict) and set(tv) == {"dtype", "value"}, f"untyped {tv}")


def jsonl(rows):
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


# --- the tests ------------------------------------------------------------------------------

def test_round_trip_and_reads(tmp, seed):
    rng = random.Random(seed)
    u = universe(rng)
    first = [row(rng, u, i) for i in range(12)]
    second = [row(rng, u, 100 + i) for i in range(5)]
    table = os.path.join(tmp, f"t{seed}.lance")
    path = os.path.join(tmp, f"rows{seed}.jsonl")
    with open(path, "w") as f:
        f.write(jsonl(first))
    out = ok("append", table, path, "--create", "--stats")
    check(re.fullmatch(r"appended 12 rows; version \d+\n", out), f"append said {out!r}")
    got = cat(table)
    same_rows(got, first, f"seed {seed}: cat after append --create")
    check_cat_shape(got, table)
    # The cat output appends as it is: a second table with the same rows.
    copy = os.path.join(tmp, f"copy{seed}.lance")
    ok("append", copy, "-", "--create", stdin=jsonl(got))
    same_rows(cat(copy), first, f"seed {seed}: cat of a table appended from cat")

    v1 = info(table)["version"]
    ok("append", table, "-", stdin=jsonl(second))
    everything = first + second
    same_rows(cat(table), everything, "cat after a second append")
    same_rows(cat(table, "--version", str(v1)), first, "cat --version")
    same_rows(cat(table, "--limit", "3"), everything[:3], "cat --limit")

    # --filter on a global attribute: exact.
    picked = {f"r{i}" for i in rng.sample(range(12), 4)}
    sql = "__global_attrs__.id IN (" + ", ".join(f"'{p}'" for p in sorted(picked)) + ")"
    same_rows(cat(table, "--filter", sql),
              [r for r in everything if r["global_attrs"]["id"] in picked], "cat --filter")
    # --prune on values: never drops a row that matches, and with --filter it is exact.
    var = "v_int32"
    matches = [r for r in everything if var in r["arrays"] and any(
        x is not None and x > 0 for x in r["arrays"][var]["values"])]
    pruned = cat(table, "--prune", f"{var}.values > 0")
    kept_ids = {r["global_attrs"]["id"]["value"] for r in pruned}
    check(all(r["global_attrs"]["id"] in kept_ids for r in matches), "prune dropped a matching row")
    check(len(pruned) <= len(everything), "prune added rows")
    # --project: only the variables asked for, global attributes kept.
    project = ["v_float32", "v_utf8"]
    want = []
    for r in everything:
        want.append({"arrays": {k: v for k, v in r["arrays"].items() if k in project},
                     "global_attrs": r["global_attrs"]})
    same_rows(cat(table, "--project", ",".join(project)), want, "cat --project")
    same_rows(cat(table, "--project", ""),
              [{"arrays": {}, "global_attrs": r["global_attrs"]} for r in everything],
              "cat --project ''")
    return table, everything


def test_info(table, rows):
    i = info(table)
    check(i["rows"] == len(rows), f"info rows {i['rows']}")
    check(i["stats"] is True, "info stats")
    seen = {}
    for r in rows:
        for name, spec in r["arrays"].items():
            seen.setdefault(name, (spec["dtype"], set()))[1].update(spec.get("dim_names", []))
    by_name = {v["name"]: v for v in i["variables"]}
    check(set(by_name) == set(seen), f"info variables {sorted(by_name)}")
    for name, (dtype, dims) in seen.items():
        if name in by_name:
            check(by_name[name]["dtype"] == dtype, f"info dtype of {name}")
            check(set(by_name[name]["dims"]) == dims, f"info dims of {name}")
    check("id" in i["global_keys"], "info global keys")
    text = ok("info", table)
    check(f"rows: {len(rows)}\n" in text and "stats: on\n" in text, f"info text {text!r}")


def test_maintenance(tmp, table, rows):
    version = info(table)["version"]
    out = ok("delete", table, "--where", "__global_attrs__.id IN ('r0', 'r1', 'r999')")
    check(out == "2\n", f"delete printed {out!r}")
    remaining = [r for r in rows if r["global_attrs"]["id"] not in ("r0", "r1")]
    same_rows(cat(table), remaining, "cat after delete")
    out = ok("delete", table, "--where", "__global_attrs__.id = 'nobody'")
    check(out == "0\n", f"delete of nothing printed {out!r}")

    lines = ok("versions", table).splitlines()
    check(all(re.fullmatch(r"\d+\t\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", l) for l in lines),
          f"versions lines {lines}")
    numbers = [int(l.split("\t")[0]) for l in lines]
    check(numbers == sorted(numbers) and numbers[-1] == info(table)["version"], "versions order")
    as_json = json.loads(ok("versions", table, "--json"))
    check([v["version"] for v in as_json] == numbers, "versions --json")

    ok("restore", table, str(version))
    same_rows(cat(table), rows, "cat after restore")
    check(info(table)["version"] > version, "restore made no new version")

    before = info(table)
    check(before["fragments"] >= 2, f"expected several fragments, found {before['fragments']}")
    ok("compact", table)
    after = info(table)
    check(after["fragments"] < before["fragments"], "compact kept the fragments")
    same_rows(cat(table), rows, "cat after compact")

    ok("widen", table, "v_int16", "int64")
    widened = {v["name"]: v["dtype"] for v in info(table)["variables"]}
    check(widened.get("v_int16") == "int64", f"widen: dtype {widened.get('v_int16')}")
    want = json.loads(json.dumps(rows))
    for r in want:
        if "v_int16" in r["arrays"]:
            r["arrays"]["v_int16"]["dtype"] = "int64"
    same_rows(cat(table), want, "cat after widen")

    ok("cleanup", table, "--older-than", "7d")
    check(len(ok("versions", table).splitlines()) > 1, "cleanup 7d removed recent versions")
    ok("cleanup", table, "--older-than", "0s")
    check(len(ok("versions", table).splitlines()) == 1, "cleanup 0s kept old versions")
    same_rows(cat(table), want, "cat after cleanup")

    # Files no version references (a killed writer's) stay without --remove-unreferenced, and
    # go with it once older than --older-than; the table reads the same either way.
    data_dir = os.path.join(table, "data")
    orphans = []
    for k in range(3):
        path = os.path.join(data_dir, f"orphan-{k}.lance")
        with open(path, "wb") as f:
            f.write(os.urandom(100 + 37 * k))
        orphans.append(path)
    old = time.time() - 3600
    for path in orphans[:2]:
        os.utime(path, (old, old))
    ok("cleanup", table, "--older-than", "10m")
    check(all(os.path.exists(p) for p in orphans), "cleanup removed unreferenced files without the flag")
    ok("cleanup", table, "--older-than", "10m", "--remove-unreferenced")
    check(not any(os.path.exists(p) for p in orphans[:2]), "--remove-unreferenced kept old orphans")
    check(os.path.exists(orphans[2]), "--remove-unreferenced removed a file newer than --older-than")
    same_rows(cat(table), want, "cat after cleanup --remove-unreferenced")


def expect_error(args, stdin, command, pattern, table=None):
    """Non-zero exit, one stderr line "lance-nd: COMMAND: ..." matching `pattern`, and the
    table's version and rows unchanged."""
    before = (info(table)["version"], ok("cat", table)) if table else None
    rc, out, err = run(*args, stdin=stdin)
    lines = err.splitlines()
    check(rc != 0, f"{args}: exit 0")
    check(len(lines) == 1, f"{args}: stderr has {len(lines)} lines: {err!r}")
    check(bool(lines) and lines[0].startswith(f"lance-nd: {command}: "),
          f"{args}: stderr {err!r}")
    check(bool(re.search(pattern, err)), f"{args}: stderr {err!r} does not match {pattern!r}")
    if table:
        check((info(table)["version"], ok("cat", table)) == before, f"{args}: the table changed")


def test_errors(tmp):
    table = os.path.join(tmp, "errors.lance")
    good = [{"arrays": {"t": {"dtype": "float32", "dim_names": ["x"], "dim_sizes": [2],
                              "values": [1.5, 2]}}, "global_attrs": {"id": "a"}},
            {"arrays": {"s": {"dtype": "utf8", "values": ["x"]}}}]
    ok("append", table, "-", "--create", stdin=jsonl(good))
    two = jsonl(good)
    bad_lines = [
        ('{"arrays": ', r"line 3: not valid JSON"),
        ('{"arrays": {"t": {"dtype": "flaot32", "values": [1]}}}',
         r"line 3: unknown dtype 'flaot32' \(expected one of bool, int8, .*list<T>\)"),
        ('{"arrays": {"t": {"dtype": "float32", "dim_names": ["x"], "dim_sizes": [3], '
         '"values": [1, 2]}}}', r"line 3: 2 values for dim_sizes \[x=3\] \(3 elements"),
        ('{"arrays": {"t": {"dtype": "float32", "dim_names": ["x", "y"], "dim_sizes": [2], '
         '"values": [1, 2]}}}', r"line 3: dim_names has 2 names but dim_sizes has 1 sizes"),
        ('{"arrays": {"t": {"dtype": "int64", "values": [1]}}}',
         r"line 3: variable 't' is int64 here but float32 in the table"),
        ('{"arrays": {"s": {"dtype": "utf8", "values": ["x"], "attrs": {"k": 1}}}}\n'
         '{"arrays": {"s": {"dtype": "utf8", "values": ["x"], "attrs": {"k": "one"}}}}',
         r"line 4: attribute 'k' of 's' is utf8 here but int64 on line 3"),
        ('{"arrays": {"__global_attrs__": {"dtype": "int8", "values": [1]}}}',
         r"line 3: array name '__global_attrs__' is reserved"),
        ('{"arrays": {"__stats__x": {"dtype": "int8", "values": [1]}}}',
         r"line 3: array name '__stats__x' is reserved"),
    ]
    for line, pattern in bad_lines:
        expect_error(["append", table, "-"], two + line + "\n", "append", pattern, table)
    # Casting modes: refused by one, accepted by the next.
    wide = '{"arrays": {"t": {"dtype": "float64", "values": [0.5]}}}\n'
    expect_error(["append", table, "-", "--casting", "safe"], wide, "append",
                 r"line 1: variable 't' is float64 here but float32 in the table: casting 'safe'",
                 table)
    expect_error(["append", table, "-", "--casting", "maybe"], wide, "append", r"maybe", table)
    ok("append", table, "-", "--casting", "same_kind", stdin=wide)
    small = '{"arrays": {"n": {"dtype": "int8", "values": [1]}}}\n'
    ok("append", table, "-", stdin=small)
    big = '{"arrays": {"n": {"dtype": "int16", "values": [1, 300]}}}\n'.replace(
        '"values": [1, 300]', '"dim_names": ["k"], "dim_sizes": [2], "values": [1, 300]')
    expect_error(["append", table, "-", "--casting", "same_kind"], small + big, "append",
                 r"line 2: variable 'n' is int16 here but int8 in the table: .*300", table)
    expect_error(["append", table, "-", "--casting", "promote"],
                 '{"arrays": {"n": {"dtype": "utf8", "values": ["x"]}}}\n', "append",
                 r"line 1: variable 'n' is utf8 here but int8 in the table: casting 'promote'",
                 table)
    expect_error(["append", table, "-", "--stats"], small, "append", r"has no stats", table)
    # Missing tables, bad SQL, bad arguments.
    missing = os.path.join(tmp, "missing.lance")
    expect_error(["append", missing, "-"], two, "append", r"--create")
    check(not os.path.exists(os.path.join(missing, "_versions")), "append made a missing table")
    expect_error(["append", missing, "-", "--create"], "", "append", r"no rows")
    expect_error(["append", table, os.path.join(tmp, "none.jsonl")], None, "append",
                 r"cannot open .*none.jsonl: No such file", table)
    expect_error(["cat", missing], None, "cat", r".")
    expect_error(["cat", table, "--filter", "t.values >>> 1"], None, "cat", r"filter[^^]*$", table)
    expect_error(["cat", table, "--project", "nope"], None, "cat", r"nope", table)
    expect_error(["delete", table, "--where", "((("], None, "delete", r".", table)
    expect_error(["restore", table, "999"], None, "restore", r"999", table)
    expect_error(["widen", table, "t", "flaot64"], None, "widen", r"unknown dtype 'flaot64'", table)
    expect_error(["widen", table, "t", "int8"], None, "widen", r".", table)
    for bad in ("7x", "7", "-1s", "d", "1.5h", "", "99999999999999999999w"):
        expect_error(["cleanup", table, "--older-than", bad], None, "cleanup",
                     f"invalid duration '{re.escape(bad)}'", table)
    # Valid durations, on a fresh table with an old version: nothing younger than the duration
    # goes. The check is skipped for a duration that has already passed (a slow sanitizer build).
    fresh = os.path.join(tmp, "fresh.lance")
    made = time.monotonic()
    ok("append", fresh, "-", "--create", stdin=small)
    ok("append", fresh, "-", stdin=small)
    for good, seconds in (("45s", 45), ("30m", 1800), ("12h", 43200), ("7d", 604800),
                          ("1d12h", 129600), ("2w", 1209600)):
        out = ok("cleanup", fresh, "--older-than", good)
        if time.monotonic() - made < seconds:
            check(out.startswith("versions removed 0,"), f"cleanup {good} removed versions: {out!r}")
    expect_error(["cat", table, "--bogus"], None, "cat", r"--bogus", table)
    expect_error(["cat", table, "--version", "999"], None, "cat", r"999", table)
    check(ok("cat", table, "--limit", "0") == "", "cat --limit 0 wrote rows")
    # A Lance table that is not a lance-nd table.
    plain = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "lance_nd",
                         "table", "testdata", "lance12_nested.lance")
    expect_error(["info", plain], None, "info", r".")
    expect_error(["cat", plain], None, "cat", r".")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        table, rows = test_round_trip_and_reads(tmp, 1)
        for seed in range(2, 5):
            test_round_trip_and_reads(tmp, seed)
        test_info(table, rows)
        test_maintenance(tmp, table, rows)
        test_errors(tmp)
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        sys.exit(1)
    print("all passed")


main()
