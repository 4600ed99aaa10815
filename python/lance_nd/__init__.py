"""lance_nd: N-dimensional scientific arrays (xarray Datasets) in Lance tables.

    import lance_nd
    with lance_nd.create("air.lance") as writer:
        writer.write(dataset, chunks=["time"])
    table = lance_nd.open("air.lance")
    for batch in table.scan(filter="__global_attrs__.id = 'air'"):
        ds = batch.to_xarray()
"""

from . import errors
from ._lance_nd import (Buffer, NdArray, NdRecordBatch, Scan, StagedFragments, Table,
                        __version__, clear_read_caches, open, set_region_cache_capacity)
from ._chunks import auto_chunks
from ._write import Writer, append, commit_staged, create, stage, write
from ._xarray import from_xarray as _from_xarray
from ._xarray import to_xarray as _to_xarray
from .errors import (CommitConflictError, InvalidArgumentError, InvalidTableError,
                     LanceNdError, SchemaMismatchError, TableExistsError, TableNotFoundError)

try:  # the xarray backend needs xarray
    from .backend import LanceNdBackendEntrypoint, open_table_dataset
except ImportError:
    pass

NdRecordBatch.to_xarray = _to_xarray
NdRecordBatch.from_xarray = staticmethod(_from_xarray)

__all__ = [
    "Buffer", "CommitConflictError", "auto_chunks", "InvalidArgumentError", "InvalidTableError",
    "LanceNdBackendEntrypoint", "LanceNdError", "NdArray", "NdRecordBatch", "Scan", "SchemaMismatchError",
    "StagedFragments", "Table", "TableExistsError", "TableNotFoundError", "Writer", "append",
    "clear_read_caches", "commit_staged", "create", "errors", "open", "open_table_dataset",
    "set_region_cache_capacity", "stage", "write",
]
