"""Every file dialog of the window, shown on the open tournament's folder, leaves SQLite's locks alone.

A file dialog that reads the files of a folder to choose their icons and types opens and closes
``FILE``, ``FILE-wal`` and ``FILE-shm`` in the window's process; POSIX locks belong to the process,
so that ``close()`` drops SQLite's SHARED lock on FILE and its lock on byte 128 of FILE-shm, and the
next process that opens the file rebuilds the index under the window's mapping (SIGBUS, or a
corrupted file). Each dialog is shown for real (on the tournament's folder, until its listing is
loaded and drawn), then another process asks the kernel who holds those two locks.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QFileSystemModel

from tests.sqlite_locks import holders

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX record locks (fcntl)")

# How long a dialog stays open once its folder is listed *and drawn*: every file's icon and type has
# then been looked up (Qt's file-information thread finishes a folder — the icon provider asked about
# each file — before the model says ``directoryLoaded``, and drawing the listing asks the model for each
# shown file's icon and type); the dwell is a margin for anything Qt does after that.
DWELL = 0.15


class DialogCloser:
    """Finds each file dialog the window opens, waits until its folder is listed (the model's
    ``directoryLoaded`` for it) and the listing drawn, then a moment more, then cancels it.

    Every dialog comes from ``file_dialogs.make_dialog``: it is wrapped so that the dialog's model is
    watched from its making on (the folder's listing starts in the constructor, and its end is
    announced through the window's event loop, which runs only once the dialog is shown)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from app.ui import file_dialogs

        self.seen: list[QFileDialog] = []
        self.folders: list[str] = []
        self._loaded: dict[int, set[str]] = {}
        self._listed_at: float | None = None
        make = file_dialogs.make_dialog

        def watched(*args: object, **kwargs: object) -> QFileDialog:
            dialog = make(*args, **kwargs)  # type: ignore[arg-type]
            model = dialog.findChild(QFileSystemModel)
            assert model is not None, "a file dialog of Qt's own (not native) lists the folder"
            loaded = self._loaded.setdefault(id(dialog), set())
            model.directoryLoaded.connect(lambda path, loaded=loaded: loaded.add(path))
            return dialog

        monkeypatch.setattr(file_dialogs, "make_dialog", watched)
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _open_dialog(self) -> QFileDialog | None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, QFileDialog) and widget.isVisible():
                return widget
        return None

    def _tick(self) -> None:
        dialog = self._open_dialog()
        if dialog is None:
            self._listed_at = None
            return
        if not self.seen or self.seen[-1] is not dialog:
            self.seen.append(dialog)
            self.folders.append(dialog.directory().absolutePath())
            dialog.setViewMode(QFileDialog.ViewMode.Detail)  # the 类型 column too
        model = dialog.findChild(QFileSystemModel)
        if model is None:
            return
        folder = dialog.directory().absolutePath()
        root = model.index(folder)
        if self._listed_at is None:
            if model.rowCount(root) > 0 and folder in self._loaded.get(id(dialog), set()):
                dialog.grab()  # drawn: the listing's icons and types asked for
                self._listed_at = time.monotonic()
            return
        if time.monotonic() - self._listed_at >= DWELL:
            self._listed_at = None
            dialog.reject()

    def stop(self) -> None:
        self.timer.stop()


@pytest.fixture
def live_window(window, event_file: Path, monkeypatch: pytest.MonkeyPatch):
    """The window on the event, the file's folder as the current folder (where a dialog starts when
    it is given no folder), and a report and an export already written beside the file."""
    monkeypatch.chdir(event_file.parent)
    (event_file.parent / "公开组-pairings.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    (event_file.parent / "regulations.toml").write_text("# a regulation file\n", encoding="utf-8")
    before = holders(event_file)
    assert before == {"file_shared": os.getpid(), "shm_dms": os.getpid()}, before
    return window


def _actions(window, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Callable[[], object]]]:
    from app.ui.dialogs.audit_backups import AuditLogDialog
    from app.ui.dialogs.new_event import NewEventDialog

    monkeypatch.setattr(NewEventDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    preview = window.print_document("pairings")
    records = window.show_view("records")
    players = window.show_view("players")
    settings = window.show_view("settings")
    audit = AuditLogDialog(window.document, window)
    return [
        ("文件 → 打开", window.open_dialog),
        ("文件 → 新建赛事", window.new_tournament),
        ("文件 → 从规程文件新建赛事", window.new_from_regulation_file),
        ("文件 → 另存副本", window.save_copy),
        ("导出 → Excel", window.export_excel),
        ("导出 → 网页", window.export_html),
        ("打印预览 → 另存为 PDF", preview.save_pdf),
        ("打印预览 → 存为长图", preview.save_picture),
        ("棋谱 → 打开棋谱", records.open_dialog),
        ("棋谱 → 导出本轮棋谱", records.export_dialog),
        ("棋谱 → 打印棋谱", records.print_dialog),
        ("报名 → 导出报名表模板", players.export_template),
        ("报名 → 导入报名表", players.import_excel),
        ("设置 → 导入规程", settings.import_toml),
        ("设置 → 导出规程", settings.export_toml),
        ("审计日志 → 导出", audit.export_dialog),
    ]


def test_every_file_dialog_on_the_files_folder_keeps_the_windows_sqlite_locks(
    live_window, event_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = live_window
    pid = os.getpid()
    closer = DialogCloser(monkeypatch)
    try:
        for name, action in _actions(window, monkeypatch):
            shown = len(closer.seen)
            action()
            assert len(closer.seen) == shown + 1, f"{name}: no file dialog was shown"
            assert Path(closer.folders[-1]).resolve() == event_file.parent.resolve(), (
                name,
                closer.folders[-1],
            )
            now = holders(event_file)
            assert now == {"file_shared": pid, "shm_dms": pid}, f"{name} dropped the window's locks: {now}"
    finally:
        closer.stop()


def test_file_dialogs_are_made_in_one_place_only() -> None:
    """No module but the factory makes a QFileDialog (a new one would bypass its safety)."""
    app_dir = Path(__file__).resolve().parents[2] / "app"
    users = sorted(
        str(f.relative_to(app_dir))
        for f in app_dir.rglob("*.py")
        if re.search(r"\bQFileDialog\b", f.read_text(encoding="utf-8"))
    )
    assert users == ["ui/file_dialogs.py"], users


@pytest.mark.parametrize("mode", ["open", "save", "folder"])
def test_file_dialogs_speak_the_windows_language(qtbot, mode: str) -> None:
    """Qt's own translation lacks some of the dialog's labels (查找范围, 文件类型): they are set here."""
    from PySide6.QtWidgets import QLabel, QPushButton

    from app.ui import file_dialogs
    from app.ui.i18n import install_language

    def texts(dialog: QFileDialog) -> list[str]:
        shown = [w.text() for w in dialog.findChildren(QLabel) if w.text()]
        shown += [w.text() for w in dialog.findChildren(QPushButton) if w.text()]
        return [re.sub(r"\(&\w\)", "", t).replace("&", "") for t in shown]

    for language, foreign in (("zh", r"[A-Za-z]"), ("en", r"[\u4e00-\u9fff]")):
        install_language(language)
        dialog = file_dialogs.make_dialog(None, "x", "", "", mode)
        qtbot.addWidget(dialog)
        wrong = [t for t in texts(dialog) if re.search(foreign, t)]
        assert wrong == [], (language, wrong)
    install_language("zh")


def test_the_window_refuses_to_save_a_document_over_its_own_file(
    live_window, event_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QMessageBox

    from app.ui import file_dialogs
    from app.ui.dialogs.audit_backups import AuditLogDialog

    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(str(a[2])))
    records = live_window.show_view("records")
    audit = AuditLogDialog(live_window.document, live_window)
    before = {s: Path(str(event_file) + s).stat().st_mtime_ns for s in ("", "-wal", "-shm")}
    for name in ("event.xqt-shm", "event.xqt-wal", "event.xqt"):
        target = str(event_file.parent / name)
        monkeypatch.setattr(file_dialogs, "save_file_name", lambda *a, t=target, **k: t)
        audit.export_dialog()
        assert records.export_to(Path(target)) is False
        assert "正在使用的赛事文件" in records.message.text()
    assert len(warned) == 3 and all("正在使用的赛事文件" in w for w in warned), warned
    assert {s: Path(str(event_file) + s).stat().st_mtime_ns for s in before} == before
    assert holders(event_file) == {"file_shared": os.getpid(), "shm_dms": os.getpid()}


def test_the_print_dialog_offers_no_file_dialog_of_its_own(
    qtbot, live_window, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Qt's print dialog has a "print to file" choice that opens Qt's own file dialog (reading the
    folder's files): it is switched off; PDFs are saved through the program's dialogs."""
    from PySide6.QtPrintSupport import QPrintDialog

    shown: list[bool] = []
    monkeypatch.setattr(
        QPrintDialog,
        "exec",
        lambda self: shown.append(self.testOption(QPrintDialog.PrintDialogOption.PrintToFile)) or 0,
    )
    preview = live_window.print_document("pairings")
    preview.print_pages()
    assert shown == [False]
