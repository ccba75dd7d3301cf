"""请假与恢复参赛 (absence and re-entry): excuse a player from a round, cancel it, and let a withdrawn player play again.

The table lists the group's absences (excused rounds and the rounds before a late entry, with the
points they gave). Every action goes through :mod:`app.services.attendance` as an undoable command.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import AbsenceKind
from app.services import rounds as rounds_service
from app.services.attendance import (
    AbsenceView,
    absences,
    cancel_absence,
    excuse_absence,
    reenter_player,
    undo_reentry,
)
from app.services.registration import list_players
from app.ui.dialogs.actions import ActionDialog
from app.ui.document import TournamentDocument
from app.ui.i18n import tr, translate_noop
from app.ui.undo import UNDO_REASON, ServiceCommand

_KIND = {
    AbsenceKind.EXCUSED: translate_noop("AttendanceDialog", "请假"),
    AbsenceKind.LATE_ENTRY: translate_noop("AttendanceDialog", "未报名（后报名）"),
}


class ExcuseCommand(ServiceCommand):
    """请假; undo cancels the absence again (only while its round is not paired)."""

    def __init__(
        self, document: TournamentDocument, group: str, no: int, round_number: int, reason: str
    ) -> None:
        text = tr("UndoCommands", "%1 号第 %2 轮请假").replace("%1", str(no)).replace("%2", str(round_number))
        super().__init__(document, text)
        self.group, self.no, self.round_number, self.reason = group, no, round_number, reason

    def apply(self) -> None:
        excuse_absence(self.document.db, self.group, self.no, self.round_number, self.reason)

    def revert(self) -> None:
        cancel_absence(self.document.db, self.group, self.no, self.round_number, reason=UNDO_REASON)


class CancelExcuseCommand(ExcuseCommand):
    """取消请假; undo excuses the player again with the reason given before."""

    def apply(self) -> None:
        super().revert()

    def revert(self) -> None:
        super().apply()


class ReentryCommand(ServiceCommand):
    """恢复参赛; undo puts the withdrawal back as it was."""

    def __init__(
        self, document: TournamentDocument, player_id: int, reason: str, from_round: int | None
    ) -> None:
        super().__init__(document, tr("UndoCommands", "恢复参赛"))
        self.player_id, self.reason, self.from_round = player_id, reason, from_round
        before = next(p for p in list_players(document.db) if p.id == player_id)
        self.before: dict[str, object] = {
            "status_round": before.status_round,
            "reentry_round": before.reentry_round,
        }

    def apply(self) -> None:
        reenter_player(self.document.db, self.player_id, reason=self.reason, from_round=self.from_round)

    def revert(self) -> None:
        undo_reentry(self.document.db, self.player_id, self.before)


class AttendanceDialog(ActionDialog):
    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.group = document.group
        self.setWindowTitle(self.tr("请假与恢复参赛 — %1").replace("%1", self.group))
        self.listed: list[AbsenceView] = []

        self.table = QTableWidget(0, 6, self)
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("轮次"),
                self.tr("序号"),
                self.tr("姓名"),
                self.tr("类别"),
                self.tr("得分"),
                self.tr("理由"),
            ]
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.cancel_button = QPushButton(self.tr("取消所选请假"), self)
        self.cancel_button.clicked.connect(self.cancel_selected)

        excuse_box = QGroupBox(self.tr("请假（该轮不编排、计 0 分、不作弃权）"), self)
        self.player_no = QSpinBox(excuse_box)
        self.player_no.setRange(1, 99_999)
        self.round_no = QSpinBox(excuse_box)
        self.round_no.setRange(1, 99)
        self.excuse_reason = QLineEdit(excuse_box)
        self.excuse_reason.setPlaceholderText(self.tr("理由（必填，记入日志）"))
        self.excuse_button = QPushButton(self.tr("准假"), excuse_box)
        self.excuse_button.setAutoDefault(False)
        self.excuse_button.clicked.connect(self.excuse)
        self.excuse_reason.returnPressed.connect(self.excuse)
        form = QFormLayout(excuse_box)
        form.addRow(self.tr("序号"), self.player_no)
        form.addRow(self.tr("轮次"), self.round_no)
        form.addRow(self.tr("理由"), self.excuse_reason)
        form.addRow("", self.excuse_button)

        reentry_box = QGroupBox(self.tr("恢复参赛（退赛棋手，记入日志）"), self)
        self.withdrawn = QComboBox(reentry_box)
        self.reentry_round = QSpinBox(reentry_box)
        self.reentry_round.setRange(0, 99)
        self.reentry_round.setSpecialValueText(self.tr("下一轮"))
        self.reentry_reason = QLineEdit(reentry_box)
        self.reentry_reason.setPlaceholderText(self.tr("理由（必填，记入日志）"))
        self.reentry_button = QPushButton(self.tr("恢复参赛"), reentry_box)
        self.reentry_button.setAutoDefault(False)
        self.reentry_button.clicked.connect(self.reenter)
        self.reentry_reason.returnPressed.connect(self.reenter)
        rform = QFormLayout(reentry_box)
        rform.addRow(self.tr("棋手"), self.withdrawn)
        rform.addRow(self.tr("自第几轮起"), self.reentry_round)
        rform.addRow(self.tr("理由"), self.reentry_reason)
        rform.addRow("", self.reentry_button)

        self.message = QLabel(self)
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(excuse_box, 1)
        row.addWidget(reentry_box, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.cancel_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addLayout(row)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.resize(820, 560)
        self.refresh()
        self.player_no.setFocus()

    # ------------------------------------------------------------------ reading

    def refresh(self) -> None:
        db = self.document.db
        self.listed = absences(db, self.group)
        self.table.setRowCount(len(self.listed))
        for r, a in enumerate(self.listed):
            values = [
                str(a.round),
                str(a.no),
                a.name,
                tr("AttendanceDialog", _KIND[a.kind]),
                str(a.points),
                a.reason,
            ]
            for c, text in enumerate(values):
                self.table.setItem(r, c, QTableWidgetItem(text))
        played = [s.number for s in rounds_service.rounds_of(db, self.group)]
        rounds = self.document.info.regulations.group(self.group).rounds
        self.round_no.setRange(1, rounds)
        self.reentry_round.setRange(0, rounds)
        self.round_no.setValue(min(max(played, default=0) + 1, rounds))
        self.withdrawn.clear()
        for p in list_players(db, self.group):
            if p.status == "withdrawn" and p.no is not None:
                self.withdrawn.addItem(f"{p.no} {p.name}", p.id)
        self.reentry_button.setEnabled(self.withdrawn.count() > 0)

    # ------------------------------------------------------------------ actions

    def excuse(self) -> bool:
        no, number = self.player_no.value(), self.round_no.value()
        command = ExcuseCommand(self.document, self.group, no, number, self.excuse_reason.text())
        done = self.tr("%1 号第 %2 轮已准假").replace("%1", str(no)).replace("%2", str(number))
        if self._run(command, done):
            self.excuse_reason.clear()
            return True
        return False

    def cancel_selected(self) -> bool:
        row = self.table.currentRow()
        if not 0 <= row < len(self.listed) or self.listed[row].kind is not AbsenceKind.EXCUSED:
            self._show(self.tr("请先选择一条请假记录"), error=True)
            return False
        a = self.listed[row]
        command = CancelExcuseCommand(self.document, self.group, a.no, a.round, a.reason)
        return self._run(
            command, self.tr("已取消 %1 号第 %2 轮请假").replace("%1", str(a.no)).replace("%2", str(a.round))
        )

    def reenter(self) -> bool:
        player_id = self.withdrawn.currentData()
        if player_id is None:
            return False
        first = self.reentry_round.value() or None
        command = ReentryCommand(self.document, int(player_id), self.reentry_reason.text(), first)
        if self._run(command, self.tr("已恢复参赛")):
            self.reentry_reason.clear()
            return True
        return False
