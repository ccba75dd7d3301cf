"""Excel import: every row's problems shown before anything is written; all-or-nothing or valid only."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
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
        preview = self.preview
        summary = QLabel(
            self.tr("共 %1 行：%2 行无误，%3 行有问题。尚未写入任何数据。")
            .replace("%1", str(len(preview.rows)))
            .replace("%2", str(len(preview.valid)))
            .replace("%3", str(len(preview.invalid))),
            self,
        )
        self.table = QTableWidget(len(preview.rows), 4, self)
        self.table.setHorizontalHeaderLabels(
            [self.tr("行"), self.tr("姓名"), self.tr("组别"), self.tr("问题")]
        )
        self.table.verticalHeader().setVisible(False)
        for i, row in enumerate(preview.rows):
            problems = "；".join(
                f"{p.column}{row.row} {p.header}: {self._text(p.message_zh, p.message_en)}"
                for p in row.problems
            )
            for col, text in enumerate((str(row.row), row.entry.name, row.entry.group, problems or "✓")):
                self.table.setItem(i, col, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.all_button = QPushButton(self.tr("全部导入（有错则不导入）"), self)
        self.all_button.setEnabled(not preview.invalid and bool(preview.rows))
        self.valid_button = QPushButton(
            self.tr("只导入无误的 %1 行").replace("%1", str(len(preview.valid))), self
        )
        self.valid_button.setEnabled(bool(preview.valid))
        buttons.addButton(self.all_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.valid_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.all_button.clicked.connect(lambda: self.run_import("all_or_nothing"))
        self.valid_button.clicked.connect(lambda: self.run_import("valid_only"))
        buttons.rejected.connect(self.reject)
        self.status = QLabel(self)
        layout = QVBoxLayout(self)
        layout.addWidget(summary)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        layout.addWidget(buttons)

    def _text(self, zh: str, en: str) -> str:
        return en if current_language() == "en" else zh

    def run_import(self, mode: str) -> bool:
        try:
            result = excel_import.import_players(self.document.db, self.path, mode=mode)  # type: ignore[arg-type]
        except UserError as error:
            self.status.setText(self._text(error.zh, error.en))
            return False
        self.imported = len(result.added)
        self.accept()
        return True
