"""A view that another part of the work will fill in (bracket, standings, teams, prizes, records)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget


class PendingView(QWidget):
    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        label = QLabel(f"<h2>{title}</h2><p>{self.tr('本功能尚未完成')}</p>", self)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        QVBoxLayout(self).addWidget(label)
