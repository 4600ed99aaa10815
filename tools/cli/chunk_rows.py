"""Chunk rows of docs/FORMAT.md §3.6 as lance-nd JSON Lines, written here from the format's
text (independently of lance-nd's C++ code), for the tests of `lance-nd slice`.

A dataset is given as its dimensions and its variables (numpy arrays, masked where values are
missing); `chunk_rows` cuts it on a regular grid and returns one JSON object per chunk row.
"""
import itertools
import math

import numpy as np

FLOAT_DTYPES = {"float32", "float64"}


def json_values(array, dtype):
    """The flat C-order values of a (masked) numpy array as JSON Lines values."""
    data = np.ma.getdata(array).ravel()
    mask = np.ma.getmaskarray(array).ravel()
    out = []
    for v, m in zip(data.tolist(), mask.tolist()):
        if m:
            out.append(None)
        elif dtype in FLOAT_DTYPES and math.isnan(v):
            out.append("NaN")
        elif dtype in FLOAT_DTYPES and math.isinf(v):
            out.append("Infinity" if v > 0 else "-Infinity")
        else:
            out.append(v)
    return out


def grid(dims, chunks):
    """Per dimension: (chunk size, number of chunks). A dimension of size 0 has one chunk."""
    out = []
    for name, size in dims:
        c = min(chunks.get(name, size), size) if size > 0 else 1
        out.append((c, max(1, math.ceil(size / c)) if size > 0 else 1))
    return out


def chunk_rows(dataset_id, dims, variables, chunks, unlimited=(), global_attrs=None):
    """dims: [(name, size)]; variables: {name: (dtype, [dim names], numpy array, attrs)};
    chunks: {dim: chunk size}. Returns the chunk rows in chunk_index order."""
    g = grid(dims, chunks)
    names = [n for n, _ in dims]
    split = {n for (n, _), (_, count) in zip(dims, g) if count > 1}
    count = math.prod(c for _, c in g)
    rows = []
    for index, position in enumerate(itertools.product(*[range(c) for _, c in g])):
        offset = [p * c for p, (c, _) in zip(position, g)]
        extent = [min(c, size - o) if size > 0 else 0
                  for o, (c, _), (_, size) in zip(offset, g, dims)]
        arrays = {}
        for name, (dtype, vdims, values, attrs) in variables.items():
            if not split.intersection(vdims):
                if index != 0:
                    continue  # stored once, in chunk 0
                part = values
            else:
                cut = tuple(slice(offset[names.index(d)], offset[names.index(d)] + extent[names.index(d)])
                            for d in vdims)
                part = values[cut]
            arrays[name] = {"dtype": dtype, "dim_names": list(vdims),
                            "dim_sizes": list(part.shape),
                            "values": json_values(part, dtype), "attrs": attrs}
        globals_ = dict(global_attrs or {})
        globals_.update({
            "id": dataset_id,
            "chunk_dims": {"dtype": "list<utf8>", "value": names},
            "chunk_offset": {"dtype": "list<int64>", "value": offset},
            "dataset_shape": {"dtype": "list<int64>", "value": [s for _, s in dims]},
            "unlimited_dims": {"dtype": "list<utf8>", "value": list(unlimited)},
            "chunk_index": {"dtype": "int64", "value": index},
            "chunk_count": {"dtype": "int64", "value": count},
        })
        rows.append({"global_attrs": globals_, "arrays": arrays})
    return rows
