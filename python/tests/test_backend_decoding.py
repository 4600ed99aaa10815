"""The backend decodes as xarray decodes netCDF, chunks like the stored rows, and pickles."""

import pickle

import numpy as np
import pytest
import xarray as xr
from xarray.core import indexing

import lance_nd
from lance_nd import backend
from lance_nd._chunks import chunk_rows

# A fill value per storage dtype, as a netCDF file would declare it.
FILLS = {"i1": -127, "i2": -32767, "i4": -2147483647, "i8": -(2**62), "u1": 255, "u2": 65535,
         "u4": 4294967295, "u8": 2**63, "f4": -1e34, "f8": 9.96921e36}


def with_nulls(row, masks):
    """The chunk row with the positions of `masks` ({name: bool array over the dataset}) null,
    as `lance-nd import` stores values equal to a variable's _FillValue."""
    info = row.chunk_info()
    offset = dict(zip(info["dims"], info["offset"]))
    arrays = {}
    for name in row:
        array = row[name]
        values = np.array(array.to_numpy())
        if name in masks:
            region = tuple(slice(offset[d], offset[d] + n)
                           for d, n in zip(array.dims, values.shape))
            values = np.ma.masked_array(values, mask=masks[name][region])
        arrays[name] = lance_nd.NdArray(array.dims, values, array.attrs)
    return lance_nd.NdRecordBatch(arrays, row.global_attrs)


def write_with_nulls(uri, ds, chunks, masks, id="d"):
    ds = ds.copy()
    ds.encoding["unlimited_dims"] = {"t"}  # (an empty list attribute would not be list<utf8>)
    rows = [with_nulls(row, masks) for row in chunk_rows(ds, chunks, id)]
    return lance_nd.write(uri, rows)


def packed_dataset(rng):
    """Variables as a netCDF file holds them: fill values, packed ints, CF times; and where
    each variable's fill value stands (the positions the import stores as nulls)."""
    nt, nx = int(rng.integers(4, 13)), int(rng.integers(1, 6))
    data_vars, masks = {}, {}
    for kind in rng.choice(list(FILLS), size=4, replace=False):
        dtype = np.dtype(str(kind))
        if dtype.kind == "f":
            values = rng.standard_normal((nt, nx)).astype(dtype)
        else:
            info = np.iinfo(dtype)
            values = rng.integers(info.min // 2, info.max // 2, (nt, nx), dtype=dtype)
        mask = rng.random((nt, nx)) < 0.25
        mask[0, 0] = True  # chunk 0 has nulls (it set the dtype once)
        key = "_FillValue" if rng.random() < 0.7 else "missing_value"
        attrs = {key: dtype.type(FILLS[str(kind)]), "units": "m"}
        data_vars[f"v_{kind}"] = (("t", "x"), np.where(mask, attrs[key], values), attrs)
        masks[f"v_{kind}"] = mask
    packed = rng.integers(-1000, 1000, (nt, nx), dtype="i2")
    mask = rng.random((nt, nx)) < 0.2
    data_vars["packed"] = (("t", "x"), np.where(mask, np.int16(-32767), packed),
                           {"_FillValue": np.int16(-32767), "scale_factor": 0.01,
                            "add_offset": 20.0})
    masks["packed"] = mask
    data_vars["count"] = (("t", "x"), rng.integers(0, 9, (nt, nx), dtype="i4"))
    days = np.cumsum(rng.integers(1, 40, nt)).astype("i4")
    coords = {"t": ("t", days, {"units": "days since 1900-01-01", "calendar": "standard"}),
              "x": ("x", np.arange(nx, dtype="f8") * 1.5)}
    return xr.Dataset(data_vars, coords, attrs={"id": "d", "title": "packed"}), masks


@pytest.mark.parametrize("seed", range(8))
def test_decoding_equals_xarray_decoding_the_raw_values(tmp_path, seed):
    rng = np.random.default_rng(seed)
    raw, masks = packed_dataset(rng)
    uri = str(tmp_path / "t.lance")
    write_with_nulls(uri, raw, {"t": int(rng.integers(1, 5))}, masks)
    opened = xr.open_dataset(uri, engine="lance_nd", id="d").load()
    xr.testing.assert_identical(opened, xr.decode_cf(raw))
    assert opened["t"].dtype.kind == "M" and opened["packed"].dtype == np.float32
    unmasked = xr.open_dataset(uri, engine="lance_nd", mask_and_scale=False).load()
    xr.testing.assert_identical(unmasked, xr.decode_cf(raw, mask_and_scale=False))
    stored = xr.open_dataset(uri, engine="lance_nd", decode_cf=False).load()
    xr.testing.assert_identical(stored, raw)
    for name, var in stored.data_vars.items():
        assert var.dtype == raw[name].dtype, name  # the storage dtype, fill values restored


@pytest.mark.parametrize("seed", range(4))
def test_the_dtype_is_the_same_for_every_chunk(tmp_path, seed):
    rng = np.random.default_rng(seed)
    raw, masks = packed_dataset(rng)
    for mask in masks.values():  # nulls in chunk 0 only
        mask[1:] = False
    uri = str(tmp_path / "t.lance")
    write_with_nulls(uri, raw, {"t": 1}, masks)
    for decode_cf in (True, False):
        opened = xr.open_dataset(uri, engine="lance_nd", decode_cf=decode_cf, chunks={})
        for name, var in opened.data_vars.items():
            blocks = var.data.blocks
            for i in range(blocks.shape[0]):
                assert blocks[i].compute().dtype == var.dtype, (name, i, decode_cf)


def test_missing_chunks_are_fill_values_or_nulls_and_integers_without_one_float64(tmp_path):
    uri = str(tmp_path / "t.lance")
    fill = np.float32(-1e34)
    ds = xr.Dataset({"n": ("t", np.arange(6, dtype="i2")), "b": ("t", np.arange(6) % 2 == 0),
                     "f": ("t", np.arange(6, dtype="f4"), {"_FillValue": fill})},
                    attrs={"id": "d"})
    lance_nd.write(uri, ds, chunks={"t": 2}).delete("__global_attrs__.chunk_index = 1")
    opened = xr.open_dataset(uri, engine="lance_nd", id="d")
    assert opened["n"].dtype == np.float64 and opened["b"].dtype == object
    assert np.array_equal(opened["n"].values, [0, 1, np.nan, np.nan, 4, 5], equal_nan=True)
    assert list(opened["b"].values) == [True, False, None, None, True, False]
    assert opened["n"][:2].dtype == np.float64  # a chunk without nulls too
    assert np.array_equal(opened["f"].values, [0, 1, np.nan, np.nan, 4, 5], equal_nan=True)
    stored = xr.open_dataset(uri, engine="lance_nd", id="d", mask_and_scale=False)
    assert list(stored["f"].values) == [0, 1, fill, fill, 4, 5]  # the fill value, as stored


def test_integer_nulls_without_fill_value_are_an_error(tmp_path):
    uri = str(tmp_path / "t.lance")
    ds = xr.Dataset({"n": ("t", np.arange(6, dtype="i4"))}, attrs={"id": "d"})
    write_with_nulls(uri, ds, {"t": 3}, {"n": np.arange(6) == 4})
    opened = xr.open_dataset(uri, engine="lance_nd", id="d")
    assert opened["n"].dtype == np.int32
    assert list(opened["n"][:3].values) == [0, 1, 2]
    with pytest.raises(lance_nd.InvalidArgumentError, match="'n' .*holds nulls but has no _Fill"):
        opened["n"].values


def expected_chunks(size, step):
    return tuple(min(step, size - start) for start in range(0, size, step))


@pytest.mark.parametrize("seed", range(6))
def test_chunks_empty_dict_gives_the_stored_chunks(tmp_path, seed):
    rng = np.random.default_rng(seed)
    sizes = {"t": int(rng.integers(1, 15)), "y": int(rng.integers(1, 6)),
             "x": int(rng.integers(1, 6))}
    steps = {d: int(rng.integers(1, n + 2)) for d, n in sizes.items()}
    data = rng.standard_normal(tuple(sizes.values()))
    ds = xr.Dataset({"v": (tuple(sizes), data), "m": (("y", "x"), data[0] * 2)},
                    {"t": np.arange(sizes["t"])}, attrs={"id": "d"})
    uri = str(tmp_path / "t.lance")
    lance_nd.write(uri, ds, chunks=steps)
    opened = xr.open_dataset(uri, engine="lance_nd", chunks={})
    for name in ("v", "m"):
        var = opened[name]
        want = tuple(expected_chunks(sizes[d], steps[d]) for d in var.dims)
        assert var.chunks == want, name
        assert var.encoding["preferred_chunks"] == {
            d: min(steps[d], sizes[d]) for d in var.dims}
    xr.testing.assert_identical(opened.compute(), ds)


def test_backend_arrays_pickle_and_read_in_a_fresh_table_cache(tmp_path):
    rng = np.random.default_rng(3)
    raw, masks = packed_dataset(rng)
    uri = str(tmp_path / "t.lance")
    write_with_nulls(uri, raw, {"t": 2}, masks)
    lance_nd.write(uri, raw.isel(t=slice(0, 1)), mode="append", id="later")  # a newer version
    opened = xr.open_dataset(uri, engine="lance_nd", id="d", version=1)
    name = next(iter(masks))
    lazy = opened[name].variable._data
    while not isinstance(lazy, backend.LanceNdBackendArray):  # through xarray's wrappers
        lazy = lazy.array
    again = pickle.loads(pickle.dumps(lazy))
    backend._OPEN_TABLES.clear()  # as in a worker process: the table is opened again
    everything = indexing.BasicIndexer((slice(None), slice(None)))
    assert np.array_equal(again[everything], lazy[everything])
    assert again.version == 1 and list(backend._OPEN_TABLES) == [(again.uri, 1)]
    whole = pickle.loads(pickle.dumps(opened))
    xr.testing.assert_identical(whole.load(), opened.load())
    xr.testing.assert_identical(whole, xr.decode_cf(raw))
