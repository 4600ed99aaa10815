"""Tables from Python: schema evolution, casting, filters, pruning, maintenance, errors."""

import datetime
import pathlib

import numpy as np
import pytest
import xarray as xr

import lance_nd

PLAIN_LANCE_TABLE = (pathlib.Path(__file__).resolve().parents[2]
                     / "tests/lance_testdata/v0.15.0/v2_with_files.lance")


def numbered_rows(count, seed=0, dtype="f4"):
    """Datasets whose values lie in [10 i, 10 i + 9], global attrs n = i and name = "row<i>"."""
    rng = np.random.default_rng(seed)
    return [xr.Dataset({"v": ("x", (10 * i + rng.integers(0, 10, 4)).astype(dtype))},
                       attrs={"n": i, "name": f"row{i}"}) for i in range(count)]


def ns(table, **scan):
    return [int(b.global_attrs["n"]) for b in table.scan(**scan)]


def test_schema_grows_with_new_variables_and_keys(uri):
    first = xr.Dataset({"a": ("x", np.arange(3, dtype="f4"), {"units": "K"})}, attrs={"k": 1})
    second = xr.Dataset({"b": (("x", "y"), np.ones((3, 2), "i2"), {"scale": 0.5})},
                        attrs={"k": 2, "other": "x"})
    lance_nd.write(uri, first)
    with lance_nd.append(uri) as writer:
        writer.write(second)
    table = lance_nd.open(uri)
    assert list(table.variables()) == ["a", "b"]
    assert table.variables() == {"a": "float", "b": "int16"}
    rows = [b.to_xarray() for b in table.scan()]
    assert rows[0].identical(first) and rows[1].identical(second)


def test_casting_modes(uri):
    lance_nd.write(uri, numbered_rows(1, dtype="f4"))
    wide = numbered_rows(2, seed=1, dtype="f8")[1:]
    with pytest.raises(lance_nd.SchemaMismatchError, match="casting='no'") as info:
        with lance_nd.append(uri) as writer:
            writer.write(wide)
    assert info.value.kind == "cast rejected"
    with pytest.raises(lance_nd.SchemaMismatchError, match="casting='safe'"):
        with lance_nd.append(uri, casting="safe") as writer:
            writer.write(wide)
    assert lance_nd.open(uri).count_rows() == 1  # the failed writes committed nothing
    with lance_nd.append(uri, casting="same_kind") as writer:
        writer.write(wide)
    table = lance_nd.open(uri)
    assert table.variables()["v"] == "float"
    assert np.array_equal(list(table.scan())[1]["v"].to_numpy(), wide[0]["v"].values)
    with lance_nd.append(uri, casting="promote") as writer:
        writer.write(wide)
    assert lance_nd.open(uri).variables()["v"] == "double"


def test_unknown_casting_mode_is_invalid_argument(uri):
    with pytest.raises(lance_nd.InvalidArgumentError, match="same_kind"):
        lance_nd.create(uri, casting="loose")


def test_widen(uri):
    rows = numbered_rows(3, dtype="i2")
    lance_nd.write(uri, rows)
    table = lance_nd.open(uri)
    table.widen("v", "i8")
    assert table.variables()["v"] == "int64"
    for ds, batch in zip(rows, lance_nd.open(uri).scan()):
        assert batch["v"].dtype == np.int64
        assert np.array_equal(batch["v"].to_numpy(), ds["v"].values)
    with pytest.raises(lance_nd.LanceNdError, match="v"):
        table.widen("v", "i1")


@pytest.mark.parametrize("seed", range(5))
def test_filters_projection_limit(uri, seed):
    rng = np.random.default_rng(seed)
    count = int(rng.integers(5, 30))
    lance_nd.write(uri, numbered_rows(count, seed))
    table = lance_nd.open(uri)
    cut = int(rng.integers(0, count))
    expected = [i for i in range(count) if i > cut]
    assert ns(table, filter=f"__global_attrs__.n > {cut}") == expected
    assert table.count_rows(f"__global_attrs__.n > {cut}") == len(expected)
    assert ns(table, filter=f"__global_attrs__.name = 'row{cut}'") == [cut]
    assert ns(table, limit=3) == list(range(min(3, count)))
    assert all(list(b.keys()) == [] for b in table.scan(project=[]))


@pytest.mark.parametrize("seed", range(5))
def test_prune_keeps_exactly_the_rows_stats_allow(uri, seed):
    rng = np.random.default_rng(seed)
    rows = numbered_rows(int(rng.integers(5, 30)), seed)
    lance_nd.write(uri, rows, stats=True)
    table = lance_nd.open(uri)
    threshold = int(rng.integers(0, 10 * len(rows)))
    may_match = [i for i, ds in enumerate(rows) if ds["v"].values.max() > threshold]
    assert ns(table, prune=f"v.values > {threshold}") == may_match


def test_bad_filter_is_a_parse_error(uri):
    lance_nd.write(uri, numbered_rows(2))
    with pytest.raises(lance_nd.InvalidArgumentError) as info:
        lance_nd.open(uri).count_rows("__global_attrs__.n >")
    assert info.value.kind == "parse error"
    with pytest.raises(lance_nd.InvalidArgumentError, match="nope"):
        list(lance_nd.open(uri).scan(project=["nope"]))


def test_delete_versions_checkout_restore_compact_cleanup(uri):
    for i in range(4):  # four commits, one fragment each
        with lance_nd.create(uri, mode="create" if i == 0 else "append") as writer:
            writer.write(numbered_rows(5, seed=i)[i])
    table = lance_nd.open(uri)
    assert [v for v, _ in table.versions()] == [1, 2, 3, 4]
    assert all(isinstance(t, datetime.datetime) for _, t in table.versions())
    assert table.delete("__global_attrs__.n = 2") == 1
    assert table.version == 5 and ns(table) == [0, 1, 3]
    old = table.checkout(2)
    assert ns(old) == [0, 1] and not old.writable
    table.restore(4)
    assert ns(table) == [0, 1, 2, 3] and table.version == 6
    stats = table.compact()
    assert stats["fragments_removed"] == 4 and stats["fragments_added"] == 1
    assert ns(lance_nd.open(uri)) == [0, 1, 2, 3]
    cleaned = table.cleanup_old_versions(datetime.timedelta(seconds=0))
    assert cleaned["old_versions"] == 6
    assert [v for v, _ in lance_nd.open(uri).versions()] == [7]
    with pytest.raises(lance_nd.LanceNdError):
        table.checkout(3)


def test_writer_abort_and_context_manager(uri):
    writer = lance_nd.create(uri)
    writer.write(numbered_rows(2))
    writer.abort()
    with pytest.raises(lance_nd.TableNotFoundError):
        lance_nd.open(uri)
    with pytest.raises(RuntimeError):
        with lance_nd.create(uri) as writer:
            writer.write(numbered_rows(2))
            raise RuntimeError("stop")
    with pytest.raises(lance_nd.TableNotFoundError, match="no table"):
        lance_nd.open(uri)
    with lance_nd.create(uri) as writer:
        writer.write(numbered_rows(2))
    assert writer.table.version == 1 and writer.rows_written == 2
    with pytest.raises(lance_nd.InvalidArgumentError, match="finished or aborted"):
        writer.write(numbered_rows(1))


def test_table_exists_and_overwrite(uri):
    lance_nd.write(uri, numbered_rows(2))
    with pytest.raises(lance_nd.TableExistsError) as info:
        lance_nd.create(uri)
    assert info.value.code == "already exists" and not info.value.retryable
    table = lance_nd.write(uri, numbered_rows(3), mode="overwrite")
    assert table.count_rows() == 3 and table.version == 2


def test_append_to_missing_table_is_table_not_found(uri):
    with pytest.raises(lance_nd.TableNotFoundError):
        lance_nd.append(uri)


def test_a_lance_table_without_the_nd_format_is_invalid():
    with pytest.raises(lance_nd.InvalidTableError, match="lance_nd:format"):
        lance_nd.open(str(PLAIN_LANCE_TABLE))


def test_write_rejects_other_objects(uri):
    with pytest.raises(lance_nd.InvalidArgumentError, match="cannot write a dict"):
        lance_nd.write(uri, {"a": 1})
    with pytest.raises(lance_nd.InvalidArgumentError, match="apply to an xarray.Dataset"):
        lance_nd.write(uri, lance_nd.NdRecordBatch(), chunks=["x"])
    with pytest.raises(lance_nd.InvalidArgumentError, match="apply to an xarray.Dataset"):
        lance_nd.write(uri, [lance_nd.NdRecordBatch()], id="a")


def test_column_options_and_unknown_option(uri):
    table = lance_nd.write(uri, numbered_rows(3), column_defaults={"compression": "zstd"},
                           column_options={"v": {"byte_stream_split": "on"}})
    assert ns(table) == [0, 1, 2]
    with pytest.raises(lance_nd.InvalidArgumentError, match="unknown column option 'speed'"):
        lance_nd.create(uri + "2", column_options={"v": {"speed": 1}})


def test_a_delete_planned_before_a_compaction_conflicts_and_is_retryable(uri):
    for i in range(3):
        with lance_nd.create(uri, mode="create" if i == 0 else "append") as writer:
            writer.write(numbered_rows(3)[i])
    deleter, compactor = lance_nd.open(uri), lance_nd.open(uri)
    compactor.compact()
    with pytest.raises(lance_nd.CommitConflictError, match="reload the table and retry") as info:
        deleter.delete("__global_attrs__.n = 1")
    assert info.value.retryable and info.value.code == "commit conflict"
    deleter.refresh()
    assert deleter.delete("__global_attrs__.n = 1") == 1
    assert ns(lance_nd.open(uri)) == [0, 2]


@pytest.mark.parametrize("seed", range(3))
def test_take_reads_the_rows_at_logical_indices_after_deletes(uri, seed):
    rng = np.random.default_rng(seed)
    count = int(rng.integers(5, 30))
    table = lance_nd.write(uri, numbered_rows(count, seed))
    deleted = int(rng.integers(0, count))
    table.delete(f"__global_attrs__.n = {deleted}")
    remaining = [n for n in range(count) if n != deleted]
    picks = [int(i) for i in rng.integers(0, count - 1, int(rng.integers(1, 8)))]
    taken = table.take(picks, project=["v"])
    assert [int(b.global_attrs["n"]) for b in taken] == [remaining[i] for i in picks]
    scanned = list(table.scan())
    assert all(b == scanned[i] for b, i in zip(taken, picks))
    with pytest.raises(lance_nd.InvalidArgumentError):
        table.take([count - 1])  # one row fewer after the delete
