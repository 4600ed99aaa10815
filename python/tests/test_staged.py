"""Distributed writes: StagedFragments pickle, stage in worker processes, commit once."""

import multiprocessing
import pickle

import numpy as np
import pytest
import xarray as xr

import lance_nd


def dataset(worker, part):
    rng = np.random.default_rng(100 * worker + part)
    return xr.Dataset({"v": ("x", rng.standard_normal(5))},
                      attrs={"worker": worker, "part": part})


def stage_in_worker(args):
    uri, worker = args
    staged = lance_nd.stage(uri, [dataset(worker, p) for p in range(3)])
    return pickle.dumps(staged)  # what a worker ships to the coordinator


def test_staged_fragments_pickle(uri):
    staged = lance_nd.stage(uri, [dataset(0, 0), dataset(0, 1)])
    again = pickle.loads(pickle.dumps(staged))
    assert isinstance(again, lance_nd.StagedFragments)
    assert again.to_json() == staged.to_json()
    assert (again.num_rows, again.num_fragments) == (2, staged.num_fragments)
    with pytest.raises(lance_nd.TableNotFoundError):
        lance_nd.open(uri)  # staged rows are invisible
    with pytest.raises(lance_nd.InvalidArgumentError):
        lance_nd.StagedFragments.from_json("{not json")


def test_stage_in_two_processes_and_commit_one_version(uri):
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        shipped = pool.map(stage_in_worker, [(uri, 1), (uri, 2)])
    staged = [pickle.loads(s) for s in shipped]
    table = lance_nd.commit_staged(uri, staged)
    assert table.version == 1 and [v for v, _ in table.versions()] == [1]
    rows = [(int(b.global_attrs["worker"]), int(b.global_attrs["part"]), b["v"].to_numpy())
            for b in table.scan()]
    assert [(w, p) for w, p, _ in rows] == [(w, p) for w in (1, 2) for p in range(3)]
    for w, p, v in rows:
        assert np.array_equal(v, dataset(w, p)["v"].values)


def test_stage_chunks_then_commit_next_to_existing_rows(uri):
    lance_nd.write(uri, dataset(0, 0))
    ds = xr.Dataset({"v": ("x", np.arange(6.0))}, attrs={"id": "c"})
    staged = lance_nd.stage(uri, ds, chunks={"x": 2})
    assert staged.num_rows == 3
    table = lance_nd.commit_staged(uri, [staged])
    assert table.version == 2 and table.count_rows() == 4
    assert table.count_rows("__global_attrs__.id = 'c'") == 3
