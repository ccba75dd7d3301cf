"""A group's conditions of entry (参赛条件): one field per condition, checked as the regulation file is.

Dates are typed as YYYY-MM-DD (empty: no condition), numbers as digits (0 or empty: no condition), the
sex chosen 不限/男/女, regions and units listed with 、 or commas. The fields are written as the
``[groups.eligibility]`` table the regulation loader reads and the whole regulation is read back through
it: a bad value is refused with the loader's own message and OK does nothing until it is fixed. Players
already entered who would not meet the new conditions are counted in a warning; nobody is removed.
The settings view stores what this dialog returns, with the group.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.engine.eligibility import Eligibility, Sex
from app.engine.regulations import GroupFormat, Regulations, regulations_from_dict, regulations_to_dict
from app.engine.types import UserError
from app.ui.i18n import current_language

_SEPARATORS = re.compile(r"[、,，;；]")
_DATES = ("born_from", "born_to", "age_on")
_NUMBERS = ("min_age", "max_age", "min_rating", "max_rating", "min_rank", "max_rank")


def split_list(text: str) -> list[str]:
    """``"天水市、兰州市, 6205"`` → ``["天水市", "兰州市", "6205"]`` (blanks dropped)."""
    return [part.strip() for part in _SEPARATORS.split(text) if part.strip()]


def _number(text: str) -> Any:
    """Digits as a whole number (empty: 0); anything else as typed, for the loader to name."""
    text = text.strip()
    if not text:
        return 0
    try:
        return int(text)
    except ValueError:
        return text


def eligibility_from_fields(
    fields: dict[str, str], sex: Sex, group: GroupFormat, regulations: Regulations
) -> Eligibility:
    """The conditions the fields give, read by the regulation loader within the whole regulation (so a
    bad value is refused with the loader's message, naming the setting)."""
    data: dict[str, Any] = {"sex": sex.value}
    for key in _DATES:
        if fields.get(key, "").strip():
            data[key] = fields[key].strip()
    for key in _NUMBERS:
        data[key] = _number(fields.get(key, ""))
    data["regions"] = split_list(fields.get("regions", ""))
    data["units"] = split_list(fields.get("units", ""))
    whole = regulations_to_dict(regulations)
    for g in whole["groups"]:
        if g["name"] == group.name:
            g["eligibility"] = data
    return regulations_from_dict(whole).group(group.name).eligibility


class EligibilityDialog(QDialog):
    """Edit one group's conditions of entry. ``outside``: how many entered players would not meet given
    conditions (for the warning); ``self.eligibility`` holds the checked conditions after OK."""

    def __init__(
        self,
        group: GroupFormat,
        regulations: Regulations,
        outside: Callable[[Eligibility], int] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.group = group
        self.regulations = regulations
        self.outside = outside
        self.eligibility = group.eligibility
        self.setWindowTitle(self.tr("%1 的参赛条件").replace("%1", group.name))
        e = group.eligibility
        self.fields: dict[str, QLineEdit] = {}
        form = QFormLayout()
        labels = {
            "born_from": self.tr("出生日期不早于(&B)"),
            "born_to": self.tr("出生日期不晚于(&E)"),
            "min_age": self.tr("最小年龄(&A)"),
            "max_age": self.tr("最大年龄(&G)"),
            "age_on": self.tr("年龄计算日期(&D)"),
            "min_rating": self.tr("等级分不低于(&R)"),
            "max_rating": self.tr("等级分不高于(&H)"),
            "max_rank": self.tr("限等级分排名前 N 名(&K)"),
            "min_rank": self.tr("自等级分排名第 N 名起(&N)"),
            "regions": self.tr("限地区(&L)"),
            "units": self.tr("限单位(&U)"),
        }
        values: dict[str, str] = {
            "born_from": e.born_from.isoformat() if e.born_from else "",
            "born_to": e.born_to.isoformat() if e.born_to else "",
            "age_on": e.age_on.isoformat() if e.age_on else "",
            "regions": "、".join(e.regions),
            "units": "、".join(e.units),
        }
        for key in _NUMBERS:
            number = getattr(e, key)
            values[key] = str(number) if number else ""
        self.sex = QComboBox(self)
        for option, text in (
            (Sex.ANY, self.tr("不限")),
            (Sex.MALE, self.tr("男")),
            (Sex.FEMALE, self.tr("女")),
        ):
            self.sex.addItem(text, option)
        self.sex.setCurrentIndex(self.sex.findData(e.sex))
        for key in ("born_from", "born_to", "min_age", "max_age", "age_on"):
            self._add_field(form, key, labels[key], values[key])
        sex_label = QLabel(self.tr("性别(&S)"), self)
        sex_label.setBuddy(self.sex)
        form.addRow(sex_label, self.sex)
        for key in ("min_rating", "max_rating", "max_rank", "min_rank", "regions", "units"):
            self._add_field(form, key, labels[key], values[key])
        self.fields["born_from"].setPlaceholderText(self.tr("YYYY-MM-DD，空为不限"))
        self.fields["born_to"].setPlaceholderText(self.tr("YYYY-MM-DD，空为不限"))
        self.fields["age_on"].setPlaceholderText(self.tr("空为第一天比赛日"))
        for key in _NUMBERS:
            self.fields[key].setPlaceholderText(self.tr("0 或空为不限"))
        self.fields["regions"].setPlaceholderText(self.tr("地区名称或身份证号前几位，以、或逗号分隔"))
        self.fields["units"].setPlaceholderText(self.tr("单位或代表队，以、或逗号分隔"))
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.warning = QLabel(self)
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet("color: #8a5a00")
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, parent=self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.sex.currentIndexChanged.connect(lambda _=0: self.check())
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(self.warning)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.fields["born_from"].setFocus()
        self.check()

    def _add_field(self, form: QFormLayout, key: str, label: str, value: str) -> None:
        line = QLineEdit(value, self)
        line.setObjectName(key)
        line.setMinimumWidth(320)
        line.textChanged.connect(lambda _="": self.check())
        self.fields[key] = line
        caption = QLabel(label, self)
        caption.setBuddy(line)
        form.addRow(caption, line)

    def check(self) -> bool:
        """Check the fields as the regulation file is checked; show the conditions, or what is wrong."""
        sex = self.sex.currentData()
        assert isinstance(sex, Sex)
        try:
            rules = eligibility_from_fields(
                {key: line.text() for key, line in self.fields.items()}, sex, self.group, self.regulations
            )
        except UserError as exc:
            self.message.setText(exc.en if current_language() == "en" else exc.zh)
            self.summary.setText("")
            self.warning.setText("")
            return False
        self.eligibility = rules
        self.message.setText("")
        first_day = self.regulations.registration.first_day_of_play
        self.summary.setText(self.tr("参赛条件：%1").replace("%1", rules.describe_zh(first_day)))
        count = self.outside(rules) if self.outside is not None else 0
        self.warning.setText(
            self.tr("注意：已报名的 %1 名棋手不符合这些条件（不会被删除，请核实）。").replace(
                "%1", str(count)
            )
            if count
            else ""
        )
        return True

    def accept(self) -> None:
        """OK: only with conditions the loader accepts (otherwise the message stays and nothing closes)."""
        if self.check():
            super().accept()
