"""What the rounds and records views show on opening: the top boards, the cursor row, no sideways scrolling."""

from __future__ import annotations

from pathlib import Path

from app.engine.types import GameResult
from app.services.results import ResultEntry, enter_results
from app.services.tournaments import open_tournament
from app.ui.main_window import MainWindow
from app.ui.views.records import RecordsView
from app.ui.views.rounds import RoundsView

GROUP = "公开组"


def open_with_results(qtbot, event_file: Path, boards: int) -> MainWindow:
    """The event (round 2 paired) with boards 1..``boards`` of round 2 entered, then opened."""
    db = open_tournament(event_file)
    enter_results(db, GROUP, 2, [ResultEntry(b, GameResult.DRAW) for b in range(1, boards + 1)])
    db.close()
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.open_file(event_file)
    window.show()
    return window


def rounds_on_screen(qtbot, window: MainWindow) -> RoundsView:
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    qtbot.waitUntil(lambda: view.table.isVisible() and view.table.viewport().height() > 200)
    return view


def test_on_opening_board_one_is_at_the_top_and_the_cursor_on_the_next_empty_board(
    qtbot, event_file: Path
) -> None:
    view = rounds_on_screen(qtbot, open_with_results(qtbot, event_file, 3))
    assert view.current_board() == 4
    assert view.table.rowAt(0) == 0  # boards 1-3 are not scrolled away
    cursor = view.table.visualRect(view.table.currentIndex())
    assert view.table.viewport().rect().contains(cursor)


def test_a_cursor_far_down_is_scrolled_into_view(qtbot, event_file: Path) -> None:
    view = rounds_on_screen(qtbot, open_with_results(qtbot, event_file, 50))
    assert view.current_board() == 51
    assert view.table.rowAt(0) > 0
    cursor = view.table.visualRect(view.table.currentIndex())
    assert view.table.viewport().rect().contains(cursor)


def test_names_and_units_take_the_spare_width(qtbot, event_file: Path) -> None:
    view = rounds_on_screen(qtbot, open_with_results(qtbot, event_file, 0))
    header = view.table.horizontalHeader()
    assert header.length() >= view.table.viewport().width() - 1  # no empty band on the right
    assert header.sectionSize(2) > header.sectionSize(1)  # 红方 wider than 序号


def test_the_records_board_list_needs_no_sideways_scrolling(qtbot, event_file: Path) -> None:
    window = open_with_results(qtbot, event_file, 3)
    view = window.show_view("records")
    assert isinstance(view, RecordsView)
    qtbot.waitUntil(lambda: view.table.isVisible() and view.table.viewport().width() > 100)
    assert view.table.horizontalScrollBar().maximum() == 0
