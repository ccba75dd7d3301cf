"""团体 Teams and 奖金 Prizes: the team ranking of the group and every prize table of the event."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import UserError
from app.services.standings import prize_list, team_standings
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language
from app.ui.models.standings import PrizeTableModel, TeamTableModel
from app.ui.views.live import LiveView, error_text, show_message


def _table(parent: QWidget) -> QTableView:
    table = QTableView(parent)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.setAlternatingRowColors(True)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    table.horizontalHeader().setStretchLastSection(True)
    return table


class TeamsView(LiveView):
    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.model = TeamTableModel(self)
        self.title = QLabel(self)
        self.title.setStyleSheet("font-weight: bold")
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.table = _table(self)
        self.table.setModel(self.model)
        self.unranked = QLabel(self)
        self.unranked.setWordWrap(True)
        self.unranked.setTextFormat(Qt.TextFormat.RichText)
        self.rule = QLabel(self)
        self.rule.setStyleSheet("color: #444")
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.rule)
        layout.addWidget(self.unranked)

    def refresh(self) -> None:
        try:
            value = team_standings(self.document.db, self.document.group)
        except UserError as error:
            self.model.set_teams(None)
            self.table.hide()
            self.unranked.clear()
            self.rule.clear()
            self.title.setText(self.tr("%1 团体名次").replace("%1", self.document.group))
            show_message(self.message, error_text(error), error=True)
            return
        self.table.show()
        self.model.set_teams(value)
        self.table.resizeColumnsToContents()
        if value.final:
            self.title.setText(self.tr("%1 团体名次（最终）").replace("%1", value.group))
            show_message(self.message, "")
        else:
            english = current_language() == "en"
            basis = "" if value.basis is None else (value.basis.en if english else value.basis.zh)
            self.title.setText(self.tr("%1 团体名次（%2）").replace("%1", value.group).replace("%2", basis))
            show_message(self.message, self.tr("比赛尚未结束：团体名次按目前的个人名次计算，仅供参考。"))
        team = self.document.info.regulations.team
        self.rule.setText(
            self.tr(
                "每队取个人名次最好的 %1 名队员的名次相加，和小者列前；相同时个人最高名次者列前。"
            ).replace("%1", str(team.counted_members))
        )
        if value.ranking.unranked:
            english = current_language() == "en"
            items = "".join(
                f"<li>{u.team}：{u.reason_en if english else u.reason_zh}</li>"
                for u in value.ranking.unranked
            )
            self.unranked.setText(f"<b>{self.tr('不计团体成绩')}</b><ul>{items}</ul>")
        else:
            self.unranked.clear()


class PrizesView(LiveView):
    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.model = PrizeTableModel(self)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.table = _table(self)
        self.table.setModel(self.model)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        # the table uses the whole width: the winner and the unit take what the numbers leave
        for column in range(self.model.columnCount()):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        for column in (2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.totals = QLabel(self)
        self.totals.setStyleSheet("font-weight: bold")
        self.totals.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.totals)

    def refresh(self) -> None:
        try:
            value = prize_list(self.document.db)
        except UserError as error:
            self.model.set_prizes(None)
            show_message(self.message, error_text(error), error=True)
            return
        self.model.set_prizes(value)
        english = current_language() == "en"
        provisional = [f"{b.group}：{b.en if english else b.zh}" for b in value.basis.values() if not b.final]
        text = self.tr("奖金按最终名次发放；比赛结束前按目前名次预览。金额为税前人民币（元）。")
        if provisional:
            text += "<br>" + "；".join(provisional)
        show_message(self.message, text)
        parts = [
            self.tr("%1：%2 元").replace("%1", t.table.name).replace("%2", f"{t.total:,}")
            for t in value.prizes.tables
        ]
        total = self.tr("奖金总额 %1 元").replace("%1", f"{value.prizes.grand_total:,}")
        if value.prizes.grand_awarded != value.prizes.grand_total:
            total += self.tr("（实发 %1 元）").replace("%1", f"{value.prizes.grand_awarded:,}")
        self.totals.setText("；".join(parts) + "　　" + total)
