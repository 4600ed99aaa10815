"""Shared fixtures: seeded generated xarray Datasets and a strict comparison."""

import numpy as np
import pytest
import xarray as xr

NUMERIC = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8"]
KINDS = NUMERIC + ["bool", "str", "datetime", "timedelta"]


@pytest.fixture
def uri(tmp_path):
    return str(tmp_path / "table.lance")


def values(rng, kind, shape):
    """Random values of `kind`; floats get NaN, times NaT and strings None at random places."""
    n = int(np.prod(shape))
    if kind == "bool":
        out = rng.random(n) < 0.5
    elif kind == "str":
        words = np.array(["", "a", "héllo", "✓ ok", "longer text " * 3], dtype=object)
        out = words[rng.integers(0, len(words), n)]
        out[rng.random(n) < 0.2] = None
    elif kind in ("datetime", "timedelta"):
        out = rng.integers(-(10**15), 10**15, n).astype("M8[ns]" if kind == "datetime" else "m8[ns]")
        out[rng.random(n) < 0.2] = np.array("NaT", dtype=out.dtype)
    elif kind[0] == "f":
        out = (rng.standard_normal(n) * 100).astype(kind)
        out[rng.random(n) < 0.2] = np.nan
    else:
        info = np.iinfo(kind)
        out = rng.integers(info.min, info.max, n, dtype=kind, endpoint=True)
    return out.reshape(shape)


def attribute(rng):
    """A random attribute value of a random Python or numpy type."""
    choice = rng.integers(0, 8)
    if choice == 0:
        return int(rng.integers(-1000, 1000))
    if choice == 1:
        return float(rng.standard_normal())
    if choice == 2:
        return "text " + str(rng.integers(0, 99))
    if choice == 3:
        return bool(rng.random() < 0.5)
    if choice == 4:
        return np.dtype(rng.choice(NUMERIC)).type(rng.integers(0, 100))
    if choice == 5:
        return values(rng, rng.choice(NUMERIC), (int(rng.integers(0, 4)),))
    if choice == 6:
        return ["a", "list", "of", "str"][: int(rng.integers(1, 5))]
    return np.datetime64(int(rng.integers(0, 10**12)), "s")


def attributes(rng, count, prefix=""):
    return {f"{prefix}attr{i}": attribute(rng) for i in range(count)}


def generated_dataset(seed, keys=""):
    """A random Dataset: 0-3 dimensions, index and non-index coordinates, variables of every
    kind on subsets of the dimensions (rank 0 included), attributes and global attributes.
    Attribute keys start with `keys` (datasets meant for one table need keys of one type)."""
    rng = np.random.default_rng(seed)
    dims = {f"d{i}": int(rng.integers(1, 5)) for i in range(int(rng.integers(0, 4)))}
    data_vars, coords = {}, {}
    for i in range(int(rng.integers(1, 6))):
        var_dims = tuple(d for d in dims if rng.random() < 0.7)
        kind = str(rng.choice(KINDS))
        shape = tuple(dims[d] for d in var_dims)
        data_vars[f"v{i}_{kind}"] = (var_dims, values(rng, kind, shape),
                                     attributes(rng, int(rng.integers(0, 4)), keys))
    for d, size in dims.items():
        if rng.random() < 0.6:
            coords[d] = (d, np.arange(size, dtype="i8") * 10)
    if dims and rng.random() < 0.5:
        d = next(iter(dims))
        coords["aux"] = (d, values(rng, "f8", (dims[d],)), {"units": "m"})
    if rng.random() < 0.3:
        coords["scalar_coord"] = ((), values(rng, "i4", ()))
    return xr.Dataset(data_vars, coords, attrs=attributes(rng, int(rng.integers(0, 5)), keys))


def assert_same_attrs(a, b, where):
    assert set(a) == set(b), where
    for key in a:
        va, vb = np.asarray(a[key]), np.asarray(b[key])
        assert va.dtype == vb.dtype, f"{where} attribute {key}: {va.dtype} != {vb.dtype}"
        same = np.array_equal(va, vb, equal_nan=va.dtype.kind in "fc")
        assert same, f"{where} attribute {key}: {a[key]!r} != {b[key]!r}"


def assert_same_dataset(expected, actual):
    """Identical as xarray says, plus the same dtypes of values and attributes."""
    assert expected.identical(actual), f"\n{expected}\n!=\n{actual}"
    assert set(expected.coords) == set(actual.coords)
    for name, var in expected.variables.items():
        assert actual[name].dtype == var.dtype, name
        assert_same_attrs(var.attrs, actual[name].attrs, name)
    assert_same_attrs(expected.attrs, actual.attrs, "global")
