"""Date fields that Tab leaves: Tab and Shift+Tab go to the next and the previous field of the form.

Qt's date fields take Tab for themselves, moving from the year to the month to the day (and on to the
hour and minute): an arbiter tabbing through a form walks into a date and needs three or five Tabs
to get out of it. Here Tab leaves the field like any other; ← and → still move between its parts.
"""

from __future__ import annotations

from datetime import date, datetime

from PySide6.QtCore import QDate, QDateTime
from PySide6.QtWidgets import QDateEdit, QDateTimeEdit, QWidget


def python_date(value: QDate) -> date:
    """The field's date as a :class:`datetime.date` (``QDate.toPython`` is typed ``object``)."""
    return date(value.year(), value.month(), value.day())


def python_minute(value: QDateTime) -> datetime:
    """The field's date and time to the minute, naive, as the fields show it (seconds dropped)."""
    d, t = value.date(), value.time()
    return datetime(d.year(), d.month(), d.day(), t.hour(), t.minute())


class DateEdit(QDateEdit):
    """``yyyy-MM-dd`` with a calendar; Tab leaves the field."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDisplayFormat("yyyy-MM-dd")
        self.setCalendarPopup(True)

    def focusNextPrevChild(self, next: bool) -> bool:
        return QWidget.focusNextPrevChild(self, next)


class DateTimeEdit(QDateTimeEdit):
    """``yyyy-MM-dd HH:mm`` with a calendar; Tab leaves the field."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.setCalendarPopup(True)

    def focusNextPrevChild(self, next: bool) -> bool:
        return QWidget.focusNextPrevChild(self, next)
