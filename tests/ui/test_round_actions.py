"""The rounds view beyond result entry: pairing and its undo, pairing edits, discipline, closing, printing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtPrintSupport import QPrinter
from PySide6.QtWidgets import QApplication

from app.engine.types import GameResult, PlayerStatus
from app.services.records import designate_records, records_owed
from app.services.registration import list_players
from app.services.rounds import round_view, rounds_of
from app.ui import file_dialogs
from app.ui.main_window import MainWindow
from app.ui.views.rounds import RoundsView
from tests.ui.sample_event import make_event

GROUP = "公开组"


@pytest.fixture(scope="module")
def unpaired_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """48 players numbered, nothing paired yet."""
    return make_event(tmp_path_factory.mktemp("unpaired") / "template.xqt", players=48)


@pytest.fixture
def window(qtbot, unpaired_template: Path, tmp_path: Path) -> MainWindow:
    target = tmp_path / "event.xqt"
    target.write_bytes(unpaired_template.read_bytes())
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(target)
    w.show()
    return w


@pytest.fixture
def paired_window(qtbot, event_file: Path) -> MainWindow:
    """160 players, round 1 played, round 2 paired by a fold (test data) without results."""
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(event_file)
    w.show()
    return w


def rounds_view(window: MainWindow) -> RoundsView:
    view = window.show_view("rounds")
    assert isinstance(view, RoundsView)
    return view


def pairing(window: MainWindow, number: int) -> list[tuple[int, int, int, GameResult]]:
    assert window.document is not None
    return [
        (b.board, b.red.no, b.black.no, b.result)
        for b in round_view(window.document.db, window.document.group, number).boards
    ]


def menu_action(view: RoundsView, row: int, name: str) -> QAction:
    menu = view.board_actions.board_menu(row)
    found = menu.findChild(QAction, name)
    assert found is not None, name
    return found


def test_pair_enter_by_keys_undo_result_and_undo_pairing(qtbot, window: MainWindow) -> None:
    view = rounds_view(window)
    assert window.document is not None
    stack = window.document.undo_stack
    assert view.round_number == 0 and not view.unpair_button.isEnabled()
    qtbot.mouseClick(view.pair_button, Qt.MouseButton.LeftButton)
    assert view.round_number == 1 and view.tabs.count() == 1
    # the busy dialog is gone and the window has the keyboard (and its shortcuts) again
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    first = pairing(window, 1)
    boards = len(first)
    assert view.model.rowCount() == boards > 10
    assert "随机种子" in view.message.text()
    assert view.unpair_button.isEnabled()
    assert stack.count() == 1

    # every result by key presses only: "1"/"0"/"=" + Enter go to the board under the cursor
    keys = ["1", "0", "="]
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)  # the box has the keyboard
    for i in range(boards):
        qtbot.keyClicks(QApplication.focusWidget(), keys[i % 3])
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    got = [r for *_s, r in pairing(window, 1)]
    assert got[:3] == [GameResult.RED_WIN, GameResult.BLACK_WIN, GameResult.DRAW]
    assert all(not r.is_pending for r in got)
    assert not view.unpair_button.isEnabled()  # results are in
    assert stack.count() == 1 + boards

    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert pairing(window, 1)[-1][3] is GameResult.PENDING
    assert pairing(window, 1)[-2][3] is not GameResult.PENDING

    # undo the remaining results, then the pairing itself: the round is gone
    while stack.index() > 1:
        stack.undo()
    assert view.unpair_button.isEnabled()
    stack.undo()
    assert rounds_of(window.document.db, GROUP) == []
    assert view.tabs.count() == 0 and view.model.rowCount() == 0
    # redo pairs again with the same seed: the same boards
    stack.redo()
    assert [(b, r, k) for b, r, k, _ in pairing(window, 1)] == [(b, r, k) for b, r, k, _ in first]


def test_unpair_button_and_its_undo(qtbot, window: MainWindow) -> None:
    view = rounds_view(window)
    view.pair_next_round()
    first = pairing(window, 1)
    # a hand edit first, so the restore has work to do
    view.confirm_override = lambda title, preview: ""  # type: ignore[method-assign]
    assert view.board_actions.swap_colours(2)
    edited = pairing(window, 1)
    assert edited[1][1:3] == (first[1][2], first[1][1])
    qtbot.mouseClick(view.unpair_button, Qt.MouseButton.LeftButton)
    assert window.document is not None
    assert rounds_of(window.document.db, GROUP) == []
    window.document.undo_stack.undo()  # pairs again with the seed and restores the hand edit
    assert pairing(window, 1) == edited


def test_swap_colours_from_the_menu_and_undo(paired_window: MainWindow) -> None:
    view = rounds_view(paired_window)
    before = pairing(paired_window, 2)
    seen = []

    def confirm(title: str, preview):  # the dialog: shows the preview, answers with a reason
        seen.append(preview)
        return "" if not preview.breaks else "场地原因"

    view.confirm_override = confirm  # type: ignore[method-assign]
    menu_action(view, 4, "swap_colours").trigger()
    after = pairing(paired_window, 2)
    assert after[4][1:3] == (before[4][2], before[4][1])
    assert after[:4] == before[:4] and after[5:] == before[5:]
    assert seen[0].changed_boards == (5,)
    assert paired_window.document is not None
    paired_window.document.undo_stack.undo()
    assert pairing(paired_window, 2) == before
    paired_window.document.undo_stack.redo()
    assert pairing(paired_window, 2) == after


def test_set_pair_with_a_broken_rule_needs_a_reason_and_undo_restores_the_seats(
    paired_window: MainWindow,
) -> None:
    view = rounds_view(paired_window)
    assert paired_window.document is not None
    before = pairing(paired_window, 2)
    round1 = pairing(paired_window, 1)
    # board 1 red plays again his round-1 opponent: a rematch
    red = before[0][1]
    old = next(k if r == red else r for _b, r, k, _res in round1 if red in (r, k))
    breaks = []

    def confirm(title: str, preview):
        breaks.extend(preview.breaks)
        return "裁判长决定"

    view.confirm_override = confirm  # type: ignore[method-assign]
    view.ask_number = lambda title, label: old  # type: ignore[method-assign]
    menu_action(view, 0, "red:set_pair").trigger()
    assert any(b.kind.value == "rematch" for b in breaks)
    after = pairing(paired_window, 2)
    assert after[0][1:3] == (red, old)
    paired_window.document.undo_stack.undo()
    assert pairing(paired_window, 2) == before


def test_why_this_opponent_after_pairing(window: MainWindow) -> None:
    view = rounds_view(window)
    view.pair_next_round()
    shown = []
    view.inform = lambda title, text: shown.append(text)  # type: ignore[method-assign]
    menu_action(view, 0, "black:why").trigger()
    black = pairing(window, 1)[0][2]
    assert shown and shown[0].startswith(str(black)) and "第 1 台" in shown[0]


def test_discipline_forfeit_agreed_result_withdraw_and_undo(paired_window: MainWindow) -> None:
    view = rounds_view(paired_window)
    assert paired_window.document is not None
    stack = paired_window.document.undo_stack
    view.ask_text = lambda title, label: "迟到 15 分钟"  # type: ignore[method-assign]
    menu_action(view, 2, "red:late").trigger()
    assert pairing(paired_window, 2)[2][3] is GameResult.RED_FORFEIT
    menu_action(view, 3, "black:phone").trigger()
    assert pairing(paired_window, 2)[3][3] is GameResult.RED_WIN  # phone: a loss, not a forfeit
    menu_action(view, 5, "agreed_result").trigger()
    assert pairing(paired_window, 2)[5][3] is GameResult.DOUBLE_FORFEIT
    stack.undo()
    stack.undo()
    stack.undo()
    assert [r for *_s, r in pairing(paired_window, 2)[2:6]] == [GameResult.PENDING] * 4

    black = pairing(paired_window, 2)[7][2]
    menu_action(view, 7, "black:withdraw").trigger()

    def status() -> str:
        assert paired_window.document is not None
        return next(p.status for p in list_players(paired_window.document.db, GROUP) if p.no == black)

    assert status() in (PlayerStatus.WITHDRAWN, PlayerStatus.WITHDRAWN.value)
    stack.undo()
    assert status() in (PlayerStatus.ACTIVE, PlayerStatus.ACTIVE.value)


def test_violation_and_disqualification_are_undoable(paired_window: MainWindow) -> None:
    from app.services.snapshot import export_snapshot

    view = rounds_view(paired_window)
    assert paired_window.document is not None
    db, stack = paired_window.document.db, paired_window.document.undo_stack
    red = pairing(paired_window, 2)[0][1]
    view.ask_choice_and_reason = lambda title, label, items, reason: (0, "大声喧哗")  # type: ignore[method-assign]
    menu_action(view, 0, "red:violation").trigger()
    assert [(v["player"], v["kind"]) for v in export_snapshot(db)["violations"]] == [(red, "other")]
    stack.undo()
    assert export_snapshot(db)["violations"] == []
    stack.redo()
    assert len(export_snapshot(db)["violations"]) == 1

    view.ask_choice_and_reason = lambda title, label, items, reason: (1, "作弊")  # type: ignore[method-assign]  # annulled
    menu_action(view, 0, "red:disqualify").trigger()
    assert next(p.status for p in list_players(db, GROUP) if p.no == red) in (
        "disqualified",
        PlayerStatus.DISQUALIFIED,
    )
    stack.undo()
    assert next(p.status for p in list_players(db, GROUP) if p.no == red) in ("active", PlayerStatus.ACTIVE)


def test_close_round_confirms_the_refusals_of_records_owed(qtbot, paired_window: MainWindow) -> None:
    view = rounds_view(paired_window)
    assert paired_window.document is not None
    db = paired_window.document.db
    designate_records(db, GROUP, 2, [1, 2])
    paired_window.document.notify()
    assert view.owed.topLevelItemCount() == 0  # owed by the winner: nothing before the results
    qtbot.waitUntil(lambda: QApplication.focusWidget() is view.entry)
    for _ in range(view.model.rowCount()):
        qtbot.keyClicks(QApplication.focusWidget(), "1")
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.owed.topLevelItemCount() == 2)
    assert len(records_owed(db, GROUP, 2)) == 2
    assert view.owed_box.title() == "本轮待交棋谱（2）"
    red1 = pairing(paired_window, 2)[0][1]
    assert view.owed.topLevelItem(0).text(0) == "1"
    assert view.owed.topLevelItem(0).text(1).startswith(f"{red1} ")  # red won, red records
    asked = []
    view.confirm_refusals = lambda lines: asked.append(list(lines)) or False  # type: ignore[method-assign]
    view.close_round()
    assert len(asked[0]) == 2 and "第 1 台" in asked[0][0]
    assert not rounds_of(db, GROUP)[-1].closed
    view.confirm_refusals = lambda lines: True  # type: ignore[method-assign]
    view.close_round()
    assert rounds_of(db, GROUP)[-1].closed
    assert "第 2 轮已结束" in view.message.text()


def test_print_table_cards_to_a_pdf(qtbot, paired_window: MainWindow, tmp_path: Path, monkeypatch) -> None:
    from pypdf import PdfReader

    import app.ui.printing as printing

    rounds_view(paired_window)
    action = paired_window.print_actions["table-cards"]
    action.trigger()
    preview = paired_window.preview
    assert isinstance(preview, printing.PrintPreviewDialog)
    assert preview.isVisible() and len(preview.images) >= 30  # 60 boards, two cards a page
    target = tmp_path / "cards.pdf"
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: str(target))
    qtbot.mouseClick(preview.save_button, Qt.MouseButton.LeftButton)
    reader = PdfReader(str(target))
    assert len(reader.pages) == len(preview.images)
    first = pairing(paired_window, 2)[0]
    assert paired_window.document is not None
    name = round_view(paired_window.document.db, GROUP, 2).boards[0].red.name
    assert name in reader.pages[0].extract_text() and first[0] == 1
    # printing paints the same pages onto a printer (here a PDF printer)
    printer = QPrinter()
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    preview.paint(printer)
    assert len(PdfReader(str(tmp_path / "printed.pdf")).pages) == len(preview.images)


def test_excel_export_from_the_menu(paired_window: MainWindow, tmp_path: Path, monkeypatch) -> None:

    target = tmp_path / "results.xlsx"
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, **k: str(target))
    paired_window.excel_action.trigger()
    assert target.read_bytes()[:2] == b"PK"
