"""Excel import: every row's problems shown before anything is written; all-or-nothing or valid only.

Rows with the same name and birth date as another row or as a player already registered are
flagged (⚠, not refused): importing them asks first, and the default answer is No.

After the registration deadline every row is refused unless the arbiter gives a reason for accepting
the late entries (附件: 裁判长破例). The reason field appears only then; typing it checks the file
again, and the reason goes with the import into the audit log (one ``deadline_override`` per player).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import UserError
from app.services import excel_import
from app.services.excel_import import ImportPreview
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language
from app.ui.widgets.key_guard import ask_guarded


class ImportPreviewDialog(QDialog):
    def __init__(self, document: TournamentDocument, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document, self.path = document, path
        self.preview: ImportPreview | None = None
        self.error_text = ""
        self.imported = 0
        self.setWindowTitle(self.tr("导入报名表：%1").replace("%1", path.name))
        self.resize(900, 560)
        try:
            self.preview = excel_import.preview_import(document.db, path)
        except UserError as error:
            self.error_text = self._text(error.zh, error.en)
            return
        deadline = document.info.regulations.registration.deadline
        self.late = datetime.now() > deadline
        self.summary = QLabel(self)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels(
            [self.tr("行"), self.tr("姓名"), self.tr("组别"), self.tr("问题")]
        )
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(self.tr("破例接受的理由（将记入操作日志）"))
        reason_row = QHBoxLayout()
        self.reason_label = QLabel(
            self.tr("已过报名截止时间（%1），裁判长破例接受的理由：").replace(
                "%1", f"{deadline:%Y-%m-%d %H:%M}"
            ),
            self,
        )
        reason_row.addWidget(self.reason_label)
        reason_row.addWidget(self.reason, 1)
        self.reason_label.setVisible(self.late)
        self.reason.setVisible(self.late)
        # Checking the file again on every keystroke would read it each time: wait for a pause.
        self.recheck_timer = QTimer(self)
        self.recheck_timer.setSingleShot(True)
        self.recheck_timer.setInterval(400)
        self.recheck_timer.timeout.connect(self.recheck)
        self.reason.textChanged.connect(lambda _text: self.recheck_timer.start())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.all_button = QPushButton(self.tr("全部导入（有错则不导入）"), self)
        self.valid_button = QPushButton(self)
        buttons.addButton(self.all_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.valid_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.all_button.clicked.connect(lambda: self.run_import("all_or_nothing"))
        self.valid_button.clicked.connect(lambda: self.run_import("valid_only"))
        buttons.rejected.connect(self.reject)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(reason_row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self._show(self.preview)

    def namesakes_confirmed(self) -> bool:
        """Rows flagged as namesakes (same name, same birth date): import them anyway? Default: no."""
        if self.preview is None or not self.preview.warnings:
            return True
        by_row = {r.row: r for r in self.preview.rows}
        lines = [
            f"{w.row} {by_row[w.row].entry.name}：{self._text(w.message_zh, w.message_en)}"
            for w in self.preview.warnings
        ]
        return ask_guarded(
            self,
            self.tr("同名同出生日期"),
            self.tr("以下棋手与他人同名同出生日期，可能是重复报名：")
            + "\n"
            + "\n".join(lines[:20])
            + ("\n……" if len(lines) > 20 else "")
            + "\n\n"
            + self.tr("仍然导入吗？（回车＝否）"),
            yes=self.tr("仍然导入(&Y)"),
        )

    def _text(self, zh: str, en: str) -> str:
        return en if current_language() == "en" else zh

    @property
    def override_reason(self) -> str:
        return self.reason.text().strip() if self.late else ""

    def recheck(self) -> None:
        """Check the file again with the reason typed so far (rows refused only for lateness pass)."""
        self.recheck_timer.stop()
        try:
            preview = excel_import.preview_import(
                self.document.db, self.path, override_reason=self.override_reason
            )
        except UserError as error:
            self.status.setText(self._text(error.zh, error.en))
            return
        self._show(preview)

    def _show(self, preview: ImportPreview) -> None:
        self.preview = preview
        self.summary.setText(
            self.tr("共 %1 行：%2 行无误，%3 行有问题。尚未写入任何数据。")
            .replace("%1", str(len(preview.rows)))
            .replace("%2", str(len(preview.valid)))
            .replace("%3", str(len(preview.invalid)))
            + (
                self.tr("%1 行同名同出生日期，请核对（⚠）。").replace(
                    "%1", str(len({w.row for w in preview.warnings}))
                )
                if preview.warnings
                else ""
            )
        )
        self.table.setRowCount(len(preview.rows))
        for i, row in enumerate(preview.rows):
            problems = "；".join(
                f"{p.column}{row.row} {p.header}: {self._text(p.message_zh, p.message_en)}"
                if p.column
                else self._text(p.message_zh, p.message_en)
                for p in row.problems
            )
            warnings = "；".join("⚠ " + self._text(w.message_zh, w.message_en) for w in row.warnings)
            note = "；".join(part for part in (problems, warnings) if part) or "✓"
            for col, text in enumerate((str(row.row), row.entry.name, row.entry.group, note)):
                item = QTableWidgetItem(text)
                if warnings and not problems:
                    item.setForeground(QBrush(QColor("#8a5a00")))
                self.table.setItem(i, col, item)
        self.table.resizeColumnsToContents()
        self.all_button.setEnabled(not preview.invalid and bool(preview.rows))
        self.valid_button.setText(self.tr("只导入无误的 %1 行").replace("%1", str(len(preview.valid))))
        self.valid_button.setEnabled(bool(preview.valid))

    def run_import(self, mode: str) -> bool:
        if self.recheck_timer.isActive():
            self.recheck()
        if not self.namesakes_confirmed():
            self.status.setText(self.tr("未导入：请核对同名同出生日期的行"))
            return False
        try:
            result = excel_import.import_players(
                self.document.db,
                self.path,
                mode=mode,  # type: ignore[arg-type]
                override_reason=self.override_reason,
            )
        except UserError as error:
            self.status.setText(self._text(error.zh, error.en))
            return False
        self.imported = len(result.added)
        self.accept()
        return True
