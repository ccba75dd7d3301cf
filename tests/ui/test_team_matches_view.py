"""The team matches view, driven by real key events: pairing, a line-up typed in (and one refused), the
boards set, results by board typed in with the match score read back, a tie-break game, a team that did
not appear, undo and redo; and the team standings in the 团体 view."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QLineEdit

from app.engine.team_match import Side
from app.engine.types import GameResult, UserError
from app.services.team_demo import GROUP, create_team_demo
from app.services.team_events import team_round_view, teams_of
from app.ui.main_window import VIEWS, MainWindow
from app.ui.views.team_matches import ResultLine, TeamMatchesView, parse_lineup_line, parse_result_line


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:
    path = tmp_path / "teams.xqt"
    create_team_demo(path, "team-knockout", teams=4, seed=3).close()
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(path)
    w.show()
    return w


def view_of(w: MainWindow, key: str) -> TeamMatchesView:
    w.navigation.setCurrentRow([k for k, _ in VIEWS].index(key))
    return w.views[key]  # type: ignore[return-value]


def typed(qtbot, box: QLineEdit, text: str) -> None:
    """Key presses for ASCII; Chinese arrives as the input method commits it (拼音 → 加, 主, 不到场)."""
    box.setFocus()
    box.clear()
    for part in re.split(r"([^\x00-\x7f]+)", text):
        if part.isascii():
            qtbot.keyClicks(box, part)
        else:
            event = QInputMethodEvent()
            event.setCommitString(part)
            QApplication.sendEvent(box, event)
    assert box.text() == text
    qtbot.keyClick(box, Qt.Key.Key_Return)


def board_texts(view: TeamMatchesView, match: int) -> list[list[str]]:
    item = view.tree.topLevelItem(match - 1)
    return [[item.child(i).text(c) for c in range(5)] for i in range(item.childCount())]


def test_a_round_typed_in_from_the_keyboard(qtbot, window: MainWindow) -> None:
    view = view_of(window, "team_matches")
    view.pair_button.click()
    assert "第 1 轮已编排：2 场" in view.message.text()
    assert view.tree.topLevelItemCount() == 2
    assert view.tree.topLevelItem(0).text(3) == "排阵：主队未交，客队未交"
    db = window.document.db
    team = teams_of(db, GROUP)[0]
    nos = [p.no for p in team.roster]
    assert len(nos) == 5  # four boards and a reserve
    # out of the registered order: refused, with the reason, and the line kept for correction
    typed(qtbot, view.lineup_entry, f"{team.no} {nos[1]} {nos[0]} {nos[2]} {nos[3]}")
    assert "须按报名顺序排阵" in view.message.text()
    assert view.lineup_entry.text() != ""
    # the reserve in on board 4: handed in
    typed(qtbot, view.lineup_entry, f"{team.no} {nos[0]} {nos[1]} {nos[2]} {nos[4]}")
    assert "排阵已收" in view.message.text() and view.lineup_entry.text() == ""
    match = next(m for m in team_round_view(db, GROUP, 1).matches if team.name in (m.home, m.away))
    assert view.tree.topLevelItem(match.number - 1).text(3).count("已交") == 1
    view.seat_button.click()
    assert "对阵单已生成" in view.message.text()
    column = 1 if match.home == team.name else 2
    seated = [row[column].split()[1] for row in board_texts(view, match.number)]
    assert seated == [str(nos[0]), str(nos[1]), str(nos[2]), str(nos[4])]
    # colours by board: the home team Red on boards 1 and 3
    assert [row[1].split()[0] for row in board_texts(view, match.number)] == ["红", "黑", "红", "黑"]

    first = match.number
    read_back = []
    for board in (1, 2, 3, 4):  # Red wins everywhere: 2:0, 0:2, 2:0, 0:2 → 4:4
        typed(qtbot, view.result_entry, f"{first} {board} 1")
        read_back.append(view.message.text())
    assert "局分 2:0（比赛进行中）" in read_back[0] and "局分 2:2" in read_back[1]
    assert "局分 4:4（第 1 台加赛中）" in read_back[3]
    assert view.result_entry.text() == ""
    assert "待加赛第 1 局" in board_texts(view, first)[0][3]
    typed(qtbot, view.result_entry, f"{first} 1 加 1")  # the tie-break game: Red (the away player) wins
    assert "局分 4:4，场分 1:2" in view.message.text()
    assert "第 1 台加赛客队胜" in view.tree.topLevelItem(first - 1).text(3)
    tie_row = view.tree.topLevelItem(first - 1).child(0).child(0)
    assert tie_row.text(0).startswith("加赛 1") and tie_row.text(3) == "红胜"

    # undo takes the tie-break game back; redo puts it in again
    window.document.undo_stack.undo()
    board = team_round_view(db, GROUP, 1).matches[first - 1].boards[0]
    assert board.ties == () and board.due is not None
    assert "待加赛第 1 局" in board_texts(view, first)[0][3]
    window.document.undo_stack.redo()
    board = team_round_view(db, GROUP, 1).matches[first - 1].boards[0]
    assert [t.result for t in board.ties] == [GameResult.RED_WIN]
    # a board's result cannot change under a tie-break game: refused in the message, nothing changes
    typed(qtbot, view.result_entry, f"{first} 2 0")
    assert "请先删除加赛" in view.message.text()
    assert team_round_view(db, GROUP, 1).matches[first - 1].boards[1].result is GameResult.RED_WIN


def test_a_team_that_did_not_appear(qtbot, window: MainWindow) -> None:
    view = view_of(window, "team_matches")
    view.pair_button.click()
    view.seat_button.click()
    typed(qtbot, view.result_entry, "2 h absent")
    assert "局分 0:8，场分 0:2" in view.message.text()
    assert view.tree.topLevelItem(1).text(3) == "主队不到场，各台按弃权计"
    assert team_round_view(window.document.db, GROUP, 1).matches[1].home_absent
    window.document.undo_stack.undo()
    match = team_round_view(window.document.db, GROUP, 1).matches[1]
    assert not match.home_absent and match.score is not None and not match.score.decided
    typed(qtbot, view.result_entry, "2 客 不到场")  # as typed with a Chinese input method
    assert "局分 8:0，场分 2:0" in view.message.text()
    assert view.tree.topLevelItem(1).text(3) == "客队不到场，各台按弃权计"


def test_the_entry_lines_are_read_as_the_legend_says() -> None:
    assert parse_result_line("2 3 1") == ResultLine(2, 3, GameResult.RED_WIN)
    assert parse_result_line("2 31") == ResultLine(2, 3, GameResult.RED_WIN)
    assert parse_result_line("2 1 加 =") == ResultLine(2, 1, GameResult.DRAW, tie=True)
    assert parse_result_line("2 1 t 0 305") == ResultLine(2, 1, GameResult.BLACK_WIN, tie=True, red=305)
    assert parse_result_line("1，4，-") == ResultLine(1, 4, GameResult.RED_FORFEIT)
    assert parse_result_line("3 客 不到场") == ResultLine(3, side=Side.AWAY, absent=True)
    assert parse_result_line("3 h 到场") == ResultLine(3, side=Side.HOME, absent=False)
    assert parse_lineup_line("3 301 - 303 305") == ("3", ["301", None, "303", "305"])
    for bad in ("2", "2 x 1", "2 1 加 = x", "队 1 1"):
        with pytest.raises(UserError, match="场次 台次 结果"):
            parse_result_line(bad)
    with pytest.raises(UserError, match="队号 一台 二台"):
        parse_lineup_line("3")


def test_a_bad_line_is_refused_in_the_view(qtbot, window: MainWindow) -> None:
    view = view_of(window, "team_matches")
    view.pair_button.click()
    typed(qtbot, view.result_entry, "1 2 0")  # before the boards are set
    assert "尚未排定台次" in view.message.text() and view.result_entry.text() == "1 2 0"
    view.seat_button.click()
    typed(qtbot, view.result_entry, "1 9 0")
    assert "没有第 9 台" in view.message.text()
    assert not window.document.undo_stack.canUndo()


def test_undo_puts_a_board_result_back(qtbot, window: MainWindow) -> None:
    view = view_of(window, "team_matches")
    view.pair_button.click()
    view.seat_button.click()
    typed(qtbot, view.result_entry, "1 2 0")
    assert team_round_view(window.document.db, GROUP, 1).matches[0].boards[1].result is GameResult.BLACK_WIN
    assert board_texts(view, 1)[1][3] == "黑胜"
    window.document.undo_stack.undo()
    assert team_round_view(window.document.db, GROUP, 1).matches[0].boards[1].result is GameResult.PENDING
    assert board_texts(view, 1)[1][3] == ""


def test_team_standings_in_the_teams_view(qtbot, window: MainWindow) -> None:
    view = view_of(window, "team_matches")
    view.pair_button.click()
    view.seat_button.click()
    for board, key in ((1, "1"), (2, "0"), (3, "="), (4, "=")):  # home wins boards 1 and 2: 6:2
        typed(qtbot, view.result_entry, f"1 {board} {key}")
    assert "局分 6:2，场分 2:0（主队胜）" in view.message.text()
    home = team_round_view(window.document.db, GROUP, 1).matches[0].home
    teams = view_of(window, "teams")
    assert teams.event_table.isVisible() and teams.event_table.rowCount() == 4
    heads = [teams.event_table.horizontalHeaderItem(c).text() for c in range(teams.event_table.columnCount())]
    assert heads[:8] == ["名次", "队号", "队名", "场次", "胜", "和", "负", "场分"]
    assert teams.event_table.item(0, 2).text() == home
    assert teams.event_table.item(0, 7).text() == "2"  # 场分
    assert not teams.table.isVisible()


def test_the_settings_keep_a_team_competition_and_edit_the_team_ranking(qtbot, window: MainWindow) -> None:
    """Saving the settings keeps the group's team competition (its matches, boards, ladders); the team
    ranking method and its tie rules of an individual event are edited as their keys."""
    from PySide6.QtWidgets import QComboBox

    from app.engine.regulations import TeamMethod, TeamTie
    from app.services.tournaments import load_regulations

    db = window.document.db
    before = load_regulations(db).group(GROUP).team_event
    assert before is not None
    view = view_of(window, "settings")
    venue = view.editors["venue"]
    assert isinstance(venue, QLineEdit)
    venue.setText("团体赛场馆")
    method = view.editors["team.method"]
    assert isinstance(method, QComboBox)
    method.setCurrentIndex(method.findData(TeamMethod.POINTS))
    ties = view.editors["team.ties"]
    assert isinstance(ties, QLineEdit)
    ties.setText("member_points, best_place")
    assert view.save()
    reg = load_regulations(db)
    assert reg.venue == "团体赛场馆" and reg.group(GROUP).team_event == before
    assert reg.team.method is TeamMethod.POINTS
    assert reg.team.ties == (TeamTie.MEMBER_POINTS, TeamTie.BEST_PLACE)
    ties.setText("member_points, nonsense")
    assert not view.save()
    assert "nonsense" in view.message.text()
    assert load_regulations(db).team.ties == (TeamTie.MEMBER_POINTS, TeamTie.BEST_PLACE)
