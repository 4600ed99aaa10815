"""write without chunks= splits a large Dataset into chunk rows of about dask's
array.chunk-size along its slowest dimensions (issue 33 §7); a small one stays one row."""

import dask
import numpy as np
import pytest
import xarray as xr

import lance_nd


def generated(seed):
    rng = np.random.default_rng(seed)
    ndim = int(rng.integers(1, 4))
    dims = [f"d{i}" for i in range(ndim)]
    shape = [int(n) for n in rng.integers(2, 12, ndim)]
    dtype = rng.choice(["i2", "f4", "f8", "u1"])
    ds = xr.Dataset(
        {"big": (dims, rng.integers(0, 100, shape).astype(dtype), {"units": "m"}),
         "small": (dims[:1], rng.standard_normal(shape[0]))},
        coords={dims[0]: np.arange(shape[0]) * 2}, attrs={"id": f"g{seed}"})
    return ds, int(rng.integers(8, ds.nbytes))


@pytest.mark.parametrize("seed", range(12))
def test_large_datasets_are_split_into_rows_of_about_the_target(seed, uri):
    ds, target = generated(seed)
    if seed % 3 == 2:
        ds = ds.chunk({ds["big"].dims[0]: 2})
    chunks = lance_nd.auto_chunks(ds, target)
    big = ds["big"]
    assert chunks is not None and list(chunks) == list(big.dims[: len(chunks)])
    assert all(chunks[d] == 1 for d in list(chunks)[:-1])  # slowest dimensions first
    last = list(chunks)[-1]
    row_bytes = big.dtype.itemsize * chunks[last] * int(np.prod(big.shape[len(chunks):]))
    assert row_bytes <= max(target, big.dtype.itemsize)
    if ds.chunks and last == big.dims[0] and chunks[last] >= 2:
        assert chunks[last] % 2 == 0  # whole dask chunks
    with dask.config.set({"array.chunk-size": target}):
        assert lance_nd.auto_chunks(ds) == chunks
        table = lance_nd.write(uri, ds)
    expected_rows = 1
    for d, size in chunks.items():
        expected_rows *= -(-ds.sizes[d] // size)
    assert table.count_rows() == expected_rows
    infos = [r.chunk_info() for r in table.scan()]
    assert {i["id"] for i in infos} == {f"g{seed}"}
    back = xr.open_dataset(uri, engine="lance_nd", id=f"g{seed}")
    xr.testing.assert_identical(back, ds.load())


def test_a_dataset_within_the_target_is_one_row(uri):
    ds, _ = generated(3)
    assert lance_nd.auto_chunks(ds, ds.nbytes) is None
    with dask.config.set({"array.chunk-size": ds.nbytes}):
        table = lance_nd.write(uri, ds)
    assert table.count_rows() == 1 and next(iter(table.scan())).chunk_info() is None


def test_a_large_dataset_without_an_id_says_why_it_needs_one(uri):
    ds = xr.Dataset({"v": (("t", "x"), np.zeros((40, 10)))})
    with dask.config.set({"array.chunk-size": "1KiB"}):
        with pytest.raises(lance_nd.InvalidArgumentError,
                           match=r"^the Dataset holds 3.1 KiB, more than the 1.0 KiB of one row "
                                 r"\(dask's array.chunk-size\), so write splits it into chunk "
                                 r"rows, which need a dataset id: .*pass id="):
            lance_nd.write(uri, ds)
        table = lance_nd.write(uri, ds, id="v")
    assert lance_nd.auto_chunks(ds, 1024) == {"t": 12}  # 12 steps of 80 bytes in 1 KiB
    assert table.count_rows() == 4
