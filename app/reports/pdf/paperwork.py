"""The paperwork PDFs: 报到表 (check-in sheet, 内部), 成绩册 (the results book, one PDF) and
获奖证书 (prize certificates, one landscape page each, from the editable template)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from app.reports.model import AvoidanceList, Certificate, Certificates, CheckInSheet, ResultsBook
from app.reports.pdf.base import (
    BOTTOM,
    FONT,
    MARGIN_X,
    RED,
    TOP,
    Column,
    Output,
    PageDecor,
    SectionMarker,
    build_story,
    draw_pages,
    frame_size,
    grid,
    numbered_canvas,
    paragraph_style,
    register_font,
    shrink_to,
    signoff_flowable,
    with_signoff,
    wrap_chars,
)
from app.reports.pdf.bracket import bracket_story
from app.reports.pdf.tables import ROW, pairings_story, prizes_story, standings_story, teams_story


def _escape(text: str) -> str:
    """Text for a Paragraph (which reads markup): & < > escaped, line breaks kept."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br/>")


def _mark(flag: bool) -> str:
    return "√" if flag else ""


def render_check_in(sheet: CheckInSheet, out: Output, printed_at: datetime) -> None:
    """报到表 (内部, A4 landscape): flags, the fee paid or owed, a column to sign; totals in 元."""
    width, _ = frame_size(wide=True)
    cols = [
        Column("序号", 4),
        Column("姓名", 9),
        Column("性别", 4),
        Column("单位／代表队", 16),
        Column("证件号码（遮蔽）", 15),
        Column("等级分", 5),
        Column("保险", 4),
        Column("承诺书", 5),
        Column(f"服务费（{sheet.fee_yuan} 元）", 8),
        Column("报到", 4),
        Column("本人签到", 12),
    ]
    rows = [
        [
            "" if x.no is None else str(x.no),
            x.name,
            x.gender,
            x.unit,
            x.id_masked,
            "" if x.rating is None else str(x.rating),
            _mark(x.insurance),
            _mark(x.pledge),
            "已缴" if x.fee_paid else "未缴",
            _mark(x.checked_in),
            "",
        ]
        for x in sheet.lines
    ]
    paid = sum(x.fee_paid for x in sheet.lines)
    owing = [x for x in sheet.lines if not x.fee_paid]
    rows.append(
        [
            "合计",
            f"{len(sheet.lines)}人",
            "",
            "",
            "",
            "",
            "",
            "",
            f"已缴 {paid} 人",
            f"{sum(x.checked_in for x in sheet.lines)}人",
            "",
        ]
    )
    summary = (
        f"应缴 {len(sheet.lines)} 人 × {sheet.fee_yuan} 元 = {sheet.due:,} 元；已缴 {paid} 人 {sheet.paid:,} 元；"
        f"未缴 {len(owing)} 人 {sheet.owed:,} 元。"
    )
    if owing:
        summary += (
            "未缴费（不缴费不予编排）："
            + "、".join(f"{'' if x.no is None else str(x.no) + ' '}{x.name}" for x in owing)
            + "。"
        )
    if sheet.order_label:
        summary += f"（{sheet.order_label}）"
    story: list[Flowable] = [
        grid(cols, rows, width, ROW + 4, shaded_rows=[len(rows) - 1]),
        Spacer(1, 2 * mm),
        Paragraph(summary, paragraph_style(9)),
    ]
    story = with_signoff(story, sheet.signoff, width)
    build_story(out, PageDecor(sheet.header, "报到表（内部）", printed_at, internal=True), story, wide=True)


# --------------------------------------------------------------------------- the results book


def _two_column_table(pairs: tuple[tuple[str, str], ...], width: float) -> Table:
    label, text = paragraph_style(10, 15), paragraph_style(10, 15)
    data = [[Paragraph(_escape(k), label), Paragraph(_escape(v) or "—", text)] for k, v in pairs]
    table = Table(data, colWidths=[width * 0.2, width * 0.8])
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("BACKGROUND", (0, 0), (0, -1), colors.HexColor("#f0f0f0")),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]
        )
    )
    return table


class _Cover(Flowable):  # type: ignore[misc]
    """The cover: the event's name, 成绩册, dates, venue, organiser."""

    def __init__(self, book: ResultsBook, width: float, height: float) -> None:
        super().__init__()
        self.book, self.width, self.height = book, width, height

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c, w, h = self.canv, self.width, self.height
        header = self.book.header
        y = h * 0.72
        for line in wrap_chars(header.event_name, w * 0.85, 22):
            c.setFont(FONT, 22)
            c.drawCentredString(w / 2, y, line)
            y -= 32
        c.setFont(FONT, 40)
        c.drawCentredString(w / 2, y - 40, "成　绩　册")
        if self.book.provisional:
            c.setFont(FONT, 14)
            c.setFillColor(RED)
            c.drawCentredString(w / 2, y - 70, "（暂列，比赛尚未结束）")
            c.setFillColor(colors.black)
        y = h * 0.28
        for text in (self.book.organiser and f"主办单位：{self.book.organiser}", header.dates, header.venue):
            if text:
                c.setFont(FONT, shrink_to(text, w * 0.9, 14))
                c.drawCentredString(w / 2, y, text)
                y -= 24


def results_book_story(book: ResultsBook) -> list[Flowable]:
    width, height = frame_size()
    wide_width, wide_height = frame_size(wide=True)
    story: list[Flowable] = [SectionMarker("成绩册"), _Cover(book, width, height - 4 * mm), PageBreak()]
    story += [SectionMarker("竞赛规程摘要"), _two_column_table(book.summary, width)]
    story += [Spacer(1, 6 * mm), Paragraph("裁判人员", paragraph_style(13, 18)), Spacer(1, 2 * mm)]
    if book.officials:
        story.append(_two_column_table(book.officials, width))
    else:
        story.append(Paragraph("（未填写）", paragraph_style(10)))
    for g in book.groups:
        for rnd in g.rounds:
            story += [PageBreak(), SectionMarker("成绩公告", rnd.header.subtitle)]
            story += pairings_story(rnd, width, with_results=True)
        if g.bracket is not None:
            story += [NextPageTemplate("wide"), PageBreak(), SectionMarker("淘汰赛对阵图", g.name)]
            story += bracket_story(g.bracket, wide_width, wide_height)
            story += [NextPageTemplate("page")]
        if g.standings is not None:
            title = "最终名次" if g.final else "名次表（暂列）"
            story += [PageBreak(), SectionMarker(title, g.name)]
            story += standings_story(g.standings, width)
        if g.teams is not None and g.teams.rows:
            story += [PageBreak(), SectionMarker("团体名次表", g.name)]
            story += teams_story(g.teams, width)
    if book.prizes is not None and book.prizes.lines:
        story += [PageBreak(), SectionMarker("奖励名单")]
        story += prizes_story(book.prizes, width)
    if book.signoff is not None and not book.signoff.empty:
        story.append(signoff_flowable(book.signoff, width))
    return story


def render_results_book(book: ResultsBook, out: Output, printed_at: datetime) -> None:
    """成绩册 as one PDF: portrait pages, the knockout tree on landscape pages, one page count."""
    register_font()
    decor = PageDecor(book.header, "成绩册", printed_at)
    doc = BaseDocTemplate(
        str(out) if isinstance(out, Path) else out,
        pagesize=A4,
        leftMargin=MARGIN_X,
        rightMargin=MARGIN_X,
        topMargin=TOP,
        bottomMargin=BOTTOM,
        title=f"成绩册 {book.header.event_name}",
        author="象棋赛事编排系统",
    )
    templates = []
    for name, size in (("page", A4), ("wide", landscape(A4))):
        frame = Frame(
            MARGIN_X,
            BOTTOM,
            size[0] - 2 * MARGIN_X,
            size[1] - TOP - BOTTOM,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
            id=name,
        )
        templates.append(PageTemplate(name, [frame], pagesize=size))
    doc.addPageTemplates(templates)
    doc.build(results_book_story(book), canvasmaker=numbered_canvas(decor))


# --------------------------------------------------------------------------- certificates


def _draw_certificate(cert: Certificate) -> object:
    def draw(c: rl_canvas.Canvas) -> None:
        w, h = landscape(A4)
        c.setStrokeColor(RED)
        c.setLineWidth(3)
        c.rect(12 * mm, 12 * mm, w - 24 * mm, h - 24 * mm)
        c.setLineWidth(0.8)
        c.rect(16 * mm, 16 * mm, w - 32 * mm, h - 32 * mm)
        c.setFillColor(RED)
        c.setFont(FONT, shrink_to(cert.title, w - 80 * mm, 44))
        c.drawCentredString(w / 2, h - 52 * mm, cert.title)
        c.setFillColor(colors.black)
        size = 20.0
        inner = w - 90 * mm
        # the first line is the salutation; every later paragraph starts two characters in (首行缩进)
        paragraphs = cert.body.split("\n")
        text = "\n".join([paragraphs[0], *("　　" + p.lstrip("　 ") for p in paragraphs[1:])])
        lines = wrap_chars(text, inner, size)
        while len(lines) * size * 1.8 > h - 120 * mm and size > 10:
            size -= 1
            lines = wrap_chars(text, inner, size)
        y = h - 80 * mm
        for line in lines:
            c.setFont(FONT, size)
            c.drawString(45 * mm, y, line)
            y -= size * 1.8
        c.setFont(FONT, 16)
        c.drawRightString(w - 40 * mm, 32 * mm, cert.date)
        for j, line in enumerate(reversed(wrap_chars(cert.signature, w * 0.45, 16))):
            c.drawRightString(w - 40 * mm, 44 * mm + j * 8 * mm, line)

    return draw


def render_certificates(certs: Certificates, out: Output, printed_at: datetime) -> None:
    """获奖证书: one A4 landscape page per prize awarded; no header or footer (the template says it all)."""
    decor = PageDecor(certs.header, "获奖证书", printed_at, show_header=False, show_footer=False)
    draw_pages(out, decor, [_draw_certificate(c) for c in certs.certificates], wide=True)  # type: ignore[misc]


def render_avoidances(doc: AvoidanceList, out: Output, printed_at: datetime) -> None:
    """回避名单 (内部): the unit / region rules of the regulation, then every named pair kept apart."""
    width, _ = frame_size()
    rules = "；".join(doc.rules) if doc.rules else "无"
    story: list[Flowable] = [
        Paragraph(f"规程中的回避（同队回避之外）：{_escape(rules)}", paragraph_style(10, 15))
    ]
    story.append(Spacer(1, 3 * mm))
    cols = [
        Column("棋手", 20),
        Column("棋手", 20),
        Column("强度", 10),
        Column("轮次", 12),
        Column("理由", 20),
    ]
    rows = [[p.first, p.second, p.strength, p.rounds, p.reason] for p in doc.pairs]
    if rows:
        story.append(grid(cols, rows, width, ROW + 2))
    else:
        story.append(Paragraph("没有指定回避的棋手。", paragraph_style(10)))
    story = with_signoff(story, doc.signoff, width)
    build_story(out, PageDecor(doc.header, "回避名单（内部）", printed_at, internal=True), story)
