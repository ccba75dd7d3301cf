"""The audit log viewer and the list of backups to restore.

The viewer shows each line as the arbiter would say it (:mod:`app.services.audit_text`): when, who,
what was done, to whom, the change in words, why — in the window's language; the stored values are
in each row's tooltip, and the CSV export keeps them as stored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import UserError
from app.files import write_atomic
from app.services.audit import export_audit_csv
from app.services.audit_text import AuditSentence, audit_sentences
from app.services.backups import list_backups
from app.ui import file_dialogs
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language, tr, translate_noop
from app.ui.models.base import FixedColumnsModel, Index


class AuditModel(FixedColumnsModel):
    """The audit log in sentences, newest first; the stored values in the tooltip."""

    COLUMNS = (
        translate_noop("AuditModel", "时间"),
        translate_noop("AuditModel", "操作人"),
        translate_noop("AuditModel", "操作"),
        translate_noop("AuditModel", "对象"),
        translate_noop("AuditModel", "内容"),
        translate_noop("AuditModel", "理由"),
    )

    def __init__(self, rows: list[AuditSentence], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows = list(reversed(rows))
        self._english = current_language() == "en"

    @property
    def rows(self) -> list[AuditSentence]:
        return list(self._rows)

    def text(self, row: int, column: int) -> str:
        line = self._rows[row]
        action = line.action_en if self._english else line.action_zh
        change = line.change_en if self._english else line.change_zh
        return str((line.at, line.who, action, line.entity, change, line.reason)[column])

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._rows[index.row()].raw or None
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        text = self.text(index.row(), index.column())
        return text[:80] + "…" if len(text) > 80 else text

    def header_extra(self, section: int, orientation: Qt.Orientation, role: int) -> object:
        vertical = orientation == Qt.Orientation.Vertical
        return str(section + 1) if vertical and role == Qt.ItemDataRole.DisplayRole else None


class AuditLogDialog(QDialog):
    """Every change of the tournament, filterable, exportable as CSV (Excel reads it)."""

    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setWindowTitle(tr("AuditLogDialog", "审计日志"))
        self.resize(1100, 600)
        self.model = AuditModel(audit_sentences(document.db), self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(tr("AuditLogDialog", "查找：操作、对象、理由……"))
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.export_button = buttons.addButton(
            tr("AuditLogDialog", "导出 CSV……"), QDialogButtonBox.ButtonRole.ActionRole
        )
        self.export_button.clicked.connect(self.export_dialog)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(tr("AuditLogDialog", "共 %1 条记录").replace("%1", str(self.model.rowCount())), self)
        )
        layout.addWidget(self.filter)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)

    def export_dialog(self) -> None:
        name = file_dialogs.save_file_name(
            self,
            tr("AuditLogDialog", "导出审计日志"),
            str(self.document.path.with_suffix(".audit.csv")),
            "CSV (*.csv)",
        )
        if not name:
            return
        try:
            self.export_to(Path(name))
        except UserError as error:  # a folder that cannot be written, the open file's own name …
            QMessageBox.warning(
                self,
                tr("AuditLogDialog", "导出审计日志"),
                error.en if current_language() == "en" else error.zh,
            )

    def export_to(self, path: Path) -> None:
        write_atomic(path, export_audit_csv(self.document.db), private=True)


class BackupListDialog(QDialog):
    """The backups of a tournament file, newest first; the chosen one is restored by the caller."""

    def __init__(self, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("BackupListDialog", "从备份恢复"))
        self.resize(640, 420)
        self.backups = list_backups(path)
        self.table = QTableView(self)
        self.model = _BackupModel(self.backups, self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setStretchLastSection(True)
        if self.backups:
            self.table.selectRow(0)
        note = QLabel(tr("BackupListDialog", "恢复前，当前文件会先另存一份备份，恢复操作可以再撤回。"), self)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(note)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)

    def chosen(self) -> Path | None:
        rows = self.table.selectionModel().selectedRows()
        return self.backups[rows[0].row()].path if rows else None


class _BackupModel(FixedColumnsModel):
    CONTEXT = "BackupListDialog"
    COLUMNS = (
        translate_noop("BackupListDialog", "时间"),
        translate_noop("BackupListDialog", "原因"),
        translate_noop("BackupListDialog", "文件"),
    )

    def __init__(self, backups: list, parent: QWidget | None = None) -> None:  # type: ignore[type-arg]
        super().__init__(parent)
        self._rows = backups

    @property
    def backups(self) -> list[Any]:
        return list(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            return None
        b = self.backups[index.row()]
        return (b.made_at.strftime("%Y-%m-%d %H:%M:%S"), b.reason, b.name)[index.column()]
