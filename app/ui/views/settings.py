"""设置 Settings: the regulation editor. Every setting of :class:`Regulations`, saved (undoably)
through ``update_regulations`` — which validates it and refuses, with the reason, a change that would
alter a round already paired; the editor then shows the reason and the stored values again. Import
and export of the regulation as TOML."""

from __future__ import annotations

import dataclasses
import enum
from datetime import date, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDate, QDateTime, Qt, QTime
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDateTimeEdit,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.engine.eligibility import Eligibility
from app.engine.formats import legacy_stages, plan_stages, total_rounds
from app.engine.regulations import (
    AvoidanceBasis,
    AvoidanceRule,
    AvoidanceStrength,
    DecidingDraw,
    DisqualifiedGames,
    GroupFormat,
    LateEntryPoints,
    PlacementRule,
    Regulations,
    RoundOnePairing,
    ScoreGroupOrder,
    SeedingOrder,
    ShortDrawViolation,
    TeamAvoidance,
    TeamMethod,
    TeamTie,
    Tiebreak,
    TimeControl,
)
from app.engine.team_rules import MAX_LINEUP_DEADLINE, TeamSystem
from app.engine.types import Colour, UserError
from app.services.regulation_files import write_regulation_file
from app.services.tournaments import load_regulations, update_regulations
from app.ui import file_dialogs
from app.ui.document import TournamentDocument
from app.ui.i18n import tr, translate_noop
from app.ui.models.standings import tiebreak_name
from app.ui.undo import ServiceCommand, perform
from app.ui.views.live import LiveView, error_text, show_message
from app.ui.views.paperwork_editor import ImportRegulationFileCommand, PaperworkEditor
from app.ui.views.prize_editor import PRIZE_LABELS, PrizeEditor
from app.ui.widgets.dates import DateEdit, DateTimeEdit

# Field labels, by section, in the order shown.
FIELD_LABELS: dict[str, str] = {
    "event_name": translate_noop("SettingsView", "赛事名称"),
    "start_date": translate_noop("SettingsView", "开始日期"),
    "end_date": translate_noop("SettingsView", "结束日期"),
    "venue": translate_noop("SettingsView", "比赛地点"),
    "swiss_time_control": translate_noop("SettingsView", "积分编排赛用时"),
    "points.win": translate_noop("SettingsView", "胜"),
    "points.red_draw": translate_noop("SettingsView", "和（红方）"),
    "points.black_draw": translate_noop("SettingsView", "和（黑方）"),
    "points.loss": translate_noop("SettingsView", "负"),
    "points.bye": translate_noop("SettingsView", "轮空"),
    "points.forfeit_win": translate_noop("SettingsView", "对方弃权"),
    "points.forfeit_loss": translate_noop("SettingsView", "弃权"),
    "knockout.slow": translate_noop("SettingsView", "慢棋用时"),
    "knockout.rapid": translate_noop("SettingsView", "快棋用时"),
    "knockout.deciding": translate_noop("SettingsView", "附加赛用时"),
    "knockout.deciding_draw": translate_noop("SettingsView", "附加赛和棋"),
    "knockout.placement": translate_noop("SettingsView", "第5–8名"),
    "pairing.team_avoidance": translate_noop("SettingsView", "同队回避"),
    "pairing.seeding": translate_noop("SettingsView", "序号产生办法"),
    "pairing.score_group_order": translate_noop("SettingsView", "同分组内顺序"),
    "pairing.late_entry_bye_compensation": translate_noop("SettingsView", "后报名者所缺轮次补分"),
    "pairing.late_entry_points": translate_noop("SettingsView", "每缺一轮补给"),
    "pairing.avoidances": translate_noop("SettingsView", "同单位／同地区回避"),
    "pairing.round_one": translate_noop("SettingsView", "第一轮配对办法"),
    "pairing.colour_run_limit": translate_noop("SettingsView", "连续同色最多（局）"),
    "pairing.colour_difference_limit": translate_noop("SettingsView", "先后手之差最多（局）"),
    "prize_rules.one_per_player": translate_noop("SettingsView", "奖项不兼得（就高）"),
    "prize_rules.withholding_percent": translate_noop("SettingsView", "代扣个人所得税（%）"),
    "tiebreaks.byes_and_forfeits_count_as_wins": translate_noop("SettingsView", "轮空和对方弃权计为胜局"),
    "tiebreaks.knockout_games_count_as_black": translate_noop("SettingsView", "淘汰赛对局计入后走局数"),
    "team.counted_members": translate_noop("SettingsView", "计分队员人数"),
    "team.min_members": translate_noop("SettingsView", "计算团体成绩的最少队员人数"),
    "team.method": translate_noop("SettingsView", "团体成绩计算办法"),
    "team.ties": translate_noop(
        "SettingsView", "团体成绩相同时依次比较（best_place, member_points, places_sum, member_places）"
    ),
    "record_duty.designated_rounds": translate_noop("SettingsView", "前几轮由裁判指定录谱"),
    "record_duty.top_boards": translate_noop("SettingsView", "此后前几台胜方录谱"),
    "record_duty.draw_recorder": translate_noop("SettingsView", "和棋录谱方"),
    "record_duty.min_draw_moves": translate_noop("SettingsView", "和棋录谱最少回合"),
    "record_duty.short_draw_charged": translate_noop("SettingsView", "和棋回合不足时记犯规"),
    "discipline.late_minutes": translate_noop("SettingsView", "迟到判负（分钟）"),
    "discipline.consecutive_forfeits_withdraw": translate_noop(
        "SettingsView", "连续弃权几轮取消后续比赛（0＝不取消）"
    ),
    "discipline.disqualified_games": translate_noop("SettingsView", "取消资格者的对局"),
    "discipline.no_draw_offer_before_move": translate_noop("SettingsView", "第几回合前不得提和"),
    "discipline.natural_limit_moves": translate_noop("SettingsView", "自然限着（回合）"),
    "discipline.forfeits_withdrawn_unranked": translate_noop("SettingsView", "因连续弃权退赛者不计名次"),
    "registration.capacity": translate_noop("SettingsView", "参赛人数上限"),
    "registration.deadline": translate_noop("SettingsView", "报名截止"),
    "registration.age_limit": translate_noop("SettingsView", "年龄上限（周岁）"),
    "registration.fee_yuan": translate_noop("SettingsView", "报名费（元）"),
    "registration.first_day_of_play": translate_noop("SettingsView", "比赛首日（计算年龄）"),
}

ENUM_LABELS: dict[enum.Enum, str] = {
    TeamMethod.PLACES: translate_noop("SettingsView", "名次之和（少者列前）"),
    TeamMethod.POINTS: translate_noop("SettingsView", "积分之和（多者列前）"),
    TeamAvoidance.NONE: translate_noop("SettingsView", "不回避"),
    TeamAvoidance.ROUND_ONE: translate_noop("SettingsView", "首轮回避"),
    TeamAvoidance.ALL_ROUNDS: translate_noop("SettingsView", "每轮回避"),
    SeedingOrder.LOT: translate_noop("SettingsView", "抽签"),
    SeedingOrder.RATING: translate_noop("SettingsView", "按等级分"),
    RoundOnePairing.HALVES: translate_noop("SettingsView", "上半区对下半区（1对n/2+1）"),
    RoundOnePairing.HALVES_BY_LOT: translate_noop("SettingsView", "上下半区抽签配对"),
    RoundOnePairing.ADJACENT: translate_noop("SettingsView", "相邻序号（1-2、4-3、5-6…）"),
    ScoreGroupOrder.SEQUENCE: translate_noop("SettingsView", "按序号"),
    ScoreGroupOrder.TIEBREAKS: translate_noop("SettingsView", "按名次区分办法"),
    DecidingDraw.BLACK_WINS: translate_noop("SettingsView", "和棋黑胜"),
    DecidingDraw.REPEAT: translate_noop("SettingsView", "换先重赛直至分出胜负"),
    PlacementRule.BRACKET: translate_noop("SettingsView", "负者继续比赛"),
    PlacementRule.STANDING: translate_noop("SettingsView", "按第一阶段名次"),
    PlacementRule.ROUND_LOST: translate_noop("SettingsView", "按被淘汰轮次"),
    DisqualifiedGames.STAND: translate_noop("SettingsView", "成绩保留"),
    DisqualifiedGames.ANNUL: translate_noop("SettingsView", "对手均计弃权胜"),
    ShortDrawViolation.BOTH: translate_noop("SettingsView", "双方"),
    ShortDrawViolation.BLACK_ONLY: translate_noop("SettingsView", "仅黑方"),
    Colour.RED: translate_noop("SettingsView", "红方"),
    Colour.BLACK: translate_noop("SettingsView", "黑方"),
    LateEntryPoints.BYE: translate_noop("SettingsView", "轮空分"),
    LateEntryPoints.DRAW: translate_noop("SettingsView", "和棋分"),
    AvoidanceBasis.UNIT: translate_noop("SettingsView", "同单位"),
    AvoidanceBasis.REGION: translate_noop("SettingsView", "同地区"),
    AvoidanceStrength.ABSOLUTE: translate_noop("SettingsView", "绝对回避"),
    AvoidanceStrength.WEAK: translate_noop("SettingsView", "尽量回避"),
    **PRIZE_LABELS,
}

PAGES = (
    (translate_noop("SettingsView", "赛事"), ("event_name", "start_date", "end_date", "venue")),
    (translate_noop("SettingsView", "计分"), ("points",)),
    (
        translate_noop("SettingsView", "用时与淘汰赛"),
        ("swiss_time_control", "knockout"),
    ),
    (translate_noop("SettingsView", "编排"), ("pairing",)),
    (translate_noop("SettingsView", "团体"), ("team",)),
    (translate_noop("SettingsView", "录谱"), ("record_duty",)),
    (translate_noop("SettingsView", "纪律"), ("discipline",)),
    (translate_noop("SettingsView", "报名"), ("registration",)),
)


class TimeControlEdit(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.minutes = QSpinBox(self)
        self.minutes.setRange(1, 600)
        self.minutes.setSuffix(self.tr(" 分钟"))
        self.increment = QSpinBox(self)
        self.increment.setRange(0, 600)
        self.increment.setPrefix(self.tr("每步加 "))
        self.increment.setSuffix(self.tr(" 秒"))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.minutes)
        row.addWidget(self.increment)
        row.addStretch(1)

    def set_value(self, value: TimeControl) -> None:
        self.minutes.setValue(value.minutes)
        self.increment.setValue(value.increment_seconds)

    def value(self) -> TimeControl:
        return TimeControl(self.minutes.value(), self.increment.value())


class AvoidanceRulesEdit(QWidget):
    """同单位／同地区回避: one row per rule — basis, strength, rounds from and to (0 = the last)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels(
            [self.tr("回避依据"), self.tr("强度"), self.tr("自第几轮"), self.tr("至第几轮（0＝最后）")]
        )
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setMinimumSize(520, 120)
        add = QPushButton(self.tr("添加回避规则"), self)
        add.clicked.connect(lambda: self.add_rule(AvoidanceRule(AvoidanceBasis.UNIT)))
        remove = QPushButton(self.tr("删除回避规则"), self)
        remove.clicked.connect(lambda: self.table.removeRow(self.table.currentRow()))
        note = QLabel(
            self.tr("绝对回避：这些轮次绝不配对；尽量回避：仅在按积分编排必须时才配对（仅次于积分优先）。"),
            self,
        )
        note.setWordWrap(True)
        note.setStyleSheet("color: #555")
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addWidget(note)
        layout.addLayout(buttons)

    def add_rule(self, rule: AvoidanceRule) -> None:
        row = self.table.rowCount()
        self.table.insertRow(row)
        for col, (enum_type, value) in enumerate(
            ((AvoidanceBasis, rule.basis), (AvoidanceStrength, rule.strength))
        ):
            combo = QComboBox(self.table)
            for member in enum_type:
                combo.addItem(tr("SettingsView", ENUM_LABELS[member]), member)
            combo.setCurrentIndex(combo.findData(value))
            self.table.setCellWidget(row, col, combo)
        for col, (low, number) in enumerate(((1, rule.from_round), (0, rule.to_round)), start=2):
            spin = QSpinBox(self.table)
            spin.setRange(low, 99)
            spin.setValue(number)
            self.table.setCellWidget(row, col, spin)

    def set_value(self, rules: tuple[AvoidanceRule, ...]) -> None:
        self.table.setRowCount(0)
        for rule in rules:
            self.add_rule(rule)

    def value(self) -> tuple[AvoidanceRule, ...]:
        out = []
        for row in range(self.table.rowCount()):
            basis, strength, first, last = (self.table.cellWidget(row, c) for c in range(4))
            assert isinstance(basis, QComboBox) and isinstance(strength, QComboBox)
            assert isinstance(first, QSpinBox) and isinstance(last, QSpinBox)
            out.append(
                AvoidanceRule(basis.currentData(), strength.currentData(), first.value(), last.value())
            )
        return tuple(out)


class UpdateRegulationsCommand(ServiceCommand):
    """Replace the regulation; undo puts the previous one back (through the same service)."""

    def __init__(self, document: TournamentDocument, new: Regulations, reason: str) -> None:
        super().__init__(document, tr("UndoCommands", "修改规程"))
        self.new, self.reason = new, reason
        self.old = load_regulations(document.db)

    def apply(self) -> None:
        update_regulations(self.document.db, self.new, reason=self.reason)

    def revert(self) -> None:
        update_regulations(self.document.db, self.old, reason="撤销 (undo)")


def _team_ties(text: str) -> tuple[TeamTie, ...]:
    """``best_place, member_points`` → the team tie rules in that order; an unknown key is refused."""
    out = []
    for key in (k.strip() for k in text.replace("，", ",").split(",")):
        if not key:
            continue
        try:
            out.append(TeamTie(key))
        except ValueError:
            allowed = ", ".join(t.value for t in TeamTie)
            raise UserError(
                f"团体成绩相同时的比较办法“{key}”无效（可选：{allowed}）",
                f"team tie rule {key!r} is not known ({allowed})",
            ) from None
    return tuple(out)


def _to_qdate(value: date) -> QDate:
    return QDate(value.year, value.month, value.day)


def _from_qdate(value: QDate) -> date:
    return date(value.year(), value.month(), value.day())


class SettingsView(LiveView):
    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.editors: dict[str, QWidget] = {}
        self.regulations: Regulations | None = None
        self.tabs = QTabWidget(self)
        for title, fields in PAGES:
            page = QWidget()
            form = QFormLayout(page)
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
            for name in fields:
                self._add_fields(form, name)
            if name == "venue":  # the event page also holds the groups and their formats
                groups_title = QLabel(f"<b>{self.tr('组别')}</b>", page)
                form.addRow(groups_title)
                form.addRow(self._groups_page())
            self.tabs.addTab(self._scrolled(page), tr("SettingsView", title))
        self.tabs.insertTab(3, self._tiebreak_page(), self.tr("名次区分"))
        self.tabs.addTab(self._prizes_page(), self.tr("奖金"))
        self.paperwork = PaperworkEditor(document, self)
        self.tabs.addTab(self.paperwork, self.tr("裁判与证书"))

        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(self.tr("修改理由（记入日志）"))
        self.save_button = QPushButton(self.tr("保存规程"), self)
        self.save_button.clicked.connect(self.save)
        self.revert_button = QPushButton(self.tr("放弃修改"), self)
        self.revert_button.clicked.connect(self.refresh)
        self.import_button = QPushButton(self.tr("导入规程文件……"), self)
        self.import_button.clicked.connect(self.import_toml)
        self.export_button = QPushButton(self.tr("导出规程文件……"), self)
        self.export_button.clicked.connect(self.export_toml)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bottom = QHBoxLayout()
        bottom.addWidget(self.reason, 1)
        bottom.addWidget(self.save_button)
        bottom.addWidget(self.revert_button)
        bottom.addSpacing(16)
        bottom.addWidget(self.import_button)
        bottom.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.message)
        layout.addLayout(bottom)

    # ------------------------------------------------------------------ building the form

    def _scrolled(self, page: QWidget) -> QScrollArea:
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(page)
        return scroll

    def _add_fields(self, form: QFormLayout, name: str) -> None:
        """One editor per leaf setting of ``name`` (a field of Regulations, maybe a section)."""
        sample = getattr(_SAMPLE, name)
        if dataclasses.is_dataclass(sample) and not isinstance(sample, TimeControl):
            for f in dataclasses.fields(sample):
                self._add_editor(form, f"{name}.{f.name}", getattr(sample, f.name))
        else:
            self._add_editor(form, name, sample)

    def _add_editor(self, form: QFormLayout, key: str, sample: Any) -> None:
        editor: QWidget
        if key == "pairing.avoidances":
            editor = AvoidanceRulesEdit(self)
        elif isinstance(sample, TimeControl):
            editor = TimeControlEdit(self)
        elif isinstance(sample, bool):
            editor = QCheckBox(self)
        elif isinstance(sample, enum.Enum):
            combo = QComboBox(self)
            for member in type(sample):
                combo.addItem(tr("SettingsView", ENUM_LABELS[member]), member)
            editor = combo
        elif isinstance(sample, int):
            spin = QSpinBox(self)
            spin.setRange(0, 1_000_000)
            editor = spin
        elif isinstance(sample, datetime):
            editor = DateTimeEdit(self)  # Tab leaves it (not its year, month, day …)
        elif isinstance(sample, date):
            editor = DateEdit(self)
        else:
            line = QLineEdit(self)
            line.setMinimumWidth(420)
            editor = line
        editor.setObjectName(key)
        self.editors[key] = editor
        form.addRow(tr("SettingsView", FIELD_LABELS[key]), editor)

    def _groups_page(self) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        self.groups_table = QTableWidget(0, 10, page)
        self.groups_table.setHorizontalHeaderLabels(
            [
                self.tr("组别"),
                self.tr("团体赛"),
                self.tr("总轮数"),
                self.tr("积分编排轮数"),
                self.tr("淘汰赛人数"),
                self.tr("赛制"),
                "",
                "",
                self.tr("排阵截止（赛前）"),
                self.tr("最后两轮互换"),
            ]
        )
        swap_header = self.groups_table.horizontalHeaderItem(9)
        if swap_header is not None:
            swap_header.setToolTip(
                self.tr("团体双循环：第一循环最后两轮互换顺序，避免连续三场主场（或客场）")
            )
        self.groups_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # the format's summary takes the room that is left (elided, whole in its tooltip), so the 赛制…… and
        # 参赛条件…… buttons stay in view instead of behind a horizontal scroll bar
        self.groups_table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        self.groups_table.verticalHeader().setVisible(False)
        self.groups_table.setMinimumSize(560, 180)
        buttons = QHBoxLayout()
        add = QPushButton(self.tr("添加组别"), page)
        add.clicked.connect(lambda: self._add_group_row(GroupFormat(self.tr("新组别"))))
        remove = QPushButton(self.tr("删除组别"), page)
        remove.clicked.connect(lambda: self.groups_table.removeRow(self.groups_table.currentRow()))
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        note = QLabel(self.tr("淘汰赛人数为 0 表示全程积分编排；淘汰赛在积分编排轮数之后进行。"), page)
        note.setStyleSheet("color: #555")
        layout.addWidget(self.groups_table, 1)
        layout.addWidget(note)
        layout.addLayout(buttons)
        return page

    def _add_group_row(self, g: GroupFormat) -> None:
        row = self.groups_table.rowCount()
        self.groups_table.insertRow(row)
        name = QTableWidgetItem(g.name)
        name.setData(Qt.ItemDataRole.UserRole, g)  # the stages, kept as they are unless the table edits them
        self.groups_table.setItem(row, 0, name)
        teams = QCheckBox(self.groups_table)
        teams.setChecked(g.teams)
        self.groups_table.setCellWidget(row, 1, teams)
        shape = g.legacy
        rounds, swiss, knockout = shape if shape else (self._rounds_shown(g), 0, 0)
        for col, value in ((2, rounds), (3, swiss)):
            spin = QSpinBox(self.groups_table)
            spin.setRange(0, 99)
            spin.setSpecialValueText("—")  # other formats: rounds known once the entrants are
            spin.setValue(value)
            spin.setEnabled(shape is not None)
            self.groups_table.setCellWidget(row, col, spin)
        size = QComboBox(self.groups_table)
        for n in sorted({0, 4, 8, 16, knockout}):
            size.addItem(str(n), n)
        size.setCurrentIndex(size.findData(knockout))
        size.setEnabled(shape is not None)
        self.groups_table.setCellWidget(row, 4, size)
        summary = QTableWidgetItem(g.describe_zh())
        summary.setFlags(summary.flags() & ~Qt.ItemFlag.ItemIsEditable)
        summary.setToolTip(g.describe_zh())
        self.groups_table.setItem(row, 5, summary)
        edit = QPushButton(self.tr("赛制……"), self.groups_table)
        edit.setToolTip(self.tr("选择现成赛制（循环赛、淘汰赛……）或逐项编辑各阶段"))
        edit.clicked.connect(lambda _=False, item=name: self.edit_stages(item))
        self.groups_table.setCellWidget(row, 6, edit)
        conditions = QPushButton(self.tr("参赛条件……"), self.groups_table)
        conditions.setToolTip(self.tr("出生日期、年龄、性别、等级分、排名、地区、单位"))
        conditions.clicked.connect(lambda _=False, item=name: self.edit_eligibility(item))
        self.groups_table.setCellWidget(row, 7, conditions)
        self.groups_table.setCellWidget(row, 8, self._deadline_editor(g))
        self.groups_table.setCellWidget(row, 9, self._swap_editor(g, name))

    def _deadline_editor(self, g: GroupFormat) -> QSpinBox:
        """A team competition's line-up deadline (排阵截止): minutes before each round's announced start,
        0 for none; a group that is not a team competition has none (—). Checked again by the regulation
        loader when saved (0–1440), and allowed to change after round 1 for the rounds to come."""
        spin = QSpinBox(self.groups_table)
        spin.setObjectName("lineup_deadline")
        if g.team_event is None:
            spin.setSpecialValueText("—")
            spin.setEnabled(False)
            spin.setToolTip(self.tr("只用于团体赛"))
            return spin
        spin.setRange(0, MAX_LINEUP_DEADLINE)
        spin.setSuffix(self.tr(" 分钟"))
        spin.setSpecialValueText(self.tr("不设截止"))
        spin.setValue(g.team_event.match.lineup_deadline)
        spin.setToolTip(
            self.tr("各队须于每轮开赛前多少分钟交排阵（按赛程的开赛时间；0 为不设截止，最多 1440 分钟）")
        )
        return spin

    def _swap_editor(self, g: GroupFormat, name: QTableWidgetItem) -> QCheckBox:
        """A team double round robin's ``swap_last_rounds`` (第一循环最后两轮互换, docs/teams.md): off for
        any other group (—); locked once the league's round 1 is paired (the service refuses the change
        then too: the order of play is fixed)."""
        box = QCheckBox(self.groups_table)
        box.setObjectName("swap_last_rounds")
        event = g.team_event
        if event is None or event.system is not TeamSystem.ROUND_ROBIN or event.cycles != 2:
            box.setEnabled(False)
            box.setToolTip(self.tr("只用于团体双循环"))
            return box
        box.setChecked(event.swap_last_rounds)
        if self._team_rounds_paired(g.name):
            box.setEnabled(False)
            box.setToolTip(self.tr("已开赛：对局秩序已定，不能再修改"))
        else:
            box.setToolTip(
                self.tr(
                    "第一循环最后两轮互换顺序（FIDE 推荐），避免任何队连续三场主场（或客场）；开赛后不能修改"
                )
            )
        box.toggled.connect(lambda _=False, item=name: self._show_summary(item))
        return box

    def _team_rounds_paired(self, group: str) -> bool:
        """Whether the team competition ``group`` has a round paired (False for a group not saved yet)."""
        from app.services.team_events import team_round_numbers

        try:
            return bool(team_round_numbers(self.document.db, group))
        except UserError:
            return False

    def _show_summary(self, item: QTableWidgetItem) -> None:
        """The 赛制 column of ``item``'s row as the row's fields now are (saved or not)."""
        row = item.row()
        summary = self.groups_table.item(row, 5)
        if summary is not None and row >= 0:
            text = self.current_groups()[row].describe_zh()
            summary.setText(text)
            summary.setToolTip(text)

    def _rounds_shown(self, g: GroupFormat) -> int:
        """The rounds of a group in stages other than today's Swiss (+ knockout): for the players
        registered so far, 0 (shown —) when that still depends on who enters."""
        players = next((x.players for x in self.document.info.groups if x.name == g.name), 0)
        known = total_rounds(plan_stages(g.stages, players or None))
        return known or 0

    def edit_stages(self, item: QTableWidgetItem) -> None:
        """The stages of the group in ``item``'s row, in :class:`StagesDialog`; the row follows."""
        from app.ui.dialogs.stages import StagesDialog

        row = item.row()
        current = self.current_groups()[row]
        players = next((g.players for g in self.document.info.groups if g.name == current.name), 0)
        dialog = StagesDialog(
            current, self.edited_regulations(), players, self, begun=self._begun(current.name)
        )
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.replace_group_row(row, dataclasses.replace(current, stages=dialog.stages))

    def edit_eligibility(self, item: QTableWidgetItem) -> None:
        """The conditions of entry of the group in ``item``'s row, in :class:`EligibilityDialog`; kept with
        the group (saved with the regulation). Players already entered who fall outside are only counted."""
        from app.ui.dialogs.eligibility import EligibilityDialog

        row = item.row()
        current = self.current_groups()[row]
        dialog = EligibilityDialog(
            current, self.edited_regulations(), lambda rules: self._outside(current.name, rules), self
        )
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.replace_group_row(row, dataclasses.replace(current, eligibility=dialog.eligibility))
        count = self._outside(current.name, dialog.eligibility)
        if count:
            show_message(
                self.message,
                self.tr("%1：已报名的 %2 名棋手不符合新的参赛条件（未删除）；保存后生效")
                .replace("%1", current.name)
                .replace("%2", str(count)),
                error=True,
            )

    def _outside(self, group: str, rules: Eligibility) -> int:
        """How many players of ``group`` would not meet ``rules`` (0 for a group not saved yet)."""
        from app.services.registration import players_outside

        try:
            return players_outside(self.document.db, group, rules)
        except UserError:
            return 0

    def _begun(self, group: str) -> int:
        """How many of the group's stages have begun (the 赛制 dialog locks them); 0 for a new group."""
        from app.services.stages import stages_of

        try:
            return sum(1 for info in stages_of(self.document.db, group) if info.begun)
        except UserError:
            return 0

    def replace_group_row(self, row: int, g: GroupFormat) -> None:
        """Show ``g`` in row ``row``: its stages kept with the name, the simple columns where its shape
        allows (a Swiss with or without a top-N knockout), the description of its stages."""
        name = self.groups_table.item(row, 0)
        if name is not None:
            name.setData(Qt.ItemDataRole.UserRole, g)
        shape = g.legacy
        rounds, swiss, knockout = shape if shape else (self._rounds_shown(g), 0, 0)
        for col, value in ((2, rounds), (3, swiss)):
            spin = self.groups_table.cellWidget(row, col)
            assert isinstance(spin, QSpinBox)
            spin.setValue(value)
            spin.setEnabled(shape is not None)
        size = self.groups_table.cellWidget(row, 4)
        assert isinstance(size, QComboBox)
        if size.findData(knockout) < 0:
            size.addItem(str(knockout), knockout)
        size.setCurrentIndex(size.findData(knockout))
        size.setEnabled(shape is not None)
        summary = self.groups_table.item(row, 5)
        if summary is not None:
            summary.setText(g.describe_zh())

    def _tiebreak_page(self) -> QWidget:
        page = QWidget()
        layout = QHBoxLayout(page)
        self.chain_list = QListWidget(page)
        self.chain_list.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.chain_list.setMaximumWidth(320)
        side = QVBoxLayout()
        up = QPushButton(self.tr("上移"), page)
        up.clicked.connect(lambda: self.move_tiebreak(-1))
        down = QPushButton(self.tr("下移"), page)
        down.clicked.connect(lambda: self.move_tiebreak(1))
        side.addWidget(QLabel(self.tr("积分相同时依次比较（勾选者使用）："), page))
        side.addWidget(up)
        side.addWidget(down)
        form = QFormLayout()
        for key in ("tiebreaks.byes_and_forfeits_count_as_wins", "tiebreaks.knockout_games_count_as_black"):
            self._add_editor(form, key, True)
        side.addLayout(form)
        note = QLabel(self.tr("仍相同时按序号排列；“前轮成绩”只能放在最后。"), page)
        note.setStyleSheet("color: #555")
        note.setWordWrap(True)
        side.addWidget(note)
        side.addStretch(1)
        layout.addWidget(self.chain_list)
        layout.addLayout(side, 1)
        return page

    def move_tiebreak(self, step: int) -> None:
        row = self.chain_list.currentRow()
        target = row + step
        if row < 0 or not 0 <= target < self.chain_list.count():
            return
        item = self.chain_list.takeItem(row)
        self.chain_list.insertItem(target, item)
        self.chain_list.setCurrentRow(target)

    def _prizes_page(self) -> QWidget:
        self.prize_editor = PrizeEditor(self.current_groups, self)
        for key in ("prize_rules.one_per_player", "prize_rules.withholding_percent"):
            self._add_editor(self.prize_editor.rules, key, _get(_SAMPLE, key))
        return self.prize_editor

    # ------------------------------------------------------------------ values in and out

    def refresh(self) -> None:
        self.show_regulations(load_regulations(self.document.db))
        self.paperwork.refresh()

    def show_regulations(self, reg: Regulations) -> None:
        self.regulations = reg
        for key, editor in self.editors.items():
            self._set_editor(editor, _get(reg, key))
        self.groups_table.setRowCount(0)
        for g in reg.groups:
            self._add_group_row(g)
        self.chain_list.clear()
        chain = list(reg.tiebreaks.chain)
        for t in chain + [t for t in Tiebreak if t not in chain]:
            item = QListWidgetItem(tiebreak_name(t))
            item.setData(Qt.ItemDataRole.UserRole, t)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if t in chain else Qt.CheckState.Unchecked)
            self.chain_list.addItem(item)
        self.prize_editor.set_prizes(reg.prizes)

    @staticmethod
    def _set_editor(editor: QWidget, value: Any) -> None:
        if isinstance(editor, TimeControlEdit | AvoidanceRulesEdit):
            editor.set_value(value)
        elif isinstance(editor, QCheckBox):
            editor.setChecked(bool(value))
        elif isinstance(editor, QComboBox):
            editor.setCurrentIndex(editor.findData(value))
        elif isinstance(editor, QSpinBox):
            editor.setValue(int(value))
        elif isinstance(editor, QDateTimeEdit) and isinstance(value, datetime):
            editor.setDateTime(QDateTime(_to_qdate(value.date()), QTime(value.hour, value.minute)))
        elif isinstance(editor, QDateEdit):
            editor.setDate(_to_qdate(value))
        elif isinstance(editor, QLineEdit) and isinstance(value, tuple):  # team.ties: their keys, in order
            editor.setText(", ".join(str(v.value) if isinstance(v, enum.Enum) else str(v) for v in value))
        elif isinstance(editor, QLineEdit):
            editor.setText(str(value))

    @staticmethod
    def _editor_value(editor: QWidget) -> Any:
        if isinstance(editor, TimeControlEdit | AvoidanceRulesEdit):
            return editor.value()
        if isinstance(editor, QCheckBox):
            return editor.isChecked()
        if isinstance(editor, QComboBox):
            return editor.currentData()
        if isinstance(editor, QSpinBox):
            return editor.value()
        if isinstance(editor, QDateEdit):  # a date (QDateEdit is a QDateTimeEdit too)
            return _from_qdate(editor.date())
        if isinstance(editor, QDateTimeEdit):
            qdt = editor.dateTime()
            d, t = qdt.date(), qdt.time()
            return datetime(d.year(), d.month(), d.day(), t.hour(), t.minute())
        if isinstance(editor, QLineEdit):
            return editor.text().strip()
        raise AssertionError(editor)  # pragma: no cover

    def current_groups(self) -> list[GroupFormat]:
        groups = []
        for row in range(self.groups_table.rowCount()):
            item = self.groups_table.item(row, 0)
            teams = self.groups_table.cellWidget(row, 1)
            rounds = self.groups_table.cellWidget(row, 2)
            swiss = self.groups_table.cellWidget(row, 3)
            size = self.groups_table.cellWidget(row, 4)
            assert isinstance(teams, QCheckBox) and isinstance(rounds, QSpinBox)
            assert isinstance(swiss, QSpinBox) and isinstance(size, QComboBox)
            original = item.data(Qt.ItemDataRole.UserRole) if item else None
            name = (item.text() if item else "").strip()
            eligibility = original.eligibility if isinstance(original, GroupFormat) else Eligibility()
            # a team competition's settings (团体赛) are kept as the file has them, but its line-up deadline
            # and (a double round robin not begun) the swap of the first cycle's last two rounds
            team_event = original.team_event if isinstance(original, GroupFormat) else None
            deadline = self.groups_table.cellWidget(row, 8)
            if team_event is not None and isinstance(deadline, QSpinBox):
                match = dataclasses.replace(team_event.match, lineup_deadline=deadline.value())
                team_event = dataclasses.replace(team_event, match=match)
            swap = self.groups_table.cellWidget(row, 9)
            if team_event is not None and isinstance(swap, QCheckBox) and swap.isEnabled():
                team_event = dataclasses.replace(team_event, swap_last_rounds=swap.isChecked())
            if isinstance(original, GroupFormat) and original.legacy is None:
                groups.append(GroupFormat(name, teams.isChecked(), original.stages, eligibility, team_event))
                continue
            groups.append(
                GroupFormat(
                    name,
                    teams.isChecked(),
                    legacy_stages(rounds.value(), swiss.value(), int(size.currentData())),
                    eligibility,
                    team_event,
                )
            )
        return groups

    def edited_regulations(self) -> Regulations:
        """The regulation as the editor shows it (not validated: the service does that)."""
        assert self.regulations is not None
        reg = self.regulations
        sections: dict[str, dict[str, Any]] = {}
        top: dict[str, Any] = {}
        for key, editor in self.editors.items():
            value = self._editor_value(editor)
            section, _, name = key.partition(".")
            if name:
                sections.setdefault(section, {})[name] = value
            else:
                top[key] = value
        if isinstance(sections.get("team", {}).get("ties"), str):
            sections["team"]["ties"] = _team_ties(sections["team"]["ties"])
        for section, values in sections.items():
            top[section] = dataclasses.replace(getattr(reg, section), **values)
        chain = tuple(
            self.chain_list.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(self.chain_list.count())
            if self.chain_list.item(i).checkState() == Qt.CheckState.Checked
        )
        top["tiebreaks"] = dataclasses.replace(top.get("tiebreaks", reg.tiebreaks), chain=chain)
        top["groups"] = tuple(self.current_groups())
        top["prizes"] = self.prize_editor.prizes()
        return dataclasses.replace(reg, **top)

    # ------------------------------------------------------------------ actions

    def save(self) -> bool:
        """Save through the service; a refusal is shown and the stored values come back."""
        try:
            new = self.edited_regulations()
            if new == self.regulations:
                show_message(self.message, self.tr("规程没有改动"))
                return True
            perform(self.document, UpdateRegulationsCommand(self.document, new, self.reason.text().strip()))
        except UserError as error:
            self.refresh()
            show_message(
                self.message,
                self.tr("未保存：%1（已恢复原设置）").replace("%1", error_text(error)),
                error=True,
            )
            return False
        self.reason.clear()
        show_message(self.message, self.tr("规程已保存"))
        return True

    def import_toml(self) -> None:
        name = file_dialogs.open_file_name(self, self.tr("导入规程"), "", self.tr("规程 (*.toml)"))
        if name:
            self.import_from(Path(name))

    def import_from(self, path: Path) -> bool:
        """The regulation file (and its paperwork, if it has any), checked whole; undoable."""
        try:
            perform(self.document, ImportRegulationFileCommand(self.document, path))
        except UserError as error:
            show_message(self.message, self.tr("未导入：%1").replace("%1", error_text(error)), error=True)
            return False
        show_message(self.message, self.tr("已从 %1 导入规程").replace("%1", path.name))
        return True

    def export_toml(self) -> None:
        name = file_dialogs.save_file_name(
            self, self.tr("导出规程"), "regulations.toml", self.tr("规程 (*.toml)")
        )
        if name:
            self.export_to(Path(name))

    def export_to(self, path: Path) -> bool:
        """This event's regulation file (with its paperwork), for next year's event to start from."""
        try:
            write_regulation_file(self.document.db, path)
        except UserError as error:
            show_message(self.message, self.tr("未导出：%1").replace("%1", error_text(error)), error=True)
            return False
        show_message(self.message, self.tr("规程已导出到 %1").replace("%1", str(path)))
        return True


def _get(reg: Regulations, key: str) -> Any:
    value: Any = reg
    for part in key.split("."):
        value = getattr(value, part)
    return value


_SAMPLE = Regulations("", date(2024, 1, 1), date(2024, 1, 1))
