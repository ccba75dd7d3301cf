"""新建赛事: a short dialog for what a new event states at once — so a new tournament does not
keep the preset's 2024 name, dates and registration deadline.

The preset is chosen by its name (never by its key); the fields start from
:func:`app.services.tournaments.new_event_defaults` (the preset's event moved to a week from today);
OK asks the service, and a refusal (no name, the end before the start, a deadline after the first
day, duplicate groups) is shown in the dialog, which stays open.

From a regulation file (文件 → 从规程文件新建赛事, regulation files) the same dialog opens with the file as its
template, shown by the file's name instead of the preset list: the file gives every setting, the
dialog the event's own name, dates, venue, deadline and groups.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QDate, QDateTime, QTime
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.engine.regulations import PRESET_TITLES, PRESETS, Regulations
from app.engine.types import UserError
from app.services.tournaments import NewEvent, new_event_defaults, new_event_regulations, split_group_names
from app.ui.i18n import current_language
from app.ui.widgets.dates import DateEdit, DateTimeEdit, python_date, python_minute


class NewEventDialog(QDialog):
    def __init__(
        self, parent: QWidget | None = None, *, regulation: Regulations | None = None, source: str = ""
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("新建赛事"))
        english = current_language() == "en"
        self.regulation = regulation  # a regulation file's settings (the template), or None: a preset
        self.preset = QComboBox(self)
        if regulation is not None:
            self.preset.addItem(self.tr("规程文件 %1").replace("%1", source), "")
            self.preset.setEnabled(False)
        else:
            for key in PRESETS:
                zh, en = PRESET_TITLES.get(key, (key, key))
                self.preset.addItem(en if english else zh, key)
        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("如：2025年天水市职工象棋公开赛"))
        self.start = DateEdit(self)
        self.end = DateEdit(self)
        self.venue = QLineEdit(self)
        self.deadline = DateTimeEdit(self)
        self.groups = QLineEdit(self)
        self.groups.setToolTip(self.tr("组别之间用顿号或逗号隔开"))
        self.error = QLabel(self)
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b22222")
        self.start.dateChanged.connect(self._start_moved)

        form = QFormLayout()
        form.addRow(self.tr("规程模板："), self.preset)
        form.addRow(self.tr("赛事名称："), self.name)
        form.addRow(self.tr("开始日期："), self.start)
        form.addRow(self.tr("结束日期："), self.end)
        form.addRow(self.tr("比赛地点："), self.venue)
        form.addRow(self.tr("报名截止："), self.deadline)
        form.addRow(self.tr("组别："), self.groups)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.name.textChanged.connect(lambda text: self.ok.setEnabled(bool(text.strip())))
        # Tab follows the form from top to bottom (Tab leaves a date field: DateEdit)
        order = (self.preset, self.name, self.start, self.end, self.venue, self.deadline, self.groups)
        for first, second in itertools.pairwise(order):
            QWidget.setTabOrder(first, second)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(
            QLabel(self.tr("其余规程（轮次、名次区分、奖金……）来自模板，可在“设置”中修改。"), self)
        )
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.preset.currentIndexChanged.connect(lambda _i: self._fill_defaults())
        self._fill_defaults()
        self.name.setFocus()

    def _fill_defaults(self) -> None:
        d = new_event_defaults(self.template)
        self._span = (d.end - d.start).days
        self._lead = d.start - d.deadline.date()
        self._deadline_time = d.deadline.time()
        self.start.setDate(QDate(d.start.year, d.start.month, d.start.day))
        self.venue.setText(d.venue)
        self.groups.setText("、".join(d.groups))
        self.ok.setEnabled(bool(self.name.text().strip()))

    def _start_moved(self, start: QDate) -> None:
        """Moving the start moves the end and the deadline with it (the preset's spacing)."""
        self.end.setDate(start.addDays(self._span))
        first = python_date(start) - self._lead
        t = self._deadline_time
        self.deadline.setDateTime(
            QDateTime(QDate(first.year, first.month, first.day), QTime(t.hour, t.minute))
        )

    @property
    def preset_key(self) -> str:
        return str(self.preset.currentData())

    @property
    def template(self) -> str | Regulations:
        """What the new event's settings come from: the regulation file's, or the chosen preset's."""
        return self.regulation if self.regulation is not None else self.preset_key

    def new_event(self) -> NewEvent:
        return NewEvent(
            self.name.text(),
            python_date(self.start.date()),
            python_date(self.end.date()),
            self.venue.text(),
            python_minute(self.deadline.dateTime()),
            split_group_names(self.groups.text()),
        )

    def accept(self) -> None:
        try:
            new_event_regulations(self.template, self.new_event())
        except UserError as error:
            self.error.setText(error.en if current_language() == "en" else error.zh)
            return
        super().accept()
