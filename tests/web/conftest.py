"""Hall server fixtures: the demo event mid-tournament (built once), a copy per test, the application."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.services.tournaments import open_tournament
from app.web.app import ThreadOwner, create_app
from app.web.server import HallServer
from tests.conftest import built_once_folder
from tests.factories import copy_event

BASE = "http://127.0.0.1"


@pytest.fixture(scope="session")
def midway_template(midway_demo_file: Path) -> Path:
    """公开组 round 4 half entered (rounds 1–3 closed); 天水本地组 past the split with the knockout."""
    return midway_demo_file


@pytest.fixture(scope="session")
def stage_files(tmp_path_factory: pytest.TempPathFactory, played_demo_file: Path) -> dict[str, Path]:
    """The demo event at each stage a chief arbiter publishes (:mod:`tests.web.stages`): built once per
    run for every worker, each worker reading its own copy; the final stage is the played demo event."""
    from .stages import BUILT, build_stages

    shared = built_once_folder(tmp_path_factory, "stages", build_stages)
    mine = tmp_path_factory.mktemp("stages")
    files = {stage: copy_event(shared / f"{stage}.xqt", mine / f"{stage}.xqt") for stage in BUILT}
    files["final"] = copy_event(played_demo_file, mine / "final.xqt")
    return files


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


def started(request: pytest.FixtureRequest, hall: str = "client") -> TestClient:
    """The ``client`` (or another hall fixture) of a test, started only now: what the test wrote before
    it (a deputy's pass) is in the hall's first build instead of a change that makes it build again."""
    client: TestClient = request.getfixturevalue(hall)
    return client


@pytest.fixture(scope="module")
def _reading_hall(midway_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    folder = tmp_path_factory.mktemp("reading")
    database = open_tournament(copy_event(midway_template, folder / "event.xqt"))
    o = ThreadOwner()
    try:
        with TestClient(create_app(database, o, poll_seconds=0.05), base_url=BASE) as c:
            yield c, database
    finally:
        o.close()
        database.close()


@pytest.fixture
def reader(_reading_hall: tuple[TestClient, Any]) -> Iterator[TestClient]:
    """What ``client`` is, for a test that only reads the pages: one hall on one copy of the midway
    event, started once per test module (every start builds the hot pages, ~0.15 s of CPU; a hall kept
    for the whole process would poll its file every 50 ms beside every later test of the worker). A test
    that changes the file, issues a pass or runs into the hall's limits uses ``client``; here the
    file must be as it was after the test (it is checked)."""
    from app.services.hall import change_stamp
    from app.web.app import hall_of

    c, database = _reading_hall
    state = hall_of(c.app)
    for limiter in (state.failures, state.requests):  # each test meets the limits as a new hall has them
        limiter._buckets.clear()
    before = change_stamp(database)
    yield c
    assert change_stamp(database) == before, "a test given the shared hall changed the file"


@pytest.fixture
def reader_db(_reading_hall: tuple[TestClient, Any]) -> Any:
    """The open file of ``reader``'s hall (to check that nothing was stored)."""
    return _reading_hall[1]


# --------------------------------------------------------------------------- the headless browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}


def _browser_problem() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    if not Path(CHROMIUM).exists():
        return "Debian's chromium is not installed (apt-get install -y chromium chromium-driver)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    problem = _browser_problem()
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests cannot run under CI: {problem}")
        pytest.skip(problem)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def served(db: Any, owner: ThreadOwner) -> Iterator[tuple[str, HallServer]]:
    server = HallServer(db, owner, port=0, poll_seconds=0.2)
    url = server.start()
    yield url, server
    server.stop()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="zh-CN")
    page = context.new_page()
    page.problems = []  # type: ignore[attr-defined]
    page.on("console", lambda m: page.problems.append(m.text) if m.type == "error" else None)  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.problems.append(str(e)))  # type: ignore[attr-defined]
    yield page
    context.close()
