"""Opening a tournament file from the window, with a way out of every refusal (ARCHITECTURE "Storage").

* Another copy of the program is editing it → offer to open it read-only (clearly marked).
* A crashed copy left its lock → offer to take the lock over and go on editing.
* The file is corrupt → say which backup is the newest good one and offer to restore it (the
  current file is kept aside first by the restore service), then open the restored file.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox, QWidget

from app.engine.types import UserError
from app.services.backups import restore_backup
from app.services.tournaments import CorruptFileError, FileLockedError, StaleLockError
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language, tr


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
