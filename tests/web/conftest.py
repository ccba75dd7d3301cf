"""Hall server fixtures: the demo event mid-tournament (built once), a copy per test, the application."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.services.tournaments import open_tournament
from app.web.app import ThreadOwner, create_app

BASE = "http://127.0.0.1"


@pytest.fixture(scope="session")
def midway_template(midway_demo_file: Path) -> Path:
    """公开组 round 4 half entered (rounds 1–3 closed); 天水本地组 past the split with the knockout."""
    return midway_demo_file


@pytest.fixture
def db(midway_template: Path, tmp_path: Path) -> Iterator[Any]:
    target = tmp_path / "event.xqt"
    shutil.copy(midway_template, target)
    database = open_tournament(target)
    yield database
    database.close()


@pytest.fixture
def owner() -> Iterator[ThreadOwner]:
    o = ThreadOwner()
    yield o
    o.close()


@pytest.fixture
def client(db: Any, owner: ThreadOwner) -> Iterator[TestClient]:
    with TestClient(create_app(db, owner, poll_seconds=0.05), base_url=BASE) as c:
        yield c
