"""What a killed run leaves beside a tournament file, removed on the next writing open (sqlite3-free).

Shared by :func:`app.db.session.open_database` and the command line's pairing fast path
(:class:`app.db.lite.LiteFile`), so both ways in tidy up the same.
"""

from __future__ import annotations

from pathlib import Path

from app.db.integrity import backups_folder
from app.db.lock import lock_path, pid_alive


def remove_leftovers(path: Path) -> list[Path]:
    """Remove what a killed run left beside the file: an unfinished restore (``FILE.restoring``), backup
    copies never finished (``….partial`` in the backups folder, whose writer is gone) and lock drafts.
    They hold every personal number of the event and are of no use. Returns what was removed."""
    import os
    import re

    removed: list[Path] = []
    candidates = [Path(str(path) + ".restoring" + s) for s in ("", "-journal", "-wal", "-shm")]
    folder = backups_folder(path)
    if folder.is_dir():
        for f in folder.iterdir():
            m = re.search(r"\.(\d+)\.partial(-journal|-wal|-shm)?$", f.name)
            if m is not None and pid_alive(int(m.group(1))) and int(m.group(1)) != os.getpid():
                continue  # another running instance is writing this backup now
            if f.name.endswith((".partial", ".partial-journal", ".partial-wal", ".partial-shm")):
                candidates.append(f)
    lock = lock_path(path)
    candidates += [f for f in path.parent.glob(f".{lock.name}.*.tmp")]
    for f in candidates:
        try:
            if f.is_file():
                f.unlink()
                removed.append(f)
        except OSError:
            pass
    return removed
