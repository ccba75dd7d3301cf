"""Every ``open`` Python makes of a tournament file's names, seen by an audit hook (tests only).

POSIX locks belong to the process: one ``open()``/``close()`` of ``FILE``, ``FILE-wal`` or ``FILE-shm``
in a process where SQLite has the file open drops SQLite's locks (docs/file-safety.md). The hook sees
``builtins.open``, ``io.open`` and ``os.open`` (not SQLite's own opens, which are in C and are the
legitimate ones). Audit hooks cannot be removed, so one hook is installed and switched by
:func:`watching`.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

from app.files import COMPANION_SUFFIXES

_watch: dict[str, list[str]] = {}  # real path watched → the opens seen
_watch_lock = threading.Lock()


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event != "open" or not _watch or not args or not isinstance(args[0], str | bytes | os.PathLike):
        return
    try:
        real = os.path.realpath(os.fsdecode(args[0]))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return
    with _watch_lock:
        for base, seen in _watch.items():
            if any(real == base + suffix for suffix in COMPANION_SUFFIXES):
                seen.append(f"{real} {args[1:]} in {threading.current_thread().name}")


sys.addaudithook(_audit)


@contextlib.contextmanager
def watching(path: Path) -> Iterator[list[str]]:
    """Collect, for the block, every open of ``path``'s names made by Python code of this process."""
    key = os.path.realpath(path)
    seen: list[str] = []
    with _watch_lock:
        _watch[key] = seen
    try:
        yield seen
    finally:
        with _watch_lock:
            _watch.pop(key, None)
