"""The Arrow PyCapsule interface: scans export encoded rows; writers take them back."""

import numpy as np
import pytest
import xarray as xr

import lance_nd
from arrow_ctypes import read_stream
from conftest import assert_same_dataset, generated_dataset


def source_table(path, count=12):
    datasets = [generated_dataset(seed, keys=f"s{seed}_") for seed in range(count)]
    for i, ds in enumerate(datasets):
        ds.attrs["n"] = i
    return lance_nd.write(path, datasets), datasets


def test_a_scan_stream_writes_an_equal_table(tmp_path):
    table, datasets = source_table(str(tmp_path / "a.lance"))
    copy = lance_nd.write(str(tmp_path / "b.lance"), table.scan())
    assert copy.count_rows() == len(datasets)
    for ds, batch in zip(datasets, copy.scan()):
        assert_same_dataset(ds, batch.to_xarray())


@pytest.mark.parametrize("scan", [{"filter": "__global_attrs__.n >= 5"}, {"limit": 4},
                                  {"project": ["v0_str", "v2_f8"]}])
def test_filtered_limited_projected_streams(tmp_path, scan):
    table, datasets = source_table(str(tmp_path / "a.lance"))
    expected = list(table.scan(**scan))
    copy = lance_nd.write(str(tmp_path / "b.lance"), table.scan(**scan))
    got = list(copy.scan())
    assert len(got) == len(expected) > 0
    for want, have in zip(expected, got):
        assert want == have


def test_the_stream_is_the_table_encoding_read_by_a_c_consumer(tmp_path):
    table, datasets = source_table(str(tmp_path / "a.lance"), count=5)
    names, batches = read_stream(table.scan().__arrow_c_stream__())
    # Table order: the global attributes column sits where the first write put it.
    assert [n for n in names if n != "__global_attrs__"] == list(table.variables())
    assert names.count("__global_attrs__") == 1
    assert sum(b.array.length for b in batches) == 5
    # Each batch, offered as __arrow_c_array__, is written as rows again.
    copy = lance_nd.write(str(tmp_path / "b.lance"), batches)
    for ds, batch in zip(datasets, copy.scan()):
        assert_same_dataset(ds, batch.to_xarray())


def test_a_requested_schema_is_not_supported(tmp_path):
    table = lance_nd.write(str(tmp_path / "a.lance"), xr.Dataset({"v": ("x", np.zeros(2))}))
    with pytest.raises(lance_nd.LanceNdError, match="requested schema") as info:
        table.scan().__arrow_c_stream__(requested_schema=object())
    assert info.value.code == "not implemented"
