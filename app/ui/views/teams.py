"""团体 Teams and 奖金 Prizes: the team ranking of the group and every prize table of the event."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
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
        # a team competition (团体赛): its standings by 场分 and 局分, and the board prizes
        self.event_table = QTableWidget(self)
        self.event_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.event_table.verticalHeader().setVisible(False)
        self.event_table.setAlternatingRowColors(True)
        self.prizes_title = QLabel(self)
        self.prizes_title.setStyleSheet("font-weight: bold")
        self.prize_table = QTableWidget(self)
        self.prize_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.prize_table.verticalHeader().setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.event_table, 2)
        layout.addWidget(self.prizes_title)
        layout.addWidget(self.prize_table, 1)
        layout.addWidget(self.rule)
        layout.addWidget(self.unranked)

    def _show_team_event(self) -> bool:
        """A team competition's own standings; False for a group that is none."""
        from app.services.team_events import is_team_group, team_standings_view

        team = is_team_group(self.document.db, self.document.group)
        for w in (self.event_table, self.prizes_title, self.prize_table):
            w.setVisible(team)
        if not team:
            return False
        self.table.hide()
        self.unranked.clear()
        view = team_standings_view(self.document.db, self.document.group)
        state = self.tr("最终") if view.final else self.tr("%1 轮后").replace("%1", str(view.rounds_played))
        self.title.setText(self.tr("%1 团体名次（%2）").replace("%1", view.group).replace("%2", state))
        heads = [
            self.tr("名次"),
            self.tr("队号"),
            self.tr("队名"),
            self.tr("场次"),
            self.tr("胜"),
            self.tr("和"),
        ]
        heads += [self.tr("负"), self.tr("场分"), *(t.zh for t in view.chain), self.tr("区分依据")]
        rows = []
        for r in view.ranking.rows:
            why = self.tr("队号") if r.by_number else ("" if r.separated_by is None else r.separated_by.zh)
            rows.append(
                [r.rank, r.team, view.names[r.team], r.played, r.won, r.drawn, r.lost, r.match_points]
                + [v for _, v in r.values]
                + [why]
            )
        _fill(self.event_table, heads, rows)
        self.prizes_title.setText(self.tr("台次奖（每台至少 %1 局）").replace("%1", str(view.min_games)))
        prize_heads = [self.tr("台次"), self.tr("名次"), self.tr("序号"), self.tr("姓名"), self.tr("队名")]
        prize_heads += [self.tr("局数"), self.tr("局分"), self.tr("得分率")]
        prize_rows = [
            [
                p.board,
                p.rank,
                p.player,
                view.player_names.get(p.player, ""),
                view.names.get(p.team, ""),
                p.games,
                p.points,
                p.percentage_label,
            ]
            for p in view.board_prizes
            if p.eligible and p.rank <= 3
        ]
        _fill(self.prize_table, prize_heads, prize_rows)
        notes = [self.tr("名次依次比较：场分、") + "、".join(t.zh for t in view.chain)]
        for g in view.ranking.playoff_needed:
            notes.append(self.tr("须加赛决定名次：") + "、".join(view.names[t] for t in g))
        self.rule.setText("；".join(notes))
        show_message(self.message, "" if view.final else self.tr("比赛尚未结束：名次按已结束的轮次排列。"))
        return True

    def refresh(self) -> None:
        try:
            if self._show_team_event():
                return
        except UserError as error:
            show_message(self.message, error_text(error), error=True)
            return
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
        self.rule.setText(value.rule_zh)
        if value.ranking.unranked:
            english = current_language() == "en"
            items = "".join(
                f"<li>{u.team}：{u.reason_en if english else u.reason_zh}</li>"
                for u in value.ranking.unranked
            )
            self.unranked.setText(f"<b>{self.tr('不计团体成绩')}</b><ul>{items}</ul>")
        else:
            self.unranked.clear()


def _fill(table: QTableWidget, heads: list[str], rows: list[list[object]]) -> None:
    table.clear()
    table.setColumnCount(len(heads))
    table.setRowCount(len(rows))
    table.setHorizontalHeaderLabels(heads)
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem(str(value))
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            table.setItem(r, c, item)
    table.resizeColumnsToContents()


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
