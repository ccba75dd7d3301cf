"""The chain of schema revisions, read from the migration scripts' text (no Alembic, no SQLAlchemy).

Apart from :mod:`app.db.revisions` so that the integrity checks can ask for the newest revision
without importing the module that imports them.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

MIGRATIONS = Path(__file__).with_name("migrations")

_REVISION = re.compile(r"^revision\s*(?::\s*str\s*)?=\s*['\"]([^'\"]+)['\"]", re.M)
_DOWN = re.compile(r"^down_revision\s*(?::[^=]*)?=\s*(?:['\"]([^'\"]+)['\"]|None)", re.M)


@functools.cache
def _revision_chain() -> tuple[str, ...]:
    """The migrations' revisions, oldest first, read from their files without importing Alembic.

    A test checks this against Alembic's own reading of the scripts.
    """
    parent: dict[str, str | None] = {}
    for script in sorted((MIGRATIONS / "versions").glob("*.py")):
        text = script.read_text(encoding="utf-8")
        rev, down = _REVISION.search(text), _DOWN.search(text)
        if rev is not None and down is not None:
            parent[rev.group(1)] = down.group(1)
    chain: list[str] = []
    children = {down: rev for rev, down in parent.items()}
    current = children.get(None)
    while current is not None:
        chain.append(current)
        current = children.get(current)
    if len(chain) != len(parent):  # pragma: no cover - a branched history is not supported
        raise RuntimeError("the migration scripts do not form one chain")
    return tuple(chain)


def head_revision() -> str:
    return _revision_chain()[-1]


def known_revisions() -> set[str]:
    return set(_revision_chain())
