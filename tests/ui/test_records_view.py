"""The records view: boards and duties listed, a game entered on the board and saved, PGN, export, print."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.engine.xiangqi import parse_pgn_bytes
from app.services.game_records import record_of
from app.services.snapshot import export_snapshot, import_snapshot
from app.ui.main_window import MainWindow
from app.ui.models.records import RECORD_COLUMN, BoardRecordsModel
from app.ui.views.records import RecordsView
from tests.factories import player, snapshot, swiss_round

MASTER = Path(__file__).parents[1] / "engine" / "xiangqi" / "data" / "liu_dahua_yang_guanlin_1982.pgn"


@pytest.fixture
def view(qtbot, tmp_path: Path) -> RecordsView:
    players = [player(1, "柳大华"), player(2, "杨官璘")] + [player(i, f"棋手{i}") for i in range(3, 7)]
    rounds = [swiss_round(n, [(1, 2, "draw"), (3, 4, "red_win"), (5, 6, "pending")]) for n in (1, 2, 3, 4)]
    import_snapshot(snapshot(players, rounds), tmp_path / "t.xqt").close()
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(tmp_path / "t.xqt")
    w.show()
    found = w.show_view("records")
    assert isinstance(found, RecordsView)
    return found


def test_round_four_lists_boards_with_duties(view: RecordsView, qtmodeltester) -> None:
    qtmodeltester.check(view.model)
    assert view.round_box.count() == 4 and view.round_number == 4
    cells = [
        [view.model.index(r, c).data() for c in range(view.model.columnCount())]
        for r in range(view.model.rowCount())
    ]
    assert cells == [
        ["1", "1 柳大华", "和", "2 杨官璘", "杨官璘", "待交"],
        ["2", "3 棋手3", "红胜", "4 棋手4", "棋手3", "待交"],
        ["3", "5 棋手5", "", "6 棋手6", "", ""],
    ]
    assert "待交棋谱 2 份" in view.message.text()
    assert not view.save_button.isEnabled() and not view.print_button.isEnabled()


def test_enter_a_short_draw_on_the_board_and_save(view: RecordsView, qtbot) -> None:
    assert view.select_board(1)
    editor = view.editor
    for text in ("炮二平五", "马８进７"):
        editor.entry.setText(text)
        assert editor.enter_text()
    assert view.save()
    # both players are charged: the violation is shown once for each
    assert view.message.text().count("第4轮第1台和棋录谱仅1回合，不足25回合") == 2
    assert view.model.index(0, RECORD_COLUMN).data() == "1 回合"
    assert view.current_board() == (1, 1)  # the selection survives the refresh
    snap = export_snapshot(view.document.db)
    assert sorted((v["player"], v["kind"]) for v in snap["violations"]) == [
        (1, "short_draw_record"),
        (2, "short_draw_record"),
    ]
    assert view.print_button.isEnabled()


def test_open_a_pgn_save_export_and_print(view: RecordsView, tmp_path: Path) -> None:
    assert view.select_board(1)
    assert view.load_pgn(MASTER.read_text(encoding="utf-8").encode("gbk"))
    assert len(view.editor.board.moves) == 125
    assert view.save()
    stored = record_of(view.document.db, "公开组", 4, 1)
    assert stored is not None and stored.full_moves == 63
    assert view.export_to(tmp_path / "r4.pgn")
    (game,) = parse_pgn_bytes((tmp_path / "r4.pgn").read_bytes())
    assert game == stored
    assert view.print_to(tmp_path / "g.pdf")
    assert (tmp_path / "g.pdf").read_bytes().startswith(b"%PDF")
    # choosing the board again shows the stored game on the board
    view.select_board(2)
    assert view.editor.board.moves == ()
    view.select_board(1)
    assert len(view.editor.board.moves) == 125


def test_a_record_of_other_players_is_refused(view: RecordsView) -> None:
    assert view.select_board(2)
    assert view.load_pgn(MASTER.read_bytes())
    assert not view.save()
    assert "柳大华" in view.message.text()
    assert record_of(view.document.db, "公开组", 4, 2) is None
    assert view.model.index(1, RECORD_COLUMN).data() == "待交"


def test_model_alone(qtmodeltester) -> None:
    model = BoardRecordsModel()
    qtmodeltester.check(model)
    assert model.headerData(5, Qt.Orientation.Horizontal) == "棋谱"


def test_a_paper_record_is_registered_with_its_move_count(view: RecordsView, monkeypatch) -> None:
    from app.ui.views import records as records_module

    monkeypatch.setattr(records_module.QInputDialog, "getInt", lambda *a, **k: (18, True))
    assert view.select_board(1) and view.paper_button.isEnabled()
    assert view.paper_dialog()
    # a drawn game handed in with 18 moves: both players charged, the duty shown as handed in
    assert view.message.text().count("不足25回合") == 2
    assert view.model.index(0, RECORD_COLUMN).data() == "18 回合"
    violations = export_snapshot(view.document.db)["violations"]
    assert sorted(v["player"] for v in violations) == [1, 2]


def test_designating_a_board_in_the_first_rounds(view: RecordsView) -> None:
    view.round_box.setCurrentIndex(0)  # round 1: nothing owed until the arbiter designates
    assert view.round_number == 1 and "待交棋谱 0 份" in view.message.text()
    assert view.select_board(2) and view.designate()
    assert "待交棋谱 1 份" in view.message.text() or view.model.index(1, RECORD_COLUMN).data() == "待交"
    assert view.model.index(1, 4).data() == "棋手3"  # the winner records
