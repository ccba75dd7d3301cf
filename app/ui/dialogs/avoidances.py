"""回避设置 (pairing constraints): the named pairs of the group kept apart (家属回避 …), absolutely or weakly, for a range
of rounds; the regulation's unit / region rules are shown beside them (they are edited in 设置 → 编排).
Every change goes through :mod:`app.services.constraints` as an undoable command."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialogButtonBox,
    QFormLayout,
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

from app.engine.regulations import AvoidanceStrength
from app.services.constraints import (
    PairAvoidanceView,
    add_pair_avoidance,
    pair_avoidances,
    remove_pair_avoidance,
)
from app.services.tournaments import load_regulations
from app.ui.dialogs.actions import ActionDialog
from app.ui.document import TournamentDocument
from app.ui.i18n import tr, translate_noop
from app.ui.undo import UNDO_REASON, ServiceCommand

_STRENGTH = {
    AvoidanceStrength.ABSOLUTE: translate_noop("AvoidancesDialog", "绝对回避"),
    AvoidanceStrength.WEAK: translate_noop("AvoidancesDialog", "尽量回避"),
}


class AddAvoidanceCommand(ServiceCommand):
    def __init__(self, document: TournamentDocument, group: str, view: PairAvoidanceView) -> None:
        text = (
            tr("UndoCommands", "%1 号与 %2 号回避")
            .replace("%1", str(view.first))
            .replace("%2", str(view.second))
        )
        super().__init__(document, text)
        self.group, self.view = group, view

    def apply(self) -> None:
        v = self.view
        add_pair_avoidance(
            self.document.db,
            self.group,
            v.first,
            v.second,
            v.strength,
            from_round=v.from_round,
            to_round=v.to_round,
            reason=v.reason,
        )

    def revert(self) -> None:
        remove_pair_avoidance(
            self.document.db, self.group, self.view.first, self.view.second, reason=UNDO_REASON
        )


class RemoveAvoidanceCommand(AddAvoidanceCommand):
    def apply(self) -> None:
        super().revert()

    def revert(self) -> None:
        super().apply()


class AvoidancesDialog(ActionDialog):
    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.group = document.group
        self.setWindowTitle(self.tr("回避设置 — %1").replace("%1", self.group))
        self.listed: list[PairAvoidanceView] = []
        self.rules = QLabel(self)
        self.rules.setWordWrap(True)
        self.table = QTableWidget(0, 5, self)
        self.table.setHorizontalHeaderLabels(
            [self.tr("棋手"), self.tr("棋手"), self.tr("强度"), self.tr("轮次"), self.tr("理由")]
        )
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.remove_button = QPushButton(self.tr("删除所选回避"), self)
        self.remove_button.clicked.connect(self.remove_selected)

        self.first = QSpinBox(self)
        self.first.setRange(1, 99_999)
        self.second = QSpinBox(self)
        self.second.setRange(1, 99_999)
        self.strength = QComboBox(self)
        for member in AvoidanceStrength:
            self.strength.addItem(tr("AvoidancesDialog", _STRENGTH[member]), member)
        self.from_round = QSpinBox(self)
        self.from_round.setRange(1, 99)
        self.to_round = QSpinBox(self)
        self.to_round.setRange(0, 99)
        self.to_round.setSpecialValueText(self.tr("最后一轮"))
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(self.tr("如 父子、夫妻（记入日志）"))
        self.reason.returnPressed.connect(self.add)
        self.add_button = QPushButton(self.tr("添加回避"), self)
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(self.add)
        form = QFormLayout()
        form.addRow(self.tr("序号"), self.first)
        form.addRow(self.tr("与序号"), self.second)
        form.addRow(self.tr("强度"), self.strength)
        form.addRow(self.tr("自第几轮"), self.from_round)
        form.addRow(self.tr("至第几轮"), self.to_round)
        form.addRow(self.tr("理由"), self.reason)
        form.addRow("", self.add_button)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        left = QVBoxLayout()
        left.addWidget(self.table, 1)
        left.addWidget(self.remove_button)
        row.addLayout(left, 3)
        row.addLayout(form, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(self.rules)
        layout.addLayout(row, 1)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.resize(860, 460)
        self.refresh()
        self.first.setFocus()

    def refresh(self) -> None:
        rules = load_regulations(self.document.db).pairing.avoidances
        text = "；".join(f"{r.basis.zh}{r.strength.zh}（{r.rounds_zh}）" for r in rules)
        self.rules.setText(
            self.tr("规程中的回避：%1").replace("%1", text or self.tr("无（在 设置 → 编排 中设定）"))
        )
        self.listed = pair_avoidances(self.document.db, self.group)
        self.table.setRowCount(len(self.listed))
        for r, v in enumerate(self.listed):
            values = [
                f"{v.first} {v.first_name}",
                f"{v.second} {v.second_name}",
                tr("AvoidancesDialog", _STRENGTH[v.strength]),
                v.rounds_zh,
                v.reason,
            ]
            for c, value in enumerate(values):
                self.table.setItem(r, c, QTableWidgetItem(value))

    def add(self) -> bool:
        view = PairAvoidanceView(
            self.group,
            self.first.value(),
            "",
            self.second.value(),
            "",
            self.strength.currentData(),
            self.from_round.value(),
            self.to_round.value(),
            self.reason.text().strip(),
        )
        done = self.tr("%1 号与 %2 号已设回避").replace("%1", str(view.first)).replace("%2", str(view.second))
        if self._run(AddAvoidanceCommand(self.document, self.group, view), done):
            self.reason.clear()
            return True
        return False

    def remove_selected(self) -> bool:
        row = self.table.currentRow()
        if not 0 <= row < len(self.listed):
            self._show(self.tr("请先选择一条回避"), error=True)
            return False
        view = self.listed[row]
        done = (
            self.tr("已删除 %1 号与 %2 号的回避")
            .replace("%1", str(view.first))
            .replace("%2", str(view.second))
        )
        return self._run(RemoveAvoidanceCommand(self.document, self.group, view), done)
