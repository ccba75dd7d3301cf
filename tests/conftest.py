"""Test configuration: headless Qt, hypothesis profiles, and the demo events every area shares.

The demo event (160 players, seed 2024) played through the services is built once per test run — once
for all pytest-xdist workers, under a file lock in the run's shared temporary folder — and each test or
module gets its own copy of the file, so no test sees another's changes.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# owners' rendezvous files (app/channel) in a private folder of this run, not the user's own
os.environ.setdefault("XQARBITER_RUN_DIR", tempfile.mkdtemp(prefix="xqrun-"))

import pytest
from filelock import FileLock
from hypothesis import HealthCheck, settings

from tests.factories import copy_event

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

DEMO_SEED = 2024


def _shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every worker of this run sees (xdist gives each worker a subfolder of one base)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    folder = _shared_folder(tmp_path_factory) / "shared-events"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.xqt"
    with FileLock(str(folder / f"{name}.lock")):
        if not path.exists():
            partial = folder / f"{name}.building.xqt"
            build(partial)
            partial.rename(path)
    return path


def _played(path: Path) -> None:
    from app.services.demo import create_demo
    from app.services.simulation import play_demo_to_end

    db = create_demo(path, seed=DEMO_SEED)
    play_demo_to_end(db, seed=DEMO_SEED)
    db.close()


def _midway(path: Path) -> None:
    from app.services.demo import create_demo
    from app.services.simulation import play_demo_midway

    db = create_demo(path, seed=DEMO_SEED)
    play_demo_midway(db, seed=DEMO_SEED)
    db.close()


@pytest.fixture(scope="session")
def played_demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo event played to its end (both groups, knockout included). Read-only: copy it first."""
    return _built_once(tmp_path_factory, "played-demo", _played)


@pytest.fixture(scope="session")
def midway_demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """公开组 rounds 1–3 closed and round 4 half entered; 天水本地组 past the split, knockout under way.
    Read-only: copy it first."""
    return _built_once(tmp_path_factory, "midway-demo", _midway)


@pytest.fixture
def played_demo(played_demo_file: Path, tmp_path: Path) -> Path:
    """A copy of the played demo event, this test's own."""
    return copy_event(played_demo_file, tmp_path / "played.xqt")


@pytest.fixture
def midway_demo(midway_demo_file: Path, tmp_path: Path) -> Path:
    """A copy of the midway demo event, this test's own."""
    return copy_event(midway_demo_file, tmp_path / "midway.xqt")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives chromium (it asks for the ``browser`` fixture, directly or through another
    fixture) is a browser test wherever it lives: ``make test-fast`` leaves it out by that marker."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
