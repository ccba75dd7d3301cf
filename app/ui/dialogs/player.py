"""Add or edit a player, with the registration checks shown live under the form.

Every keystroke checks the entry through the registration service (the same checks the service
applies on OK); the problems are listed under the form and OK stays disabled while there are any.
A new entry after the registration deadline, or outside its group's conditions (参赛资格), needs the
arbiter's reason (logged with the entry); the reason field shows when one is needed.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.engine.eligibility import RATING_RANK_MAX
from app.engine.registration import CheckedEntry, PlayerEntry
from app.engine.types import Gender, UserError
from app.services import registration
from app.services.registration import PlayerView
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language


class PlayerDialog(QDialog):
    def __init__(
        self, document: TournamentDocument, player: PlayerView | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.document, self.player = document, player
        self.setWindowTitle(self.tr("新增棋手") if player is None else self.tr("修改棋手资料"))
        self.name = QLineEdit(self)
        self.id_number = QLineEdit(self)
        self.phone = QLineEdit(self)
        self.group = QComboBox(self)
        self.group.addItems(document.groups)
        self.group.setCurrentText(player.group if player else document.group)
        self.gender = QComboBox(self)
        self.gender.addItems(["", self.tr("男"), self.tr("女")])
        self.team = QLineEdit(self)
        self.unit = QLineEdit(self)
        self.region = QLineEdit(self)
        self.region.setPlaceholderText(self.tr("如 甘肃天水（同地区回避、本地奖项用）"))
        self.rating = QSpinBox(self)
        self.rating.setRange(0, 3000)
        self.rating.setSpecialValueText(self.tr("无"))
        self.rating_rank = QSpinBox(self)  # 等级分排名: the place on a rating list, 1 the best
        self.rating_rank.setRange(0, RATING_RANK_MAX)
        self.rating_rank.setSpecialValueText(self.tr("无排名"))
        self.rating_rank.setToolTip(self.tr("等级分排行榜上的名次（第几名），用于按排名限定参赛资格的组别"))
        self.flags = {
            "fee_paid": QCheckBox(self.tr("已缴费"), self),
            "insurance": QCheckBox(self.tr("已交保险"), self),
            "pledge": QCheckBox(self.tr("已签承诺书"), self),
            "checked_in": QCheckBox(self.tr("已报到"), self),
        }
        deadline = document.info.regulations.registration.deadline
        self.late = player is None and datetime.now() > deadline
        self.outside = False  # the entry breaks its group's conditions: accepted only with a reason
        self.reason = QLineEdit(self)
        self.late_text = self.tr("已过报名截止时间（%1）：破例接受的理由").replace(
            "%1", f"{deadline:%Y-%m-%d %H:%M}"
        )
        self.outside_text = self.tr("不符合本组参赛资格：破例接受的理由")
        self.both_text = self.tr("逾期报名且不符合本组参赛资格：破例接受的理由")
        self.reason.setPlaceholderText(self.late_text)
        self.problems = QLabel(self)
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet("color: #b22222")
        form = QFormLayout()
        form.addRow(self.tr("姓名"), self.name)
        form.addRow(self.tr("身份证号"), self.id_number)
        form.addRow(self.tr("电话"), self.phone)
        form.addRow(self.tr("组别"), self.group)
        form.addRow(self.tr("性别"), self.gender)
        form.addRow(self.tr("队伍"), self.team)
        form.addRow(self.tr("单位"), self.unit)
        form.addRow(self.tr("地区"), self.region)
        form.addRow(self.tr("等级分"), self.rating)
        form.addRow(self.tr("等级分排名"), self.rating_rank)
        for box in self.flags.values():
            form.addRow("", box)
        form.addRow(self.tr("破例理由"), self.reason)
        form.setRowVisible(self.reason, self.late)
        self.form = form
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problems)
        layout.addWidget(self.buttons)
        if player is not None:
            self.name.setText(player.name)
            self.id_number.setText(player.id_number)
            self.phone.setText(player.phone)
            self.gender.setCurrentIndex({"": 0, "male": 1, "female": 2}[player.gender])
            self.team.setText(player.team)
            self.unit.setText(player.unit)
            self.region.setText(player.region)
            self.rating.setValue(player.rating or 0)
            self.rating_rank.setValue(player.rating_rank or 0)
            for key, box in self.flags.items():
                box.setChecked(bool(getattr(player, key)))
        for edit in (self.name, self.id_number, self.phone, self.team, self.unit, self.region, self.reason):
            edit.textChanged.connect(self.check)
        self.group.currentTextChanged.connect(self.check)
        self.gender.currentIndexChanged.connect(self.check)
        self.rating.valueChanged.connect(self.check)
        self.rating_rank.valueChanged.connect(self.check)
        self.check()

    def entry(self) -> PlayerEntry:
        base = registration.player_entry(self.player) if self.player is not None else None
        gender = {1: Gender.MALE, 2: Gender.FEMALE}.get(self.gender.currentIndex())
        values = {
            "name": self.name.text().strip(),
            "id_number": self.id_number.text().strip(),
            "phone": self.phone.text().strip(),
            "group": self.group.currentText(),
            "gender": gender,
            "team": self.team.text().strip(),
            "unit": self.unit.text().strip(),
            "region": self.region.text().strip(),
            "rating": self.rating.value() or None,
            "rating_rank": self.rating_rank.value() or None,
            **{key: box.isChecked() for key, box in self.flags.items()},
        }
        if base is None:
            return PlayerEntry(**values)  # type: ignore[arg-type]
        from dataclasses import replace

        return replace(base, **values)  # type: ignore[arg-type]

    def _text(self, zh: str, en: str) -> str:
        return en if current_language() == "en" else zh

    @property
    def override_reason(self) -> str:
        return self.reason.text().strip() if self.late or self.outside else ""

    def check(self) -> bool:
        """Live validation by the registration checks; OK is enabled only for an entry without problems."""
        db = self.document.db

        def checked_now() -> CheckedEntry:
            if self.player is None:
                return registration.check_new_player(db, self.entry(), override_reason=self.override_reason)
            return registration.check_player_edit(
                db, self.player.id, self.entry(), override_reason=self.override_reason
            )

        checked = checked_now()
        # the reason field shows while the entry (new, or an edit: a new rank, say) is refused for the
        # group's conditions, or accepted outside them by the reason typed; a player accepted so before
        # needs none again
        outside = bool(checked.outside_refused) or bool(checked.outside and self.reason.text().strip())
        if outside != self.outside:
            self.outside = outside
            self.form.setRowVisible(self.reason, self.late or outside)
            self.reason.setPlaceholderText(
                self.both_text
                if self.late and outside
                else self.late_text
                if self.late
                else self.outside_text
            )
            if outside:
                checked = checked_now()
        self.problems.setText("\n".join(self._text(p.message_zh, p.message_en) for p in checked.problems))
        self.ok_button.setEnabled(checked.ok)
        return checked.ok

    def accept(self) -> None:
        try:
            if self.player is None:
                registration.add_player(self.document.db, self.entry(), override_reason=self.override_reason)
            else:
                registration.edit_player(
                    self.document.db, self.player.id, self.entry(), override_reason=self.override_reason
                )
        except UserError as error:
            self.problems.setText(self._text(error.zh, error.en))
            return
        super().accept()
