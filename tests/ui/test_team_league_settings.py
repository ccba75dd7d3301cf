"""设置 → 组别 → 最后两轮互换: a team double round robin's ``swap_last_rounds`` (docs/teams.md §2) set in
the window by keys, saved with its reason through the regulation's checks, logged, shown in the 赛制
column, and locked once the league's round 1 is paired; off (—) for any other group."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QCheckBox, QLineEdit

from app.services.audit_text import audit_sentences
from app.services.team_demo import GROUP, create_team_demo
from app.services.team_events import pair_team_round
from app.services.tournaments import load_regulations
from app.ui.main_window import VIEWS, MainWindow

SWAP = 9  # the groups table's column


def _window(qtbot, path: Path, name: str) -> MainWindow:
    create_team_demo(path, name, teams=4, seed=5).close()
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(path)
    w.show()
    w.navigation.setCurrentRow([k for k, _ in VIEWS].index("settings"))
    return w


@pytest.fixture
def league(qtbot, tmp_path: Path) -> MainWindow:
    return _window(qtbot, tmp_path / "league.xqt", "team-double-round-robin")


def _reason(qtbot, box: QLineEdit, text: str) -> None:
    box.setFocus()
    box.clear()
    event = QInputMethodEvent()
    event.setCommitString(text)  # Chinese arrives as the input method commits it
    QApplication.sendEvent(box, event)
    assert box.text() == text


def _swap_box(w: MainWindow) -> QCheckBox:
    box = w.views["settings"].groups_table.cellWidget(0, SWAP)  # type: ignore[attr-defined]
    assert isinstance(box, QCheckBox)
    return box


def test_the_swap_is_set_by_keys_saved_logged_and_locked_once_begun(qtbot, league: MainWindow) -> None:
    view = league.views["settings"]
    table = view.groups_table  # type: ignore[attr-defined]
    assert table.horizontalHeaderItem(SWAP).text() == "最后两轮互换"
    box = _swap_box(league)
    assert box.isEnabled() and not box.isChecked()
    box.setFocus()
    qtbot.waitUntil(box.hasFocus, timeout=5000)
    qtbot.keyClick(box, Qt.Key.Key_Space)
    assert box.isChecked()
    assert "团体双循环（第一循环最后两轮互换）" in table.item(0, 5).text()  # shown before it is saved
    _reason(qtbot, view.reason, "领队会议决定按FIDE办法互换")  # type: ignore[attr-defined]
    view.save_button.setFocus()  # type: ignore[attr-defined]
    qtbot.keyClick(view.save_button, Qt.Key.Key_Space)  # type: ignore[attr-defined]

    event = load_regulations(league.document.db).group(GROUP).team_event
    assert event is not None and event.swap_last_rounds
    last = audit_sentences(league.document.db)[-1]
    assert f"{GROUP}第一循环最后两轮互换：否 → 是" in last.change_zh
    assert last.reason == "领队会议决定按FIDE办法互换"
    assert "团体双循环（第一循环最后两轮互换）" in table.item(0, 5).text()

    # round 1 paired: the order of play is fixed, the box locked (the service would refuse it too)
    pair_team_round(league.document.db, GROUP)
    view.refresh()  # type: ignore[attr-defined]
    box = _swap_box(league)
    assert box.isChecked() and not box.isEnabled()
    assert "不能再修改" in box.toolTip()
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Space)
    assert box.isChecked()
    assert view.save()  # type: ignore[attr-defined]  # nothing changed: 规程没有改动
    event = load_regulations(league.document.db).group(GROUP).team_event
    assert event is not None and event.swap_last_rounds


def test_the_swap_is_locked_for_a_single_round_robin(qtbot, tmp_path: Path) -> None:
    w = _window(qtbot, tmp_path / "single.xqt", "team-round-robin")
    box = _swap_box(w)
    assert not box.isEnabled() and not box.isChecked()
    assert box.toolTip() == "只用于团体双循环"
    event = load_regulations(w.document.db).group(GROUP).team_event
    assert event is not None and not event.swap_last_rounds
