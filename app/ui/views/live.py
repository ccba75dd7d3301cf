"""A view that follows the document: refreshed on every change while shown, on showing otherwise.

Hidden views only remember that they are out of date, so entering a result costs the refresh of the
views the arbiter is looking at, not of all of them.
"""

from __future__ import annotations

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QWidget

from app.engine.types import UserError
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language
from app.ui.widgets.message_line import expire


def error_text(error: UserError) -> str:
    return error.en if current_language() == "en" else error.zh


def show_message(label: QLabel, text: str, *, error: bool = False) -> None:
    """A message in the view's message line; it goes after a while (a refusal stays longer)."""
    colour = "#b22222" if error else "#1f5f2f"
    label.setText(f"<span style='color:{colour}'>{text}</span>" if text else "")
    expire(label, error=error)


class LiveView(QWidget):
    """Subclasses implement :meth:`refresh` (read services, fill the widgets)."""

    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._stale = True
        document.changed.connect(self._document_changed)
        document.group_changed.connect(lambda _name: self._group_changed())
        document.announced.connect(self._announced)

    def refresh(self) -> None:
        raise NotImplementedError

    def _group_changed(self) -> None:
        """A message about the other group (a seed drawn, a round paired) does not stay on screen."""
        message = getattr(self, "message", None)
        if isinstance(message, QLabel):
            message.clear()
        self._document_changed()

    def _announced(self, text: str) -> None:
        """An undo or a redo: said in the message line, in place of a message it made stale."""
        message = getattr(self, "message", None)
        if isinstance(message, QLabel):
            show_message(message, text)

    def _document_changed(self) -> None:
        if self.isVisible():
            self._stale = False
            self.refresh()
        else:
            self._stale = True

    def ensure_fresh(self) -> None:
        if self._stale:
            self._stale = False
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        self.ensure_fresh()
        super().showEvent(event)
