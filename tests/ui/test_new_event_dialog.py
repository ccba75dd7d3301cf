"""新建赛事: the dialog starts from this year, refuses what is wrong in the dialog itself."""

from __future__ import annotations

from datetime import date, timedelta

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QApplication

from app.ui.dialogs.new_event import NewEventDialog


def test_the_dialog_moves_the_preset_to_this_year_and_refuses_a_bad_event(qtbot) -> None:
    dialog = NewEventDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.name)
    assert "tianshui" not in dialog.preset.currentText() and "天水" in dialog.preset.currentText()
    start = dialog.start.date().toPython()
    assert start == date.today() + timedelta(days=7)
    assert dialog.end.date().toPython() == start + timedelta(days=2)  # the preset's three days
    assert dialog.deadline.dateTime().toPython().date() == start - timedelta(days=3)  # as in 2024
    assert dialog.groups.text() == "公开组、天水本地组"
    assert not dialog.ok.isEnabled()  # no name yet
    dialog.name.insert("2025年少年赛")
    assert dialog.ok.isEnabled()
    # moving the start moves the end and the deadline along
    dialog.start.setDate(QDate(2031, 5, 1))
    assert dialog.end.date() == QDate(2031, 5, 3)
    assert dialog.deadline.dateTime().date() == QDate(2031, 4, 28)
    dialog.end.setDate(QDate(2031, 4, 1))  # before the start: refused in the dialog, which stays open
    qtbot.keyClick(dialog.name, Qt.Key.Key_Return)
    assert dialog.isVisible() and "早于开始日期" in dialog.error.text()
    dialog.end.setDate(QDate(2031, 5, 2))
    dialog.groups.setText("少年组、少年组")
    qtbot.keyClick(dialog.name, Qt.Key.Key_Return)
    assert dialog.isVisible() and "组别名称重复" in dialog.error.text()
    dialog.groups.setText("少年组，女子组")
    qtbot.keyClick(dialog.name, Qt.Key.Key_Return)
    assert not dialog.isVisible() and dialog.result() == NewEventDialog.DialogCode.Accepted
    event = dialog.new_event()
    assert (event.name, event.start, event.end, event.groups) == (
        "2025年少年赛",
        date(2031, 5, 1),
        date(2031, 5, 2),
        ("少年组", "女子组"),
    )


def test_from_a_regulation_file_the_file_gives_the_settings_and_the_dialog_the_event(qtbot, tmp_path) -> None:
    import dataclasses

    from app.engine.regulations import PrizeCategory, PrizeKind, PrizeTable, preset
    from app.services.regulation_files import create_from_regulation_file, read_regulation_file
    from app.services.tournaments import load_regulations

    base = preset("tianshui-2024")
    women = PrizeTable("公开组女子", "公开组", PrizeKind.INDIVIDUAL, (800, 500), PrizeCategory.WOMEN)
    custom = dataclasses.replace(base, prizes=(*base.prizes, women))
    from app.engine.regulations import regulations_to_toml

    source = tmp_path / "去年.toml"
    source.write_text(regulations_to_toml(custom), encoding="utf-8")
    regulation, _ = read_regulation_file(source)
    dialog = NewEventDialog(regulation=regulation, source=source.name)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.name)
    assert not dialog.preset.isEnabled() and "去年.toml" in dialog.preset.currentText()
    assert dialog.groups.text() == "公开组、天水本地组"
    assert dialog.start.date().toPython() == date.today() + timedelta(days=7)  # moved to this year
    dialog.name.insert("2025年职工象棋公开赛")
    dialog.start.setDate(QDate(2031, 7, 25))
    dialog.venue.setText("天水市体育馆")
    qtbot.keyClick(dialog.name, Qt.Key.Key_Return)
    assert not dialog.isVisible() and dialog.result() == NewEventDialog.DialogCode.Accepted
    db = create_from_regulation_file(tmp_path / "new.xqt", source, dialog.new_event())
    try:
        reg = load_regulations(db)
    finally:
        db.close()
    assert (reg.event_name, reg.start_date, reg.venue) == (
        "2025年职工象棋公开赛",
        date(2031, 7, 25),
        "天水市体育馆",
    )
    assert reg.prizes[-1] == women  # the file's settings
    assert reg.registration.deadline.date() == date(2031, 7, 22)  # as long before the start as the file's
