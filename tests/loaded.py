"""Which modules a real ``xqarbiter`` process loaded: a command's start costs what it imports."""

from __future__ import annotations

from pathlib import Path

#: ``python -c LOADING RECORD ARGS…`` runs ``xqarbiter ARGS…`` as ``python -m app.cli`` does and, as the
#: process ends, writes the names of the modules it loaded to RECORD (the command's output untouched)
LOADING = (
    "import atexit, runpy, sys; out = sys.argv.pop(1); "
    "atexit.register(lambda: open(out, 'w').write('\\n'.join(sorted(sys.modules)))); "
    "sys.argv[0] = 'xqarbiter'; runpy.run_module('app.cli', run_name='__main__')"
)

#: what a command handed to the file's owner does not load: the owner runs it (its services, its
#: database library, its documents); the client only parses, forwards and prints the answer
OWNERS_OWN = ("sqlalchemy", "alembic", "app.services", "app.db.models", "reportlab", "openpyxl", "PySide6")


def loaded(record: Path, *prefixes: str) -> list[str]:
    """The modules recorded in ``record`` (:data:`LOADING`) that are, or are inside, one of ``prefixes``."""
    names = record.read_text().split()
    assert "app.cli" in names, names[:20]  # the record was written by a command that ran
    return [m for m in names if any(m == p or m.startswith(p + ".") for p in prefixes)]
