"""Opening a tournament file from the window, with a way out of every refusal (ARCHITECTURE "Storage").

* Another copy of the program is editing it → offer to open it read-only (clearly marked).
* ``xqarbiter serve`` (the hall server without the window) has it → say so, with its process and its
  address, and offer to take it over: serve is asked over the owner's channel to hand the file over
  (it stops cleanly, letting the file go), the window opens it and serves the hall at the same address.
  The default (Enter, Esc) is to take nothing over: nothing changes.
* A crashed copy left its lock → offer to take the lock over and go on editing.
* The file is corrupt → say which backup is the newest good one and offer to restore it (the
  current file is kept aside first by the restore service), then open the restored file.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app.engine.types import UserError
from app.services.backups import restore_backup
from app.services.tournaments import CorruptFileError, FileLockedError, StaleLockError, file_in_use
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language, tr
from app.ui.widgets.key_guard import guarded

#: how long the window waits for ``serve`` to let the file go once it agreed to hand it over
HANDOVER_SECONDS = 30.0


def _message(error: UserError) -> str:
    return error.en if current_language() == "en" else error.zh


def _ask(parent: QWidget | None, title: str, text: str) -> bool:
    answer = QMessageBox.question(
        parent, title, text, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No
    )
    return answer == QMessageBox.StandardButton.Yes


def open_document(path: Path, parent: QWidget | None) -> TournamentDocument | None:
    """Open ``path``; returns None when the arbiter declines or the file cannot be opened (said so)."""
    try:
        return TournamentDocument.open(path, parent)
    except StaleLockError as error:
        # said in the window's words (the service's message names the command line's switch)
        holder = error.holder.describe() if error.holder else tr("OpenFile", "锁文件内容无法读取")
        question = (
            tr("OpenFile", "%1 上次未正常关闭（%2，该程序已不在运行）。")
            .replace("%1", path.name)
            .replace("%2", holder)
            + "\n\n"
            + tr("OpenFile", "接管该文件并继续编辑吗？（接管会记入审计日志）")
        )
        if _ask(parent, tr("OpenFile", "上次未正常关闭"), question):
            return _retry(path, parent, take_over=True)
        return None
    except FileLockedError as error:
        serving = _serving(path)
        if serving is not None:
            return _beside_serve(path, parent, *serving)
        question = _message(error) + "\n\n" + tr("OpenFile", "以只读方式打开吗？（只能查看和打印，不能修改）")
        if _ask(parent, tr("OpenFile", "文件正在被编辑"), question):
            return _retry(path, parent, read_only=True)
        return None
    except CorruptFileError as error:
        backup = error.good_backup
        if backup is None:
            QMessageBox.critical(parent, tr("OpenFile", "文件已损坏"), _message(error))
            return None
        question = _message(error) + "\n\n" + tr("OpenFile", "从该备份恢复吗？（当前文件会先另存备份）")
        if not _ask(parent, tr("OpenFile", "文件已损坏"), question):
            return None
        try:
            restore_backup(path, backup)
        except UserError as failure:
            QMessageBox.critical(parent, tr("OpenFile", "恢复失败"), _message(failure))
            return None
        return _retry(path, parent)
    except UserError as error:
        QMessageBox.warning(parent, tr("OpenFile", "无法打开"), _message(error))
        return None


def _retry(
    path: Path, parent: QWidget | None, *, read_only: bool = False, take_over: bool = False
) -> TournamentDocument | None:
    try:
        return TournamentDocument.open(path, parent, read_only=read_only, take_over=take_over)
    except UserError as error:
        QMessageBox.warning(parent, tr("OpenFile", "无法打开"), _message(error))
        return None


# --------------------------------------------------------------------------- the hall server has it


def _serving(path: Path) -> tuple[Any, dict[str, Any]] | None:
    """The channel's rendezvous of the ``xqarbiter serve`` that has ``path`` open and what it says of
    itself (its hall's address), or None (another window has it, or an owner without a channel)."""
    from app.channel.client import ask_control, live_owner

    record = live_owner(path)
    if record is None or record.owner != "serve":
        return None
    try:
        info = ask_control(record, "status")
    except UserError:
        return None
    return (record, info) if info is not None else None


def _beside_serve(
    path: Path, parent: QWidget | None, record: Any, info: dict[str, Any]
) -> TournamentDocument | None:
    url = str(info.get("url", ""))
    box = guarded(
        QMessageBox(
            QMessageBox.Icon.Question,
            tr("OpenFile", "赛场网络服务器正在使用此文件"),
            "",
            QMessageBox.StandardButton.NoButton,
            parent,
        )
    )
    box.setText(
        tr(
            "OpenFile",
            "%1 正由赛场网络服务器 xqarbiter serve（进程 %2，地址 %3）打开，手机和副裁判正通过它查看和录入。",
        )
        .replace("%1", path.name)
        .replace("%2", str(record.pid))
        .replace("%3", url)
    )
    box.setInformativeText(
        tr(
            "OpenFile",
            "接管：serve 完成正在进行的操作后停止，本窗口打开文件，并在同一地址继续提供赛场网络。\n"
            "只读打开：只能查看和打印，serve 照常运行。\n"
            "取消：什么也不改变。",
        )
    )
    take = box.addButton(tr("OpenFile", "接管(&T)"), QMessageBox.ButtonRole.AcceptRole)
    read_only = box.addButton(tr("OpenFile", "只读打开(&R)"), QMessageBox.ButtonRole.ActionRole)
    cancel = box.addButton(tr("OpenFile", "取消"), QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    try:
        box.exec()
        chosen = box.clickedButton()
    finally:
        box.deleteLater()
    if chosen is read_only:
        return _retry(path, parent, read_only=True)
    if chosen is not take:
        return None
    return _take_over_from_serve(path, parent, record, info)


def _take_over_from_serve(
    path: Path, parent: QWidget | None, record: Any, info: dict[str, Any]
) -> TournamentDocument | None:
    """Ask ``serve`` to hand the file over, wait until it has let it go, open it; the document
    remembers the hall's address (:attr:`TournamentDocument.resume_hall`) for the window to serve."""
    from app.channel.client import ask_control

    who = f"编排窗口（进程 {os.getpid()}）"  # for serve's console, which speaks Chinese
    try:
        agreed = ask_control(record, "hand-over", who)
    except UserError as error:
        agreed, refusal = None, _message(error)
    else:
        refusal = ""
    if agreed is None:
        QMessageBox.warning(
            parent,
            tr("OpenFile", "无法接管"),
            tr("OpenFile", "xqarbiter serve（进程 %1）没有交出文件，什么也没有改变。%2")
            .replace("%1", str(record.pid))
            .replace("%2", refusal),
        )
        return None
    QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        deadline = time.monotonic() + HANDOVER_SECONDS
        while file_in_use(path) and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.05)
        released = not file_in_use(path)
    finally:
        QApplication.restoreOverrideCursor()
    if not released:
        QMessageBox.warning(
            parent,
            tr("OpenFile", "无法接管"),
            tr(
                "OpenFile",
                "xqarbiter serve（进程 %1）同意交出文件，但 %2 秒内没有停止；请在它的控制台按 Ctrl+C。",
            )
            .replace("%1", str(record.pid))
            .replace("%2", str(int(HANDOVER_SECONDS))),
        )
        return None
    document = _retry(path, parent)
    if document is not None:
        document.resume_hall = (str(info.get("host", "127.0.0.1")), int(info.get("port", 0)))
    return document
