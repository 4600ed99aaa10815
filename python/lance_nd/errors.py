"""The exceptions of lance_nd: one per error kind of the library.

Each carries the library's message (what was found, what was expected, what to do) and
``code`` (the library's status code name), ``kind`` (its finer error kind, or "") and
``retryable`` (whether the same call may succeed when repeated).
"""


class LanceNdError(Exception):
    """Base of every lance_nd error."""

    code = ""
    kind = ""
    retryable = False


class InvalidArgumentError(LanceNdError, ValueError):
    """A call or data the library cannot accept as given."""


class TableExistsError(LanceNdError):
    """mode="create" found a table at the uri."""


class TableNotFoundError(LanceNdError):
    """No Lance table at the uri."""


class InvalidTableError(LanceNdError):
    """A Lance table that is not a lance-nd table of a format this library reads."""


class SchemaMismatchError(LanceNdError):
    """Types or schemas that do not match, or a cast the casting mode rejects."""


class CommitConflictError(LanceNdError):
    """A commit lost to a concurrent one; see ``retryable``."""
