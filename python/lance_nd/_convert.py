"""numpy data made ready for the native module: C order, native byte order, text as objects."""

import numpy as np

# Time units the library stores; coarser units are converted to seconds (exactly).
_UNITS = ("s", "ms", "us", "ns")
_COARSER = ("Y", "M", "W", "D", "h", "m")


def prepare(data):
    """Return (array, mask): the mask is None or a bool array of the shape (True = null)."""
    mask = None
    if isinstance(data, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(data)
        data = data.data
    arr = np.asarray(data)
    if arr.dtype.kind in "US":
        arr = arr.astype(object)  # one str / bytes per element, no padding
    elif arr.dtype.kind in "Mm":
        unit, _ = np.datetime_data(arr.dtype)
        if unit in _COARSER:
            arr = arr.astype(arr.dtype.kind + "8[s]")
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if not arr.flags.c_contiguous:
        arr = arr.copy(order="C")
    if mask is not None:
        mask = np.array(mask, dtype=bool, order="C")
        if not mask.any():
            mask = None
    return arr, mask
