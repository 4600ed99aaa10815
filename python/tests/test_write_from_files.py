"""Datasets opened from netCDF files write as to_netcdf would write them (issue 33 §7): the
dataset id defaults to the file's stem (ds.encoding["source"], as `lance-nd import` names it),
and each variable's CF encoding (dtype, scale_factor, add_offset, _FillValue, missing_value) is
applied, so a packed int16 variable stays packed and opens identical through the backend."""

import numpy as np
import pytest
import xarray as xr

import lance_nd

pytest.importorskip("netCDF4")

PACKED = ["i1", "i2", "i4", "u1", "u2"]


def packed_case(seed):
    """(Dataset of float32 / float64 values, encoding packing its variable 't'): seeded."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(PACKED[seed % len(PACKED)])
    info = np.iinfo(dtype)
    shape = tuple(int(n) for n in rng.integers(1, 6, 3))
    scale = float(rng.choice([0.01, 0.5, 2.0, 0.125]))
    offset = float(rng.choice([0.0, 280.0, -3.5]))
    fill_kind = ["_FillValue", "missing_value", None][seed % 3]
    lo, hi = info.min + 1, info.max - 1  # the extremes are kept for fills
    raw = rng.integers(lo, hi, shape, endpoint=True)
    values = (raw * scale + offset).astype(rng.choice(["f4", "f8"]))
    encoding = {"dtype": dtype.name, "scale_factor": scale, "add_offset": offset}
    if fill_kind is not None:
        fill = info.max if dtype.kind == "u" else info.min
        encoding[fill_kind] = dtype.type(fill)
        values.reshape(-1)[rng.random(values.size) < 0.2] = np.nan
    ds = xr.Dataset(
        {"t": (("time", "lat", "lon"), values, {"units": "K", "long_name": "temperature"}),
         "plain": (("time",), rng.standard_normal(shape[0]))},
        coords={"time": np.arange(shape[0]), "lat": np.linspace(-80, 80, shape[1]),
                "lon": np.arange(shape[2]) * 1.5},
        attrs={"title": f"case {seed}"})
    return ds, encoding, dtype


def stored(uri, id, name):
    """The NdArray of variable `name` in chunk 0 of dataset `id`."""
    table = lance_nd.open(uri)
    rows = [r for r in table.scan(filter=f"__global_attrs__.id = '{id}'")]
    rows.sort(key=lambda r: (r.chunk_info() or {}).get("index", 0))
    return rows[0][name]


@pytest.mark.filterwarnings("ignore:saving variable t with floating point data")
@pytest.mark.parametrize("seed", range(10))
def test_packed_netcdf_variable_is_stored_packed_and_opens_identical(seed, tmp_path):
    ds, encoding, dtype = packed_case(seed)
    path = tmp_path / f"packed_{seed}.v1.nc"
    ds.to_netcdf(path, encoding={"t": encoding})
    dask = seed % 2 == 1
    src = xr.open_dataset(path, chunks={"time": 2} if dask else None)
    assert src["t"].dtype.kind == "f" and src["t"].encoding["dtype"] == dtype
    uri = str(tmp_path / "t.lance")
    chunks = [{"time": 2}, ["time"], None][seed % 3]
    # with chunks= the id is the file's stem; without, id= makes one row
    lance_nd.write(uri, src, chunks=chunks, id=None if chunks else f"packed_{seed}.v1")
    id = f"packed_{seed}.v1"

    array = stored(uri, id, "t")
    assert array.dtype == dtype  # packed, not float at 2-8 times the size
    assert {k: array.attrs[k] for k in ("scale_factor", "add_offset")} == {
        "scale_factor": encoding["scale_factor"], "add_offset": encoding["add_offset"]}
    fills = {k: v for k, v in encoding.items() if k in ("_FillValue", "missing_value")}
    for key, fill in fills.items():
        assert array.attrs[key] == fill and np.asarray(array.attrs[key]).dtype == dtype
    values = array.to_numpy()
    expected_nulls = np.isnan(ds["t"].values[: values.shape[0]])
    assert np.array_equal(np.ma.getmaskarray(values), expected_nulls)  # fills are nulls

    back = xr.open_dataset(uri, engine="lance_nd", id=id)
    xr.testing.assert_identical(back, src.assign_attrs(id=id).load())
    assert back["t"].dtype == src["t"].dtype
    # the stored values are the file's packed values
    raw = xr.open_dataset(uri, engine="lance_nd", id=id, mask_and_scale=False)
    raw_file = xr.open_dataset(path, mask_and_scale=False)
    xr.testing.assert_identical(raw["t"], raw_file["t"])


@pytest.mark.filterwarnings("ignore:saving variable t with floating point data")
@pytest.mark.parametrize("seed", range(6))
def test_in_memory_encoding_is_applied_as_to_netcdf_applies_it(seed, tmp_path):
    """The oracle is to_netcdf: the backend opens what we store as xarray opens the file."""
    ds, encoding, _ = packed_case(seed)
    rng = np.random.default_rng(seed)
    ds["t"].encoding = encoding
    ds["plain"].encoding = {"dtype": "float32"}  # dtype alone: stored as float32
    ds["lat"].encoding = {"dtype": "f4", "_FillValue": None}
    path = tmp_path / "ref.nc"
    ds.to_netcdf(path)
    ref = xr.open_dataset(path).load()
    uri = str(tmp_path / "t.lance")
    lance_nd.write(uri, ds, chunks={"time": int(rng.integers(1, 4))}, id="d")
    back = xr.open_dataset(uri, engine="lance_nd", id="d").load()
    xr.testing.assert_identical(back, ref.assign_attrs(id="d"))
    assert stored(uri, "d", "plain").dtype == np.float32
    assert stored(uri, "d", "lat").dtype == np.float32


def test_variables_without_cf_encoding_are_stored_as_they_are(uri):
    ds = xr.Dataset({"v": ("x", np.arange(4.0)), "i": ("x", np.arange(4, dtype="i2")),
                     "s": ("x", np.array(["a", None, "c", "d"], dtype=object)),
                     "when": ("x", np.array([0, 1, 2, "NaT"], dtype="M8[s]"))})
    ds["v"].encoding = {"dtype": np.dtype("f8"), "zlib": True, "chunksizes": (2,)}
    ds["when"].encoding = {"units": "days since 2000-01-01", "dtype": "i4"}  # times stay native
    lance_nd.write(uri, ds, id="p")
    row = next(iter(lance_nd.open(uri).scan()))
    assert {n: row[n].dtype for n in ("v", "i", "when")} == {
        "v": np.float64, "i": np.int16, "when": ds["when"].dtype}
    assert row["v"].attrs == {} and row["when"].attrs == {}


def test_an_encoding_that_cannot_apply_names_the_variable(uri):
    ds = xr.Dataset({"v": ("x", np.arange(3.0), {"scale_factor": 2.0})})
    ds["v"].encoding = {"dtype": "i2", "scale_factor": 0.5}
    with pytest.raises(lance_nd.InvalidArgumentError,
                       match=r"^variable 'v': its encoding \{.*\} \(applied as to_netcdf does\) "
                             r"fails: .*scale_factor.*fix or drop ds\['v'\].encoding"):
        lance_nd.write(uri, ds, chunks=["x"], id="a")


@pytest.mark.parametrize("name, stem", [
    ("sst.nc", "sst"), ("air.2m.v2.nc4", "air.2m.v2"), ("no_extension", "no_extension"),
    ("with space-and_dash.cdf", "with space-and_dash"),
])
def test_chunked_write_takes_the_id_from_the_source_file(tmp_path, name, stem):
    ds = xr.Dataset({"v": ("time", np.arange(5.0))}, coords={"time": np.arange(5)})
    path = tmp_path / name
    ds.to_netcdf(path, format="NETCDF4")
    src = xr.open_dataset(path)
    assert src.encoding["source"].endswith(name)
    uri = str(tmp_path / "t.lance")
    lance_nd.write(uri, src, chunks={"time": 2})
    table = lance_nd.open(uri)
    assert {r.global_attrs["id"] for r in table.scan()} == {stem}
    xr.testing.assert_identical(xr.open_dataset(uri, engine="lance_nd", id=stem),
                                src.assign_attrs(id=stem))
    # id= and attrs["id"] come first
    lance_nd.write(uri, src, chunks=["time"], id="given", mode="overwrite")
    assert {r.global_attrs["id"] for r in lance_nd.open(uri).scan()} == {"given"}
    lance_nd.write(uri, src.assign_attrs(id="own"), chunks=["time"], mode="overwrite")
    assert {r.global_attrs["id"] for r in lance_nd.open(uri).scan()} == {"own"}


def test_chunked_write_without_any_id_says_where_one_comes_from(uri):
    ds = xr.Dataset({"v": ("t", np.zeros(3))})
    with pytest.raises(lance_nd.InvalidArgumentError,
                       match=r"^chunks= needs a dataset id and the Dataset has none: pass "
                             r"id='...', or set the Dataset's attrs\['id'\] .*opened from a "
                             r"file, with ds.encoding\['source'\], takes the file's stem"):
        lance_nd.write(uri, ds, chunks=["t"])
    with pytest.raises(lance_nd.InvalidArgumentError, match=r"found attrs\['id'\] 5"):
        lance_nd.write(uri, ds.assign_attrs(id=5), chunks=["t"])
