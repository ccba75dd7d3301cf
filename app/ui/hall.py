"""赛场网络 Hall network: the window runs the hall server (``app.web``) as its guest.

The window owns the tournament file. The server reads through the services in its own threads and
hands its only write — a deputy's result waiting for confirmation — to :class:`WindowOwner`, which
runs it in the window's (GUI) thread like any arbiter action and then refreshes the views, where the
result appears as 待确认. Every change made in the window tells the server at once
(:meth:`HallController.document_changed`), so the phones' pages follow within a second.

The server listens on loopback (this computer only) unless the arbiter picks one of the computer's
network addresses; starting it on a network records that address for the QR codes on paper.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QSize, Qt, Signal, Slot
from PySide6.QtGui import QColor, QImage, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import UserError
from app.services import hall
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language

T = TypeVar("T")


def qr_pixmap(text: str, size: int = 220) -> QPixmap:
    """The QR code of ``text`` as a pixmap about ``size`` pixels wide (same encoder as the PDFs)."""
    from app.reports.qr import qr_matrix  # reportlab's encoder: loaded when a code is first drawn

    matrix = qr_matrix(text)
    n = len(matrix) + 4
    image = QImage(n, n, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    black = QColor("black").rgb()
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                image.setPixel(c + 2, r + 2, black)
    scale = max(1, size // n)
    return QPixmap.fromImage(image.scaled(QSize(n * scale, n * scale), Qt.AspectRatioMode.KeepAspectRatio))


class WindowOwner(QObject):
    """Runs the server's writes in the window's thread, in order, then refreshes the views."""

    _run = Signal(object, object)  # action, future

    def __init__(self, document: TournamentDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._run.connect(self._execute, Qt.ConnectionType.QueuedConnection)

    def submit(self, action: Callable[[], T]) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self._run.emit(action, future)
        return future

    @Slot(object, object)
    def _execute(self, action: Callable[[], Any], future: concurrent.futures.Future[Any]) -> None:
        if not future.set_running_or_notify_cancel():  # the server gave up waiting: nothing is done
            return
        try:
            result = action()
        except BaseException as exc:
            future.set_exception(exc)
            return
        future.set_result(result)
        self.document.notify()


class HallController(QObject):
    """The hall server of the window's open tournament: start, stop, follow the document."""

    state_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.server: Any = None
        self.document: TournamentDocument | None = None
        self.owner: WindowOwner | None = None

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    @property
    def url(self) -> str:
        return str(self.server.url) if self.running else ""

    def start(self, document: TournamentDocument, host: str, port: int) -> str:
        """Serve ``document`` on ``host:port``; on a network address, remember it for the QR codes."""
        from app.web.server import HallServer

        self.stop()
        owner = None if document.read_only else WindowOwner(document, self)
        server = HallServer(document.db, owner, host=host, port=port)
        url = server.start()
        self.server, self.document, self.owner = server, document, owner
        document.changed.connect(self.document_changed)
        if server.reachable_url and not document.read_only:
            hall.set_hall_base_url(document.db, server.reachable_url)
            document.notify()
        self.state_changed.emit()
        return url

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
        if self.document is not None:
            with contextlib.suppress(RuntimeError, TypeError):
                self.document.changed.disconnect(self.document_changed)
        self.server, self.document, self.owner = None, None, None
        self.state_changed.emit()

    def document_changed(self) -> None:
        if self.server is not None:
            self.server.changed()


def _error_text(error: UserError) -> str:
    return error.en if current_language() == "en" else error.zh


class HallDialog(QDialog):
    """赛场网络: where to serve, the address and its QR code, the printed address, deputies' passes."""

    def __init__(
        self, controller: HallController, document: TournamentDocument, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.document = document
        self.setWindowTitle(self.tr("赛场网络"))
        from app.web.server import DEFAULT_PORT, local_addresses

        self.network = QComboBox(self)
        self.network.addItem(self.tr("仅本机（127.0.0.1）"), "127.0.0.1")
        for address in local_addresses():
            self.network.addItem(self.tr("局域网 %1").replace("%1", address), address)
        self.network.addItem(self.tr("所有网络（0.0.0.0）"), "0.0.0.0")
        self.port = QSpinBox(self)
        self.port.setRange(1, 65535)
        self.port.setValue(DEFAULT_PORT)
        self.start_button = QPushButton(self)
        self.start_button.clicked.connect(self.toggle)
        self.address = QLabel(self)
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.qr = QLabel(self)
        self.qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message = QLabel(self)
        self.message.setWordWrap(True)

        serve = QGroupBox(self.tr("服务"), self)
        form = QFormLayout(serve)
        form.addRow(self.tr("网络："), self.network)
        form.addRow(self.tr("端口："), self.port)
        form.addRow("", self.start_button)
        form.addRow(self.tr("地址："), self.address)
        form.addRow(self.qr)

        self.base_url = QLineEdit(hall.hall_base_url(document.db), self)
        self.base_url.setPlaceholderText(self.tr("如 http://192.168.1.10:8080（留空：纸上不印二维码）"))
        save = QPushButton(self.tr("保存"), self)
        save.clicked.connect(self.save_base_url)
        printed = QGroupBox(self.tr("打印在台卡和名单上的地址（二维码）"), self)
        row = QHBoxLayout(printed)
        row.addWidget(self.base_url, 1)
        row.addWidget(save)

        deputies = QGroupBox(self.tr("副裁判录入令牌（本轮结束即失效）"), self)
        self.deputy_name = QLineEdit(self)
        self.deputy_name.setPlaceholderText(self.tr("副裁判姓名"))
        self.first_board = QSpinBox(self)
        self.first_board.setRange(1, 9999)
        self.last_board = QSpinBox(self)
        self.last_board.setRange(1, 9999)
        self.last_board.setValue(20)
        issue = QPushButton(self.tr("发放令牌"), self)
        issue.clicked.connect(self.issue)
        revoke = QPushButton(self.tr("收回选中令牌"), self)
        revoke.clicked.connect(self.revoke)
        self.passes = QTreeWidget(self)
        self.passes.setRootIsDecorated(False)
        self.passes.setHeaderLabels(
            [self.tr("副裁判"), self.tr("组别"), self.tr("轮次"), self.tr("台次"), self.tr("状态")]
        )
        self.passes.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.deputy_link = QLabel(self)
        self.deputy_link.setWordWrap(True)
        self.deputy_link.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.deputy_qr = QLabel(self)
        self.deputy_qr.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # The name has its own row, wide enough for a name: the address and its QR code on the left
        # (shown once the server runs) must not squeeze it.
        self.deputy_name.setMinimumWidth(self.deputy_name.fontMetrics().horizontalAdvance("欧阳副裁判长") * 2)
        boards = QHBoxLayout()
        boards.addWidget(self.first_board)
        boards.addWidget(QLabel("–", self))
        boards.addWidget(self.last_board)
        boards.addStretch(1)
        boards.addWidget(issue)
        inputs = QFormLayout()
        inputs.addRow(self.tr("副裁判："), self.deputy_name)
        inputs.addRow(self.tr("台次："), boards)
        column = QVBoxLayout(deputies)
        column.addLayout(inputs)
        column.addWidget(self.passes)
        column.addWidget(revoke, 0, Qt.AlignmentFlag.AlignRight)
        column.addWidget(self.deputy_link)
        column.addWidget(self.deputy_qr)

        layout = QHBoxLayout(self)
        left = QVBoxLayout()
        left.addWidget(serve)
        left.addWidget(printed)
        left.addWidget(self.message)
        left.addStretch(1)
        layout.addLayout(left)
        layout.addWidget(deputies, 1)
        self.resize(self.sizeHint().expandedTo(QSize(860, 560)))
        if document.read_only:  # another program edits the file: public pages only, nothing written
            for widget in (deputies, save, self.base_url):
                widget.setEnabled(False)
            deputies.setTitle(self.tr("副裁判录入令牌（只读打开：不可用）"))
        controller.state_changed.connect(self.show_state)
        document.changed.connect(self.fill_passes)
        self.show_state()
        self.fill_passes()

    # ------------------------------------------------------------------ serving

    def show_state(self) -> None:
        running = self.controller.running
        self.start_button.setText(self.tr("停止") if running else self.tr("启动"))
        self.network.setEnabled(not running)
        self.port.setEnabled(not running)
        if running:
            url = self.controller.url
            self.address.setText(url)
            self.qr.setPixmap(qr_pixmap(url))
            if self.controller.server.loopback_only:
                self.message.setText(
                    self.tr(
                        "只有本机能打开。要让手机访问，请选择局域网地址（用路由器，不要用 Windows 热点：它最多连 8 台设备）。"
                    )
                )
            else:
                self.message.setText(self.tr("手机连上同一路由器后扫码即可查看。"))
        else:
            self.address.setText(self.tr("未启动"))
            self.qr.clear()
        self.base_url.setText(hall.hall_base_url(self.document.db))

    def toggle(self) -> None:
        if self.controller.running:
            self.controller.stop()
            return
        try:
            self.controller.start(self.document, str(self.network.currentData()), self.port.value())
        except UserError as error:
            QMessageBox.warning(self, self.tr("赛场网络"), _error_text(error))

    def save_base_url(self) -> None:
        try:
            hall.set_hall_base_url(self.document.db, self.base_url.text())
        except UserError as error:
            QMessageBox.warning(self, self.tr("赛场网络"), _error_text(error))
            return
        self.document.notify()
        self.show_state()

    # ------------------------------------------------------------------ deputies

    def fill_passes(self) -> None:
        self.passes.clear()
        for p in hall.deputy_passes(self.document.db):
            state = (
                self.tr("有效") if p.active else (self.tr("已收回") if p.revoked else self.tr("本轮已结束"))
            )
            item = QTreeWidgetItem(
                [p.deputy, p.group, str(p.round), f"{p.first_board}–{p.last_board}", state]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, p.id)
            self.passes.addTopLevelItem(item)

    def issue(self) -> hall.IssuedToken | None:
        try:
            issued = hall.issue_deputy_token(
                self.document.db,
                self.document.group,
                self.first_board.value(),
                self.last_board.value(),
                self.deputy_name.text(),
            )
        except UserError as error:
            QMessageBox.warning(self, self.tr("副裁判录入令牌"), _error_text(error))
            return None
        base = self.controller.url if self.controller.running else hall.hall_base_url(self.document.db)
        link = (base or "http://…") + hall.deputy_path(issued.token)
        p = issued.deputy_pass
        self.deputy_link.setText(
            self.tr("%1：%2 第 %3 轮 %4。请副裁判扫码（只显示这一次）：")
            .replace("%1", p.deputy)
            .replace("%2", p.group)
            .replace("%3", str(p.round))
            .replace("%4", p.boards_text)
            + f"<br><code>{link}</code>"
        )
        self.deputy_qr.setPixmap(qr_pixmap(link) if base else QPixmap())
        self.last_link = link
        self.document.notify()
        return issued

    def revoke(self) -> None:
        item = self.passes.currentItem()
        if item is None:
            return
        try:
            hall.revoke_deputy_token(self.document.db, int(item.data(0, Qt.ItemDataRole.UserRole)))
        except UserError as error:
            QMessageBox.warning(self, self.tr("副裁判录入令牌"), _error_text(error))
            return
        self.document.notify()
