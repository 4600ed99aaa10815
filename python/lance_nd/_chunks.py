"""Writing an xarray.Dataset as one row per chunk (docs/FORMAT.md §3.6, "Datasets and chunks").

Chunks are computed one at a time, so a dask-backed Dataset larger than memory streams through
the writer.
"""

from pathlib import PurePath

from ._lance_nd import NdRecordBatch, _ChunkGrid
from ._xarray import check_dataset, coordinate_attrs, encoded_variables, nd_array, stored_values
from .errors import InvalidArgumentError

CHUNK_KEYS = ("id", "chunk_dims", "chunk_offset", "dataset_shape", "unlimited_dims",
              "chunk_index", "chunk_count")
SOURCE_PREFIX = "source:"


def source_stem(ds):
    """The stem of the file the Dataset was opened from (ds.encoding["source"], set by
    xarray's file backends), as `lance-nd import` names a file's dataset; None without one."""
    source = ds.encoding.get("source")
    if not isinstance(source, str) or not source:
        return None
    stem = PurePath(source.split("?", 1)[0].split("#", 1)[0]).stem
    return stem or None


def dataset_id(ds, id):
    """id=, else the Dataset's attrs["id"], else the stem of the file it was opened from."""
    if id is not None:
        value, given = id, "id="
    elif "id" in ds.attrs:
        value, given = ds.attrs["id"], "attrs['id']"
    else:
        value = source_stem(ds)
        if value is None:
            raise InvalidArgumentError(
                "chunks= needs a dataset id and the Dataset has none: pass id='...', or set "
                "the Dataset's attrs['id'] to a non-empty str (a Dataset opened from a file, "
                "with ds.encoding['source'], takes the file's stem, as lance-nd import does)")
        return value
    if not isinstance(value, str) or not value:
        raise InvalidArgumentError(
            f"chunks= needs a dataset id, found {given} {value!r}: pass id='...' or set the "
            f"Dataset's attrs['id'] to a non-empty str")
    return value


DEFAULT_TARGET_BYTES = 128 * 2**20  # dask's default array.chunk-size


def auto_target_bytes():
    """The bytes of one automatically chosen chunk row: dask's array.chunk-size setting
    (128 MiB unless configured), or 128 MiB without dask."""
    try:
        import dask
        from dask.utils import parse_bytes
    except ImportError:
        return DEFAULT_TARGET_BYTES
    return int(parse_bytes(dask.config.get("array.chunk-size", DEFAULT_TARGET_BYTES)))


def auto_chunks(ds, target_bytes=None):
    """The chunks= that write(ds) without chunks= uses: None when the Dataset's variables
    (uncompressed) fit in `target_bytes` (default auto_target_bytes()), which makes one row;
    else {dim: size} splitting its largest variable along the slowest (first) dimensions, as
    dask's "auto" does, into rows of about `target_bytes`, in whole multiples of the Dataset's
    dask chunks where it has them."""
    target = auto_target_bytes() if target_bytes is None else int(target_bytes)
    nbytes = {name: var.dtype.itemsize * var.size for name, var in ds.variables.items()}
    total = sum(nbytes.values())
    if total <= target or not nbytes:
        return None
    largest = ds.variables[max(nbytes, key=nbytes.get)]
    # the largest variable's share of the target, so that a row holds about target bytes
    budget = max(1, target * nbytes[max(nbytes, key=nbytes.get)] // total)
    try:
        dask_sizes = {d: c[0] for d, c in ds.chunksizes.items()} if ds.chunks else {}
    except ValueError:  # inconsistent dask chunks
        dask_sizes = {}
    chunks = {}
    shape = largest.shape
    for i, dim in enumerate(largest.dims):
        step = largest.dtype.itemsize
        for n in shape[i + 1:]:
            step *= n
        if step <= budget or i == len(shape) - 1:
            size = min(shape[i], max(1, budget // max(step, 1)))
            own = dask_sizes.get(dim)
            if own and own <= size:
                size = size // own * own
            chunks[dim] = int(size)
            break
        chunks[dim] = 1
    return chunks


def chunk_sizes(ds, chunks):
    """{dim: chunk size}: a list of dims takes the dask chunk size (else 1); a dict is as given."""
    if isinstance(chunks, str):
        chunks = [chunks]
    if isinstance(chunks, dict):
        sizes = dict(chunks)
    else:
        dask_sizes = ds.chunksizes if ds.chunks else {}
        sizes = {dim: dask_sizes[dim][0] if dim in dask_sizes else 1 for dim in chunks}
    for dim, size in sizes.items():
        if dim not in ds.dims:
            raise InvalidArgumentError(
                f"chunks names dimension {dim!r}, which the Dataset lacks: its dimensions are "
                f"{list(ds.dims)}")
        if not isinstance(size, int) or isinstance(size, bool):
            raise InvalidArgumentError(f"chunk size of {dim!r} is {size!r}: give an int")
    return sizes


def source_attrs(attrs, id):
    """Global attributes with the convention's keys (and 'source:*') renamed to 'source:<key>'.
    An 'id' equal to the dataset id is the convention's own key and is dropped."""
    out = {}
    for key, value in attrs.items():
        if key == "id" and value == id:
            continue
        if key in CHUNK_KEYS or key.startswith(SOURCE_PREFIX):
            key = SOURCE_PREFIX + key
        out[key] = value
    return out


def _selected_indices(chunk_indices, count):
    """The chunk indices to write, in order: all `count` of them, or those of `chunk_indices`."""
    if chunk_indices is None:
        return range(count)
    indices = sorted({int(i) for i in chunk_indices})
    outside = [i for i in indices if not 0 <= i < count]
    if outside:
        raise InvalidArgumentError(
            f"chunk_indices {outside} are outside the chunk grid: the dataset has {count} "
            f"chunks, indices 0 to {count - 1}")
    return indices


def chunk_rows(ds, chunks, id=None, chunk_indices=None):
    """Yield the chunk rows of `ds` in chunk_index order (only those of `chunk_indices`, when
    given: one part of the dataset, for a distributed write)."""
    the_id = dataset_id(ds, id)
    check_dataset(ds)
    dims = list(ds.dims)
    unlimited = [d for d in ds.encoding.get("unlimited_dims", ()) if d in ds.dims]
    grid = _ChunkGrid(the_id, dims, [ds.dims[d] for d in dims], unlimited,
                      list(chunk_sizes(ds, chunks).items()))
    split = {d for i, d in enumerate(dims) if grid.is_split(i)}
    attrs = coordinate_attrs(ds, source_attrs(ds.attrs, the_id))
    variables = encoded_variables(ds)  # lazy for dask-backed variables
    for index in _selected_indices(chunk_indices, grid.num_chunks):
        offset, extent = grid.offset(index), grid.extent(index)
        region = {d: slice(o, o + e) for d, o, e in zip(dims, offset, extent) if d in split}
        arrays = {}
        for name, (var, encoded) in variables.items():
            own = {d: region[d] for d in var.dims if d in region}
            if index > 0 and not own:
                continue  # not split: stored in chunk 0 only
            part = var.isel(own)
            values = stored_values(part, encoded)  # computes this chunk
            arrays[name] = nd_array(name, part.dims, values, part.attrs)
        yield grid.apply(NdRecordBatch(arrays, attrs), index)
