"""What the arbiter's small action dialogs share: run an undoable service command, show the outcome.

A dialog using :class:`ActionDialog` has ``document`` (the open tournament), ``message`` (a label
under its fields) and ``refresh()``; a refusal is shown in the label in the window's language and
nothing changes, a success refreshes the dialog and says what was done.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QLabel

from app.engine.types import UserError
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language
from app.ui.undo import ServiceCommand, perform


class ActionDialog(QDialog):
    document: TournamentDocument
    message: QLabel

    def refresh(self) -> None:
        """Re-read what the dialog shows (after every action)."""

    def _show(self, text: str, error: bool = False) -> None:
        self.message.setStyleSheet("color: #b22222" if error else "color: #1a6e1a")
        self.message.setText(text)

    def _run(self, command: ServiceCommand, done: str) -> bool:
        try:
            perform(self.document, command)
        except UserError as error:
            self._show(error.en if current_language() == "en" else error.zh, error=True)
            return False
        self.refresh()
        self._show(done)
        return True
