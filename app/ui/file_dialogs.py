"""Every file dialog of the window, made in one place, safe beside the open tournament file.

Why one place (docs/file-safety.md): a file dialog shown on the tournament's folder looks at the
files it lists to pick their icons and types — Qt's default icon provider asks the MIME database,
which *opens and reads* each file: ``FILE``, ``FILE-wal``, ``FILE-shm``, ``FILE.lock``. On POSIX
systems the locks SQLite holds on a file belong to the process, and closing *any* descriptor of that
file drops all of them; from then on another process opening the file believes it is alone, rebuilds
the write-ahead index under the window's mapping, and the window dies of SIGBUS (or the file is
damaged). So every dialog here:

- names its icons and types from the file *names* only (:class:`NameOnlyIconProvider`: a folder, a
  file, the suffix) — nothing in the folder is opened;
- is Qt's own dialog on every system but Windows (``DontUseNativeDialog``): a native dialog of a Linux
  desktop or of macOS runs in the window's process and reads the files for their thumbnails and types.
  Windows keeps its native dialog: its file locks belong to a handle, not to the process, so another
  handle opened and closed by Explorer's code cannot drop SQLite's;
- speaks the window's language: the labels Qt's translation lacks (查找范围, 文件类型 …) are set here;
- starts in the open tournament's folder when no folder is given (:func:`set_default_folder`).

No other module may make a ``QFileDialog`` (a test checks it).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QFileInfo
from PySide6.QtWidgets import QDialog, QFileDialog, QFileIconProvider, QWidget

from app.ui.i18n import tr

#: Windows only: there a native dialog cannot drop SQLite's locks (they belong to a handle)
NATIVE = sys.platform == "win32"

_default_folder: Path | None = None
_provider: NameOnlyIconProvider | None = None


class NameOnlyIconProvider(QFileIconProvider):
    """Icons and types from a file's name, never from its content (no file is opened).

    Called from Qt's file-information thread as well as the window's: it only looks at the
    ``QFileInfo`` it is given (whose kind comes from ``stat``, which opens nothing)."""

    def icon(self, what: Any) -> Any:  # QFileIconProvider.icon(IconType) and .icon(QFileInfo)
        if isinstance(what, QFileInfo):
            if what.isRoot():
                kind = QFileIconProvider.IconType.Drive
            elif what.isDir():
                kind = QFileIconProvider.IconType.Folder
            else:
                kind = QFileIconProvider.IconType.File
            return super().icon(kind)
        return super().icon(what)

    def type(self, info: QFileInfo) -> str:
        if info.isRoot():
            return tr("FileDialogs", "驱动器")
        if info.isDir():
            return tr("FileDialogs", "文件夹")
        suffix = info.suffix()
        if not suffix:
            return tr("FileDialogs", "文件")
        return tr("FileDialogs", "%1 文件").replace("%1", suffix.upper())


def icon_provider() -> NameOnlyIconProvider:
    """The one provider every dialog uses (made once the application exists; dialogs do not own it)."""
    global _provider
    if _provider is None:
        _provider = NameOnlyIconProvider()
    return _provider


def set_default_folder(folder: Path | None) -> None:
    """Where a dialog given no folder starts: the open tournament's folder (None: Qt's choice)."""
    global _default_folder
    _default_folder = folder


def start_in(directory: str) -> str:
    """The folder (and suggested name) a dialog starts with: ``""`` → the default folder; a bare name
    (``报名表.xlsx``) → that name in the default folder; anything with a folder in it as given."""
    if _default_folder is None:
        return directory
    if not directory:
        return str(_default_folder)
    given = Path(directory)
    if not given.is_absolute() and given.parent == Path("."):
        return str(_default_folder / given)
    return directory


def make_dialog(
    parent: QWidget | None, caption: str, directory: str, name_filter: str, mode: str
) -> QFileDialog:
    """A file dialog of ``mode`` ``"open"``, ``"save"`` or ``"folder"``, configured as the module says."""
    dialog = QFileDialog(parent, caption, start_in(directory), name_filter)
    dialog.setIconProvider(icon_provider())
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, not NATIVE)
    if mode == "open":
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setLabelText(QFileDialog.DialogLabel.Accept, tr("FileDialogs", "打开(&O)"))
    elif mode == "save":
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setLabelText(QFileDialog.DialogLabel.Accept, tr("FileDialogs", "保存(&S)"))
    elif mode == "folder":
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.setLabelText(QFileDialog.DialogLabel.Accept, tr("FileDialogs", "选择文件夹"))
    else:
        raise ValueError(f"unknown file dialog mode {mode!r}")
    dialog.setLabelText(QFileDialog.DialogLabel.LookIn, tr("FileDialogs", "查找范围(&I)："))
    dialog.setLabelText(
        QFileDialog.DialogLabel.FileName,
        tr("FileDialogs", "文件夹(&N)：") if mode == "folder" else tr("FileDialogs", "文件名(&N)："),
    )
    dialog.setLabelText(QFileDialog.DialogLabel.FileType, tr("FileDialogs", "文件类型(&T)："))
    dialog.setLabelText(QFileDialog.DialogLabel.Reject, tr("FileDialogs", "取消"))
    return dialog


def _chosen(dialog: QFileDialog) -> str:
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return ""
        files = dialog.selectedFiles()
        return files[0] if files else ""
    finally:
        dialog.deleteLater()


def open_file_name(parent: QWidget | None, caption: str, directory: str = "", name_filter: str = "") -> str:
    """The file the arbiter chose to open, or ``""`` when cancelled."""
    return _chosen(make_dialog(parent, caption, directory, name_filter, "open"))


def save_file_name(parent: QWidget | None, caption: str, directory: str = "", name_filter: str = "") -> str:
    """The file name the arbiter chose to save to, or ``""`` when cancelled."""
    return _chosen(make_dialog(parent, caption, directory, name_filter, "save"))


def existing_directory(parent: QWidget | None, caption: str, directory: str = "") -> str:
    """The folder the arbiter chose, or ``""`` when cancelled."""
    return _chosen(make_dialog(parent, caption, directory, "", "folder"))
