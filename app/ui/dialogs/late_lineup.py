"""排阵迟交: the question the 团体赛 view asks when a line-up comes after the regulation's deadline.

The rule is stated (赛前 30 分钟提交出场名单, the deadline, how late) with what happens without an override
(the regulation's default line-up). Only a reason typed by the arbiter and 放行(&Y) (or Enter once a reason
is there) accepts it; Esc, 取消 and Enter without a reason leave the line-up refused. Keys typed before the
question appeared are discarded (:func:`app.ui.widgets.key_guard.guarded`).
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from app.ui.widgets.key_guard import guarded


class LateLineupDialog(QDialog):
    def __init__(self, parent: QWidget | None, text: str) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("排阵迟交"))
        label = QLabel(text, self)
        label.setWordWrap(True)
        self.accept_button = QPushButton(self.tr("放行(&Y)"), self)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(self.tr("放行理由（必填，记入审计日志）"))
        self.reason.returnPressed.connect(self._enter)
        self.reason.textChanged.connect(lambda t: self.accept_button.setEnabled(bool(t.strip())))
        self.accept_button.setEnabled(False)
        self.accept_button.setAutoDefault(False)
        self.accept_button.clicked.connect(self._enter)
        self.cancel_button = QPushButton(self.tr("不接收"), self)
        self.cancel_button.setAutoDefault(False)
        self.cancel_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.reason)
        layout.addLayout(buttons)
        self.setMinimumWidth(460)
        self.reason.setFocus()
        guarded(self)

    def _enter(self) -> None:
        if self.reason.text().strip():
            self.accept()


def ask_override(parent: QWidget | None, text: str) -> str:
    """The arbiter's reason for accepting a late line-up, or "" (not accepted)."""
    dialog = LateLineupDialog(parent, text)
    try:
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        return dialog.reason.text().strip() if accepted else ""
    finally:
        dialog.deleteLater()
