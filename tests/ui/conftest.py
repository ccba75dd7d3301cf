"""UI test fixtures: a private settings/data folder and a tournament file built through services."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings


@pytest.fixture(autouse=True)
def private_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XQARBITER_DATA", str(tmp_path / "data"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    yield
    from PySide6.QtCore import QCoreApplication

    # (a process that never imported the window — the hang guard's child pytest — has neither a
    # guard nor a language of the program to reset: the modules are not imported for that)
    key_guard = sys.modules.get("app.ui.widgets.key_guard")
    if key_guard is not None:
        key_guard.release_all()  # a question's moment of discarded keys does not reach into the next test

    i18n = sys.modules.get("app.ui.i18n")
    if i18n is not None and QCoreApplication.instance() is not None:
        i18n.install_language("zh")


# How long a modal dialog or a menu may wait for an answer before the watchdog closes it and fails the test.
# Far above what any test needs on a loaded machine (questions.when_asked gives up after 60 s), far below
# the suite's own per-test timeout (pyproject: 900 s), so a forgotten question is named, not a hung run.
MODAL_LIMIT = float(os.environ.get("XQARBITER_MODAL_LIMIT", "120"))


@pytest.fixture(autouse=True)
def no_question_left_waiting(qapp: object) -> Iterator[None]:
    """Fail a test whose modal dialog (or popup menu) nobody answers, instead of hanging the suite.

    A dialog's ``exec`` runs its own event loop and returns only when answered; a test that meant to
    answer it from a timer and missed (the answer raised, or looked for another dialog) would wait for
    ever. A timer here looks every second at what is modal; one that has stayed up MODAL_LIMIT seconds
    is closed and the test fails naming it.
    """
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from tests.ui.questions import describe, dismiss_modals, forget_waiting_answers

    watched: list[tuple[object, float]] = []
    left: list[str] = []

    def look() -> None:
        now = time.monotonic()
        widget = QApplication.activeModalWidget() or QApplication.activePopupWidget()
        if widget is None:
            watched.clear()
            return
        if not watched or watched[0][0] is not widget:
            watched[:] = [(widget, now)]
            return
        if now - watched[0][1] >= MODAL_LIMIT:
            watched.clear()
            if QApplication.activeModalWidget() is not None:
                left.extend(dismiss_modals())
            else:
                left.append(describe(widget))
                widget.close()

    timer = QTimer()
    timer.setInterval(round(min(1000.0, max(50.0, MODAL_LIMIT * 250))))  # 1 s; a quarter of a short limit
    timer.timeout.connect(look)
    timer.start()
    try:
        yield
    finally:
        forget_waiting_answers()  # an answer this test armed never answers a later test's dialog
    timer.stop()
    if left:
        pytest.fail(f"left waiting for an answer for {MODAL_LIMIT:.0f} s, then closed: {'; '.join(left)}")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    if call.when == "call" and report.failed:
        item.stash[_FAILED] = True  # type: ignore[index]
    return report


_FAILED = pytest.StashKey[bool]()


@pytest.fixture(autouse=True)
def nothing_left_alive(request: pytest.FixtureRequest, qapp: object) -> Iterator[None]:
    """Fail a test that leaves a window, a dialog or a running timer of one alive after it.

    Runs after pytest-qt has closed the test's registered widgets; deletes what they left to
    ``deleteLater`` at once (tests/ui/leftovers.py says why that matters to every later test).
    What a test that failed leaves (the question it did not answer) is cleared without a second
    failure: the first one names the problem.
    """
    from tests.ui.leftovers import clear_leftovers, leftovers

    yield
    left = leftovers()
    if left:
        clear_leftovers()
        if not request.node.stash.get(_FAILED, False):
            pytest.fail(f"left alive after the test: {'; '.join(left)}")


@pytest.fixture(scope="session")
def event_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """160 players, round 1 played, round 2 paired without results (built once per run, copied per test)."""
    # imported here, not at the top: a child pytest that loads only this file's watchdog
    # (tests/ui/test_no_test_hangs.py) does not import the program's database layer for nothing
    from tests.conftest import built_once_folder
    from tests.factories import copy_event
    from tests.ui.sample_event import make_event

    shared = built_once_folder(
        tmp_path_factory, "ui-event", lambda folder: make_event(folder / "template.xqt", rounds=2, played=1)
    )
    return copy_event(shared / "template.xqt", tmp_path_factory.mktemp("event") / "template.xqt")


@pytest.fixture(scope="session")
def template_checked(event_template: Path, tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The record (app.db.checked) an arbiter's folder holds once the template's bytes have passed the
    full checks on opening: they are checked here once, for real, on a copy, in a folder of their own."""
    from app.db.checked import RECORD_NAME
    from app.services.tournaments import open_tournament
    from tests.factories import copy_event

    folder = tmp_path_factory.mktemp("checked")
    probe = copy_event(event_template, folder / "probe" / "event.xqt")
    before = os.environ.get("XQARBITER_DATA")
    os.environ["XQARBITER_DATA"] = str(folder / "data")
    try:
        open_tournament(probe).close()
    finally:
        if before is None:
            del os.environ["XQARBITER_DATA"]
        else:
            os.environ["XQARBITER_DATA"] = before
    return (folder / "data" / RECORD_NAME).read_bytes()


@pytest.fixture
def event_file(event_template: Path, template_checked: bytes, tmp_path: Path) -> Path:
    """This test's copy of the event. Its bytes passed the checks on opening once this run (the
    record of that is in this test's own arbiter's folder, as if it had opened them before), so the
    window does not read every value of the same bytes again in every test."""
    from app.db.checked import RECORD_NAME
    from app.paths import data_dir

    record = data_dir() / RECORD_NAME  # this test's private folder (private_folders)
    if not record.exists():
        record.write_bytes(template_checked)
    target = tmp_path / "event.xqt"
    target.write_bytes(event_template.read_bytes())
    return target


@pytest.fixture
def window(qtbot, event_file: Path):  # -> MainWindow (imported late: Qt starts offscreen first)
    """The real window, shown, on a copy of the event (round 1 played, round 2 paired)."""
    from app.ui.main_window import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(event_file)
    w.show()
    return w
