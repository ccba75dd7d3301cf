"""打印与导出: every printed document previewed first, then printed or saved as PDF; Excel and HTML.

The PDF comes from :func:`app.services.exports.render_pdf` (the same file ``xqarbiter print``
writes). The preview shows its pages rendered by pypdfium2 (QtPdf is not part of
PySide6-Essentials); printing paints those page images onto the printer's pages, and "save as PDF"
writes the service's own PDF bytes, so the saved file keeps its text layer and embedded font.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QImage, QPainter, QPixmap
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.ui import file_dialogs
from app.ui.i18n import translate_noop

#: (document name in the exports service, label in the 打印 menu), in the order of docs/outputs.md; a name
#: ``doc:order`` prints a list in that order (by rating, by name).
PRINTED = (
    ("table-cards", translate_noop("PrintMenu", "台卡")),
    ("pairings", translate_noop("PrintMenu", "对阵表")),
    ("results", translate_noop("PrintMenu", "成绩公告")),
    ("standings", translate_noop("PrintMenu", "名次表")),
    ("crosstable", translate_noop("PrintMenu", "个人成绩总表")),
    ("teams", translate_noop("PrintMenu", "团体名次表")),
    ("prizes", translate_noop("PrintMenu", "奖励名单")),
    ("payout", translate_noop("PrintMenu", "奖金发放签收表（内部）")),
    ("record-sheets", translate_noop("PrintMenu", "录谱纸")),
    ("entry-list", translate_noop("PrintMenu", "参赛名单")),
    ("entry-list:rating", translate_noop("PrintMenu", "参赛名单（按等级分）")),
    ("entry-list:name", translate_noop("PrintMenu", "参赛名单（按姓名）")),
    ("check-in", translate_noop("PrintMenu", "报到表（内部）")),
    ("avoidances", translate_noop("PrintMenu", "回避名单（内部）")),
    ("bracket", translate_noop("PrintMenu", "淘汰赛对阵图")),
    ("results-book", translate_noop("PrintMenu", "成绩册")),
    ("certificates", translate_noop("PrintMenu", "获奖证书")),
    # a team competition (团体赛): the round shown in the 团体赛 view
    ("team-cards", translate_noop("PrintMenu", "团体赛台卡")),
    ("team-sheets", translate_noop("PrintMenu", "团体赛对阵单（队长签字）")),
    ("lineup-forms", translate_noop("PrintMenu", "排阵单")),
    ("team-standings", translate_noop("PrintMenu", "团体赛名次表")),
    ("team-crosstable", translate_noop("PrintMenu", "团体赛成绩总表")),
    ("board-prizes", translate_noop("PrintMenu", "台次奖名单")),
)

#: the documents of a team competition (offered in the 打印 menu only for a group that is one)
TEAM_PRINTED = frozenset(
    {"team-cards", "team-sheets", "lineup-forms", "team-standings", "team-crosstable", "board-prizes"}
)


def page_images(pdf: bytes, scale: float = 1.25) -> list[QImage]:
    """Each page of ``pdf`` as an image (``scale`` 1 = 72 dpi)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    images = []
    try:
        for i in range(len(document)):
            page = document[i]
            bitmap = page.render(scale=scale, rev_byteorder=True, prefer_bgrx=True)
            fmt = QImage.Format.Format_RGBX8888 if bitmap.n_channels == 4 else QImage.Format.Format_RGB888
            image = QImage(bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride, fmt)
            images.append(image.copy())  # own the pixels before pdfium frees its bitmap
            bitmap.close()
            page.close()
    finally:
        document.close()
    return images


class PrintPreviewDialog(QDialog):
    """The pages of one document; 打印… sends them to a printer, 另存为 PDF… writes the PDF."""

    def __init__(
        self,
        title: str,
        pdf: bytes,
        suggested_name: str,
        parent: QWidget | None = None,
        *,
        picture: bool = False,
        private: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.pdf = pdf
        self.private = private  # full ID numbers and phones (内部): the saved file is owner-only
        self.suggested_name = suggested_name
        self.images = page_images(pdf)
        pages = QWidget(self)
        column = QVBoxLayout(pages)
        for image in self.images:
            label = QLabel(pages)
            label.setPixmap(QPixmap.fromImage(image))
            label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            label.setStyleSheet("border: 1px solid #999; background: white")
            column.addWidget(label)
        scroll = QScrollArea(self)
        scroll.setWidget(pages)
        scroll.setWidgetResizable(True)
        scroll.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        self.count_label = QLabel(self.tr("共 %1 页").replace("%1", str(len(self.images))), self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.print_button = QPushButton(self.tr("打印…"), self)
        self.save_button = QPushButton(self.tr("另存为 PDF…"), self)
        buttons.addButton(self.print_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.ActionRole)
        # a public list as one tall picture for the players' WeChat group
        self.picture_button = QPushButton(self.tr("存为长图（微信）…"), self)
        self.picture_button.setVisible(picture)
        self.picture_button.clicked.connect(self.save_picture)
        if picture:
            buttons.addButton(self.picture_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.print_button.clicked.connect(self.print_pages)
        self.save_button.clicked.connect(self.save_pdf)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.count_label)
        layout.addWidget(buttons)
        self.resize(900, 900)

    def save_pdf(self) -> Path | None:
        name = file_dialogs.save_file_name(self, self.tr("另存为 PDF"), self.suggested_name, "PDF (*.pdf)")
        if not name:
            return None
        path = Path(name)
        if path.suffix.lower() != ".pdf":
            path = path.with_suffix(".pdf")
        return self._write(path, self.pdf, private=self.private)

    def save_picture(self) -> Path | None:
        """The pages stacked into one PNG (app/reports/image.py), for posting to a WeChat group."""
        from app.engine.types import UserError
        from app.reports.image import tall_png
        from app.ui.i18n import current_language

        name = file_dialogs.save_file_name(
            self, self.tr("存为长图"), str(Path(self.suggested_name).with_suffix(".png")), "PNG (*.png)"
        )
        if not name:
            return None
        path = Path(name)
        if path.suffix.lower() != ".png":
            path = path.with_suffix(".png")
        try:
            data = tall_png(self.pdf)
        except UserError as error:
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(
                self, self.tr("存为长图"), error.en if current_language() == "en" else error.zh
            )
            return None
        return self._write(path, data)

    def _write(self, path: Path, data: bytes, *, private: bool = False) -> Path | None:
        """Write a file all at once (never over the open tournament's own files); None when refused."""
        from app.engine.types import UserError
        from app.files import write_atomic
        from app.ui.i18n import current_language

        try:
            return write_atomic(path, data, private=private)
        except UserError as error:
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(
                self, self.tr("无法保存"), error.en if current_language() == "en" else error.zh
            )
            return None

    def print_pages(self) -> None:
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        if printer_dialog(printer, self).exec() != QDialog.DialogCode.Accepted:
            return
        self.paint(printer)

    def paint(self, printer: QPrinter) -> None:
        """Each page image scaled to the printer's page, keeping its proportions."""
        painter = QPainter(printer)
        try:
            for i, image in enumerate(self.images):
                if i:
                    printer.newPage()
                area = painter.viewport()
                size = image.size().scaled(area.size(), Qt.AspectRatioMode.KeepAspectRatio)
                painter.drawImage(QRect(area.x(), area.y(), size.width(), size.height()), image)
        finally:
            painter.end()


def printer_dialog(printer: QPrinter, parent: QWidget | None) -> QPrintDialog:
    """Qt's print dialog without its "print to file" choice: that choice opens Qt's own file dialog,
    which reads the files of the folder it shows (dropping SQLite's locks on the open tournament file,
    docs/file-safety.md). PDFs are saved with 另存为 PDF, through the program's own file dialogs."""
    dialog = QPrintDialog(printer, parent)
    dialog.setOption(QPrintDialog.PrintDialogOption.PrintToFile, False)
    return dialog
