"""淘汰赛对阵图: the knockout tree with every game (慢棋 / 快棋 / 附加赛) and its result."""

from __future__ import annotations

from datetime import datetime

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Paragraph

from app.engine.types import UserError
from app.reports.model import Bracket, BracketMatch
from app.reports.pdf.base import (
    FONT,
    RED,
    Column,
    Output,
    PageDecor,
    build_story,
    frame_size,
    grid,
    paragraph_style,
    shrink_to,
)

LINE = 3.9 * mm


def _match_lines(m: BracketMatch) -> list[tuple[str, bool]]:
    """(text, emphasised) lines of a match box."""
    head = m.title or m.round_name  # the match by its Chinese name, never by its code (QF1, 3RD …)
    won = m.winner.split("（")[0]  # "1 张三（对手缺位，不战晋级）": the player, then why
    lines = [(head, False), (m.high, bool(won) and won == m.high), (m.low, bool(won) and won == m.low)]
    for g in m.games:
        lines.append((f"{g.kind}：红 {g.red} — 黑 {g.black}　{g.result_zh or '待赛'}", False))
    if not m.games:
        lines.append((_no_games(m), False))
    return lines


def _no_games(m: BracketMatch) -> str:
    """A match without games: decided without play (a bye, a withdrawn opponent — the reason), or 待赛."""
    if "（" in m.winner:
        return m.winner.split("（", 1)[1].rstrip("）")
    return "待赛"


class BracketTree(Flowable):  # type: ignore[misc]
    """The main tree: columns of match boxes joined by connector lines, drawn to fill the frame."""

    def __init__(self, columns: tuple[tuple[BracketMatch, ...], ...], width: float, height: float) -> None:
        super().__init__()
        self.columns = columns
        self.width = width
        self.height = height

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        n = len(self.columns)
        gap = 10 * mm
        box_w = (self.width - gap * (n - 1)) / n
        first = max(len(self.columns[0]), 1)
        slot = self.height / first
        centres: list[list[float]] = []
        for ci, col in enumerate(self.columns):
            x = ci * (box_w + gap)
            ys: list[float] = []
            for mi, m in enumerate(col):
                if ci == 0 or len(centres[ci - 1]) < 2 * (mi + 1):
                    cy = self.height - slot * (mi + 0.5) * (first / max(len(col), 1))
                else:
                    prev = centres[ci - 1]
                    cy = (prev[2 * mi] + prev[2 * mi + 1]) / 2
                ys.append(cy)
                lines = _match_lines(m)
                box_h = len(lines) * LINE + 2 * mm
                top = cy + box_h / 2
                c.setLineWidth(0.8)
                c.setStrokeColor(colors.black)
                c.rect(x, top - box_h, box_w, box_h)
                for li, (text, strong) in enumerate(lines):
                    size = 9.5 if li in (1, 2) else 7.5
                    s = shrink_to(text, box_w - 3 * mm, size, 3.0)
                    c.setFont(FONT, s)
                    c.setFillColor(RED if strong else colors.black)
                    label = text + ("　胜" if strong else "")
                    c.drawString(x + 1.5 * mm, top - 1 * mm - (li + 1) * LINE + 1, label)
                c.setFillColor(colors.black)
                if ci > 0 and len(centres[ci - 1]) >= 2 * (mi + 1):
                    px = x - gap
                    mid = x - gap / 2
                    for py in (centres[ci - 1][2 * mi], centres[ci - 1][2 * mi + 1]):
                        c.line(px, py, mid, py)
                    c.line(mid, centres[ci - 1][2 * mi], mid, centres[ci - 1][2 * mi + 1])
                    c.line(mid, cy, x, cy)
            centres.append(ys)


def render_bracket(bracket: Bracket, out: Output, printed_at: datetime) -> None:
    """The tree on the first landscape page; the placement matches (3rd, 5th–8th) as a table after it."""
    width, height = frame_size(wide=True)
    story = bracket_story(bracket, width, height)
    build_story(out, PageDecor(bracket.header, "淘汰赛对阵图", printed_at), story, wide=True)


def bracket_story(bracket: Bracket, width: float, height: float) -> list[Flowable]:
    """The tree filling one landscape frame, then the placement matches as a table on the next page."""
    if not bracket.columns or not bracket.columns[0]:
        raise UserError("淘汰赛尚未产生对阵", "the knockout has not been drawn yet")
    story: list[Flowable] = []
    if (
        bracket.losers
    ):  # double elimination: the winners' bracket, then the losers' bracket on a page of its own
        story.append(Paragraph("胜者组", paragraph_style(11)))
        story.append(BracketTree(bracket.columns, width, height - 10 * mm))
        story.append(PageBreak())
        story.append(Paragraph("败者组", paragraph_style(11)))
        story.append(BracketTree(bracket.losers, width, height - 10 * mm))
    else:
        story.append(BracketTree(bracket.columns, width, height - 2 * mm))
    if bracket.extra:
        cols = [
            Column("比赛", 16),
            Column("对阵", 24),
            Column("各局（执色与结果）", 48),
            Column("胜者", 12),
        ]
        rows = [
            [
                m.title or m.round_name,
                f"{m.high} — {m.low}",
                "\n".join(f"{g.kind}：红 {g.red} — 黑 {g.black}　{g.result_zh or '待赛'}" for g in m.games)
                or _no_games(m),
                m.winner,
            ]
            for m in bracket.extra
        ]
        story += [PageBreak(), grid(cols, rows, width, 40)]
    return story
