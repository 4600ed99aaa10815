"""A minimal Arrow C Data consumer in ctypes (pyarrow is not available): reads the schema and
the batches of an ArrowArrayStream PyCapsule and wraps each as __arrow_c_array__ capsules."""

import ctypes

_int64, _ptr = ctypes.c_int64, ctypes.c_void_p


class ArrowSchema(ctypes.Structure):
    _fields_ = [("format", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("metadata", ctypes.c_char_p), ("flags", _int64), ("n_children", _int64),
                ("children", ctypes.POINTER(ctypes.c_void_p)), ("dictionary", _ptr),
                ("release", _ptr), ("private_data", _ptr)]


class ArrowArray(ctypes.Structure):
    _fields_ = [("length", _int64), ("null_count", _int64), ("offset", _int64),
                ("n_buffers", _int64), ("n_children", _int64), ("buffers", _ptr),
                ("children", _ptr), ("dictionary", _ptr), ("release", _ptr),
                ("private_data", _ptr)]


_CALL = ctypes.CFUNCTYPE(ctypes.c_int, _ptr, _ptr)
_RELEASE = ctypes.CFUNCTYPE(None, _ptr)


class ArrowArrayStream(ctypes.Structure):
    _fields_ = [("get_schema", _CALL), ("get_next", _CALL), ("get_last_error", _ptr),
                ("release", _RELEASE), ("private_data", _ptr)]


_api = ctypes.pythonapi
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class ArrowBatch:
    """One batch of a stream, offered through __arrow_c_array__ (consumed once)."""

    def __init__(self, schema, array):
        self.schema, self.array = schema, array

    def __arrow_c_array__(self, requested_schema=None):
        return (_api.PyCapsule_New(ctypes.addressof(self.schema), b"arrow_schema", None),
                _api.PyCapsule_New(ctypes.addressof(self.array), b"arrow_array", None))


def read_stream(capsule):
    """(top-level field names, [ArrowBatch]) of a stream capsule; the stream is released."""
    address = _api.PyCapsule_GetPointer(capsule, b"arrow_array_stream")
    stream = ArrowArrayStream.from_address(address)
    schema = ArrowSchema()
    assert stream.get_schema(address, ctypes.addressof(schema)) == 0
    assert schema.format == b"+s"
    names = [ArrowSchema.from_address(schema.children[i]).name.decode()
             for i in range(schema.n_children)]
    batches = []
    while True:
        array = ArrowArray()
        assert stream.get_next(address, ctypes.addressof(array)) == 0
        if not array.release:
            break
        batch_schema = ArrowSchema()
        assert stream.get_schema(address, ctypes.addressof(batch_schema)) == 0
        batches.append(ArrowBatch(batch_schema, array))
    _RELEASE(ctypes.cast(schema.release, ctypes.c_void_p).value)(ctypes.addressof(schema))
    stream.release(address)
    return names, batches
