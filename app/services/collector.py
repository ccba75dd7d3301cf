"""Python's cyclic garbage collector paused while a whole-event read model is built and written."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collection_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a whole-event document is read and written (a
    context manager, or a function decorator: ``@collection_paused()``).

    A workbook, a results book, the public site or the standings of 5,000 players build some hundreds
    of thousands of read-model objects that all live until they are written; each of the collector's
    passes over the older ones walks all of them again (~1.3 s of a ~5 s export) and finds nothing to
    free. Memory is still freed as usual (reference counting); the collector runs again, as before,
    after the block — also when it fails. A pause inside a pause leaves the collector to the outer one.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
