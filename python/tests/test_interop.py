"""Interop with LanceDB 0.39 (Lance 12, driven through node): tables written here are read by
LanceDB with the right rows, and nd rows LanceDB writes open here.

The expected nd JSON is computed from the source Datasets by this file (numpy only)."""

import json
import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest
import xarray as xr

import lance_nd
from conftest import assert_same_dataset, values

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = pathlib.Path(__file__).with_name("lancedb_nd.mjs")
NODE = os.environ.get("LANCE_ND_NODE") or shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None or not (ROOT / "interop/node_modules/@lancedb/lancedb").exists(),
    reason="node or the LanceDB oracle (interop/node_modules) is not installed")

KINDS = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8", "bool", "str",
         "datetime", "timedelta"]
NAMES = {"b": "bool", "i": "int", "u": "uint", "f": "float"}


def type_name(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind in "Mm":
        unit = np.datetime_data(dtype)[0]
        return f"{'timestamp' if dtype.kind == 'M' else 'duration'}[{unit}]"
    if dtype.kind in "OU":
        return "utf8"
    if dtype.kind == "b":
        return "bool"
    return f"{NAMES[dtype.kind]}{8 * dtype.itemsize}"


def json_value(dtype, v):
    """interop/README.md's encoding: 64-bit integers and times as decimal strings, NaN as a
    string, nulls (NaT, None) as null."""
    if v is None or (dtype.kind in "Mm" and np.isnat(v)):
        return None
    if dtype.kind in "Mm":
        return str(v.astype("i8"))
    if dtype.kind == "f":
        return "NaN" if np.isnan(v) else float(v)
    if dtype.kind in "iu":
        return str(int(v)) if dtype.itemsize == 8 else int(v)
    if dtype.kind == "b":
        return bool(v)
    return v


def json_attr(v):
    if isinstance(v, list):
        item = np.asarray(v).dtype
        return {"type": f"list<{type_name(item)}>", "value": [json_value(item, x) for x in v]}
    dtype = np.asarray(v).dtype
    return {"type": type_name(dtype), "value": json_value(dtype, np.asarray(v)[()])}


def nd_json(ds):
    variables = {}
    for name, var in ds.variables.items():
        flat = var.values.reshape(-1)
        desc = {"type": type_name(var.dtype), "dim_names": list(var.dims),
                "dim_sizes": list(var.shape), "values": [json_value(var.dtype, v) for v in flat]}
        if var.attrs:
            desc["attrs"] = {k: json_attr(v) for k, v in var.attrs.items()}
        variables[name] = desc
    global_attrs = {k: json_attr(v) for k, v in ds.attrs.items()} or None
    return {"variables": variables, "global_attrs": global_attrs}


def dataset(seed):
    """Variables of every kind LanceDB's JS Arrow reads, index coordinates, attributes."""
    rng = np.random.default_rng(seed)
    sizes = {"t": int(rng.integers(1, 4)), "x": int(rng.integers(1, 4))}
    data_vars = {}
    for kind in rng.choice(KINDS, size=4, replace=False):
        dims = tuple(d for d in sizes if rng.random() < 0.7)
        data_vars[f"v_{kind}"] = (dims, values(rng, kind, tuple(sizes[d] for d in dims)),
                                  {"units": "K", "scale": np.float32(0.5), "valid": [0, 9]})
    coords = {"x": ("x", np.arange(sizes["x"], dtype="i8"))}
    return xr.Dataset(data_vars, coords, attrs={"n": seed, "title": f"seed {seed}"})


def node(*args):
    subprocess.run([NODE, str(SCRIPT), *args], check=True, cwd=ROOT)


def test_lancedb_reads_what_python_wrote(tmp_path):
    datasets = [dataset(seed) for seed in range(12)]
    uri = str(tmp_path / "py.lance")
    with lance_nd.create(uri, stats=True) as writer:
        writer.write(datasets[:6])
    with lance_nd.append(uri) as writer:
        writer.write(datasets[6:])  # a second commit, new variables extend the schema
    out = tmp_path / "read.json"
    node("read", uri, str(out), "__global_attrs__.n >= 3")
    got = json.loads(out.read_text())
    assert len(got["rows"]) == len(datasets)
    for ds, row in zip(datasets, got["rows"]):
        assert row == nd_json(ds)
    assert got["filtered"] == len(datasets) - 3


def test_python_reads_what_lancedb_wrote(tmp_path):
    datasets = [dataset(100 + seed) for seed in range(12)]
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps([nd_json(ds) for ds in datasets]))
    uri = str(tmp_path / "lancedb.lance")
    node("write", uri, str(rows))
    table = lance_nd.open(uri)
    assert table.count_rows() == len(datasets)
    for ds, batch in zip(datasets, table.scan()):
        assert_same_dataset(ds, batch.to_xarray())
    assert table.count_rows("__global_attrs__.n >= 105") == 7
