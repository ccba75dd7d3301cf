"""奖金 The prize editor of the settings view: one row per prize table (name, group, kind, amounts by
place, total, category and its condition, non-cash prizes), the grand total, and a place for the
prize rules (the settings view puts its editors for them there).

The editor reads and writes :class:`PrizeTable` values; the settings view saves them with the rest of
the regulation (``update_regulations`` validates). The strings are the settings view's (translation
context ``SettingsView``).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.engine.regulations import GroupFormat, PrizeCategory, PrizeKind, PrizeTable
from app.engine.types import UserError
from app.ui.i18n import tr, translate_noop

#: The words for the prize kinds and categories (also in the settings view's ENUM_LABELS).
PRIZE_LABELS: dict[enum.Enum, str] = {
    PrizeKind.INDIVIDUAL: translate_noop("SettingsView", "个人"),
    PrizeKind.TEAM: translate_noop("SettingsView", "团体"),
    PrizeCategory.OVERALL: translate_noop("SettingsView", "全组"),
    PrizeCategory.WOMEN: translate_noop("SettingsView", "女子"),
    PrizeCategory.SENIORS: translate_noop("SettingsView", "老年（年龄≥）"),
    PrizeCategory.JUNIORS: translate_noop("SettingsView", "少年（年龄≤）"),
    PrizeCategory.LOCAL: translate_noop("SettingsView", "本地（地区）"),
    PrizeCategory.UNIT: translate_noop("SettingsView", "单位最佳（单位）"),
}


class PrizeEditor(QWidget):
    """The prize tables of the regulation as an editable table; ``groups`` gives the groups as edited."""

    def __init__(self, groups: Callable[[], list[GroupFormat]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._groups = groups
        layout = QVBoxLayout(self)
        self.prize_table = QTableWidget(0, 8, self)
        self.prize_table.setHorizontalHeaderLabels(
            [
                tr("SettingsView", "奖项"),
                tr("SettingsView", "组别"),
                tr("SettingsView", "类别"),
                tr("SettingsView", "各名次金额（元，逗号分隔）"),
                tr("SettingsView", "合计（元）"),
                tr("SettingsView", "限定"),
                tr("SettingsView", "条件（年龄／地区／单位）"),
                tr("SettingsView", "奖品（逗号分隔）"),
            ]
        )
        header = self.prize_table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.prize_table.verticalHeader().setVisible(False)
        self.prize_table.itemChanged.connect(self._prize_edited)
        self.prize_total = QLabel(self)
        self.prize_total.setStyleSheet("font-weight: bold")
        buttons = QHBoxLayout()
        add = QPushButton(tr("SettingsView", "添加奖项"), self)
        add.clicked.connect(self.add_prize)
        remove = QPushButton(tr("SettingsView", "删除奖项"), self)
        remove.clicked.connect(self.remove_prize)
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        buttons.addWidget(self.prize_total)
        #: the prize rules (不兼得, 代扣个税): the settings view adds its editors for them here
        self.rules = QFormLayout()
        note = QLabel(
            tr(
                "SettingsView",
                "限定：女子、老年（条件填年龄下限）、少年（年龄上限）、本地（地区，或身份证号前几位如 6205）、"
                "单位最佳（单位名）。不兼得时，一名棋手只领其所获最高的一项，其余名额依名次顺延。",
            ),
            self,
        )
        note.setWordWrap(True)
        note.setStyleSheet("color: #555")
        layout.addWidget(self.prize_table, 1)
        layout.addLayout(buttons)
        layout.addWidget(note)
        layout.addLayout(self.rules)

    # ------------------------------------------------------------------ rows

    def add_prize(self) -> None:
        """添加奖项: a new prize table for the first group, one place worth 0."""
        groups = self._groups()
        self._add_prize_row(
            PrizeTable(
                tr("SettingsView", "新奖项"), groups[0].name if groups else "", PrizeKind.INDIVIDUAL, (0,)
            )
        )
        self._prize_edited()

    def remove_prize(self) -> None:
        """删除奖项: the prize table under the cursor."""
        self.prize_table.removeRow(self.prize_table.currentRow())
        self._prize_edited()

    def _add_prize_row(self, table: PrizeTable) -> None:
        self.prize_table.blockSignals(True)
        row = self.prize_table.rowCount()
        self.prize_table.insertRow(row)
        self.prize_table.setItem(row, 0, QTableWidgetItem(table.name))
        self.prize_table.setItem(row, 1, QTableWidgetItem(table.group))
        kind = QComboBox(self.prize_table)
        for member in PrizeKind:
            kind.addItem(tr("SettingsView", PRIZE_LABELS[member]), member)
        kind.setCurrentIndex(kind.findData(table.kind))
        self.prize_table.setCellWidget(row, 2, kind)
        self.prize_table.setItem(row, 3, QTableWidgetItem(", ".join(str(a) for a in table.amounts)))
        total = QTableWidgetItem(f"{table.total:,}")
        total.setFlags(Qt.ItemFlag.ItemIsEnabled)
        total.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.prize_table.setItem(row, 4, total)
        category = QComboBox(self.prize_table)
        for category_value in PrizeCategory:
            category.addItem(tr("SettingsView", PRIZE_LABELS[category_value]), category_value)
        category.setCurrentIndex(category.findData(table.category))
        self.prize_table.setCellWidget(row, 5, category)
        self.prize_table.setItem(row, 6, QTableWidgetItem(condition_text(table)))
        self.prize_table.setItem(row, 7, QTableWidgetItem(", ".join(table.items)))
        self.prize_table.blockSignals(False)

    def _prize_edited(self, _item: QTableWidgetItem | None = None) -> None:
        grand = 0
        self.prize_table.blockSignals(True)
        for row in range(self.prize_table.rowCount()):
            item = self.prize_table.item(row, 3)
            try:
                total = sum(parse_amounts(item.text() if item else ""))
                text = f"{total:,}"
                grand += total
            except UserError:
                text = "?"
            cell = self.prize_table.item(row, 4)
            if cell is not None:
                cell.setText(text)
        self.prize_table.blockSignals(False)
        self.prize_total.setText(tr("SettingsView", "奖金总额 %1 元").replace("%1", f"{grand:,}"))

    # ------------------------------------------------------------------ values in and out

    def set_prizes(self, tables: tuple[PrizeTable, ...]) -> None:
        self.prize_table.setRowCount(0)
        for table in tables:
            self._add_prize_row(table)
        self._prize_edited()

    def prizes(self) -> tuple[PrizeTable, ...]:
        """The prize tables as the editor shows them (a bad amount or age raises ``UserError``)."""
        prizes = []
        for row in range(self.prize_table.rowCount()):
            name, group, amounts, condition, items = (self.prize_table.item(row, c) for c in (0, 1, 3, 6, 7))
            kind, category = self.prize_table.cellWidget(row, 2), self.prize_table.cellWidget(row, 5)
            assert isinstance(kind, QComboBox) and isinstance(category, QComboBox)
            table = PrizeTable(
                name.text().strip() if name else "",
                group.text().strip() if group else "",
                kind.currentData(),
                parse_amounts(amounts.text() if amounts else ""),
                category=category.currentData(),
                items=parse_items(items.text() if items else ""),
            )
            prizes.append(with_condition(table, condition.text() if condition else ""))
        return tuple(prizes)


def parse_amounts(text: str) -> tuple[int, ...]:
    """``10000, 5000, 300×6`` → amounts by place (×n repeats; ，、 and spaces separate too)."""
    out: list[int] = []
    for part in text.replace("，", ",").replace("、", ",").replace(" ", ",").split(","):
        part = part.strip()
        if not part:
            continue
        amount, _, times = part.replace("x", "×").replace("*", "×").partition("×")
        if not amount.isdigit() or (times and not times.isdigit()):
            raise UserError(f"无法识别金额“{part}”", f"cannot read the amount {part!r}")
        out.extend([int(amount)] * (int(times) if times else 1))
    return tuple(out)


def _split(text: str) -> list[str]:
    for sep in "，、;；":
        text = text.replace(sep, ",")
    return [part.strip() for part in text.split(",") if part.strip()]


def parse_items(text: str) -> tuple[str, ...]:
    """``奖杯, 奖牌×2`` → non-cash prizes by place (×n repeats)."""
    out: list[str] = []
    for part in _split(text):
        item, sep, times = part.replace("x", "×").replace("*", "×").rpartition("×")
        if sep and times.isdigit() and item:
            out.extend([item.strip()] * int(times))
        else:
            out.append(part)
    return tuple(out)


def condition_text(table: PrizeTable) -> str:
    """What the 条件 column shows for a prize table: the age, the regions or the units."""
    if table.category in (PrizeCategory.SENIORS, PrizeCategory.JUNIORS):
        return str(table.age) if table.age else ""
    if table.category is PrizeCategory.LOCAL:
        return ", ".join(table.regions)
    if table.category is PrizeCategory.UNIT:
        return ", ".join(table.units)
    return ""


def with_condition(table: PrizeTable, text: str) -> PrizeTable:
    """The prize table with its 条件 column read for its category (a bad age is named)."""
    text = text.strip()
    if table.category in (PrizeCategory.SENIORS, PrizeCategory.JUNIORS):
        if text and not text.isdigit():
            raise UserError(
                f"奖项“{table.name}”的年龄“{text}”不是整数",
                f"prize {table.name!r}: age {text!r} is not a number",
            )
        return dataclasses.replace(table, age=int(text) if text else 0)
    if table.category is PrizeCategory.LOCAL:
        return dataclasses.replace(table, regions=tuple(_split(text)))
    if table.category is PrizeCategory.UNIT:
        return dataclasses.replace(table, units=tuple(_split(text)))
    return table
