"""Test configuration: headless Qt, hypothesis profiles, and the demo events every area shares.

The demo event (160 players, seed 2024) played through the services is built once per test run — once
for all pytest-xdist workers, under a file lock in the run's shared temporary folder — and each test or
module gets its own copy of the file, so no test sees another's changes.
"""

from __future__ import annotations

import gc
import os
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# owners' rendezvous files (app/channel) in a private folder of this run, not the user's own
os.environ.setdefault("XQARBITER_RUN_DIR", tempfile.mkdtemp(prefix="xqrun-"))
# the arbiter's own folder (the record of files already checked, app.db.checked): this run's, not the user's
os.environ.setdefault("XQARBITER_DATA", tempfile.mkdtemp(prefix="xqdata-"))
if os.environ.get("PYTEST_XDIST_WORKER"):
    # and one per worker process: workers sharing it rewrote its record side by side, and a worker's
    # entry could be lost to another's write between its own two readings (the program takes a lost
    # entry as a file to check again, but a test counting the checks saw one too many)
    os.environ["XQARBITER_DATA"] = tempfile.mkdtemp(prefix=f"xqdata-{os.environ['PYTEST_XDIST_WORKER']}-")

# A run started as a background job of a non-interactive shell (`make test-fast &` in a script) inherits
# SIGINT ignored, and every process the tests start would too (Python keeps an inherited ignored SIGINT):
# the tests that stop `serve` with SIGINT, as Ctrl+C does, then waited 30 s for nothing and failed.
# The default handler here is reset to the default action in each child, which Python then handles.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

import pytest
from filelock import FileLock
from hypothesis import HealthCheck, is_hypothesis_test, settings

from app.gc_policy import tune_collector
from tests.factories import copy_event

tune_collector()  # the program's collector thresholds: the tests run the program as the arbiter does

pytest_plugins = ["tests.scheduling"]  # the order xdist hands the files out in: the slowest first

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("fast", parent=settings.get_profile("default"))

#: ``XQARBITER_TESTS=fast`` (``make test-fast``): the fast loop runs every test, the heaviest lighter —
#: each property test with a quarter of its examples (the hypothesis profile ``fast``, see
#: fast_examples below) and every third case of the bad-input corpus (tests/corpus/test_corpus.py), and the
#: ``heavy`` cases (the largest of a check) are left to the full suite beside their lighter cases
#: (heavy_left_out below). ``make test`` and a plain ``pytest`` run the full counts and every case.
FAST_LOOP = os.environ.get("XQARBITER_TESTS") == "fast"
HYPOTHESIS_PROFILE = {"fast": "fast", "full": "default"}.get(
    os.environ.get("XQARBITER_TESTS", ""), os.environ.get("HYPOTHESIS_PROFILE", "default")
)
settings.load_profile(HYPOTHESIS_PROFILE)

#: under the fast profile a property test runs this share of its examples, never fewer than FAST_FLOOR
#: (nor more than it asked for): a test written for 600 examples runs 150, one for 40 runs 10
FAST_SHARE = 4
FAST_FLOOR = 10


def fast_examples(full: int) -> int:
    """How many examples a property test written for ``full`` runs under the fast profile."""
    return min(full, max(FAST_FLOOR, -(-full // FAST_SHARE)))


DEMO_SEED = 2024


def _shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every worker of this run sees (xdist gives each worker a subfolder of one base)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]) -> Path:
    folder = _shared_folder(tmp_path_factory) / "shared-events"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.xqt"
    with FileLock(str(folder / f"{name}.lock")):
        if not path.exists():
            partial = folder / f"{name}.building.xqt"
            build(partial)
            partial.rename(path)
    return path


def built_once_file(
    tmp_path_factory: pytest.TempPathFactory, name: str, created_as: str, build: Callable[[Path], object]
) -> Path:
    """An event file built once per test run for every worker (as the demo events are): ``build``
    makes it at the path it is given — a file named ``created_as``, the name the tests made it under
    before (a new file's log names it) — and closes it. Read-only: each test opens a copy of its own
    (:func:`tests.factories.open_copy`), so an event several tests look at is played once."""

    def made(target: Path) -> None:
        room = target.with_name(f"{target.name}.room")
        shutil.rmtree(room, ignore_errors=True)  # what a build that failed left
        room.mkdir()
        build(room / created_as)
        (room / created_as).rename(target)

    return _built_once(tmp_path_factory, name, made)


def built_once_folder(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]
) -> Path:
    """A folder of files ``build`` writes into, built once per test run for every worker (as the demo
    events are). Read-only: copy what a test may change."""
    folder = _shared_folder(tmp_path_factory) / "shared-events"
    folder.mkdir(exist_ok=True)
    target = folder / name
    with FileLock(str(folder / f"{name}.lock")):
        if not target.exists():
            partial = folder / f"{name}.building"
            shutil.rmtree(partial, ignore_errors=True)
            partial.mkdir()
            build(partial)
            partial.rename(target)
    return target


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


def _double_elimination_of_six(path: Path) -> None:
    from app.services.format_demo import GROUP, create_format_demo
    from app.services.simulation import play_group_to_end

    db = create_format_demo(path, "double-elimination", players=6, seed=9)
    play_group_to_end(db, GROUP, seed=9)
    db.close()


@pytest.fixture(scope="session")
def double_elimination_of_six(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A double elimination of six (seed 9) played to its end with seed 9 — the services' and the hall's
    tests look at the same one. Read-only: copy it first."""
    return built_once_file(
        tmp_path_factory, "double-elimination-6-played", "de.xqt", _double_elimination_of_six
    )


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


@pytest.fixture(autouse=True, scope="session")
def new_files_from_one_migration() -> Iterator[None]:
    """A new tournament file gets its schema by Alembic running every migration on the empty file
    (``app.db.session.upgrade``, ~85 ms of CPU). The suite creates hundreds of files in each process:
    here the migrations run once per process, for real, on a scratch file, and every new file of this
    process is given those bytes instead — the same schema, written by the same program, the file
    still created by ``open_database`` (its mode, its lock, its checks). Only a new, empty file is
    given them: an older file is migrated by Alembic as before (the migration tests), and a test
    that replaces ``upgrade`` itself replaces this too."""
    from app.db import session as db_session

    real = db_session.upgrade
    blank: list[bytes] = []

    def upgrade(engine: Any) -> None:
        path = Path(str(engine.url.database))
        try:
            empty = path.stat().st_size == 0 and not Path(f"{path}-wal").exists()
        except OSError:
            empty = False
        if not empty or engine.url.query:  # an older file, or one opened read-only: Alembic, as always
            real(engine)
            return
        if not blank:
            with tempfile.TemporaryDirectory(prefix="xq-blank-") as scratch:
                made = Path(scratch) / "blank.xqt"
                made.touch()
                scratch_engine = db_session.make_engine(made)
                try:
                    real(scratch_engine)
                finally:
                    scratch_engine.dispose()  # the last connection closed: the log checkpointed
                blank.append(made.read_bytes())
        with open(path, "r+b") as f:  # the file open_database created (its mode kept)
            f.write(blank[0])

    db_session.upgrade = upgrade  # type: ignore[assignment]
    try:
        yield
    finally:
        db_session.upgrade = real  # type: ignore[assignment]


def _lighten(items: list[pytest.Item]) -> None:
    """The fast profile: each property test's own ``max_examples`` (its ``@settings``, else the
    profile's) becomes :func:`fast_examples` of it. Hypothesis keeps a test's settings on the wrapped
    function (its own pytest plugin rewrites them the same way); if that ever changes, this fails the
    run instead of quietly running the full counts."""
    done: set[int] = set()
    for item in items:
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        if test is None or not is_hypothesis_test(test) or id(test) in done:
            continue
        done.add(id(test))
        full = test._hypothesis_internal_use_settings  # type: ignore[attr-defined]
        assert isinstance(full, settings), f"{item.nodeid}: hypothesis keeps its settings elsewhere"
        test._hypothesis_internal_use_settings = settings(  # type: ignore[attr-defined]
            full, max_examples=fast_examples(full.max_examples)
        )


def _lighter_name(item: pytest.Item) -> str:
    """The test a ``heavy`` case stands beside in the fast loop: the one its marker names
    (``lighter=``), else the other cases of its own parametrized test."""
    marker = item.get_closest_marker("heavy")
    assert marker is not None
    return str(marker.kwargs.get("lighter") or getattr(item, "originalname", item.name))


def heavy_left_out(items: list[pytest.Item]) -> tuple[list[pytest.Item], list[pytest.Item]]:
    """The fast loop's share of ``items`` and the ``heavy`` cases it leaves to the full suite.

    A heavy case is the largest of a check (the knockout of 128, perft to depth 4, the largest simulated
    events): the fast loop leaves it out only if a lighter case of the same check runs instead, in the
    same module — the other cases of its parametrized test, or the test its marker names with
    ``lighter=``. A heavy case without one is a mistake in the tests: the run stops and names it."""
    kept = [i for i in items if i.get_closest_marker("heavy") is None]
    heavy = [i for i in items if i.get_closest_marker("heavy") is not None]
    running = {(i.nodeid.split("::")[0], getattr(i, "originalname", i.name)) for i in kept}
    orphans = [i.nodeid for i in heavy if (i.nodeid.split("::")[0], _lighter_name(i)) not in running]
    if orphans:
        raise pytest.UsageError(
            "a heavy test must have a lighter case that the fast loop runs instead: " + ", ".join(orphans)
        )
    return kept, heavy


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that drives chromium (it asks for the ``browser`` fixture, directly or through another
    fixture) is a browser test wherever it lives: ``make test-fast`` leaves it out by that marker.
    Under the fast loop the property tests run fewer examples (:func:`_lighten`) and the ``heavy``
    cases are left to the full suite (:func:`heavy_left_out`)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    if HYPOTHESIS_PROFILE == "fast":
        _lighten(items)
    if FAST_LOOP:
        kept, heavy = heavy_left_out(items)
        if heavy:
            config.hook.pytest_deselected(items=heavy)
            items[:] = kept


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """The heap the tests start from — every module the collection imported (Qt, SQLAlchemy, the
    program), the test items, the strategies built at import — lives until the process ends; left in
    the garbage collector's oldest generation, each full collection traversed all of it again (a run of
    a few thousand tests: a dozen or more full passes of ~0.2 s each per process, and two more at the end,
    where pytest's unraisable-exception check collects once in ``pytest_unconfigure`` and once in its
    cleanup). Its cycles are collected once here, the rest frozen (``gc.freeze``): later collections,
    those two final ones included, go over what the tests themselves made, which is what the
    unraisable-exception check is for — an object a test leaves in a cycle is collected, and its
    ``__del__``'s exception reported, as before."""
    gc.collect()
    gc.freeze()
