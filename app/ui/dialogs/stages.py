"""The format of a group (赛制): a ready-made format, then its stages field by field or as text.

A ready-made format (积分编排, 积分编排后淘汰赛, 单循环, 双循环, 分组循环后淘汰赛, 单败淘汰, 双败淘汰)
fills in the stages; the 逐项设置 tab edits each stage's fields (:class:`StageForm`: system, entrants,
rounds, cycles and pools, a knockout's match ladders), the 规程文字（高级） tab the same stages as the
regulation file's text (``[[groups.stages]]``). Whatever the tab, the stages are checked by writing them
as that text and reading it back with the regulation loader: a key that belongs to another kind of
stage, or a format that cannot work, is named and nothing changes. Stages that have begun are locked.
The settings view stores what this dialog returns.
"""

from __future__ import annotations

import dataclasses
import tomllib

import tomli_w
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.engine.format_presets import FORMATS, format_stages
from app.engine.formats import Stage
from app.engine.regulations import (
    GroupFormat,
    Regulations,
    refuse_unused_stage_chains,
    regulations_from_dict,
    regulations_to_dict,
    stages_to_dict,
)
from app.engine.types import UserError
from app.ui.dialogs.stage_form import StageForm
from app.ui.i18n import current_language


def stages_text(stages: tuple[Stage, ...]) -> str:
    """The stages as the regulation file writes them (``[[stages]]`` tables)."""
    text: str = tomli_w.dumps({"stages": stages_to_dict(stages)})
    return text


def stages_from_text(text: str, group: GroupFormat, regulations: Regulations) -> tuple[Stage, ...]:
    """The stages of ``text``, checked within the whole regulation (the key and the problem named)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"赛制文字不是有效的 TOML：{exc}", f"the format is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - {"stages"})
    if unknown:
        raise UserError(
            f"赛制中只能有 [[stages]]，不能有“{unknown[0]}”",
            f"only [[stages]] may be given, not {unknown[0]!r}",
        )
    whole = regulations_to_dict(regulations)
    for g in whole["groups"]:
        if g["name"] == group.name:
            g["stages"] = data.get("stages", [])
    checked = regulations_from_dict(whole)
    refuse_unused_stage_chains(
        dataclasses.replace(checked, groups=(checked.group(group.name),))
    )  # this group's stages as a file's (another group's stored stages are not this text's)
    return checked.group(group.name).stages


class StagesDialog(QDialog):
    """Edit one group's stages: a ready-made format, then field by field or the stage keys as text.
    ``begun``: how many of the group's stages have begun (locked)."""

    def __init__(
        self,
        group: GroupFormat,
        regulations: Regulations,
        players: int,
        parent: QWidget | None = None,
        begun: int = 0,
    ) -> None:
        super().__init__(parent)
        self.group = group
        self.begun = begun
        self._syncing = False
        self.regulations = regulations
        self.players = max(players, 4)
        self.stages = group.stages
        self.setWindowTitle(self.tr("%1 的赛制").replace("%1", group.name))
        self.preset = QComboBox(self)
        self.preset.addItem(self.tr("（选择现成的赛制）"), None)
        english = current_language() == "en"
        for key, (zh, en) in FORMATS.items():
            self.preset.addItem(en if english else zh, key)
        apply = QPushButton(self.tr("套用"), self)
        apply.clicked.connect(self.apply_preset)
        self.text = QPlainTextEdit(self)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.Monospace)
        self.text.setFont(mono)
        self.text.setPlainText(stages_text(group.stages))
        self.text.setMinimumSize(560, 360)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020")
        self.text.textChanged.connect(self._text_edited)
        self.form = StageForm(group.stages, begun, self)
        self.form.changed.connect(self._form_edited)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.form, self.tr("逐项设置(&F)"))
        self.tabs.addTab(self.text, self.tr("规程文字（高级）(&T)"))
        self.tabs.currentChanged.connect(self._tab_changed)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("现成赛制："), self))
        row.addWidget(self.preset, 1)
        row.addWidget(apply)
        note = QLabel(
            self.tr(
                "每个阶段一个 [[stages]]：kind 为 swiss（积分编排）、round_robin（循环赛）或 knockout（淘汰赛）；"
                "entrants 为 all、top、rest、pool_top，count 为人数；详见 docs/formats.md。"
            ),
            self,
        )
        note.setWordWrap(True)
        note.setStyleSheet("color: #555")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, parent=self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(note)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.check()

    def apply_preset(self) -> None:
        key = self.preset.currentData()
        if key is None:
            return
        try:
            stages = format_stages(str(key), self.players)
        except UserError as exc:
            self.message.setText(exc.en if current_language() == "en" else exc.zh)
            return
        self.text.setPlainText(stages_text(stages))
        self.form.set_stages(self.stages)

    def _form_edited(self) -> None:
        """A field changed: the text follows (the one form the loader checks)."""
        self._syncing = True
        try:
            self.text.setPlainText(stages_text(tuple(self.form.stages)))
        finally:
            self._syncing = False
        self.check()

    def _text_edited(self) -> None:
        if not self._syncing:
            self.check()

    def _tab_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.form and self.check():
            self.form.set_stages(self.stages)  # what the text says, field by field

    def check(self) -> bool:
        """Check the stages as the regulation file is checked; show what they are, or what is wrong."""
        ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        try:
            stages = stages_from_text(self.text.toPlainText(), self.group, self.regulations)
            for i in range(self.begun):
                if i >= len(stages) or stages[i] != self.group.stages[i]:
                    raise UserError(
                        f"第{i + 1}阶段已开始，不能修改或删除",
                        f"stage {i + 1} has begun: it cannot be changed",
                    )
            self.stages = stages
        except UserError as exc:
            self.message.setText(exc.en if current_language() == "en" else exc.zh)
            self.summary.setText("")
            ok_button.setEnabled(False)
            return False
        self.message.setText("")
        self.summary.setText(dataclasses.replace(self.group, stages=self.stages).describe_zh())
        ok_button.setEnabled(True)
        return True
