#!/usr/bin/python3
"""The lance-nd command line for people: readable forms on a terminal, progress bars, `ls`,
`schema`, `--help` and error messages.

    cli_terminal_test.py LANCE_ND_BINARY

A terminal is a pseudo-terminal (os.openpty) given to the command as stdout or stderr; plain
pipes check that the scriptable forms stay as they were and that progress stays quiet. Tables
are generated from seeds: datasets that follow the chunk convention (docs/FORMAT.md §3.6),
datasets of one row, and rows without an id; what `ls` must report is computed here from the
generated rows.
"""
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pty_run  # noqa: E402

BIN = sys.argv[1]
FAILURES = []
ESC = "\033["


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)


def run(*args, stdin=None, env=None):
    p = subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True,
                       env=environment(env))
    return p.returncode, p.stdout, p.stderr


def ok(*args, stdin=None, env=None):
    rc, out, err = run(*args, stdin=stdin, env=env)
    check(rc == 0, f"{' '.join(args)}: exit {rc}, stderr {err!r}")
    return out


def environment(extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
    env.update(extra or {})
    return env


def run_tty(*args, tty_stdout=True, tty_stderr=False, columns=120, env=None, stdin=None):
    """Run with a pseudo-terminal as stdout and/or stderr (pty_run.run_tty)."""
    return pty_run.run_tty([BIN, *args], tty_stdout=tty_stdout, tty_stderr=tty_stderr,
                           columns=columns, env=environment(env), stdin=stdin)


def plain(text):
    """`text` without ANSI escape sequences."""
    return re.sub(r"\033\[[0-9;]*[A-Za-z]", "", text)


# --- generated tables ---------------------------------------------------------------------------

def typed(dtype, value):
    return {"dtype": dtype, "value": value}


def chunked_dataset(rng, name):
    """The rows of one dataset in chunks along its first dimension, following the convention:
    variables with the split dimension in every chunk, the others in chunk 0 only."""
    dims = ["TIME", "LAT", "LON"][: rng.randint(1, 3)]
    shape = [rng.randint(2, 7)] + [rng.randint(1, 4) for _ in dims[1:]]
    step = rng.randint(1, shape[0])
    count = math.ceil(shape[0] / step)
    unlimited = ["TIME"] if rng.random() < 0.5 else []
    units = {"SST": "K", "TIME": "hours", "LAT": "degrees_north", "LON": "degrees_east"}
    variables = {"SST": ("float32", dims), "TIME": ("float64", ["TIME"])}
    for d in dims[1:]:
        variables[d] = ("float32", [d])
    title = f"dataset {name}"
    rows = []
    for k in range(count):
        offset = k * step
        extent = min(step, shape[0] - offset)
        arrays = {}
        for var, (dtype, vdims) in variables.items():
            if "TIME" not in vdims and k > 0:
                continue  # stored once, in chunk 0
            sizes = [extent if d == "TIME" else shape[dims.index(d)] for d in vdims]
            arrays[var] = {"dtype": dtype, "dim_names": vdims, "dim_sizes": sizes,
                           "values": [rng.randint(-40, 40) / 4 for _ in range(math.prod(sizes))],
                           "attrs": {"units": units[var]}}
        rows.append({"global_attrs": {
            "id": name, "title": title,
            "chunk_dims": typed("list<utf8>", dims),
            "dataset_shape": typed("list<int64>", shape),
            "chunk_offset": typed("list<int64>", [offset] + [0] * (len(dims) - 1)),
            "unlimited_dims": typed("list<utf8>", unlimited),
            "chunk_index": k, "chunk_count": count}, "arrays": arrays})
    expected = {"id": name, "rows": count, "chunk_count": count, "dim_names": dims,
                "dim_sizes": shape, "unlimited_dims": unlimited,
                "global_attrs": {"title": typed("utf8", title)},  # the id is the dataset's
                "variables": {var: (dtype, vdims, [shape[dims.index(d)] for d in vdims],
                                    {"units": typed("utf8", units[var])})
                              for var, (dtype, vdims) in variables.items()}}
    return rows, expected


def single_row(rng, name):
    """A dataset of one row (an id, no chunk keys), or a row without an id (name None)."""
    n = rng.randint(1, 30)
    arrays = {"SST": {"dtype": "float32", "dim_names": ["obs"], "dim_sizes": [n],
                      "values": [rng.randint(-40, 40) / 4 for _ in range(n)]},
              "station": {"dtype": "utf8", "values": [f"st{rng.randint(0, 9)}"]}}
    row = {"arrays": arrays}
    if name is not None:
        row["global_attrs"] = {"id": name}
    expected = {"id": name, "rows": 1, "chunk_count": None, "dim_names": ["obs"],
                "dim_sizes": [n], "unlimited_dims": [], "global_attrs": {},
                "variables": {"SST": ("float32", ["obs"], [n], {}),
                              "station": ("utf8", [], [], {})}}
    return [row], expected


def generated_table(tmp, seed):
    """A table of chunked datasets, one-row datasets and rows without an id, in a seeded
    order (the rows of a dataset stay together, in chunk order); returns its path, its rows and
    the datasets `ls --json` must report, in order of their first rows."""
    rng = random.Random(seed)
    parts = []
    for i in range(rng.randint(1, 3)):
        parts.append(chunked_dataset(rng, f"c{seed}_{i}"))
    for i in range(rng.randint(0, 2)):
        parts.append(single_row(rng, f"s{seed}_{i}"))
    for _ in range(rng.randint(0, 2)):
        parts.append(single_row(rng, None))
    rng.shuffle(parts)
    rows, expected = [], []
    for part_rows, part_expected in parts:
        part_expected["first_row"] = len(rows)
        rows += part_rows
        expected.append(part_expected)
    table = os.path.join(tmp, f"gen{seed}.lance")
    ok("append", table, "-", "--create", "--stats", stdin=jsonl(rows))
    return table, rows, expected


def jsonl(rows):
    return "".join(json.dumps(r) + "\n" for r in rows)


def column_order(rows):
    order = []
    for r in rows:
        for name in r["arrays"]:
            if name not in order:
                order.append(name)
    return order


# --- ls and schema ------------------------------------------------------------------------------

def test_ls(table, rows, expected):
    got = json.loads(ok("ls", table, "--json"))
    check(got["version"] == 1, f"ls --json: version {got['version']}")
    datasets = got["datasets"]
    check([d["id"] for d in datasets] == [e["id"] for e in expected],
          f"ls ids {[d['id'] for d in datasets]} != {[e['id'] for e in expected]}")
    order = column_order(rows)
    for d, e in zip(datasets, expected):
        what = f"ls dataset {e['id']!r} (first row {e['first_row']})"
        for key in ("first_row", "rows", "chunk_count", "dim_names", "dim_sizes",
                    "unlimited_dims", "global_attrs"):
            check(d[key] == e[key], f"{what}: {key} {d[key]!r} != {e[key]!r}")
        names = [v["name"] for v in d["variables"]]
        want_names = [n for n in order if n in e["variables"]]
        check(names == want_names, f"{what}: variables {names} != {want_names}")
        for v in d["variables"]:
            want = e["variables"].get(v["name"])
            got_v = (v["dtype"], v["dim_names"], v["dim_sizes"], v["attrs"])
            check(got_v == want, f"{what}: variable {v['name']}: {got_v} != {want}")
    # Text: piped it has no styles, and names every dataset and variable with dtype[dims].
    text = ok("ls", table)
    check(ESC not in text, "ls piped wrote escape sequences")
    check(text.startswith(f"{len(expected)} dataset"), f"ls headline: {text.splitlines()[0]!r}")
    for e in expected:
        name = e["id"] if e["id"] is not None else f"(row {e['first_row']}, no id)"
        check(re.search(rf"^{re.escape(name)}  ", text, re.M) is not None,
              f"ls text lacks dataset {name}: {text}")
        for var, (dtype, dims, sizes, _) in e["variables"].items():
            shape = ", ".join(f"{n}={s}" for n, s in zip(dims, sizes))
            check(f"{var}" in text and f"{dtype}[{shape}]" in text,
                  f"ls text lacks {var} {dtype}[{shape}]")
    # On a terminal: the same text, with colour unless NO_COLOR is set.
    rc, out, _ = run_tty("ls", table)
    check(rc == 0 and ESC in out, f"ls on a terminal: exit {rc}, no colour: {out!r}")
    check(plain(out) == text, f"ls on a terminal differs from piped beyond colour:\n{out}\n{text}")
    rc, out, _ = run_tty("ls", table, env={"NO_COLOR": "1"})
    check(rc == 0 and ESC not in out, f"ls with NO_COLOR wrote escape sequences: {out!r}")
    rc, out, _ = run_tty("ls", table, columns=40)
    check(all(len(line) <= 40 for line in plain(out).splitlines()),
          f"ls lines wider than a 40-column terminal:\n{plain(out)}")
    rc, out, _ = run_tty("ls", table, "--json")
    check(json.loads(out) == got, "ls --json on a terminal differs from piped")


def test_schema(table, rows):
    got = json.loads(ok("schema", table, "--json"))
    order = column_order(rows)
    check([v["name"] for v in got["variables"]] == order,
          f"schema variables {[v['name'] for v in got['variables']]} != {order}")
    dtypes = {}
    for r in rows:
        for name, spec in r["arrays"].items():
            dtypes[name] = spec["dtype"]
    for v in got["variables"]:
        check(v["dtype"] == dtypes[v["name"]], f"schema {v['name']}: dtype {v['dtype']}")
        keys = {k for r in rows for k in r["arrays"].get(v["name"], {}).get("attrs", {})}
        check({a["key"] for a in v["attrs"]} == keys, f"schema {v['name']}: attrs {v['attrs']}")
    globals_ = {g["key"]: g["dtype"] for g in got["global_attrs"]}
    want = {"id": "utf8", "title": "utf8", "chunk_dims": "list<utf8>",
            "dataset_shape": "list<int64>", "chunk_offset": "list<int64>",
            "unlimited_dims": "list<utf8>", "chunk_index": "int64", "chunk_count": "int64"}
    check(globals_ == want, f"schema global attrs {globals_} != {want}")
    stats = {s["variable"]: s["dtype"] for s in got["stats"]}
    check(stats == dtypes, f"schema stats {stats} != {dtypes} (every dtype here has stats)")
    check(got["metadata"].get("lance_nd:format") == "1", f"schema metadata {got['metadata']}")
    check(got["metadata"].get("lance_nd:stats") == "1", f"schema metadata {got['metadata']}")
    text = ok("schema", table)
    for part in ["variables (", "global attributes (", "stats columns (", "schema metadata (",
                 "lance_nd:format = 1"]:
        check(part in text, f"schema text lacks {part!r}:\n{text}")
    for v in got["variables"]:
        check(re.search(rf"[├└]─ {re.escape(v['name'])}  {re.escape(v['dtype'])}", text),
              f"schema text lacks the line of {v['name']}:\n{text}")


# --- info, versions and cat on a terminal -------------------------------------------------------

def test_info_and_versions(table, rows, copies):
    piped = ok("info", table)
    check(piped.startswith("version: "), f"info piped changed: {piped!r}")
    rc, out, _ = run_tty("info", table, env={"NO_COLOR": "1"})
    n = copies * len(rows)
    check(rc == 0 and out.startswith(f"{table}  version ") and f"· {n} rows" in out,
          f"info on a terminal: {out!r}")
    check(re.search(r"^variable +dtype\[dims\] +attributes$", out, re.M) is not None,
          f"info on a terminal lacks the header: {out!r}")
    for name in column_order(rows):
        check(re.search(rf"^{re.escape(name)} +\S+\[", out, re.M) is not None,
              f"info on a terminal lacks {name}: {out!r}")
    versions = json.loads(ok("versions", table, "--json"))
    piped = ok("versions", table)
    check(piped.splitlines() == [f"{v['version']}\t{v['timestamp']}" for v in versions],
          f"versions piped changed: {piped!r}")
    rc, out, _ = run_tty("versions", table, env={"NO_COLOR": "1"})
    lines = out.splitlines()
    check(rc == 0 and re.match(r"version +committed \(UTC\) +age +operation +rows", lines[0]),
          f"versions on a terminal: {out!r}")
    check(len(lines) == len(versions) + 1, f"versions on a terminal: {len(lines)} lines")
    for line, v in zip(lines[1:], versions):
        check(re.match(rf" *{v['version']}  {re.escape(v['timestamp'])} ", line) is not None,
              f"versions line {line!r} is not version {v}")
    check("← latest" in lines[-1], f"the last version is not marked latest: {lines[-1]!r}")


def test_cat(table, rows):
    piped = ok("cat", table)
    check(all(json.loads(line) for line in piped.splitlines()), "cat piped is not JSON Lines")
    rc, out, _ = run_tty("cat", table, "--json")
    check(out == piped, "cat --json on a terminal differs from cat piped")
    rc, out, _ = run_tty("cat", table, columns=250, env={"NO_COLOR": "1"})
    check(rc == 0, f"cat on a terminal: exit {rc}")
    heads = re.findall(r"^row (\d+)", out, re.M)
    check(heads == [str(i + 1) for i in range(len(rows))], f"cat on a terminal: rows {heads}")
    blocks = re.split(r"^row \d+.*\n", out, flags=re.M)[1:]
    for i, (block, r) in enumerate(zip(blocks, rows)):
        for name in column_order(rows):
            spec = r["arrays"].get(name)
            if spec is None:
                check(re.search(rf"^  {re.escape(name)} ", block, re.M) is None,
                      f"cat row {i + 1} shows {name}, which it lacks")
                continue
            values = spec["values"]
            texts = [repr(float(x)) if spec["dtype"].startswith("float") else json.dumps(x)
                     for x in values]
            dims = ", ".join(f"{d}={s}" for d, s in zip(spec.get("dim_names", []),
                                                         spec.get("dim_sizes", [])))
            if not spec.get("dim_names"):
                preview = texts[0]
            elif len(texts) <= 16:
                preview = "[" + ", ".join(texts) + "]"
            else:
                preview = "[" + ", ".join(texts[:8]) + ", …, " + ", ".join(texts[-8:]) + "]"
            line = rf"^  {re.escape(name)} +{re.escape(spec['dtype'])}\[{re.escape(dims)}\]  +"
            check(re.search(line + re.escape(preview) + "$", block, re.M) is not None,
                  f"cat row {i + 1}: no line {name} {spec['dtype']}[{dims}] {preview}:\n{block}")
    rc, narrow, _ = run_tty("cat", table, columns=50)
    check(all(len(line) <= 50 for line in plain(narrow).splitlines()),
          "cat lines wider than a 50-column terminal")


# --- progress -----------------------------------------------------------------------------------

def test_progress(tmp, table, rows):
    now = {"LANCE_ND_PROGRESS_DELAY_MS": "0"}
    piped = ok("cat", table)
    rc, out, err = run_tty("cat", table, tty_stdout=False, tty_stderr=True, env=now)
    check(rc == 0 and out == piped, "cat with a bar on stderr changed its output")
    check(re.search(rf"cat \[[█░]+\]  [\d,]+/{len(rows)} rows", err) is not None,
          f"cat drew no bar on a terminal stderr: {err!r}")
    check(err.endswith("\r" + ESC + "K"), f"cat did not clear its bar: {err!r}")
    rc, out, err = run("cat", table, env=now)
    check(rc == 0 and err == "", f"cat piped wrote to stderr: {err!r}")
    rc, out, err = run_tty("cat", table, tty_stdout=True, tty_stderr=True, env=now)
    check("█" not in out, "cat drew a bar among the rows on the terminal")

    source = os.path.join(tmp, "more.jsonl")
    with open(source, "w") as f:
        f.write(jsonl(rows))
    size = os.path.getsize(source)
    rc, out, err = run_tty("append", table, source, tty_stdout=False, tty_stderr=True, env=now)
    check(rc == 0 and out == f"appended {len(rows)} rows; version 2\n", f"append: {out!r}")
    check(re.search(r"append \[[█░]+\]  [\d.]+ K?i?B/[\d.]+ K?i?B", err) is not None,
          f"append drew no byte bar: {err!r}")
    check(err.endswith("\r" + ESC + "K"), f"append did not clear its bar: {err!r}")
    check(size > 0, "empty source")
    rc, out, err = run("append", table, source, env=now)
    check(rc == 0 and err == "", f"append piped wrote to stderr: {err!r}")
    rc, out, err = run_tty("append", table, "-", tty_stdout=False, tty_stderr=True, env=now,
                           stdin=jsonl(rows))
    check(rc == 0 and re.search(r"append  [\d,]+ rows", err) is not None,
          f"append from stdin drew no row count: {err!r}")

    rc, out, err = run_tty("compact", table, tty_stdout=False, tty_stderr=True, env=now)
    total = 4 * len(rows)
    check(rc == 0 and out.startswith("fragments removed 4, added 1"), f"compact: {out!r}")
    check(re.search(rf"compact \[[█░]+\]  [\d,]+/{total:,} rows", err) is not None,
          f"compact drew no bar: {err!r}")
    rc, out, err = run("compact", table, env=now)
    check(rc == 0 and err == "" and out.startswith("nothing to compact"), f"compact: {err!r}")


# --- help and errors ----------------------------------------------------------------------------

def subcommands():
    """The subcommands `lance-nd --help` lists."""
    out = ok("--help")
    check("Example" in out, "lance-nd --help has no example")
    section = re.split(r"^subcommands:$", out, flags=re.M | re.I)
    section = section[1].split("\n\n")[0] if len(section) > 1 else ""
    names = re.findall(r"^  (\w[\w-]*) ", section, re.M)
    check(len(names) >= 12, f"lance-nd --help lists {names}")
    return names


def test_help():
    for name in subcommands():
        rc, out, err = run(name, "--help")
        check(rc == 0, f"{name} --help: exit {rc}, {err!r}")
        check(re.search(rf"^Example:\n  lance-nd {name} ", out, re.M) is not None,
              f"{name} --help shows no example:\n{out}")


def expect_error(args, command, pattern):
    """Exit 1, one stderr line "lance-nd: COMMAND: ..." matching `pattern`."""
    rc, out, err = run(*args)
    lines = err.splitlines()
    check(rc == 1, f"{args}: exit {rc}")
    check(len(lines) == 1 and lines[0].startswith(f"lance-nd: {command}: "),
          f"{args}: stderr {err!r}")
    check(re.search(pattern, err) is not None, f"{args}: stderr {err!r} does not match {pattern!r}")


def test_errors(tmp, table):
    missing = os.path.join(tmp, "missing.lance")
    for command in ("info", "ls", "schema", "cat", "versions", "compact"):
        expect_error([command, missing], command,
                     rf"no table at {re.escape(missing)}; make one with `lance-nd append "
                     rf"{re.escape(missing)} rows.jsonl --create` or `lance-nd import`")
    expect_error(["delete", missing, "--where", "TRUE"], "delete", r"--create")
    # A filter that does not parse: the position is marked in the echoed SQL.
    rng = random.Random(7)
    for _ in range(10):
        left = rng.choice(["SST.values", "`__stats__:SST`.max", "__global_attrs__.chunk_index"])
        bad = f"{left} {rng.choice(['>', '=', '<'])} {rng.choice([')', '>', 'AND'])} 1"
        at = len(left) + 3
        expect_error(["cat", table, "--filter", bad], "cat",
                     rf"at position {at} .* at ▶ in: {re.escape(bad[:at] + '▶' + bad[at:])}$")
    expect_error(["cat", table, "--filter", "SSTT.values > 1"], "cat",
                 r"unknown column SSTT.values; the columns are: SST, SST.values, ")
    expect_error(["cat", table, "--project", "SSTT"], "cat",
                 r"'SSTT' is not a variable of the table; its variables are 'SST', ")
    expect_error(["schema", table, "--version", "99"], "schema", r"has no version 99; its versions")
    # Usage errors (exit 2) point at the command's own help.
    rc, _, err = run("ls", table, "--bogus")
    check(rc == 2 and re.fullmatch(r"lance-nd: ls: .*--bogus.* \(see lance-nd ls --help\)\n", err),
          f"ls --bogus: exit {rc}, {err!r}")
    # ls names the row whose chunk keys break the convention.
    bad = os.path.join(tmp, "bad_chunks.lance")
    good = {"global_attrs": {"id": "x"}, "arrays": {"v": {"dtype": "int8", "values": [1]}}}
    broken = {"global_attrs": {"id": "x", "chunk_dims": typed("list<utf8>", ["t"])},
              "arrays": {"v": {"dtype": "int8", "values": [2]}}}
    ok("append", bad, "-", "--create", stdin=jsonl([good, good, broken]))
    expect_error(["ls", bad], "ls", r"row 2: .*chunk_dims.*dataset_shape")
    plain_lance = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src",
                               "lance_nd", "table", "testdata", "lance12_nested.lance")
    for command in ("ls", "schema", "info"):
        expect_error([command, plain_lance], command, r"no 'lance_nd:format' key.*`lance-nd inspect ")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, 6):
            table, rows, expected = generated_table(tmp, seed)
            test_ls(table, rows, expected)
            test_schema(table, rows)
            test_cat(table, rows)
        test_progress(tmp, table, rows)
        test_info_and_versions(table, rows, copies=4)
        test_help()
        test_errors(tmp, table)
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        sys.exit(1)
    print("all passed")


main()
