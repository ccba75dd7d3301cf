"""The 团体赛 view's roster editor and line-up deadline, driven by real key events sent to the focused
widget: roster steps by key, each refusal naming its rule, undo and redo; keys typed while the editor is
opening change nothing; the deadline shown against an injected clock, a late line-up refused unless the
arbiter gives a reason (logged), and a late team seated by the regulation's default."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QLineEdit, QTableView, QWidget

from app.engine.regulations import RoundTime
from app.services import audit
from app.services.team_demo import GROUP, create_team_demo
from app.services.team_events import pair_team_round, team_round_view, teams_of
from app.services.tournaments import load_regulations, update_regulations
from app.ui.dialogs.late_lineup import LateLineupDialog
from app.ui.dialogs.team_roster import TeamRosterDialog
from app.ui.main_window import VIEWS, MainWindow
from app.ui.views.team_matches import TeamMatchesView
from app.ui.widgets.key_guard import keys_guarded
from tests.ui.questions import when_asked

START = datetime(2024, 7, 26, 14, 0)  # round 1's start: line-ups due 13:30


def close_roster_editors() -> None:
    """Close a roster editor a test left open, and delete it now.

    The editor is window-modal over the window: closing the window at the test's end (pytest-qt)
    neither closes it nor deletes it (``deleteLater`` waits for an event loop that processEvents is
    not), so the next test in the same worker began with it still modal — answering it in place of
    its own question, or finding it on screen."""
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, TeamRosterDialog):
            widget.reject()  # its finished handler forgets it and deletes it later …
            widget.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # … that is, now


@pytest.fixture
def window(qtbot, tmp_path: Path) -> Iterator[MainWindow]:
    path = tmp_path / "league.xqt"
    db = create_team_demo(path, "team-round-robin", teams=4, seed=5)
    reg = load_regulations(db)
    g = reg.groups[0]
    assert g.team_event is not None
    event = dataclasses.replace(
        g.team_event, match=dataclasses.replace(g.team_event.match, lineup_deadline=30)
    )
    update_regulations(
        db,
        dataclasses.replace(
            reg, groups=(dataclasses.replace(g, team_event=event),), schedule=(RoundTime(1, START),)
        ),
    )
    db.close()
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(path)
    w.show()
    yield w
    close_roster_editors()


def team_view(w: MainWindow) -> TeamMatchesView:
    w.navigation.setCurrentRow([k for k, _ in VIEWS].index("team_matches"))
    view = w.views["team_matches"]
    assert isinstance(view, TeamMatchesView)
    return view


def open_editor(qtbot, view: TeamMatchesView) -> TeamRosterDialog:
    view.lineup_entry.setFocus()
    qtbot.keyClick(view.lineup_entry, Qt.Key.Key_F6)
    dialog = view.roster_dialog
    assert isinstance(dialog, TeamRosterDialog) and dialog.isVisible()
    return dialog


def settled(qtbot, dialog: QWidget) -> None:
    """Wait until the editor takes keys (the guard against keys typed while it opened is over)."""
    qtbot.waitUntil(lambda: not keys_guarded(), timeout=5000)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow, timeout=5000)


def roster(w: MainWindow, team: int = 0) -> list[tuple[str, int | None, bool]]:
    t = teams_of(w.document.db, GROUP)[team]
    return [(p.name, p.no, p.reserve) for p in t.roster]


def keys(qtbot, box: QLineEdit, text: str) -> None:
    """Key presses for ASCII; Chinese arrives as the input method commits it."""
    for part in re.split(r"([^\x00-\x7f]+)", text):
        if part.isascii():
            qtbot.keyClicks(box, part)
        else:
            event = QInputMethodEvent()
            event.setCommitString(part)
            QApplication.sendEvent(box, event)


def typed(qtbot, box: QLineEdit, text: str) -> None:
    box.setFocus()
    box.clear()
    keys(qtbot, box, text)
    assert box.text() == text
    qtbot.keyClick(box, Qt.Key.Key_Return)


def test_the_roster_editor_by_keys(qtbot, window: MainWindow) -> None:
    view = team_view(window)
    start = roster(window)
    dialog = open_editor(qtbot, view)
    # keys typed faster than the editor opened: thrown away, nothing changes
    dialog.table.setFocus()
    dialog.table.selectRow(1)
    for key, mods in (
        (Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_Delete, Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier),
    ):
        qtbot.keyClick(dialog.table, key, mods)
    assert roster(window) == start
    settled(qtbot, dialog)
    dialog.table.setFocus()
    dialog.table.selectRow(1)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    moved = roster(window)
    assert [n for n, _, _ in moved] == [start[1][0], start[0][0], *[n for n, _, _ in start[2:]]]
    assert [no for _, no, _ in moved] == [no for _, no, _ in start]  # numbers follow the order
    assert dialog.table.currentRow() == 0 and dialog.table.item(0, 2).text() == start[1][0]
    # the reserve cannot climb above the main players: refused, the rule named
    dialog.table.selectRow(4)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert "替补排在主力队员之后" in dialog.message.text()
    # Ctrl+R: a main player becomes the first reserve
    dialog.table.selectRow(0)
    qtbot.keyClick(dialog.table, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert [r for _, _, r in roster(window)] == [False, False, False, True, True]
    # Delete takes a player out; a second Delete would leave fewer than the regulation's 4: refused
    out = roster(window)[4][0]
    dialog.table.selectRow(4)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Delete)
    assert len(roster(window)) == 4
    dialog.table.selectRow(0)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Delete)
    assert len(roster(window)) == 4 and "规程规定每队报名 4–6 人" in dialog.message.text()
    # a player of another team cannot be added: one team a player
    other = roster(window, 1)[0][0]
    qtbot.keyClick(dialog.table, Qt.Key.Key_Insert)
    assert dialog.add_edit.hasFocus()
    keys(qtbot, dialog.add_edit, other)
    qtbot.keyClick(dialog.add_edit, Qt.Key.Key_Return)
    assert "一名棋手不能为两个队报名" in dialog.message.text()
    assert len(roster(window)) == 4
    typed(qtbot, dialog.add_edit, out)
    assert [n for n, _, _ in roster(window)][3] == out and len(roster(window)) == 5
    # captain by name, Enter to take it
    typed(qtbot, dialog.captain_edit, "王队长")
    assert teams_of(window.document.db, GROUP)[0].captain == "王队长"
    # Ctrl+Z from inside the editor, step by step; Ctrl+Y again
    dialog.table.setFocus()
    qtbot.keyClick(dialog.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert teams_of(window.document.db, GROUP)[0].captain != "王队长"
    assert "已撤销" in dialog.message.text()
    qtbot.keyClick(dialog.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(roster(window)) == 4
    qtbot.keyClick(dialog.table, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert len(roster(window)) == 5
    for _ in range(4):  # add, remove, reserve, move: all undone
        window.document.undo_stack.undo()
    assert roster(window) == start
    actions = [line.action for line in audit.audit_log(window.document.db)]
    assert {"team_roster_move", "team_roster_reserve", "team_roster_remove", "team_roster_add"} <= set(
        actions
    )
    assert actions.count("restore_team_rosters") >= 5
    # only names on screen: no ID or phone number column
    heads = [dialog.table.horizontalHeaderItem(c).text() for c in range(dialog.table.columnCount())]
    assert heads == ["顺序", "序号", "姓名", "替补", "状态"]
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert view.roster_dialog is None


def test_team_number_and_name_by_keys(qtbot, window: MainWindow) -> None:
    view = team_view(window)
    dialog = open_editor(qtbot, view)
    settled(qtbot, dialog)
    first, second = teams_of(window.document.db, GROUP)[:2]
    dialog.number_edit.setFocus()
    dialog.number_edit.selectAll()
    qtbot.keyClicks(dialog.number_edit, "2")
    qtbot.keyClick(dialog.number_edit, Qt.Key.Key_Return)
    numbers = {t.name: t.no for t in teams_of(window.document.db, GROUP)}
    assert (numbers[first.name], numbers[second.name]) == (2, 1)
    typed(qtbot, dialog.name_edit, "天水一队")
    assert "天水一队" in {t.name for t in teams_of(window.document.db, GROUP)}
    qtbot.keyClick(dialog.name_edit, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(dialog.name_edit, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert {t.name: t.no for t in teams_of(window.document.db, GROUP)}[first.name] == 1


def test_the_roster_is_fixed_once_round_one_is_paired(qtbot, window: MainWindow) -> None:
    view = team_view(window)
    pair_team_round(window.document.db, GROUP, seed=1)
    window.document.notify()
    start = roster(window)
    dialog = open_editor(qtbot, view)
    settled(qtbot, dialog)
    dialog.table.setFocus()
    dialog.table.selectRow(1)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert "第 1 轮编排后报名顺序和队号不再改变" in dialog.message.text()
    assert roster(window) == start


def test_the_deadline_in_the_view_and_a_late_line_up(qtbot, window: MainWindow) -> None:
    view = team_view(window)
    view.clock = lambda: datetime(2024, 7, 26, 12, 50)
    view.pair_button.click()
    assert "排阵截止 7月26日 13:30（赛前 30 分钟），还有 40 分钟" in view.deadline_label.text()
    db = window.document.db
    m = team_round_view(db, GROUP, 1).matches[0]
    home = next(t for t in teams_of(db, GROUP) if t.name == m.home)
    away = next(t for t in teams_of(db, GROUP) if t.name == m.away)
    typed(qtbot, view.lineup_entry, f"{home.no} " + " ".join(str(p.no) for p in home.roster[:4]))
    assert "排阵已收" in view.message.text()
    # the clock moves past the deadline: the label says so; a line-up now asks for a reason
    view.clock = lambda: datetime(2024, 7, 26, 13, 45)
    view._show_deadline()
    assert "已过 15 分钟" in view.deadline_label.text()
    chosen = [away.roster[i].no for i in (0, 1, 2, 4)]
    line = f"{away.no} " + " ".join(str(n) for n in chosen)

    seen: list[str] = []

    def refuse(dialog: QWidget) -> None:
        if seen:  # the next question is not this helper's (its poll may still be running)
            return
        assert isinstance(dialog, LateLineupDialog)
        seen.append(dialog.findChildren(type(view.message))[0].text())
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return)  # Enter without a reason: still asking
        assert dialog.isVisible()
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Escape)

    problems = when_asked(refuse)
    typed(qtbot, view.lineup_entry, line)
    assert problems == [] and "赛前 30 分钟提交出场名单" in seen[0]
    assert "迟交" in view.message.text() and view.lineup_entry.text() == line
    assert team_round_view(db, GROUP, 1).matches[0].lineups_in == (True, False)
    qtbot.wait(300)  # the first helper has seen its question go

    def accept(dialog: QWidget) -> None:
        assert isinstance(dialog, LateLineupDialog)
        qtbot.keyClicks(dialog.reason, "abc")
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return)

    problems = when_asked(accept)
    qtbot.keyClick(view.lineup_entry, Qt.Key.Key_Return)
    assert problems == []
    assert "经裁判长放行：abc" in view.message.text()
    entry = audit.audit_log(db, action="hand_in_lineup")[-1]
    assert entry.reason == "abc" and "已过 15 分钟" in json.loads(entry.after)["late"]


def test_a_late_team_is_seated_by_the_regulations_default(qtbot, window: MainWindow) -> None:
    view = team_view(window)
    view.clock = lambda: datetime(2024, 7, 26, 13, 40)
    view.pair_button.click()
    view.seat_button.click()
    assert "未在排阵截止前交排阵，按报名顺序上场" in view.message.text()
    db = window.document.db
    m = team_round_view(db, GROUP, 1).matches[0]
    away = next(t for t in teams_of(db, GROUP) if t.name == m.away)
    assert [b.away.no for b in m.boards] == [p.no for p in away.roster[:4]]
    assert QApplication.activeModalWidget() is None


def test_the_settings_show_the_deadline_with_the_team_settings(qtbot, window: MainWindow) -> None:
    window.navigation.setCurrentRow([k for k, _ in VIEWS].index("settings"))
    table = window.views["settings"].groups_table  # type: ignore[attr-defined]
    assert "赛前 30 分钟交排阵" in table.item(0, 5).text()


def test_the_deadline_is_edited_in_the_settings_and_logged(qtbot, window: MainWindow) -> None:
    """设置 → 组别: the team group's 排阵截止 column takes the minutes by keys (0 = none, at most 1440);
    saved through the regulation's checks, written to the audit log with the old and new deadline, and
    still changeable once round 1 is paired (for the rounds to come)."""
    from PySide6.QtWidgets import QSpinBox

    from app.services.audit_text import audit_sentences

    window.navigation.setCurrentRow([k for k, _ in VIEWS].index("settings"))
    view = window.views["settings"]
    spin = view.groups_table.cellWidget(0, 8)  # type: ignore[attr-defined]
    assert isinstance(spin, QSpinBox) and spin.isEnabled() and spin.value() == 30
    assert spin.maximum() == 1440  # the loader's bound: a day before the round at most
    pair_team_round(window.document.db, GROUP)  # round 1: a begun league keeps its format, not its deadline
    view.refresh()  # type: ignore[attr-defined]
    spin = view.groups_table.cellWidget(0, 8)  # type: ignore[attr-defined]
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "45")
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    typed(qtbot, view.reason, "裁判组会议改为赛前45分钟")  # type: ignore[attr-defined]
    view.save_button.setFocus()  # type: ignore[attr-defined]
    qtbot.keyClick(view.save_button, Qt.Key.Key_Space)  # type: ignore[attr-defined]
    g = load_regulations(window.document.db).groups[0]
    assert g.team_event is not None and g.team_event.match.lineup_deadline == 45
    assert "赛前 45 分钟交排阵" in view.groups_table.item(0, 5).text()  # type: ignore[attr-defined]
    last = audit_sentences(window.document.db)[-1]
    assert "排阵截止：赛前 30 分钟 → 赛前 45 分钟" in last.change_zh
    assert last.reason == "裁判组会议改为赛前45分钟"
    # 0 is 不设截止; the box cannot go past 1440
    spin = view.groups_table.cellWidget(0, 8)  # type: ignore[attr-defined]
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "9999")
    assert spin.value() <= 1440
    spin.selectAll()
    qtbot.keyClicks(spin, "0")
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    assert spin.text() == "不设截止"
    assert view.save()  # type: ignore[attr-defined]
    g = load_regulations(window.document.db).groups[0]
    assert g.team_event is not None and g.team_event.match.lineup_deadline == 0
    assert "排阵截止：赛前 45 分钟 → 不设" in audit_sentences(window.document.db)[-1].change_zh


def test_the_roster_editor_from_registration_and_the_teams_view(qtbot, window: MainWindow) -> None:
    """编辑 → 队伍名单 (F6) opens the one roster editor from the registration view (also its button) and
    from the 团体 view, not only from 团体赛; a step taken there is a step of the same undo stack; the
    action is off for a group that is no team competition."""
    window.navigation.setCurrentRow([k for k, _ in VIEWS].index("players"))
    players = window.views["players"]
    assert players.buttons["rosters"].isVisible()  # type: ignore[attr-defined]
    assert window.roster_action.isEnabled() and window.roster_action.shortcut().toString() == "F6"
    assert window.roster_action in window.edit_menu.actions()
    players.table.setFocus()  # type: ignore[attr-defined]
    qtbot.keyClick(players.table, Qt.Key.Key_F6)  # type: ignore[attr-defined]
    dialog = players.roster_dialog  # type: ignore[attr-defined]
    assert isinstance(dialog, TeamRosterDialog) and dialog.isVisible() and dialog.parent() is players
    settled(qtbot, dialog)
    start = roster(window)
    dialog.table.setFocus()
    dialog.table.selectRow(1)
    qtbot.keyClick(dialog.table, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert [n for n, _, _ in roster(window)][:2] == [start[1][0], start[0][0]]
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: players.roster_dialog is None, timeout=5000)  # type: ignore[attr-defined]
    window.undo_action.trigger()  # the window's undo takes the editor's step back
    assert roster(window) == start
    # the 团体 view (team standings) has no editor of its own: the window opens the same one over it
    window.navigation.setCurrentRow([k for k, _ in VIEWS].index("teams"))
    teams = window.views["teams"]
    table = teams.findChildren(QTableView)[0]
    window.activateWindow()  # back from the editor: the window takes keys again
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_F6)
    opened = [w for w in teams.findChildren(TeamRosterDialog) if w.isVisible()]
    assert len(opened) == 1
    settled(qtbot, opened[0])
    qtbot.keyClick(opened[0], Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not opened[0].isVisible(), timeout=5000)


def test_no_roster_editor_for_an_individual_group(qtbot, tmp_path: Path) -> None:
    from app.services.demo import create_demo

    path = tmp_path / "open.xqt"
    create_demo(path, seed=3).close()
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(path)
    w.show()
    assert not w.roster_action.isEnabled()
    w.navigation.setCurrentRow([k for k, _ in VIEWS].index("players"))
    players = w.views["players"]
    assert not players.buttons["rosters"].isVisible()  # type: ignore[attr-defined]
    players.edit_rosters()  # type: ignore[attr-defined]
    assert players.roster_dialog is None  # type: ignore[attr-defined]


def test_a_line_up_handed_in_is_undone_and_redone_exactly(qtbot, window: MainWindow) -> None:
    """排阵 goes on the window's undo stack like a result: Ctrl+Z puts back exactly the line-up stored
    before (its boards, who handed it in and when, how it was made) and re-seats the boards; Ctrl+Y puts
    back the one handed in; a late line-up accepted with a reason is undone the same way; each step is in
    the audit log (恢复排阵, marked as an undo or a redo)."""
    from app.services.team_events import lineup_record

    view = team_view(window)
    db = window.document.db
    view.clock = lambda: datetime(2024, 7, 26, 12, 50)
    view.pair_button.click()
    m = team_round_view(db, GROUP, 1).matches[0]
    home = next(t for t in teams_of(db, GROUP) if t.name == m.home)
    team = str(home.no)
    assert lineup_record(db, GROUP, 1, team) is None
    typed(qtbot, view.lineup_entry, f"{team} " + " ".join(str(p.no) for p in home.roster[:4]))
    first = lineup_record(db, GROUP, 1, team)
    assert first is not None and first.handed_in_at == datetime(2024, 7, 26, 12, 50)
    view.seat_button.click()  # the boards are set from the line-ups
    seated_first = [(b.home.no if b.home else None) for b in team_round_view(db, GROUP, 1).matches[0].boards]
    view.clock = lambda: datetime(2024, 7, 26, 13, 5)
    second_nos = [home.roster[i].no for i in (0, 1, 2, 4)]  # the reserve comes in on board 4
    typed(qtbot, view.lineup_entry, f"{team} " + " ".join(str(n) for n in second_nos))
    second = lineup_record(db, GROUP, 1, team)
    assert second is not None and list(second.boards) == second_nos
    assert second.handed_in_at == datetime(2024, 7, 26, 13, 5)

    def boards_now() -> list[int | None]:
        return [(b.home.no if b.home else None) for b in team_round_view(db, GROUP, 1).matches[0].boards]

    assert boards_now() != seated_first
    # Ctrl+Z from the window (the navigation list holds the focus; the entry box has its own undo)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    window.navigation.setFocus()
    qtbot.keyClick(window.navigation, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lineup_record(db, GROUP, 1, team) == first  # exactly: boards, method, by, at
    assert boards_now() == seated_first  # the boards follow the line-up put back
    qtbot.keyClick(window.navigation, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert lineup_record(db, GROUP, 1, team) == second
    lines = audit.audit_log(db, action="restore_lineup")
    assert [line.reason[:2] for line in lines] == [audit.UNDO_MARK[:2], audit.REDO_MARK[:2]]
    # a late line-up accepted with a reason: undone to the one before, the deadline not asked again
    view.clock = lambda: datetime(2024, 7, 26, 13, 45)
    view._show_deadline()

    def accept(dialog: QWidget) -> None:
        assert isinstance(dialog, LateLineupDialog)
        qtbot.keyClicks(dialog.reason, "abc")
        qtbot.keyClick(dialog.reason, Qt.Key.Key_Return)

    problems = when_asked(accept)
    typed(qtbot, view.lineup_entry, f"{team} " + " ".join(str(p.no) for p in home.roster[:4]))
    assert problems == [] and "经裁判长放行：abc" in view.message.text()
    late = lineup_record(db, GROUP, 1, team)
    assert late is not None and late.handed_in_at == datetime(2024, 7, 26, 13, 45)
    window.document.undo_stack.undo()
    assert lineup_record(db, GROUP, 1, team) == second
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()  # the boards set, then the first line-up: none again
    window.document.undo_stack.undo()
    assert lineup_record(db, GROUP, 1, team) is None


def test_an_editor_left_open_is_gone_when_the_test_ends(qtbot, window: MainWindow) -> None:
    """The cleanup of this file's window: a roster editor left open (as two tests here leave it) is
    closed and deleted, so the next test in the worker finds no modal dialog."""
    dialog = open_editor(qtbot, team_view(window))
    assert QApplication.activeModalWidget() is dialog
    close_roster_editors()
    assert not [w for w in QApplication.topLevelWidgets() if isinstance(w, TeamRosterDialog)]
    assert QApplication.activeModalWidget() is None
