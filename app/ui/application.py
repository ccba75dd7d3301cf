"""Starting the program: the QApplication, the bundled CJK font, the language, the first window."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QCoreApplication, QMetaObject, QSocketNotifier, Qt, QTimer
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication, QMessageBox

from app.engine.types import UserError
from app.gc_policy import tune_collector
from app.paths import data_dir, font_path
from app.ui.dialogs.open_file import open_document
from app.ui.document import TournamentDocument
from app.ui.i18n import app_settings, install_language, preferred_language
from app.ui.main_window import MainWindow, user_message

if TYPE_CHECKING:
    from app.termination import Termination

DEMO_FILE = "demo" + ".xqt"
FONT_POINT_SIZE = 10


def application() -> QApplication:
    """The QApplication, created once, with the bundled font as the application font."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    QCoreApplication.setOrganizationName("XiangqiArbiter")
    QCoreApplication.setApplicationName("xqarbiter")
    use_bundled_font(app)
    return app


def use_bundled_font(app: QApplication) -> str | None:
    """Register ``resources/fonts`` CJK font and make it the application font; returns its family."""
    font_id = QFontDatabase.addApplicationFont(str(font_path()))
    if font_id < 0:
        return None
    families = QFontDatabase.applicationFontFamilies(font_id)
    if not families:
        return None
    app.setFont(QFont(families[0], FONT_POINT_SIZE))
    return families[0]


def demo_path() -> Path:
    """The demo tournament in the data folder, created the first time it is asked for."""
    path = data_dir() / DEMO_FILE
    if not path.exists():
        from app.services.demo import create_demo

        create_demo(path).close()
    return path


class Program:
    """Holds the open document across window rebuilds (switching the language rebuilds the window)."""

    def __init__(self) -> None:
        self.window: MainWindow | None = None

    def show(
        self,
        document: TournamentDocument | None,
        *,
        geometry: QByteArray | None = None,
        maximized: bool = False,
    ) -> MainWindow:
        window = MainWindow(document)
        if document is not None:
            document.setParent(window)
        window.language_requested.connect(self.switch_language)
        if geometry is not None:
            window.restoreGeometry(geometry)  # before showing: the window appears at the old size
        if maximized:
            window.showMaximized()
        else:
            window.show()
        self.window = window
        return window

    def switch_language(self, language: str) -> None:
        settings = app_settings()
        settings.setValue("language", language)
        settings.sync()
        install_language(language)
        old = self.window
        if old is None:
            return
        document = old.document
        current = old.navigation.currentRow() if document is not None else 0
        geometry, maximized, size = old.saveGeometry(), old.isMaximized(), old.size()
        if document is not None:
            document.setParent(None)
            old.document = None  # keep it open: the new window takes it over
        new = self.show(document, geometry=geometry, maximized=maximized)
        new.adopt_hall(old)  # the phones stay connected across the switch
        if not maximized and new.size() != size:
            new.resize(size)  # a platform that ignored the saved geometry
        if document is not None:
            new.navigation.setCurrentRow(current)
        old.close()
        old.deleteLater()


def run(path: Path | None, *, demo: bool = False, screenshot: str | None = None) -> int:
    tune_collector()  # the collector's thresholds, as in the command line and the tests (app.gc_policy)
    app = application()
    install_language(preferred_language())
    program = Program()
    document = None
    try:
        if demo:
            path = demo_path()
    except UserError as error:
        QMessageBox.warning(None, QCoreApplication.translate("MainWindow", "无法打开"), user_message(error))
    if path is not None:
        document = open_document(path, None)
    window = program.show(document)
    if screenshot:
        app.processEvents()
        window.grab().save(screenshot)
        window.close()
        return 0
    QTimer.singleShot(0, window.raise_)
    termination = quit_on_termination(app)
    try:
        code = app.exec()
        # The window shown now — a language switch replaced (and deleted) the first one. Closing it
        # releases the file's lock if it was not closed by hand.
        if program.window is not None and shiboken_alive(program.window):
            program.window.close()
    finally:
        termination.finished()
        termination.uninstall()
    return code


def shiboken_alive(widget: MainWindow) -> bool:
    """Whether the Qt object behind ``widget`` still exists (``deleteLater`` may have run)."""
    import shiboken6

    return bool(shiboken6.isValid(widget))


def quit_on_termination(app: QApplication) -> Termination:
    """Quit (closing the file: no stale lock) when the system asks the program to stop — SIGTERM,
    SIGHUP, Ctrl+C in its terminal; on Windows a closed console, a log-off (app/termination.py)."""
    from app.termination import Termination

    def request(_reason: str) -> None:  # any thread (Windows calls it in one of its own)
        QMetaObject.invokeMethod(app, "quit", Qt.ConnectionType.QueuedConnection)

    termination = Termination(request, interrupt=True).install()
    if os.name == "posix":
        # Python runs a signal's handler only when the main thread runs Python: wake the event loop
        reader, writer = socket.socketpair()
        reader.setblocking(False)
        writer.setblocking(False)
        signal.set_wakeup_fd(writer.fileno())
        notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read, app)
        notifier.activated.connect(lambda *_: _drain(reader))
        _wakeups.append((reader, writer, notifier))
    return termination


_wakeups: list[tuple[socket.socket, socket.socket, QSocketNotifier]] = []


def _drain(reader: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while reader.recv(512):
            pass
