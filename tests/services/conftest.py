"""Fixtures shared by the services' tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def backups_made(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The reason of every backup made during the test, in order (the backups themselves are made)."""
    import app.services.backups as backups

    made: list[str] = []
    real = backups.make_backup

    def counted(db_or_path: object, reason: str = "manual", **kw: object) -> Path:
        made.append(reason)
        return real(db_or_path, reason, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(backups, "make_backup", counted)
    return made
