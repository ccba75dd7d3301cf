"""The views answering one change share one reading of the group's rounds, and never a stale one.

Opening the file, entering a result or switching the group makes the rounds view, the records and
standings views and the status line all ask which rounds the group has; they are read once for
all of them (TournamentDocument.one_reading), and read afresh for the next change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from app.engine.types import GameResult
from app.services import rounds as rounds_service
from app.services.results import ResultEntry, enter_results
from app.services.tournaments import update_regulations
from app.ui.main_window import MainWindow
from app.ui.views.rounds import RoundsView

GROUP = "公开组"


def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every reading of the rounds from now on (the group asked for)."""
    calls: list[str] = []
    real: Callable[..., list[rounds_service.RoundSummary]] = rounds_service.rounds_of

    def reading(db: object, group: str) -> list[rounds_service.RoundSummary]:
        calls.append(group)
        return real(db, group)

    monkeypatch.setattr(rounds_service, "rounds_of", reading)
    return calls


def test_opening_the_file_reads_the_rounds_once(qtbot, event_file: Path, monkeypatch) -> None:
    calls = counted(monkeypatch)
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.open_file(event_file)
    assert calls == [GROUP]  # the first view's choice, the rounds view and the status line: one reading
    assert isinstance(window.views["rounds"], RoundsView)
    assert window.views["rounds"].tabs.count() == 2
    assert window.status_round.text() == "第 2 轮：待录入 60 台"


def test_each_result_is_read_once_and_every_result_shows(window: MainWindow, monkeypatch) -> None:
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    calls = counted(monkeypatch)
    assert view.enter(1, GameResult.RED_WIN)
    assert calls == [GROUP]
    assert window.status_round.text() == "第 2 轮：待录入 59 台"
    # the next change is read afresh, not answered from the first one's reading
    assert view.enter(2, GameResult.DRAW)
    assert calls == [GROUP, GROUP]
    assert window.status_round.text() == "第 2 轮：待录入 58 台"
    assert view.next_label.text() == "未录入 58 台"


def test_a_change_made_outside_the_window_shows_on_the_next_notice(window: MainWindow) -> None:
    """No reading outlives the change it answered: results stored by another program (the command
    line, the hall) show in full at the next notice, and reading outside a notice reads the file."""
    document = window.document
    assert document is not None
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    assert [s.pending for s in document.rounds()] == [0, 60]
    enter_results(document.db, GROUP, 2, [ResultEntry(board, GameResult.DRAW) for board in range(1, 61)])
    assert [s.pending for s in document.rounds()] == [0, 0]  # outside a notice: the file as it is now
    document.notify()
    assert window.status_round.text() == "第 2 轮：成绩已齐"
    assert view.next_label.text() == "本轮成绩已全部录入"
    assert all(not line.result.is_pending for line in view.model.lines)


def test_a_result_does_not_read_the_events_groups_and_rules_again(window: MainWindow, monkeypatch) -> None:
    """The event's groups and regulations (TournamentDocument.info) are read when a view asks after
    a change, not by every change: a result with the rounds shown asks nothing of them."""
    import app.ui.document as document_module

    document = window.document
    assert document is not None
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    calls: list[object] = []
    real = document_module.tournament_info
    monkeypatch.setattr(document_module, "tournament_info", lambda db: calls.append(db) or real(db))
    assert view.enter(1, GameResult.RED_WIN)
    assert view.enter(2, GameResult.BLACK_WIN)
    assert calls == []
    # asked after a change, the answer is the file as it is now, read once
    regulations = document.info.regulations
    assert len(calls) == 1 and document.info.regulations == regulations
    later = datetime(2030, 1, 2, 18, 0)
    assert regulations.registration.deadline != later
    changed = dataclasses.replace(
        regulations, registration=dataclasses.replace(regulations.registration, deadline=later)
    )
    update_regulations(document.db, changed)
    assert document.info.regulations.registration.deadline != later  # no notice yet: as last read
    document.notify()
    assert document.info.regulations.registration.deadline == later
    assert len(calls) == 2
