"""to_numpy views the library's decoded buffer: no copy, read-only, kept alive by its base."""

import gc

import numpy as np
import xarray as xr

import lance_nd


def scanned_batch(uri, dtype):
    rng = np.random.default_rng(7)
    data = (rng.standard_normal((4, 5)) * 50).astype(dtype)
    lance_nd.write(uri, xr.Dataset({"v": (("y", "x"), data)}))
    return next(iter(lance_nd.open(uri).scan())), data


def test_to_numpy_views_the_library_buffer(uri):
    for i, dtype in enumerate(["i1", "u2", "i4", "u8", "f2", "f4", "f8"]):
        batch, data = scanned_batch(f"{uri}{i}", dtype)
        a = batch["v"].to_numpy()
        b = batch["v"].to_numpy()
        assert np.array_equal(a, data)
        assert np.shares_memory(a, b), dtype  # two calls, one buffer: nothing was copied
        assert isinstance(a.base, lance_nd.Buffer)
        start, pointer = a.base.address(), a.__array_interface__["data"][0]
        assert start <= pointer and pointer + a.nbytes <= start + a.base.nbytes
        assert not a.flags.writeable


def test_times_are_viewed_too(uri):
    times = np.array(["2001-01-01T00:00:01", "NaT", "1999-12-31"], dtype="M8[ns]")
    lance_nd.write(uri, xr.Dataset({"t": ("n", times)}))
    array = next(iter(lance_nd.open(uri).scan()))["t"]
    a, b = array.to_numpy(), array.to_numpy()
    assert isinstance(a, np.ma.MaskedArray)  # NaT was stored as a null
    assert np.shares_memory(a.data, b.data)
    assert list(np.ma.getmaskarray(a)) == [False, True, False]
    assert a[0] == times[0] and a[2] == times[2]


def test_a_view_outlives_the_table_and_the_batch(uri):
    batch, data = scanned_batch(uri, "f8")
    view = batch["v"].to_numpy()
    del batch
    gc.collect()
    assert np.array_equal(view, data)
