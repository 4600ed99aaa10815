"""Writers: lance_nd.create / append -> Writer, lance_nd.write, and staged writes."""

from ._lance_nd import NdRecordBatch, _ArrowRows, _Writer, _commit_staged, _stage
from ._chunks import auto_chunks, auto_target_bytes, chunk_rows, dataset_id, source_attrs
from ._xarray import from_xarray
from .errors import InvalidArgumentError

# Rows handed to the native writer per call when they come from an Arrow stream.
_ARROW_GROUP = 64


def _is_dataset(data):
    try:
        import xarray as xr
    except ImportError:
        return False
    return isinstance(data, xr.Dataset)


def _grouped(rows):
    group = []
    for row in rows:
        group.append(row)
        if len(group) == _ARROW_GROUP:
            yield group
            group = []
    if group:
        yield group


def _with_id(ds, id):
    """`ds` as the one-row dataset `id` (its own attributes named like a convention key are
    renamed 'source:<key>', as for chunk rows)."""
    out = ds.copy(deep=False)
    out.attrs = {**source_attrs(ds.attrs, id), "id": id}
    return out


def _human(nbytes):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if nbytes < 1024 or unit == "GiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    return None


def _auto_id(ds, id):
    """The id of a Dataset split automatically, or an error saying why one is needed."""
    try:
        return dataset_id(ds, id)
    except InvalidArgumentError as error:
        size = sum(v.dtype.itemsize * v.size for v in ds.variables.values())
        raise InvalidArgumentError(
            f"the Dataset holds {_human(size)}, more than the {_human(auto_target_bytes())} "
            f"of one row (dask's array.chunk-size), so "
            f"write splits it into chunk rows, which need a dataset id: {error}; or pass "
            f"chunks= yourself") from None


def row_groups(data, chunks=None, id=None, chunk_indices=None):
    """Yield lists of NdRecordBatch from the data Writer.write accepts."""
    if chunk_indices is not None and (chunks is None or not _is_dataset(data)):
        raise InvalidArgumentError(
            "chunk_indices= selects chunk rows of one xarray.Dataset written with chunks=")
    if (chunks is not None or id is not None) and not _is_dataset(data):
        if not isinstance(data, (list, tuple)):
            raise InvalidArgumentError(
                f"chunks= and id= apply to an xarray.Dataset, not to {type(data).__name__}")
    if isinstance(data, NdRecordBatch):
        yield [data]
    elif _is_dataset(data):
        if chunks is None:
            chunks = auto_chunks(data)
            if chunks is not None:
                _auto_id(data, id)
        if chunks is None:
            yield [from_xarray(data if id is None else _with_id(data, id))]
        else:
            for row in chunk_rows(data, chunks, id, chunk_indices):
                yield [row]
    elif hasattr(data, "__arrow_c_stream__"):
        yield from _grouped(_ArrowRows.from_stream(data.__arrow_c_stream__()))
    elif hasattr(data, "__arrow_c_array__"):
        yield list(_ArrowRows.from_array(*data.__arrow_c_array__()))
    elif isinstance(data, (list, tuple)):
        for item in data:
            yield from row_groups(item, chunks, id)
    else:
        raise InvalidArgumentError(
            f"cannot write a {type(data).__name__}: expected an xarray.Dataset, an "
            f"NdRecordBatch, a list of these, or Arrow data in the nd encoding "
            f"(__arrow_c_stream__ / __arrow_c_array__)")


class Writer:
    """Any number of write() calls, one commit at finish(). As a context manager it finishes
    at the end of the block, or aborts when the block raises."""

    def __init__(self, native):
        self._native = native
        self.table = None  # the Table committed by finish()

    def write(self, data, chunks=None, id=None):
        """Write `data`. For an xarray.Dataset, chunks= writes one row per chunk, with the
        dataset id `id` or the Dataset's attrs["id"]; id= alone writes one row with that id."""
        for rows in row_groups(data, chunks, id):
            self._native.write(rows)

    def finish(self):
        """Commit everything as one version and return the Table."""
        self.table = self._native.finish()
        return self.table

    def abort(self):
        """Commit nothing and remove what was written."""
        self._native.abort()

    @property
    def rows_written(self):
        return self._native.rows_written

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None:
            self.abort()
        elif not self._native.closed:
            self.finish()
        return False


def _options(**kwargs):
    return {k: v for k, v in kwargs.items() if v is not None}


def create(uri, mode="create", column_defaults=None, column_options=None, stats=False,
           target_fragment_bytes=None, write_parallelism=None, casting="no"):
    """A Writer of a new table: mode "create" (TableExistsError when one is there),
    "overwrite" (replaces it at finish) or "append"."""
    options = _options(mode=mode, column_defaults=column_defaults,
                       column_options=column_options, stats=stats,
                       target_fragment_bytes=target_fragment_bytes,
                       write_parallelism=write_parallelism, casting=casting)
    return Writer(_Writer.create(uri, options, False))


def append(uri, column_options=None, target_fragment_bytes=None, write_parallelism=None,
           casting="no"):
    """A Writer that appends to the latest version of an existing table."""
    options = _options(column_options=column_options,
                       target_fragment_bytes=target_fragment_bytes,
                       write_parallelism=write_parallelism, casting=casting)
    return Writer(_Writer.create(uri, options, True))


def write(uri, data, chunks=None, id=None, **create_options):
    """create(uri, **create_options), write(data, chunks, id), finish(): the Table."""
    with create(uri, **create_options) as writer:
        writer.write(data, chunks=chunks, id=id)
    return writer.table


def stage(uri, data, chunks=None, id=None, mode="append", stats=False, casting="no",
          column_defaults=None, column_options=None, chunk_indices=None):
    """Write `data` as fragments of the table at `uri` without committing (any process):
    the StagedFragments to hand to commit_staged. All rows of one call are held in memory.
    With chunks=, chunk_indices= writes only those chunk rows of the Dataset (the chunk grid
    and the rows' keys stay those of the whole Dataset), so that workers can each stage a part
    of one dataset and commit_staged commits them as one."""
    rows = [row for group in row_groups(data, chunks, id, chunk_indices) for row in group]
    options = _options(mode=mode, stats=stats, casting=casting,
                       column_defaults=column_defaults, column_options=column_options)
    return _stage(uri, rows, options)


def commit_staged(uri, staged, mode="append"):
    """Commit every StagedFragments of `staged` as one version; returns the Table."""
    return _commit_staged(uri, list(staged), _options(mode=mode))
