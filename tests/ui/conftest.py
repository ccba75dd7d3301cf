"""UI test fixtures: a private settings/data folder and a tournament file built through services."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from tests.conftest import built_once_folder
from tests.factories import copy_event
from tests.ui.sample_event import make_event


@pytest.fixture(autouse=True)
def private_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XQARBITER_DATA", str(tmp_path / "data"))
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    yield
    from PySide6.QtCore import QCoreApplication

    from app.ui.i18n import install_language
    from app.ui.widgets.key_guard import release_all

    release_all()  # a question's moment of discarded keys does not reach into the next test

    if QCoreApplication.instance() is not None:
        install_language("zh")


@pytest.fixture(scope="session")
def event_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """160 players, round 1 played, round 2 paired without results (built once per run, copied per test)."""
    shared = built_once_folder(
        tmp_path_factory, "ui-event", lambda folder: make_event(folder / "template.xqt", rounds=2, played=1)
    )
    return copy_event(shared / "template.xqt", tmp_path_factory.mktemp("event") / "template.xqt")


@pytest.fixture
def event_file(event_template: Path, tmp_path: Path) -> Path:
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
