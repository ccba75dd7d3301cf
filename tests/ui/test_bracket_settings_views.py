"""The bracket view after the split (create, colour lots, deciding-game choice) and the regulation editor."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QLineEdit, QSpinBox

from app.engine.knockout import ColourMethod, ColourState
from app.engine.types import Colour, GameResult
from app.services.demo import create_demo
from app.services.knockout import bracket_of
from app.services.results import enter_result
from app.services.rounds import close_round, pair_next_round, round_view
from app.services.simulation import play_random_results
from app.services.tournaments import load_regulations
from app.ui.main_window import MainWindow
from app.ui.views.bracket import BracketView
from app.ui.views.settings import SettingsView

LOCAL = "天水本地组"


@pytest.fixture(scope="module")
def split_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo event with 天水本地组 played and closed to round 8 (the split), ~3 s."""
    path = tmp_path_factory.mktemp("split") / "split.xqt"
    db = create_demo(path, seed=7)
    for number in range(1, 9):
        pair_next_round(db, LOCAL, seed=number)
        play_random_results(db, LOCAL, number, seed=number)
        close_round(db, LOCAL, number)
    db.close()
    return path


@pytest.fixture
def bracket_window(qtbot, split_template: Path, tmp_path: Path) -> MainWindow:
    path = tmp_path / "split.xqt"
    shutil.copy(split_template, path)
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(path)
    w.show()
    w.group_box.setCurrentText(LOCAL)
    return w


def test_bracket_is_created_drawn_and_played_from_the_view(bracket_window: MainWindow) -> None:
    view = bracket_window.show_view("bracket")
    assert isinstance(view, BracketView)
    document = bracket_window.document
    assert document is not None and document.group == LOCAL
    assert view.create_button.isEnabled() and not view.canvas.boxes
    view.create_button.click()
    assert not view.create_button.isEnabled()
    # 8 players: 4 quarter-finals, 2 semi-finals + 2 for places 5-8, then F, 3RD, P5, P7
    assert sorted(view.canvas.boxes) == sorted(
        ["QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "P5SF1", "P5SF2", "F", "3RD", "P5", "P7"]
    )
    bracket = bracket_of(document.db, LOCAL)
    assert bracket is not None
    first, eighth = bracket.seeds[0], bracket.seeds[7]
    qf1 = view.canvas.boxes["QF1"]
    assert qf1.players[0].startswith(f"[1] {first} ") and qf1.players[1].startswith(f"[8] {eighth} ")
    assert view.canvas.boxes["SF1"].players == ("1/4决赛第1场胜者", "1/4决赛第4场胜者")
    assert qf1.note == "待抽签定先后"
    # a physical draw for QF1, then the program's lot for the others with a given seed
    view.apply_physical_draw(9, {"QF1": eighth})
    bracket = bracket_of(document.db, LOCAL)
    assert bracket is not None
    assert bracket.match("QF1").first_red == eighth
    assert bracket.match("QF1").colour_method is ColourMethod.MANUAL
    assert bracket.match("QF2").first_red is not None  # the service drew the rest by lot
    assert f"红 {eighth} — 黑 {first}" in view.canvas.boxes["QF1"].games[0]
    # drawn twice: the deciding game needs the higher seed's choice
    board = next(b for b in round_view(document.db, LOCAL, 9).boards if b.match == "QF1")
    enter_result(document.db, LOCAL, 9, board.board, GameResult.DRAW)
    board = next(b for b in round_view(document.db, LOCAL, 9).boards if b.match == "QF1")
    enter_result(document.db, LOCAL, 9, board.board, GameResult.DRAW)
    document.notify()
    assert view.choice_button.isEnabled()
    assert [d.code for d in view.choices_needed()] == ["QF1"]
    assert view.canvas.boxes["QF1"].note == f"附加赛待 {first} 号选色"
    view.apply_colour_choice("QF1", Colour.RED)
    assert not view.choice_button.isEnabled()
    board = next(b for b in round_view(document.db, LOCAL, 9).boards if b.match == "QF1")
    assert (board.red.no, board.game_no, board.kind) == (first, 3, "deciding")
    enter_result(document.db, LOCAL, 9, board.board, GameResult.RED_WIN)
    document.notify()
    box = view.canvas.boxes["QF1"]
    assert box.winner == 0 and len(box.games) == 3
    assert "附加赛" in box.games[2] and box.games[2].endswith("红胜")
    assert "慢棋" in box.games[0] and "快棋" in box.games[1]
    view.canvas.grab()  # paints without error


def test_program_lot_shows_its_seed(bracket_window: MainWindow) -> None:
    view = bracket_window.show_view("bracket")
    assert isinstance(view, BracketView)
    view.create_knockout()
    assert view.draw_colours(seed=4242) == 4242
    assert "抽签种子 4242" in view.message.text()
    bracket = view.bracket
    assert bracket is not None
    assert all(d.colours is ColourState.SET for d in bracket.due_games(9))
    assert view.draw_colours() is None  # nothing left to draw: the service's refusal is shown
    assert "没有待抽签" in view.message.text()


def settings_view(window: MainWindow) -> SettingsView:
    view = window.show_view("settings")
    assert isinstance(view, SettingsView)
    return view


def test_refused_change_shows_the_reason_and_keeps_the_regulation(window: MainWindow) -> None:
    view = settings_view(window)
    document = window.document
    assert document is not None
    before = load_regulations(document.db)
    win = view.editors["points.win"]
    assert isinstance(win, QSpinBox) and win.value() == 2
    win.setValue(3)
    assert not view.save()
    assert "已有轮次编排，不能再修改计分办法" in view.message.text()
    assert load_regulations(document.db) == before
    assert win.value() == 2  # the stored value is shown again
    assert document.undo_stack.count() == 0


def test_allowed_change_is_saved_and_undoable(window: MainWindow, tmp_path: Path) -> None:
    view = settings_view(window)
    document = window.document
    assert document is not None
    venue = view.editors["venue"]
    assert isinstance(venue, QLineEdit)
    venue.setText("天水市体育馆")
    fee = view.editors["registration.fee_yuan"]
    assert isinstance(fee, QSpinBox)
    fee.setValue(120)
    # tiebreak chain: move 胜局 above 对手分, untick 犯规
    view.chain_list.setCurrentRow(1)
    view.move_tiebreak(-1)
    view.chain_list.item(2).setCheckState(Qt.CheckState.Unchecked)
    # a prize amount: the table total follows
    view.prize_editor.prize_table.item(1, 3).setText("2000, 1000, 800, 500, 400×4, 300×4, 200×4, 100")
    assert view.prize_editor.prize_table.item(1, 4).text() == "8,000"
    assert view.save()
    reg = load_regulations(document.db)
    assert reg.venue == "天水市体育馆" and reg.registration.fee_yuan == 120
    assert [t.value for t in reg.tiebreaks.chain] == [
        "wins",
        "opponent_score",
        "black_games",
        "black_wins",
        "previous_rounds",
    ]
    assert reg.prizes[1].total == 8000 and reg.prizes[1].amounts[-1] == 100
    document.undo_stack.undo()
    assert load_regulations(document.db).venue == "麦积区道北体育馆"
    assert venue.text() == "麦积区道北体育馆"
    # export then import the TOML: the same regulation comes back
    target = tmp_path / "reg.toml"
    view.export_to(target)
    assert "麦积区道北体育馆" in target.read_text(encoding="utf-8")
    assert view.import_from(target)
    assert load_regulations(document.db).venue == "麦积区道北体育馆"


def test_every_setting_has_an_editor(window: MainWindow) -> None:
    view = settings_view(window)
    keys = set(view.editors)
    for section in ("points", "knockout", "pairing", "team", "record_duty", "discipline", "registration"):
        fields = load_regulations(window.document.db).__getattribute__(section).__dataclass_fields__  # type: ignore[union-attr]
        assert {f"{section}.{name}" for name in fields} <= keys, section
    assert {"event_name", "start_date", "end_date", "venue", "swiss_time_control"} <= keys
    assert view.groups_table.rowCount() == 2
    teams = view.groups_table.cellWidget(1, 1)
    assert isinstance(teams, QCheckBox) and not teams.isChecked()  # 天水本地组 has no teams
