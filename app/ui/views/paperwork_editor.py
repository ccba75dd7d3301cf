"""裁判与证书 (the paperwork): the officials (who signs the lists), the organiser, the seal line and the prize
certificate's template, with a preview of a certificate as it will print. Saved undoably through
:mod:`app.services.paperwork`; a template with an unknown placeholder is refused with its name.

Also the undoable import of a regulation file (its paperwork included), used by the settings view.
"""

from __future__ import annotations

import io
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.engine.paperwork import PLACEHOLDERS, CertificateTemplate, Official, Paperwork
from app.engine.regulations import Regulations
from app.engine.types import UserError
from app.services.paperwork import load_paperwork, update_paperwork
from app.services.paperwork_docs import certificate_preview
from app.services.regulation_files import import_regulation_file
from app.services.tournaments import load_regulations, update_regulations
from app.ui.document import TournamentDocument
from app.ui.i18n import tr
from app.ui.undo import UNDO_REASON, ServiceCommand, perform
from app.ui.views.live import error_text, show_message


class UpdatePaperworkCommand(ServiceCommand):
    """Replace the paperwork; undo puts the previous one back."""

    def __init__(self, document: TournamentDocument, new: Paperwork) -> None:
        super().__init__(document, tr("UndoCommands", "修改裁判人员与证书"))
        self.new = new
        self.old = load_paperwork(document.db)

    def apply(self) -> None:
        update_paperwork(self.document.db, self.new)

    def revert(self) -> None:
        update_paperwork(self.document.db, self.old, reason=UNDO_REASON)


class ImportRegulationFileCommand(ServiceCommand):
    """Import a regulation file (regulation and paperwork); undo restores both as they were."""

    def __init__(self, document: TournamentDocument, path: Path) -> None:
        super().__init__(document, tr("UndoCommands", "导入规程文件"))
        self.path = path
        self.old_regulations: Regulations = load_regulations(document.db)
        self.old_paperwork = load_paperwork(document.db)

    def apply(self) -> None:
        import_regulation_file(self.document.db, self.path)

    def revert(self) -> None:
        update_regulations(self.document.db, self.old_regulations, reason=UNDO_REASON)
        update_paperwork(self.document.db, self.old_paperwork, reason=UNDO_REASON)


class PaperworkEditor(QWidget):
    """The 裁判与证书 page of the settings view."""

    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.officials = QTableWidget(0, 3, self)
        self.officials.setHorizontalHeaderLabels([self.tr("职务"), self.tr("姓名"), self.tr("在名单上签字")])
        self.officials.verticalHeader().setVisible(False)
        self.officials.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.officials.setMinimumHeight(150)
        add = QPushButton(self.tr("添加裁判人员"), self)
        add.clicked.connect(lambda: self.add_official(Official(self.tr("裁判长"), "")))
        remove = QPushButton(self.tr("删除裁判人员"), self)
        remove.clicked.connect(lambda: self.officials.removeRow(self.officials.currentRow()))
        self.organiser = QLineEdit(self)
        self.organiser.setPlaceholderText(self.tr("如 天水市总工会　天水市体育局"))
        self.seal = QLineEdit(self)
        self.title = QLineEdit(self)
        self.body = QPlainTextEdit(self)
        self.body.setMinimumHeight(90)
        self.signature = QLineEdit(self)
        self.date = QLineEdit(self)
        hint = QLabel(
            self.tr("证书中可用的占位符：%1").replace("%1", "、".join("{" + p + "}" for p in PLACEHOLDERS)),
            self,
        )
        hint.setWordWrap(True)
        hint.setStyleSheet("color: #555")
        self.preview = QLabel(self)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setMinimumSize(420, 300)
        self.preview.setStyleSheet("border: 1px solid #999; background: white")
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.save_button = QPushButton(self.tr("保存裁判与证书设置"), self)
        self.save_button.clicked.connect(self.save)
        self.preview_button = QPushButton(self.tr("预览证书"), self)
        self.preview_button.clicked.connect(self.show_preview)

        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        form = QFormLayout()
        form.addRow(self.tr("主办单位"), self.organiser)
        form.addRow(self.tr("盖章栏"), self.seal)
        form.addRow(self.tr("证书标题"), self.title)
        form.addRow(self.tr("证书正文"), self.body)
        form.addRow(self.tr("落款"), self.signature)
        form.addRow(self.tr("日期"), self.date)
        left = QVBoxLayout()
        left.addWidget(QLabel(self.tr("裁判人员（签字者的姓名印在名次表、成绩公告等名单下方）"), self))
        left.addWidget(self.officials)
        left.addLayout(buttons)
        left.addLayout(form)
        left.addWidget(hint)
        right = QVBoxLayout()
        right.addWidget(self.preview, 1)
        right.addWidget(self.preview_button)
        row = QHBoxLayout()
        row.addLayout(left, 3)
        row.addLayout(right, 2)
        bottom = QHBoxLayout()
        bottom.addWidget(self.message, 1)
        bottom.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addLayout(row, 1)
        layout.addLayout(bottom)
        self.refresh()

    # ------------------------------------------------------------------ values in and out

    def add_official(self, official: Official) -> None:
        row = self.officials.rowCount()
        self.officials.insertRow(row)
        self.officials.setItem(row, 0, QTableWidgetItem(official.role))
        self.officials.setItem(row, 1, QTableWidgetItem(official.name))
        signs = QCheckBox(self.officials)
        signs.setChecked(official.signs)
        self.officials.setCellWidget(row, 2, signs)

    def refresh(self) -> None:
        self.show_paperwork(load_paperwork(self.document.db))

    def show_paperwork(self, value: Paperwork) -> None:
        self.officials.setRowCount(0)
        for o in value.officials:
            self.add_official(o)
        self.organiser.setText(value.organiser)
        self.seal.setText(value.seal)
        c = value.certificate
        self.title.setText(c.title)
        self.body.setPlainText(c.body)
        self.signature.setText(c.signature)
        self.date.setText(c.date)

    def edited(self) -> Paperwork:
        officials = []
        for row in range(self.officials.rowCount()):
            role, name = self.officials.item(row, 0), self.officials.item(row, 1)
            signs = self.officials.cellWidget(row, 2)
            assert isinstance(signs, QCheckBox)
            role_text = role.text().strip() if role else ""
            name_text = name.text().strip() if name else ""
            if role_text or name_text:
                officials.append(Official(role_text, name_text, signs.isChecked()))
        return Paperwork(
            officials=tuple(officials),
            organiser=self.organiser.text().strip(),
            seal=self.seal.text().strip(),
            certificate=CertificateTemplate(
                self.title.text(), self.body.toPlainText(), self.signature.text(), self.date.text()
            ),
        )

    # ------------------------------------------------------------------ actions

    def save(self) -> bool:
        try:
            new = self.edited()
            new.validate()
            if new == load_paperwork(self.document.db):
                show_message(self.message, self.tr("没有改动"))
                return True
            perform(self.document, UpdatePaperworkCommand(self.document, new))
        except UserError as error:
            show_message(self.message, self.tr("未保存：%1").replace("%1", error_text(error)), error=True)
            return False
        show_message(self.message, self.tr("裁判人员与证书设置已保存"))
        return True

    def show_preview(self) -> bool:
        """A certificate as the template (not yet saved) prints it, on a sample prize."""
        from app.reports.model import Certificates, EventHeader
        from app.reports.pdf import render_document
        from app.ui.printing import page_images

        try:
            cert = certificate_preview(self.document.db, self.edited())
        except UserError as error:
            show_message(self.message, error_text(error), error=True)
            return False
        buf = io.BytesIO()
        render_document(
            "certificates", Certificates(EventHeader(""), (cert,)), buf, printed_at=datetime.now()
        )
        image = page_images(buf.getvalue(), scale=1.0)[0]
        size = self.preview.contentsRect().size()
        pixmap = QPixmap.fromImage(image).scaled(
            size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
        self.preview.setPixmap(pixmap)
        show_message(self.message, "")
        return True
