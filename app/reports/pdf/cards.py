"""Hand-laid pages: 台卡 table cards (also the score slip) and 录谱纸 record sheets."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from app.engine.types import UserError
from app.reports.model import (
    EventHeader,
    PairingRow,
    PlayerLine,
    RecordDuty,
    RecordSheets,
    TableCards,
    fmt_num,
)
from app.reports.pdf.page import (
    BOTTOM,
    FONT,
    MARGIN_X,
    RED,
    TOP,
    Output,
    PageDecor,
    draw_pages,
    draw_string,
    shrink_to,
    width_of,
    wrap_chars,
)

PAGE_W, PAGE_H = A4


def _text(c: Canvas, x: float, y: float, text: str, size: float, width: float, align: str = "left") -> None:
    """Draw one line, shrunk to fit ``width`` (never cut)."""
    s = shrink_to(text, width, size, 3.0)
    c.setFont(FONT, s)
    if align == "center":
        draw_string(c, x + width / 2, y, text, "center")
    elif align == "right":
        draw_string(c, x + width, y, text, "right")
    else:
        draw_string(c, x, y, text)


def _card_slots(per_page: int) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) of the cards on a page, top to bottom, left to right."""
    m = 8 * mm
    foot = 11 * mm
    if per_page == 1:
        return [(m, foot, PAGE_W - 2 * m, PAGE_H - m - foot)]
    if per_page == 2:
        h = (PAGE_H - m - foot) / 2
        return [(m, foot + h, PAGE_W - 2 * m, h), (m, foot, PAGE_W - 2 * m, h)]
    if per_page == 4:
        w = (PAGE_W - 2 * m) / 2
        h = (PAGE_H - m - foot) / 2
        return [(m, foot + h, w, h), (m + w, foot + h, w, h), (m, foot, w, h), (m + w, foot, w, h)]
    raise UserError(
        f"每页台卡数应为 1、2 或 4，而不是 {per_page}", f"cards per page must be 1, 2 or 4, not {per_page}"
    )


def _draw_card(
    c: Canvas,
    header: EventHeader,
    row: PairingRow,
    x: float,
    y: float,
    w: float,
    h: float,
    forms: dict[tuple[object, ...], str],
) -> None:
    """One card laid out in proportion to its slot (design size: the half-page card, 194 × 139 mm).

    What every card in this slot shares (the title lines, the red and black boxes, the result boxes,
    the signature lines) is drawn once per document as a form (a PDF XObject) at the slot's place,
    named in ``forms`` (kept per document), and shown on each card; only the board's own text is drawn
    per card.
    """
    narrow = w < 120 * mm
    pad = 3.5 * mm if narrow else 6 * mm
    sy = h / (139 * mm)  # vertical unit
    f = min(sy, w / (194 * mm) * 1.45)  # font scale; every line is also shrunk to its width
    inner = w - 2 * pad
    top = y + h - pad

    def at(v: float) -> float:
        return float(top - v * sy)

    # the board's page on the hall network: a QR code in the top right corner; the lines beside it
    # keep the same room on the left so they stay centred
    qr = min(26 * mm * sy, inner * 0.2, 30 * mm) if row.link else 0.0
    beside = 2 * (qr + 2 * mm) if qr else 0.0
    # a knockout game names its match and game and plays under its own time control
    control = row.time_control or header.time_control
    info = "　".join(
        p for p in (header.group, header.round_text, row.stage, f"用时 {control}" if control else "") if p
    )
    half = inner / 2
    box_top, box_h = at(118), 128 * sy
    key = ("card", x, y, w, h, header.event_name, info, qr)
    name = forms.get(key)
    if name is None:  # the first card in this slot with these lines: draw the shared part once
        name = forms[key] = f"XQCard{len(forms)}"
        c.beginForm(name)
        c.setFillColor(colors.black)
        if qr:
            c.setFont(FONT, max(5.0, 7 * f))
            draw_string(c, x + pad + inner - qr / 2, top - qr - 7 * f, "扫码查看本台", "center")
        _text(c, x + pad + beside / 2, at(14), header.event_name, 14 * f, inner - beside, "center")
        _text(c, x + pad + beside / 2, at(32), info, 11 * f, inner - beside, "center")
        for i, (label, colour) in enumerate((("红方", RED), ("黑方", colors.black))):
            bx = x + pad + i * half
            c.setStrokeColor(colour)
            c.setLineWidth(1.4)
            c.rect(bx + 2, box_top - box_h, half - 4, box_h)
            c.setFillColor(colour)
            _text(c, bx + 7, box_top - 17 * f, label, 14 * f, half - 14, "left")
            c.setFillColor(colors.black)
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.8)
        _result_and_signatures(c, x, pad, inner, at, f, narrow)
        c.endForm()
    c.doForm(name)  # a form is drawn in a saved graphics state: the colours are as before it
    c.setFillColor(colors.black)
    if qr:
        from app.reports.qr import draw_qr

        draw_qr(c, row.link, x + pad + inner - qr, top - qr, qr)
    _text(c, x + pad + beside / 2, at(100), f"第 {row.board} 台", 66 * f, inner - beside, "center")
    for i, p in enumerate((row.red, row.black)):
        _player_block(c, p, x + pad + i * half + 7, box_top, half - 14, sy, f)


def _result_and_signatures(
    c: Canvas, x: float, pad: float, inner: float, at: Callable[[float], float], f: float, narrow: bool
) -> None:
    # result box (红胜 / 和 / 黑胜)
    ry = at(272)
    c.setFont(FONT, 12 * f)
    draw_string(c, x + pad, ry + 3 * f, "结果：")
    lead = width_of("结果：", 12 * f) + 4
    slot = (inner - lead) / 3
    for k, label in enumerate(("红胜", "和", "黑胜")):
        bx = x + pad + lead + k * slot
        c.rect(bx, ry, 14 * f, 14 * f)
        draw_string(c, bx + 19 * f, ry + 3 * f, label)
    # signature lines for Red, Black and the arbiter: one row, or stacked on narrow cards
    labels = ("红方签名", "黑方签名", "裁判签名")
    c.setFont(FONT, 11 * f)
    if narrow:
        for k, label in enumerate(labels):
            sy_k = at(304 + k * 28)
            lw = width_of(label + "：", 11 * f)
            draw_string(c, x + pad, sy_k, label + "：")
            c.line(x + pad + lw, sy_k - 2, x + pad + inner, sy_k - 2)
    else:
        third = inner / 3
        for k, label in enumerate(labels):
            sx = x + pad + k * third
            lw = width_of(label + "：", 11 * f)
            draw_string(c, sx, at(330), label + "：")
            c.line(sx + lw, at(330) - 2, sx + third - 8, at(330) - 2)


def _player_block(c: Canvas, p: PlayerLine, x: float, top: float, width: float, sy: float, f: float) -> None:
    _text(c, x, top - 58 * sy, p.name, 30 * f, width, "center")
    size = 12 * f
    lines = wrap_chars(p.unit, width, size)
    while len(lines) > 2 and size > 4:
        size -= 0.5
        lines = wrap_chars(p.unit, width, size)
    c.setFont(FONT, size)
    for k, line in enumerate(lines):
        draw_string(c, x + width / 2, top - 82 * sy - k * size * 1.2, line, "center")
    _text(c, x, top - 118 * sy, f"序号 {p.no}　　积分 {fmt_num(p.score)}", 13 * f, width, "center")


def _cut_lines(c: Canvas, per_page: int, forms: dict[tuple[object, ...], str] | None = None) -> None:
    """The dashed lines to cut along between the cards (once per document as a form with ``forms``)."""
    if forms is not None:
        name = forms.get(("cut", per_page))
        if name is None:
            name = forms[("cut", per_page)] = f"XQCut{per_page}"
            c.beginForm(name)
            _cut_lines(c, per_page)
            c.endForm()
        c.doForm(name)
        return
    slots = _card_slots(per_page)
    c.saveState()
    c.setDash(4, 3)
    c.setLineWidth(0.4)
    c.setStrokeColor(colors.grey)
    c.setFillColor(colors.grey)
    c.setFont(FONT, 6)
    if per_page >= 2:
        y = slots[0][1]
        c.line(4 * mm, y, PAGE_W - 4 * mm, y)
        c.setFont(FONT, 7)
        c.drawString(5 * mm, y + 2.5, "沿虚线剪开")
    if per_page == 4:
        x = slots[1][0]
        c.line(x, slots[2][1] + 1, x, PAGE_H - 4 * mm)
    c.restoreState()


def render_table_cards(cards: TableCards, out: Output, printed_at: datetime) -> None:
    """台卡: one card per board, 1, 2 or 4 per A4 page, cut line between cards."""
    slots = _card_slots(cards.per_page)
    pages: list[Callable[[Canvas], None]] = []
    rows = list(cards.rows)
    forms: dict[tuple[object, ...], str] = {}  # the cards' shared parts, drawn once (see _draw_card)
    for start in range(0, len(rows), cards.per_page):
        chunk = rows[start : start + cards.per_page]

        def draw(c: Canvas, chunk: list[PairingRow] = chunk) -> None:
            for row, (x, y, w, h) in zip(chunk, slots, strict=False):
                _draw_card(c, cards.header, row, x, y, w, h, forms)
            _cut_lines(c, cards.per_page, forms)

        pages.append(draw)
    if not pages:
        raise UserError("本轮没有对局，无法打印台卡", "the round has no boards: no table cards to print")
    draw_pages(out, PageDecor(cards.header, "台卡", printed_at, show_header=False), pages)


def _draw_record_sheet(c: Canvas, header: EventHeader, duty: RecordDuty, moves: int) -> None:
    left = MARGIN_X
    width = PAGE_W - 2 * MARGIN_X
    y = PAGE_H - TOP - 2 * mm
    c.setFont(FONT, 10.5)
    c.drawString(left, y, f"台次：第 {duty.board} 台")
    if duty.recorder:
        c.drawRightString(left + width, y, f"录谱：{duty.recorder}")
    for label, p, colour in (("红方", duty.red, RED), ("黑方", duty.black, colors.black)):
        y -= 6.5 * mm
        c.setFillColor(colour)
        c.setFont(FONT, 10.5)
        c.drawString(left, y, label + "：")
        c.setFillColor(colors.black)
        _text(c, left + 13 * mm, y, f"{p.no}号　{p.name}　{p.unit}", 10.5, width - 13 * mm)
    y -= 4 * mm
    # move grid: two blocks (1–half, half+1–moves), each 回合 | 红方 | 黑方
    half = (moves + 1) // 2
    row_h = min(4.6 * mm, (y - BOTTOM - 30 * mm) / (half + 1))
    block_w = (width - 6 * mm) / 2
    col = (block_w * 0.16, block_w * 0.42, block_w * 0.42)
    for b in range(2):
        bx = left + b * (block_w + 6 * mm)
        yy = y
        c.setFillColor(colors.HexColor("#e8e8e8"))
        c.rect(bx, yy - row_h, block_w, row_h, fill=1, stroke=0)
        c.setFillColor(colors.black)
        c.setFont(FONT, 8.5)
        cx = bx
        for label, cw in zip(("回合", "红方", "黑方"), col, strict=True):
            c.drawCentredString(cx + cw / 2, yy - row_h + 3, label)
            cx += cw
        c.setLineWidth(0.4)
        for k in range(half + 1):
            c.line(bx, yy - k * row_h, bx + block_w, yy - k * row_h)
        c.line(bx, yy - (half + 1) * row_h, bx + block_w, yy - (half + 1) * row_h)
        cx = bx
        for cw in (0, *col):
            cx += cw
            c.line(cx, yy, cx, yy - (half + 1) * row_h)
        c.setFont(FONT, 8)
        for k in range(half):
            n = b * half + k + 1
            if n > moves:
                break
            c.drawCentredString(bx + col[0] / 2, yy - (k + 2) * row_h + 3, str(n))
    y -= (half + 1) * row_h + 8 * mm
    c.setFont(FONT, 10.5)
    c.drawString(left, y, "结果：")
    for k, label in enumerate(("红胜", "和", "黑胜")):
        bx = left + 14 * mm + k * 30 * mm
        c.rect(bx, y - 1, 4 * mm, 4 * mm)
        c.drawString(bx + 6 * mm, y, label)
    c.drawString(left + 110 * mm, y, "共 ______ 回合")
    y -= 10 * mm
    third = width / 3
    for k, label in enumerate(("红方签名", "黑方签名", "裁判签名")):
        sx = left + k * third
        c.drawString(sx, y, label + "：")
        c.line(sx + width_of(label + "：", 10.5), y - 2, sx + third - 6 * mm, y - 2)


def render_record_sheets(sheets: RecordSheets, out: Output, printed_at: datetime) -> None:
    """录谱纸: one A4 page per board whose record is due, pre-filled; move lines 1–80."""
    if not sheets.duties:
        raise UserError("本轮没有需要录谱的台次", "no game records are due in this round")
    pages: list[Callable[[Canvas], None]] = []
    for duty in sheets.duties:

        def draw(c: Canvas, duty: RecordDuty = duty) -> None:
            _draw_record_sheet(c, sheets.header, duty, sheets.moves)

        pages.append(draw)
    draw_pages(out, PageDecor(sheets.header, "录谱纸", printed_at), pages)
