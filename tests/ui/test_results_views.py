"""Standings, teams and prizes views: live through the document, undo, after-round, why-above, models."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, Qt

from app.engine.types import GameResult
from app.services.results import ResultEntry, enter_results
from app.services.rounds import round_view
from app.services.standings import group_standings, prize_list, team_standings
from app.ui.main_window import MainWindow
from app.ui.models.standings import PrizeTableModel, StandingsTableModel, TeamTableModel
from app.ui.undo import EnterResultCommand, perform
from app.ui.views.standings import StandingsView
from app.ui.views.teams import PrizesView, TeamsView

GROUP = "公开组"


def standings_view(window: MainWindow) -> StandingsView:
    view = window.show_view("standings")
    assert isinstance(view, StandingsView)
    return view


def row_of(view: StandingsView, no: int) -> list[str]:
    row = view.model.row_of(no)
    assert row is not None
    return [view.model.index(row, c).data() for c in range(view.model.columnCount())]


def test_headers_are_every_tiebreak_of_the_chain(window: MainWindow) -> None:
    view = standings_view(window)
    headers = [view.model.headerData(c, Qt.Orientation.Horizontal) for c in range(view.model.columnCount())]
    # tianshui chain: 对手分 胜局 犯规 后走局数 后走胜局 前轮成绩 (the last has no column of its own)
    assert headers == [
        "名次",
        "序号",
        "姓名",
        "单位",
        "积分",
        "对手分",
        "胜局",
        "犯规",
        "后走局数",
        "后走胜局",
        "区分依据",
    ]
    assert view.model.rowCount() == 120
    assert "积分、对手分、胜局、犯规、后走局数、后走胜局、前轮成绩、序号" in view.footnote.text()


def test_standings_are_after_the_last_complete_round_and_follow_the_last_result(window: MainWindow) -> None:
    view = standings_view(window)
    document = window.document
    assert document is not None
    # round 2 is paired, not played: the standings are after round 1 and say so
    assert view.after_round == 1
    assert view.title.text() == "公开组 第 1 轮后名次"
    assert "第 2 轮尚未全部结束" in view.round_note.text()
    boards = round_view(document.db, GROUP, 2).boards
    enter_results(document.db, GROUP, 2, [ResultEntry(b.board, GameResult.DRAW) for b in boards[:-1]])
    document.notify()
    assert view.after_round == 1  # 59 of 60 results: still after round 1
    board = boards[-1]
    red, black = board.red.no, board.black.no
    before_red, before_black = row_of(view, red), row_of(view, black)
    perform(document, EnterResultCommand(document, GROUP, 2, board.board, GameResult.RED_WIN))
    # the last result of round 2: the standings move to after round 2 by themselves
    assert view.after_round == 2 and view.title.text() == "公开组 第 2 轮后名次"
    assert not view.round_note.isVisible()
    after_red = row_of(view, red)
    # a win is 2 points: the red player's score column went up by exactly 2, black's did not change
    assert int(after_red[4]) == int(before_red[4]) + 2
    assert int(row_of(view, black)[4]) == int(before_black[4])
    expected = group_standings(document.db, GROUP, 2)
    assert [view.model.line(r).no for r in range(10)] == [line.no for line in expected.lines[:10]]
    document.undo_stack.undo()
    assert view.after_round == 1
    assert row_of(view, red) == before_red
    assert row_of(view, black) == before_black
    document.undo_stack.redo()
    assert row_of(view, red) == after_red


def test_after_round_selector(window: MainWindow) -> None:
    view = standings_view(window)
    assert [view.round_box.itemData(i) for i in range(view.round_box.count())] == [0, 1, 2]
    assert view.round_box.itemText(2) == "第 2 轮后（未完）"
    assert view.after_round == 1
    view.set_after_round(0)
    assert {view.model.index(r, 4).data() for r in range(view.model.rowCount())} == {"0"}
    # before any round the order is by sequence number; never "after round 0"
    assert [view.model.line(r).no for r in range(5)] == [1, 2, 3, 4, 5]
    assert "第 0 轮" not in view.title.text() and "赛前" in view.title.text()
    view.set_after_round(2)  # asked for explicitly: shown, marked provisional
    assert "暂列" in view.title.text() and "60 台未录入" in view.title.text()
    view.set_after_round(1)
    assert max(int(view.model.index(r, 4).data()) for r in range(view.model.rowCount())) == 2
    assert view.model.standings is not None and view.model.standings.after_round == 1


def test_why_above_for_two_selected_rows(window: MainWindow) -> None:
    view = standings_view(window)
    view.set_after_round(1)
    assert not view.why_button.isEnabled()
    upper, lower = view.model.line(0).no, view.model.line(1).no
    selection = view.table.selectionModel()

    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    selection.select(view.model.index(0, 0), flags)
    selection.select(view.model.index(1, 0), flags)
    assert view.why_button.isEnabled()
    view.why_button.click()
    assert f"{upper} 号排在 {lower} 号之前" in view.message.text()


def test_final_toggle_is_disabled_with_the_service_reason(window: MainWindow) -> None:
    view = standings_view(window)
    assert not view.final_box.isEnabled()
    assert view.final_box.toolTip() == "最终名次在第 11 轮（最后一轮）结束后产生"


def test_teams_and_prizes_views_show_the_services(window: MainWindow) -> None:
    document = window.document
    assert document is not None
    teams = window.show_view("teams")
    assert isinstance(teams, TeamsView)
    expected = team_standings(document.db, GROUP).ranking
    assert teams.model.rowCount() == len(expected.rows)
    first = expected.rows[0]
    assert teams.model.index(0, 1).data() == first.team
    assert teams.model.index(0, 3).data() == str(first.total)
    assert teams.model.index(0, 2).data().count("（") == len(first.members)
    if expected.unranked:
        assert expected.unranked[0].team in teams.unranked.text()
    document.set_group("天水本地组")
    assert teams.table.isHidden()
    assert "不设团体" in teams.message.text()

    prizes = window.show_view("prizes")
    assert isinstance(prizes, PrizesView)
    value = prize_list(document.db).prizes
    assert prizes.model.rowCount() == sum(len(t.lines) + 1 for t in value.tables)
    assert prizes.model.index(0, 4).data() == "10,000"
    assert prizes.model.is_total_row(24) and prizes.model.index(24, 4).data() == "27,800"
    assert "奖金总额 38,700 元" in prizes.totals.text()


def test_models_pass_qtmodeltester(qtmodeltester, window: MainWindow) -> None:
    document = window.document
    assert document is not None
    standings = StandingsTableModel()
    standings.set_standings(group_standings(document.db, GROUP))
    qtmodeltester.check(standings)
    teams = TeamTableModel()
    teams.set_teams(team_standings(document.db, GROUP))
    qtmodeltester.check(teams)
    prizes = PrizeTableModel()
    prizes.set_prizes(prize_list(document.db))
    qtmodeltester.check(prizes)


def test_why_above_speaks_the_window_language(window: MainWindow) -> None:
    from app.ui.i18n import install_language
    from app.ui.views.standings import StandingsView

    view = window.show_view("standings")
    assert isinstance(view, StandingsView)
    first, second = view.model.line(0).no, view.model.line(1).no
    assert view.explain(first, second).startswith(f"{first} 号排在 {second} 号之前")
    install_language("en")
    try:
        assert view.explain(first, second).startswith(f"No. {first} ranks above no. {second}")
    finally:
        install_language("zh")


def test_the_prizes_view_uses_the_whole_table_width_and_says_what_is_provisional(
    qtbot, window: MainWindow
) -> None:
    view = window.show_view("prizes")
    assert isinstance(view, PrizesView)
    qtbot.waitUntil(lambda: view.table.isVisible() and view.table.viewport().width() > 300)
    header = view.table.horizontalHeader()
    assert header.length() >= view.table.viewport().width() - 1  # no empty half on the right
    assert "公开组：暂列：按第 1 轮后名次" in view.message.text()


def test_a_finished_group_shows_its_final_ranking_explained(qtbot, played_demo: Path) -> None:
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.open_file(played_demo)
    window.show()
    view = standings_view(window)
    assert view.final_box.isChecked() and view.title.text() == "公开组 最终名次"
    separated = view.model.headerData(view.model.columnCount() - 1, Qt.Orientation.Horizontal)
    assert separated == "区分依据"
    column = view.model.columnCount() - 1
    assert view.model.index(0, column).data() == "决赛胜出"
    assert "淘汰赛" in view.model.index(7, column).data()
    eighth, ninth = view.model.line(7).no, view.model.line(8).no
    assert "进入前 8 名淘汰赛" in view.explain(eighth, ninth)
    view.final_box.setChecked(False)  # the arbiter may still look at the Swiss standings
    assert view.title.text() == "公开组 第 11 轮后名次"
