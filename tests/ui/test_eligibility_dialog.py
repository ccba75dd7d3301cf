"""The 参赛条件 dialog edits a group's conditions of entry by the keyboard, from the settings view's group
row: what it keeps is what the regulation loader reads, saved with the group; a bad value is refused with
the loader's message and nothing is saved; Esc changes nothing; players already entered who fall outside
are counted, never removed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton, QWidget

from app.engine.eligibility import Eligibility, Sex
from app.engine.formats import legacy_stages
from app.engine.registration import PlayerEntry
from app.engine.regulations import GroupFormat, preset
from app.engine.types import UserError
from app.services.registration import add_player, list_players
from app.services.snapshot import import_snapshot, read_snapshot_file, write_snapshot_file
from app.services.tournaments import create_tournament, load_regulations
from app.ui.dialogs.eligibility import EligibilityDialog, split_list
from app.ui.document import TournamentDocument
from tests.idnumbers import make_id
from tests.ui.questions import when_asked

JUNIORS = "少儿组"
BEFORE = datetime(2024, 7, 20, 10, 0)


@pytest.fixture
def doc(tmp_path: Path) -> Iterator[TournamentDocument]:
    base = preset("tianshui-2024")
    reg = dataclasses.replace(
        base,
        groups=(base.groups[0], GroupFormat(JUNIORS, False, legacy_stages(7, 7, 0))),
        prizes=tuple(t for t in base.prizes if t.group == base.groups[0].name),
    )
    path = tmp_path / "t.xqt"
    db = create_tournament(path, regulations=reg)
    add_player(db, _entry(date(1990, 5, 5), 1), now=BEFORE)  # an adult, entered while the group was open
    add_player(db, _entry(date(2009, 5, 5), 2), now=BEFORE)
    db.close()
    document = TournamentDocument.open(path)
    yield document
    document.close()


def _entry(birth: date, serial: int) -> PlayerEntry:
    return PlayerEntry(
        name=f"棋手{chr(0x4E00 + serial)}",
        id_number=make_id(birth, serial=serial),
        phone="13912345678",
        group=JUNIORS,
    )


def _settings(qtbot: Any, doc: TournamentDocument) -> Any:
    from app.ui.views.settings import SettingsView

    view = SettingsView(doc)
    qtbot.addWidget(view)
    view.show()
    return view


def _type(qtbot: Any, line: QLineEdit, text: str) -> None:
    """Into the field by the keyboard: focus, select what is there, type, Tab on."""
    line.setFocus()
    qtbot.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(line, text)
    qtbot.keyClick(line, Qt.Key.Key_Tab)


def _focused_key(qtbot: Any, key: Qt.Key) -> None:
    widget = QApplication.focusWidget()
    assert widget is not None
    qtbot.keyClick(widget, key)


def _open_conditions(qtbot: Any, view: Any, row: int, action: Any) -> list[str]:
    button = view.groups_table.cellWidget(row, 7)
    assert isinstance(button, QPushButton) and button.text() == "参赛条件……"
    problems = when_asked(action)
    button.click()  # modal: returns when the action has closed it
    return problems


def test_a_birth_range_and_a_rank_limit_by_keys_are_saved_and_refuse_an_adult(
    qtbot: Any, doc: TournamentDocument
) -> None:
    view = _settings(qtbot, doc)
    seen: dict[str, str] = {}

    def fill(dialog: QWidget) -> None:
        assert isinstance(dialog, EligibilityDialog)
        assert QApplication.focusWidget() is dialog.fields["born_from"]  # keyboard-first: the first field
        _type(qtbot, dialog.fields["born_from"], "2007-01-01")
        _type(qtbot, dialog.fields["born_to"], "2010-12-31")
        _type(qtbot, dialog.fields["max_rank"], "500")
        dialog.fields["units"].setFocus()
        dialog.fields["units"].insert("天水一中、秦州区少体校")  # QtTest cannot type Chinese
        seen["warning"] = dialog.warning.text()
        seen["summary"] = dialog.summary.text()
        dialog.fields["units"].clear()
        dialog.fields["max_age"].setFocus()
        _focused_key(qtbot, Qt.Key.Key_Return)  # OK

    problems = _open_conditions(qtbot, view, 1, fill)
    assert problems == []
    # both entered players fall outside (the adult by birth, both by rank): counted, not removed
    assert "2 名棋手不符合" in seen["warning"]
    assert (
        "2007-01-01 至 2010-12-31 出生" in seen["summary"]
        and "限单位 天水一中、秦州区少体校" in seen["summary"]
    )
    assert "2 名棋手不符合新的参赛条件" in view.message.text()
    assert view.save()
    expected = Eligibility(born_from=date(2007, 1, 1), born_to=date(2010, 12, 31), max_rank=500)
    assert load_regulations(doc.db).group(JUNIORS).eligibility == expected
    assert len(list_players(doc.db, JUNIORS)) == 2  # nobody removed
    with pytest.raises(UserError) as info:
        add_player(doc.db, dataclasses.replace(_entry(date(1995, 3, 3), 3), rating_rank=10), now=BEFORE)
    assert (
        "不符合少儿组的参赛资格：出生日期须在 2007-01-01 至 2010-12-31 之间（生于 1995-03-03）"
        in info.value.zh
    )
    with pytest.raises(UserError, match="等级分排名须在前 500 名以内（无排名）"):
        add_player(doc.db, _entry(date(2008, 3, 3), 4), now=BEFORE)
    add_player(doc.db, dataclasses.replace(_entry(date(2008, 3, 3), 5), rating_rank=12), now=BEFORE)


def test_the_conditions_survive_reopening_and_a_snapshot(
    qtbot: Any, doc: TournamentDocument, tmp_path: Path
) -> None:
    view = _settings(qtbot, doc)

    def fill(dialog: QWidget) -> None:
        assert isinstance(dialog, EligibilityDialog)
        _type(qtbot, dialog.fields["min_rating"], "1500")
        dialog.sex.setFocus()
        _focused_key(qtbot, Qt.Key.Key_Down)  # 不限 → 男
        _focused_key(qtbot, Qt.Key.Key_Down)  # → 女
        dialog.fields["regions"].insert("6205，秦州区")
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()

    assert _open_conditions(qtbot, view, 1, fill) == []
    assert view.save()
    expected = Eligibility(sex=Sex.FEMALE, min_rating=1500, regions=("6205", "秦州区"))
    path = doc.path
    doc.close()
    again = TournamentDocument.open(path)
    try:
        assert load_regulations(again.db).group(JUNIORS).eligibility == expected
        reopened = _settings(qtbot, again)
        assert reopened.current_groups()[1].eligibility == expected  # the row keeps them
        snapshot = tmp_path / "s.json"
        write_snapshot_file(again.db, snapshot)
        restored = import_snapshot(read_snapshot_file(snapshot), tmp_path / "restored.xqt")
        assert load_regulations(restored).group(JUNIORS).eligibility == expected
        restored.close()
    finally:
        again.close()


@pytest.mark.parametrize(
    ("field", "text", "shown"),
    [
        ("born_from", "2011-01-01", "出生日期范围的起点晚于终点"),
        ("min_rating", "-5", "不能为负数"),
        ("born_to", "2010-13-01", "的日期“2010-13-01”无效"),
    ],
)
def test_a_bad_value_is_refused_with_the_loaders_message_and_nothing_is_saved(
    qtbot: Any, doc: TournamentDocument, field: str, text: str, shown: str
) -> None:
    view = _settings(qtbot, doc)
    seen: dict[str, Any] = {}

    def fill(dialog: QWidget) -> None:
        assert isinstance(dialog, EligibilityDialog)
        _type(qtbot, dialog.fields["born_to"], "2010-12-31")
        _type(qtbot, dialog.fields[field], text)
        seen["message"] = dialog.message.text()
        _focused_key(qtbot, Qt.Key.Key_Return)  # OK refused: the dialog stays, the message too
        seen["still_open"] = dialog.isVisible()
        seen["after_ok"] = dialog.message.text()
        _focused_key(qtbot, Qt.Key.Key_Escape)

    assert _open_conditions(qtbot, view, 1, fill) == []
    assert shown in seen["message"] and seen["after_ok"] == seen["message"]
    assert seen["still_open"]
    assert view.current_groups()[1].eligibility == Eligibility()
    assert view.save()  # nothing changed
    assert load_regulations(doc.db).group(JUNIORS).eligibility == Eligibility()


def test_escape_changes_nothing(qtbot: Any, doc: TournamentDocument) -> None:
    view = _settings(qtbot, doc)

    def fill(dialog: QWidget) -> None:
        assert isinstance(dialog, EligibilityDialog)
        _type(qtbot, dialog.fields["born_from"], "2007-01-01")
        _type(qtbot, dialog.fields["max_age"], "12")
        assert dialog.message.text() == ""  # good values, then Esc all the same
        _focused_key(qtbot, Qt.Key.Key_Escape)

    assert _open_conditions(qtbot, view, 1, fill) == []
    assert view.current_groups()[1].eligibility == Eligibility()
    assert view.message.text() == ""
    assert view.edited_regulations() == load_regulations(doc.db)


def test_lists_split_on_either_comma_or_the_chinese_pause() -> None:
    assert split_list("天水市、兰州市, 6205，秦州区 ;") == ["天水市", "兰州市", "6205", "秦州区"]


def test_the_row_buttons_stay_in_view_beside_a_long_format_summary(
    qtbot: Any, doc: TournamentDocument
) -> None:
    """The 赛制 summary is long (three stages): it takes the room that is left, so the 赛制…… and 参赛条件……
    buttons are whole inside the table at the window's usual width (the summary pushed 参赛条件…… behind a
    horizontal scroll bar)."""
    view = _settings(qtbot, doc)
    view.resize(1140, 700)
    qtbot.wait(50)
    table = view.groups_table
    viewport = table.viewport().rect()
    for row in range(table.rowCount()):
        for column in (6, 7):
            button = table.cellWidget(row, column)
            assert isinstance(button, QPushButton)
            place = button.geometry()  # in the viewport's coordinates
            assert viewport.contains(place), (row, button.text(), place, viewport)
        summary = table.item(row, 5)
        assert summary is not None and summary.toolTip() == summary.text()
    assert not table.horizontalScrollBar().isVisible()
