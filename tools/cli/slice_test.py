#!/usr/bin/python3
"""`lance-nd slice` end to end on seeded generated datasets.

    slice_test.py LANCE_ND_BINARY

Datasets of rank 0-3 (float32, float64 with NaN, int16, utf8, timestamps; nulls; ascending and
descending coordinates) are cut into chunk rows here (chunk_rows.py, written from
docs/FORMAT.md §3.6), appended with `append --create`, and read back with random `slice`
requests; each answer is compared with numpy's slicing of the dataset in memory. Then .npy
output (NaN / NaT for missing values, _FillValue for integers) and the error cases: exit status
and one line on stderr.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chunk_rows import chunk_rows  # noqa: E402

BIN = sys.argv[1]
FAILURES = []
DIMS = ["t", "y", "x"]
KINDS = {"a": "float32", "b": "float64", "c": "int16", "d": "utf8", "e": "timestamp[ns]"}


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)


def run(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def random_values(rng, dtype, shape):
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "utf8":
        data = np.array(["".join(rng.choice("abc xyz") for _ in range(rng.randint(0, 4)))
                         for _ in range(n)], dtype=object)
    elif dtype == "int16":
        data = np.array([rng.randint(-300, 300) for _ in range(n)], dtype=np.int16)
    elif dtype.startswith("timestamp"):
        data = np.array([rng.randint(-2**50, 2**50) for _ in range(n)], dtype=np.int64)
    else:
        data = np.array([rng.randint(-4000, 4000) / 8 for _ in range(n)], dtype=dtype)
        if dtype == "float64" and n:
            data[rng.randrange(n)] = np.nan
    mask = np.array([rng.random() < 0.15 for _ in range(n)], dtype=bool)
    return np.ma.masked_array(data.reshape(shape), mask=mask.reshape(shape))


def random_dataset(rng, ident):
    rank = rng.randint(0, 3)
    dims = [(DIMS[k], rng.randint(1, 7)) for k in range(rank)]
    variables = {}
    for name, size in dims:
        step = rng.choice([1.5, 2, -1, -3])
        coord = np.ma.masked_array(np.arange(size, dtype=np.float64) * step + rng.randint(-9, 9))
        variables[name] = ("float64", [name], coord, {"units": "m"})
    for name in rng.sample(sorted(KINDS), rng.randint(1, 3)):
        vdims = rng.sample(dims, rng.randint(0, rank))
        shape = tuple(s for _, s in vdims)
        attrs = {"long_name": f"{name} of {ident}"}
        if KINDS[name] == "int16":
            attrs["_FillValue"] = {"dtype": "int16", "value": -999}
        variables[name] = (KINDS[name], [d for d, _ in vdims], random_values(rng, KINDS[name], shape),
                           attrs)
    chunks = {d: rng.randint(1, 8) for d, _ in dims if rng.random() < 0.8}
    return dims, variables, chunks


def expected_json_values(array, dtype):
    out = []
    for v, m in zip(np.ma.getdata(array).ravel().tolist(), np.ma.getmaskarray(array).ravel().tolist()):
        out.append(None if m else ("NaN" if isinstance(v, float) and v != v else v))
    return out


def same_values(got, want, dtype):
    if len(got) != len(want):
        return False
    for g, w in zip(got, want):
        if w is None or g is None or isinstance(w, str):
            if g != w:
                return False
        elif dtype == "float32":
            if np.float32(g) != np.float32(w):
                return False
        elif g != w:
            return False
    return True


def random_request(rng, dims, variables, name):
    vdims = variables[name][1]
    sizes = dict(dims)
    isel, sel, key, kept = [], [], [], []
    for d in vdims:
        n = sizes[d]
        coord = np.ma.getdata(variables[d][2]) if d in variables else None
        kind = rng.choice(["whole", "index", "range"] + (["value", "value_range"] if coord is not None else []))
        if kind == "whole":
            key.append(slice(None))
            kept.append(d)
        elif kind == "index":
            i = rng.randrange(n)
            isel.append(f"{d}={i if rng.random() < 0.5 else i - n}")
            key.append(i)
        elif kind == "range":
            b, e = sorted(rng.randint(0, n) for _ in range(2))
            isel.append(f"{d}={b}:{e - n if e < n and rng.random() < 0.4 else e}")
            key.append(slice(b, e))
            kept.append(d)
        elif kind == "value":
            i = rng.randrange(n)
            sel.append(f"{d}={coord[i] + rng.choice([-0.2, 0, 0.2])!r}")
            key.append(i)
        else:
            i, j = sorted(rng.randrange(n) for _ in range(2))
            lo, hi = sorted([coord[i], coord[j]])
            sel.append(f"{d}={lo - 0.1!r}:{hi + 0.1!r}")
            key.append(slice(i, j + 1))
            kept.append(d)
    return isel, sel, tuple(key), kept


def slice_cmd(table, ident, name, isel, sel, *extra):
    args = ["slice", table, "--id", ident, "--var", name]
    if isel:
        args += ["--isel", ",".join(isel)]
    if sel:
        args += ["--sel", ",".join(sel)]
    return [*args, *extra]


def test_random_slices(tmp):
    rng = random.Random(7)
    table = os.path.join(tmp, "gen.lance")
    datasets = {}
    rows = []
    for i in range(12):
        ident = f"ds{i}"
        datasets[ident] = random_dataset(rng, ident)
        rows += chunk_rows(ident, *datasets[ident], unlimited=[])
    rng.shuffle(rows)
    path = os.path.join(tmp, "gen.jsonl")
    with open(path, "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    rc, _, err = run("append", table, path, "--create")
    check(rc == 0, f"append: {err}")
    count = 0
    for ident, (dims, variables, _) in datasets.items():
        for name, (dtype, vdims, values, attrs) in variables.items():
            for _ in range(6):
                isel, sel, key, kept = random_request(rng, dims, variables, name)
                what = f"{ident}.{name} isel={isel} sel={sel}"
                rc, out, err = run(*slice_cmd(table, ident, name, isel, sel))
                check(rc == 0, f"{what}: exit {rc}: {err}")
                if rc != 0:
                    continue
                got = json.loads(out)
                want = values[key] if key else values
                want = np.ma.masked_array(want)
                check(got["dtype"] == dtype and got["dim_names"] == kept and
                      got["dim_sizes"] == list(want.shape), f"{what}: header {got}")
                check(same_values(got["values"], expected_json_values(want, dtype), dtype),
                      f"{what}: values {got['values']} != {expected_json_values(want, dtype)}")
                check(got["attrs"]["long_name"] == {"dtype": "utf8", "value": attrs["long_name"]}
                      if "long_name" in attrs else True, f"{what}: attrs {got.get('attrs')}")
                count += 1
    print(f"{count} random slices compared")
    return table, datasets


def test_npy(tmp, table, datasets):
    count = 0
    for ident, (dims, variables, _) in datasets.items():
        for name, (dtype, vdims, values, attrs) in variables.items():
            out = os.path.join(tmp, "v.npy")
            rc, _, err = run(*slice_cmd(table, ident, name, [], [], "--format", "npy", "--out", out))
            if dtype == "utf8":
                check(rc == 1 and "has no .npy form here" in err, f"npy utf8: {rc} {err}")
                continue
            check(rc == 0, f"npy {ident}.{name}: {err}")
            got = np.load(out)
            if dtype.startswith("timestamp"):
                want = np.ma.getdata(values).astype("datetime64[ns]")
                want[np.ma.getmaskarray(values)] = np.datetime64("NaT")
                same = np.array_equal(got.view(np.int64), want.view(np.int64))
            elif dtype == "int16":
                same = np.array_equal(got, np.ma.filled(values, -999))
            else:
                same = np.array_equal(got, np.ma.filled(values.astype(dtype), np.nan), equal_nan=True)
            check(got.dtype == np.dtype(dtype if not dtype.startswith("timestamp") else "datetime64[ns]")
                  and got.shape == values.shape and same, f"npy {ident}.{name}: {got} != {values}")
            count += 1
    print(f"{count} .npy files compared")


def expect_error(args, code, text):
    rc, out, err = run(*args)
    check(rc == code and out == "" and err.count("\n") == 1 and text in err,
          f"{args}: exit {rc}, stderr {err!r}, expected {text!r}")


def test_errors(tmp):
    table = os.path.join(tmp, "err.lance")
    dims = [("t", 4), ("x", 3)]
    t = np.ma.masked_array(np.arange(4, dtype=np.float64))
    n = np.ma.masked_array(np.arange(12, dtype=np.int32).reshape(4, 3), mask=[[True] + [False] * 2] * 4)
    variables = {"t": ("float64", ["t"], t, {}), "n": ("int32", ["t", "x"], n, {})}
    path = os.path.join(tmp, "err.jsonl")
    with open(path, "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in chunk_rows("e", dims, variables, {"t": 3}))
    check(run("append", table, path, "--create")[0] == 0, "append err table")
    base = ["slice", table, "--id", "e", "--var", "n"]
    expect_error(["slice", table, "--id", "zz", "--var", "n"], 1,
                 "lance-nd: slice: reading 'n' of dataset 'zz': no dataset with id 'zz' in the table (the ids are 'e')")
    expect_error(base + ["--isel", "t=4"], 1,
                 "index 4 is out of range for dimension 't' of size 4 (expected -4..3)")
    expect_error(base + ["--isel", "t=1:x"], 1,
                 "lance-nd: slice: cannot read 'x' in 't=1:x' (expected an index like 3 or -1")
    expect_error(base + ["--isel", "t"], 1, "cannot read 't' (expected DIM=SPEC, e.g. time=0)")
    expect_error(base + ["--isel", "t=0", "--sel", "t=1"], 1, "dimension 't' is selected twice")
    expect_error(base + ["--sel", "x=1"], 1, "dataset 'e' has no coordinate variable 'x'")
    expect_error(base + ["--format", "npy", "--out", os.path.join(tmp, "n.npy")], 1,
                 "variable 'n' has 4 missing values and .npy has no missing value for int32; give "
                 "the variable a _FillValue attribute, or use --format json")
    expect_error(["slice", table, "--var", "n"], 2, "--id is required")
    expect_error(base + ["--format", "csv"], 2, "lance-nd: slice:")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        table, datasets = test_random_slices(tmp)
        test_npy(tmp, table, datasets)
        test_errors(tmp)
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
