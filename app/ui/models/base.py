"""The one base of the program's table models: rows under fixed, translated column headers.

A model keeps its rows in ``self._rows`` and names its columns in ``COLUMNS`` (marked with
``translate_noop`` in the context ``CONTEXT``, by default the class's own name). ``rowCount``,
``columnCount`` and the horizontal ``headerData`` come from here; a model with columns that vary
(the standings' tiebreaks) overrides ``columnCount`` and ``header_text``, and one with another header
role (a coloured header, row numbers) overrides ``header_extra``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from app.ui.i18n import tr

Index = QModelIndex | QPersistentModelIndex


class FixedColumnsModel(QAbstractTableModel):
    """Rows in ``self._rows`` under the headers ``COLUMNS``, translated in ``CONTEXT`` (default: the class name)."""

    COLUMNS: tuple[str, ...] = ()
    CONTEXT: str = ""
    _rows: Sequence[Any] = ()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def header_text(self, section: int) -> str | None:
        """The translated title of a column."""
        return tr(self.CONTEXT or type(self).__name__, self.COLUMNS[section])

    def header_extra(self, section: int, orientation: Qt.Orientation, role: int) -> Any:
        """Any other header role (colours, the vertical header); nothing by default."""
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < self.columnCount():
            return self.header_text(section)
        return self.header_extra(section, orientation, role)
