"""Team competition documents (团体赛): match table cards, score sheets (对阵单) with the captains'
signatures, line-up forms (排阵单), the team crosstable, the team standings with 场分/局分, board prizes."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, Spacer

from app.engine.types import UserError
from app.reports.pdf.base import (
    FONT,
    GREY,
    RED,
    Column,
    Output,
    PageDecor,
    build_story,
    draw_pages,
    frame_size,
    grid,
    paragraph_style,
    shrink_to,
    width_of,
    with_signoff,
)
from app.reports.qr import draw_qr
from app.reports.team_model import (
    BoardPrizes,
    LineupForm,
    LineupForms,
    MatchSheet,
    TeamCrosstable,
    TeamEventStandings,
    TeamRoundDoc,
)

PAGE_W, PAGE_H = A4
M = 8 * mm
FOOT = 11 * mm
HALF = (PAGE_H - M - FOOT) / 2


def _text(c: Canvas, x: float, y: float, text: str, size: float, width: float, align: str = "left") -> None:
    s = shrink_to(text, width, size, 3.0)
    c.setFont(FONT, s)
    if align == "center":
        c.drawCentredString(x + width / 2, y, text)
    elif align == "right":
        c.drawRightString(x + width, y, text)
    else:
        c.drawString(x, y, text)


def _halves() -> list[tuple[float, float]]:
    """(y, height) of the two halves of a page, top first."""
    return [(FOOT + HALF, HALF), (FOOT, HALF)]


def _cut_line(c: Canvas) -> None:
    c.saveState()
    c.setDash(4, 3)
    c.setLineWidth(0.4)
    c.setStrokeColor(colors.grey)
    c.setFillColor(colors.grey)
    c.line(4 * mm, FOOT + HALF, PAGE_W - 4 * mm, FOOT + HALF)
    c.setFont(FONT, 7)
    c.drawString(5 * mm, FOOT + HALF + 2.5, "沿虚线剪开")
    c.restoreState()


def _paged(
    items: list[object], draw: Callable[[Canvas, object, float, float], None]
) -> list[Callable[[Canvas], None]]:
    pages: list[Callable[[Canvas], None]] = []
    for start in range(0, len(items), 2):
        chunk = items[start : start + 2]

        def page(c: Canvas, chunk: list[object] = chunk) -> None:
            for item, (y, h) in zip(chunk, _halves(), strict=False):
                draw(c, item, y, h)
            _cut_line(c)

        pages.append(page)
    return pages


# --------------------------------------------------------------------------- table cards


def render_team_cards(doc: TeamRoundDoc, out: Output, printed_at: datetime) -> None:
    """团体台卡: one card per match with its boards (2 per A4 page): the match number in large type, the
    teams, each board's table number and players with their colours."""
    matches = list(doc.matches)
    if not matches:
        raise UserError("本轮没有比赛，无法打印台卡", "the round has no matches: no table cards to print")

    def draw(c: Canvas, item: object, y: float, h: float) -> None:
        assert isinstance(item, MatchSheet)
        _draw_team_card(c, doc, item, M, y, PAGE_W - 2 * M, h)

    draw_pages(
        out, PageDecor(doc.header, "团体台卡", printed_at, show_header=False), _paged(list(matches), draw)
    )


def _draw_team_card(
    c: Canvas, doc: TeamRoundDoc, m: MatchSheet, x: float, y: float, w: float, h: float
) -> None:
    pad = 6 * mm
    inner = w - 2 * pad
    top = y + h - pad
    qr = 24 * mm if m.link else 0.0
    if qr:
        draw_qr(c, m.link, x + pad + inner - qr, top - qr, qr)
        c.setFont(FONT, 6.5)
        c.drawCentredString(x + pad + inner - qr / 2, top - qr - 8, "扫码查看本场")
    beside = 2 * (qr + 2 * mm) if qr else 0.0
    _text(c, x + pad + beside / 2, top - 6 * mm, doc.header.event_name, 13, inner - beside, "center")
    parts = (
        doc.header.group,
        doc.header.round_text,
        m.code,
        m.tables,
        f"用时 {doc.time_control}" if doc.time_control else "",
    )
    info = "　".join(p for p in parts if p)
    _text(c, x + pad + beside / 2, top - 12.5 * mm, info, 10, inner - beside, "center")
    _text(c, x + pad + beside / 2, top - 30 * mm, f"第 {m.number} 场", 40, inner - beside, "center")
    # the two teams
    half = inner / 2
    ty = top - 44 * mm
    for i, (label, name, no) in enumerate((("主队", m.home, m.home_no), ("客队", m.away, m.away_no))):
        bx = x + pad + i * half
        _text(c, bx, ty, f"{label}（{no}号）" if no else label, 11, half - 4, "center")
        _text(c, bx, ty - 11 * mm, name, 24, half - 4, "center")
    # the boards
    rows = len(m.boards)
    row_h = min(10 * mm, (ty - 16 * mm - (y + 8 * mm)) / max(rows + 1, 1))
    ry = ty - 17 * mm
    cols = (0.14, 0.43, 0.43)
    xs = [x + pad]
    for k in cols:
        xs.append(xs[-1] + inner * k)
    c.setFillColor(GREY)
    c.rect(xs[0], ry - row_h, inner, row_h, stroke=0, fill=1)
    c.setFillColor(colors.black)
    for k, label in enumerate(("台次", "主队棋手", "客队棋手")):
        _text(c, xs[k], ry - row_h + row_h * 0.3, label, 10, xs[k + 1] - xs[k], "center")
    for i, b in enumerate(m.boards, start=1):
        yy = ry - (i + 1) * row_h
        _text(c, xs[0], yy + row_h * 0.3, f"{b.table}台（{b.board}）", 11, xs[1] - xs[0], "center")
        for k, (seat, red) in enumerate(((b.home, b.home_red), (b.away, not b.home_red)), start=1):
            colour = "红" if red else "黑"
            c.setFillColor(RED if red else colors.black)
            _text(c, xs[k] + 2 * mm, yy + row_h * 0.3, colour, 12, 6 * mm)
            c.setFillColor(colors.black)
            _text(c, xs[k] + 9 * mm, yy + row_h * 0.3, seat.label, 13, xs[k + 1] - xs[k] - 11 * mm)
    c.setLineWidth(0.6)
    for i in range(rows + 2):
        c.line(xs[0], ry - i * row_h, xs[-1], ry - i * row_h)
    for xx in xs:
        c.line(xx, ry, xx, ry - (rows + 1) * row_h)


# --------------------------------------------------------------------------- score sheets


def render_team_sheets(doc: TeamRoundDoc, out: Output, printed_at: datetime) -> None:
    """团体对阵单（记分单）: one per match, 2 per A4 page: every board with its colours, a result column,
    the 局分 of each side, the tie-break games, the 场分, and the signatures of both captains and the arbiter."""
    matches = list(doc.matches)
    if not matches:
        raise UserError("本轮没有比赛，无法打印对阵单", "the round has no matches: no score sheets to print")

    def draw(c: Canvas, item: object, y: float, h: float) -> None:
        assert isinstance(item, MatchSheet)
        _draw_sheet(c, doc, item, M, y, PAGE_W - 2 * M, h)

    draw_pages(
        out, PageDecor(doc.header, "团体对阵单", printed_at, show_header=False), _paged(list(matches), draw)
    )


def _draw_sheet(c: Canvas, doc: TeamRoundDoc, m: MatchSheet, x: float, y: float, w: float, h: float) -> None:
    pad = 6 * mm
    inner = w - 2 * pad
    top = y + h - pad
    _text(c, x + pad, top - 5 * mm, doc.header.event_name, 12, inner, "center")
    title = "　".join(
        p for p in (doc.header.group, doc.header.round_text, f"第 {m.number} 场", m.code, "对阵单") if p
    )
    _text(c, x + pad, top - 11 * mm, title, 11, inner, "center")
    _text(c, x + pad, top - 17 * mm, f"主队：{m.home}（{m.home_no}号）", 11, inner / 2)
    _text(c, x + pad + inner / 2, top - 17 * mm, f"客队：{m.away}（{m.away_no}号）", 11, inner / 2, "right")
    ties = [(b, t) for b in m.boards for t in b.ties]
    rows: list[tuple[str, ...]] = []
    for b in m.boards:
        home = f"{'红' if b.home_red else '黑'} {b.home.label}"
        away = f"{'黑' if b.home_red else '红'} {b.away.label}"
        rows.append(
            (
                f"{b.board}",
                f"{b.table}",
                home,
                away,
                b.result or "红胜 / 和 / 黑胜",
                b.home_points,
                b.away_points,
            )
        )
    for b, t in ties:
        rows.append(
            (
                f"{b.board}台加赛{t.number}",
                f"{t.kind}{t.time_control}",
                f"红 {t.red.label}",
                f"黑 {t.black.label}",
                t.result or "红胜 / 和 / 黑胜",
                "",
                "",
            )
        )
    rows.append(("局分合计", "", "", "", "", m.home_points, m.away_points))
    rows.append(("场分", "", "", "", m.outcome, m.home_match_points, m.away_match_points))
    heads = ("台次", "台号", "主队棋手", "客队棋手", "结果", "主队局分", "客队局分")
    weights = (0.08, 0.08, 0.24, 0.24, 0.2, 0.08, 0.08)
    xs = [x + pad]
    for k in weights:
        xs.append(xs[-1] + inner * k)
    sign_h = 18 * mm
    table_top = top - 21 * mm
    row_h = min(8 * mm, (table_top - (y + pad + sign_h)) / (len(rows) + 1))
    c.setFillColor(GREY)
    c.rect(xs[0], table_top - row_h, inner, row_h, stroke=0, fill=1)
    c.setFillColor(colors.black)
    for k, label in enumerate(heads):
        _text(c, xs[k], table_top - row_h * 0.7, label, 9, xs[k + 1] - xs[k], "center")
    for i, row in enumerate(rows, start=1):
        yy = table_top - (i + 1) * row_h + row_h * 0.3
        for k, text in enumerate(row):
            size = 7.5 if text == "红胜 / 和 / 黑胜" else 10
            if text == "红胜 / 和 / 黑胜":
                c.setFillColor(colors.grey)
            _text(c, xs[k] + 1.5, yy, text, size, xs[k + 1] - xs[k] - 3, "left" if k in (2, 3) else "center")
            c.setFillColor(colors.black)
    c.setLineWidth(0.6)
    for i in range(len(rows) + 2):
        c.line(xs[0], table_top - i * row_h, xs[-1], table_top - i * row_h)
    bottom = table_top - (len(rows) + 1) * row_h
    for xx in xs:
        c.line(xx, table_top, xx, bottom)
    # signatures: both captains and the arbiter
    sy = bottom - 9 * mm
    third = inner / 3
    labels = (
        f"主队队长{('（' + m.home_captain + '）') if m.home_captain else ''}签名",
        f"客队队长{('（' + m.away_captain + '）') if m.away_captain else ''}签名",
        "裁判员签名",
    )
    size = min(shrink_to(label + "：", third * 0.55, 10, 6) for label in labels)
    for k, label in enumerate(labels):
        sx = x + pad + k * third
        c.setFont(FONT, size)
        c.drawString(sx, sy, label + "：")
        lw = width_of(label + "：", size)
        c.line(sx + lw, sy - 2, sx + third - 6, sy - 2)
    c.setFont(FONT, 8)
    c.drawString(
        x + pad, sy - 7 * mm, f"计分：{doc.scoring}；{doc.tie_rule}。结果按红方记：红胜、和、黑胜；弃权注明。"
    )


# --------------------------------------------------------------------------- line-up forms


def render_lineup_forms(doc: LineupForms, out: Output, printed_at: datetime) -> None:
    """排阵单: one form per team of the round (2 per page): its opponent and its colours board by board, its
    registered players to choose from, the boards to fill in (or the line-up handed in), the captain's
    signature and the time handed in."""
    if not doc.forms:
        raise UserError("本轮没有需要排阵的队", "no team needs a line-up this round")

    def draw(c: Canvas, item: object, y: float, h: float) -> None:
        assert isinstance(item, LineupForm)
        _draw_form(c, doc, item, M, y, PAGE_W - 2 * M, h)

    draw_pages(
        out, PageDecor(doc.header, "排阵单", printed_at, show_header=False), _paged(list(doc.forms), draw)
    )


def _draw_form(c: Canvas, doc: LineupForms, f: LineupForm, x: float, y: float, w: float, h: float) -> None:
    pad = 6 * mm
    inner = w - 2 * pad
    top = y + h - pad
    _text(c, x + pad, top - 5 * mm, doc.header.event_name, 12, inner, "center")
    _text(
        c,
        x + pad,
        top - 11 * mm,
        "　".join(p for p in (doc.header.group, doc.header.round_text, "排阵单") if p),
        11,
        inner,
        "center",
    )
    side = "主队" if f.home else "客队"
    _text(c, x + pad, top - 18 * mm, f"{f.team}（{f.team_no}号，{side}）　对手：{f.opponent}", 12, inner)
    left_w = inner * 0.58
    ty = top - 23 * mm
    row_h = min(9 * mm, (ty - (y + 24 * mm)) / (len(f.colours) + 1))
    xs = [x + pad, x + pad + left_w * 0.18, x + pad + left_w * 0.36, x + pad + left_w * 0.6, x + pad + left_w]
    c.setFillColor(GREY)
    c.rect(xs[0], ty - row_h, left_w, row_h, stroke=0, fill=1)
    c.setFillColor(colors.black)
    for k, label in enumerate(("台次", "先后手", "序号", "姓名")):
        _text(c, xs[k], ty - row_h * 0.7, label, 9, xs[k + 1] - xs[k], "center")
    for i, colour in enumerate(f.colours, start=1):
        yy = ty - (i + 1) * row_h + row_h * 0.3
        _text(c, xs[0], yy, f"第{i}台", 11, xs[1] - xs[0], "center")
        c.setFillColor(RED if colour == "红" else colors.black)
        _text(c, xs[1], yy, colour, 11, xs[2] - xs[1], "center")
        c.setFillColor(colors.black)
        if i <= len(f.handed_in):
            seat = f.handed_in[i - 1]
            _text(c, xs[2], yy, "" if seat.no is None else str(seat.no), 11, xs[3] - xs[2], "center")
            _text(c, xs[3] + 2, yy, seat.name or "（空台）", 11, xs[4] - xs[3] - 4)
    c.setLineWidth(0.6)
    for i in range(len(f.colours) + 2):
        c.line(xs[0], ty - i * row_h, xs[-1], ty - i * row_h)
    for xx in xs:
        c.line(xx, ty, xx, ty - (len(f.colours) + 1) * row_h)
    # the registered players, to choose from
    rx = x + pad + left_w + 6 * mm
    rw = inner - left_w - 6 * mm
    _text(c, rx, ty - 4 * mm, "报名队员（报名顺序）", 10, rw)
    line = min(6 * mm, (ty - 12 * mm - (y + 30 * mm)) / max(len(f.roster), 1))
    for i, (no, name, reserve) in enumerate(f.roster, start=1):
        _text(c, rx, ty - 6 * mm - i * line, f"{i}. {no or ''} {name}{'（替补）' if reserve else ''}", 10, rw)
    if f.order_rule:
        _text(c, rx, y + 26 * mm, f.order_rule, 8, rw)
    # signatures
    sy = y + 14 * mm
    by = f"（{f.captain}）" if f.captain else ""
    _text(c, x + pad, sy, f"队长{by}签名：＿＿＿＿＿＿＿＿", 10, inner / 2)
    handed = f.handed_in_at or "＿＿月＿＿日＿＿时＿＿分"
    who = f"（{f.handed_in_by}）" if f.handed_in_by else ""
    _text(c, x + pad + inner / 2, sy, f"交表时间{who}：{handed}", 10, inner / 2, "right")
    _text(c, x + pad, sy - 6 * mm, "排阵单须在规定时间前交裁判组；逾期未交按规程处理。", 8, inner)


# --------------------------------------------------------------------------- tables


def render_team_crosstable(doc: TeamCrosstable, out: Output, printed_at: datetime) -> None:
    """团体成绩总表 (A4 landscape): per team and round the opponent (主/客) and the 局分; 场分, 局分, place."""
    width, _ = frame_size(wide=True)
    cols = [Column("名次", 3), Column("队号", 3), Column("队名", 9)]
    cols += [Column(f"第{r}轮", 6, size=8) for r in range(1, doc.rounds + 1)]
    cols += [Column("场分", 3.5), Column("局分", 3.5)]
    rows = [
        [str(r.rank), str(r.no), r.team, *r.cells, str(r.match_points), str(r.game_points)] for r in doc.rows
    ]
    legend = Paragraph(
        "每格：对手队号 + 主/客 + 本队局分:对手局分（未到场注明）。名次依次比较场分、局分及规程所列各项。",
        paragraph_style(8),
    )
    story = with_signoff([grid(cols, rows, width, 16), Spacer(1, 2 * mm), legend], doc.signoff, width)
    build_story(out, PageDecor(doc.header, "团体成绩总表", printed_at), story, wide=True)


def render_team_event_standings(doc: TeamEventStandings, out: Output, printed_at: datetime) -> None:
    """团体名次表 of a team competition: 场分, 局分 and every tiebreak of the chain."""
    wide = len(doc.chain) > 5
    width, _ = frame_size(wide=wide)
    cols = [Column("名次", 3), Column("队号", 3), Column("队名", 9), Column("场次", 3), Column("胜", 2.5)]
    cols += [Column("和", 2.5), Column("负", 2.5), Column("场分", 3.5)]
    cols += [Column(name, 4, size=8) for name in doc.chain]
    cols += [Column("备注", 7, size=8)]
    rows = [
        [
            str(r.rank),
            str(r.no),
            r.team,
            str(r.played),
            str(r.won),
            str(r.drawn),
            str(r.lost),
            str(r.match_points),
            *r.tiebreaks,
            r.note,
        ]
        for r in doc.rows
    ]
    story: list[Flowable] = [grid(cols, rows, width, 16)]
    for note in doc.notes:
        story += [Spacer(1, 2 * mm), Paragraph(note, paragraph_style(8))]
    build_story(
        out,
        PageDecor(doc.header, "团体名次表", printed_at),
        with_signoff(story, doc.signoff, width),
        wide=wide,
    )


def render_board_prizes(doc: BoardPrizes, out: Output, printed_at: datetime) -> None:
    """台次奖: each board's table, the players with enough games on it first."""
    width, _ = frame_size()
    story: list[Flowable] = []
    for k, table in enumerate(doc.boards):
        cols = [Column("名次", 3), Column("序号", 3), Column("姓名", 7), Column("队名", 8)]
        cols += [Column("局数", 3), Column("局分", 3), Column("得分率", 4), Column("备注", 6, size=8)]
        rows = [
            [
                str(line.rank),
                str(line.no),
                line.name,
                line.team,
                str(line.games),
                str(line.points),
                line.percentage,
                ("获奖" if line.rank <= doc.places else "") if line.eligible else f"不足 {doc.min_games} 局",
            ]
            for line in table.lines
        ]
        block = [
            Paragraph(f"第 {table.board} 台", paragraph_style(12)),
            Spacer(1, 1.5 * mm),
            grid(cols, rows, width, 15),
        ]
        if k:
            story += [CondPageBreak(40 * mm), Spacer(1, 4 * mm)]
        story.append(KeepTogether(block))
    note = Paragraph(
        f"台次奖{doc.basis}排列，每台须至少下满 {doc.min_games} 局（弃权局不计）；每台录取前 {doc.places} 名。",
        paragraph_style(8),
    )
    story = with_signoff([*story, Spacer(1, 2 * mm), note], doc.signoff, width)
    build_story(out, PageDecor(doc.header, "台次奖", printed_at), story)
