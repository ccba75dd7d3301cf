"""A long export (a workbook, a site, a PDF of hundreds of pages) run beside the window with a progress
dialog: after a second without an answer a small window says what is being made and for how long, the
main window stays painted, and its keys and clicks wait until the work is done (window-modal).

The work runs on a worker thread (it only reads the file: SQLite in WAL mode lets the window read it
meanwhile); its result — or its error, re-raised here — is returned to the caller as if it had been
called directly.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QCoreApplication, QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QProgressDialog, QWidget

T = TypeVar("T")

SHOW_AFTER_MS = 1000  # shorter work never shows a dialog
TICK_MS = 100


def run_with_progress(parent: QWidget | None, label: str, work: Callable[[], T]) -> T:
    """``work()``, with a progress dialog labelled ``label`` if it takes longer than a second."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # handed to the caller below
            outcome["error"] = exc

    worker = threading.Thread(target=run, name="export", daemon=True)
    started = time.monotonic()
    worker.start()
    worker.join(0.05)  # quick work: no event loop at all
    if worker.is_alive():
        dialog = QProgressDialog(label, "", 0, 0, parent)
        dialog.setCancelButton(None)  # the work cannot be stopped halfway
        dialog.setWindowTitle(label)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(SHOW_AFTER_MS)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        loop = QEventLoop()
        timer = QTimer()
        timer.setInterval(TICK_MS)

        def tick() -> None:
            if not worker.is_alive():
                loop.quit()
                return
            seconds = time.monotonic() - started
            if seconds * 1000 >= SHOW_AFTER_MS:
                dialog.setLabelText(
                    label
                    + QCoreApplication.translate("Progress", "（%1 秒）").replace("%1", f"{seconds:.0f}")
                )
                if not dialog.isVisible():
                    dialog.show()

        timer.timeout.connect(tick)
        timer.start()
        if worker.is_alive():
            loop.exec()
        timer.stop()
        worker.join()
        dialog.close()
        dialog.deleteLater()
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]
