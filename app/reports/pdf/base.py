"""Shared PDF machinery: the embedded CJK font, page header/footer with "第 x 页 / 共 y 页", fitted cells.

Every page gets the tournament name, the document title with group and round, and a footer with the
print time (passed in, never read from a clock) and the page count, which a deferred canvas knows only
when the document is saved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from app.paths import font_path
from app.reports.model import EventHeader, SignOff
from app.reports.qr import draw_qr

FONT = "WQYMicroHei"
RED = colors.HexColor("#c00000")
GREY = colors.HexColor("#e8e8e8")
MARGIN_X = 12 * mm
TOP = 24 * mm  # space for the page header
BOTTOM = 14 * mm  # space for the footer
# the hall network's QR code in the page header of a posted list (4 mm below the edge: printable); its quiet
# zone inside, so the code itself is at least 20 mm wide, like the table cards' — read from a notice board
QR_SIZE = 24 * mm
QR_TOP = 4 * mm
LINKED_TOP = QR_TOP + QR_SIZE + 3 * mm  # a page with the QR code starts its content below it

Output = str | Path | BinaryIO


_registered: list[bool] = []


def register_font() -> str:
    """Register the app's CJK font once (reportlab embeds a subset of the glyphs used)."""
    if not _registered:
        if FONT not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(FONT, str(font_path()), subfontIndex=0))
        _registered.append(True)
    return FONT


def width_of(text: str, size: float) -> float:
    register_font()
    return float(pdfmetrics.stringWidth(text, FONT, size))


def shrink_to(text: str, width: float, size: float, minimum: float = 4.0) -> float:
    """The largest font size ≤ ``size`` at which ``text`` fits in ``width`` on one line."""
    w = width_of(text, size)
    if w <= width or w == 0:
        return size
    return max(minimum, size * width / w * 0.999)


#: Punctuation that may not begin a line (避头): it stays at the end of the line before, hanging.
NO_LINE_START = frozenset("，。、；：！？）》」』”’…·,.;:!?)]}%")


def wrap_chars(text: str, width: float, size: float) -> list[str]:
    """Greedy character wrap (Chinese has no spaces); explicit newlines are kept; closing punctuation
    never starts a line (it hangs at the end of the previous one)."""
    lines: list[str] = []
    for part in text.split("\n"):
        line = ""
        for ch in part:
            if line and ch not in NO_LINE_START and width_of(line + ch, size) > width:
                lines.append(line)
                line = ch
            else:
                line += ch
        lines.append(line)
    return lines


@dataclass(frozen=True, slots=True)
class Fitted:
    text: str
    size: float
    leading: float


def fit_cell(text: str, width: float, height: float, size: float = 9.0, minimum: float = 6.5) -> Fitted:
    """Fit ``text`` into a width × height cell: one line, shrunk down to ``minimum``; else wrapped.

    Nothing is ever cut: if even the smallest wrapped size overflows, the smallest size is used.
    """
    if "\n" not in text:
        one = shrink_to(text, width, size, 0)
        if one >= minimum:
            return Fitted(text, one, one * 1.15)
    s = size
    while s >= 4.0:
        lines = wrap_chars(text, width, s)
        if len(lines) * s * 1.12 <= height:
            return Fitted("\n".join(lines), s, s * 1.12)
        s -= 0.5
    lines = wrap_chars(text, width, 4.0)
    return Fitted("\n".join(lines), 4.0, 4.4)


@dataclass(frozen=True, slots=True)
class Column:
    label: str
    weight: float  # share of the available width
    align: str = "CENTER"
    size: float = 9.0


def grid(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    width: float,
    row_height: float = 16.0,
    header_height: float = 18.0,
    shaded_rows: Sequence[int] = (),
) -> Table:
    """A ruled table with a repeated header row and fixed row heights; every cell fitted, never cut.

    Fixed heights make pagination predictable: rows per page = ⌊(frame − header) / row_height⌋.
    """
    total = sum(c.weight for c in columns)
    widths = [width * c.weight / total for c in columns]
    pad = 2.0
    style: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), GREY),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), pad),
        ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        ("TOPPADDING", (0, 0), (-1, -1), 0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
    ]
    data: list[list[str]] = []
    all_rows = [[c.label for c in columns], *rows]
    for r, row in enumerate(all_rows):
        out = []
        h = header_height if r == 0 else row_height
        for c, text in enumerate(row):
            col = columns[c]
            fitted = fit_cell(
                str(text), widths[c] - 2 * pad - 0.5, h - 2, col.size if r else 9.0, 6.5 if r else 8.0
            )
            out.append(fitted.text)
            style.append(("FONTSIZE", (c, r), (c, r), fitted.size))
            style.append(("LEADING", (c, r), (c, r), fitted.leading))
            style.append(("ALIGN", (c, r), (c, r), "CENTER" if r == 0 else col.align))
        data.append(out)
    for r in shaded_rows:
        style.append(("BACKGROUND", (0, r + 1), (-1, r + 1), colors.HexColor("#f4f4f4")))
    table = Table(
        data,
        colWidths=widths,
        rowHeights=[header_height] + [row_height] * len(rows),
        repeatRows=1,
    )
    table.setStyle(TableStyle(style))
    return table


def paragraph_style(size: float = 9.0, leading: float | None = None, **kw: Any) -> ParagraphStyle:
    """A paragraph style in the app's font (registered first: a Paragraph needs its family mapping)."""
    font = register_font()
    return ParagraphStyle(
        f"p{size}", fontName=font, fontSize=size, leading=leading or size * 1.35, wordWrap="CJK", **kw
    )


@dataclass(frozen=True, slots=True)
class PageDecor:
    """What the page header and footer say."""

    header: EventHeader
    title: str  # e.g. "对阵表"
    printed_at: datetime
    internal: bool = False
    show_header: bool = True
    show_footer: bool = True  # certificates carry neither print time nor page numbers
    link: str = ""  # the hall network's page of this document: a QR code at the top right of each page


def numbered_canvas(decor: PageDecor) -> type[rl_canvas.Canvas]:
    """A canvas class that defers pages so the footer can say "第 x 页 / 共 y 页"."""

    class NumberedCanvas(rl_canvas.Canvas):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for number, state in enumerate(self._pages, start=1):
                self.__dict__.update(state)
                draw_decor(self, decor, number, total)
                super().showPage()
            super().save()

    return NumberedCanvas


SECTION_ATTRIBUTE = "_xq_section"  # (title, subtitle) set on the canvas by a SectionMarker


class SectionMarker(Flowable):  # type: ignore[misc]
    """A zero-size flowable that names the section for the page headers from here on (results book)."""

    def __init__(self, title: str, subtitle: str = "") -> None:
        super().__init__()
        self.title, self.subtitle = title, subtitle

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        return 0, 0

    def draw(self) -> None:
        setattr(self.canv, SECTION_ATTRIBUTE, (self.title, self.subtitle))


def signoff_flowable(signoff: SignOff, width: float) -> Flowable:
    """Signature lines of the officials (role, printed name, a line to sign) and the seal and date lines."""
    style = paragraph_style(10, 18)
    cells = [
        Paragraph(f"{role}：{name}　签字：＿＿＿＿＿＿" if name else f"{role}：＿＿＿＿＿＿＿＿", style)
        for role, name in signoff.signers
    ]
    parts: list[Flowable] = [Spacer(1, 5 * mm)]
    if cells:
        per_row = 2 if width < 700 else 3
        rows = [cells[i : i + per_row] for i in range(0, len(cells), per_row)]
        rows = [r + [Paragraph("", style)] * (per_row - len(r)) for r in rows]
        table = Table(rows, colWidths=[width / per_row] * per_row)
        table.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
                ]
            )
        )
        parts.append(table)
    right = paragraph_style(10, 18, alignment=2)
    if signoff.seal:
        parts += [Spacer(1, 3 * mm), Paragraph(signoff.seal, right)]
    parts.append(Paragraph(signoff.date or "＿＿＿＿年＿＿月＿＿日", right))
    return KeepTogether(parts)


def with_signoff(story: list[Flowable], signoff: SignOff | None, width: float) -> list[Flowable]:
    """The story with the sign-off block at its end (unchanged without one)."""
    if signoff is None or signoff.empty:
        return story
    return [*story, signoff_flowable(signoff, width)]


def draw_decor(c: rl_canvas.Canvas, decor: PageDecor, number: int, total: int) -> None:
    w, h = c._pagesize
    usable = w - 2 * MARGIN_X
    c.saveState()
    section = getattr(c, SECTION_ATTRIBUTE, None)
    if decor.link:
        # room for the QR code and its caption on both sides keeps the title centred
        usable -= 2 * (QR_SIZE + 12 * mm) - 30 * mm
        draw_qr(c, decor.link, w - MARGIN_X - QR_SIZE, h - QR_TOP - QR_SIZE, QR_SIZE)
        c.setFont(FONT, 6.5)
        right = w - MARGIN_X - QR_SIZE - 1 * mm
        c.drawRightString(right, h - 12 * mm, "扫码看")
        c.drawRightString(right, h - 15 * mm, "实时成绩")
    if decor.show_header:
        name = decor.header.event_name
        size = shrink_to(name, usable - 30 * mm, 13)
        c.setFont(FONT, size)
        c.drawCentredString(w / 2, h - 12 * mm, name)
        sub = "  ".join(p for p in (decor.title, decor.header.subtitle) if p)
        if section is not None:
            sub = "  ".join(p for p in section if p)
        c.setFont(FONT, shrink_to(sub, usable - 30 * mm, 11))
        c.drawCentredString(w / 2, h - 18.5 * mm, sub)
        c.setLineWidth(0.6)
        right_end = w - MARGIN_X - (QR_SIZE + 2 * mm if decor.link else 0)  # the rule stops before the code
        c.line(MARGIN_X, h - 21 * mm, right_end, h - 21 * mm)
    if decor.internal:
        c.setFillColor(RED)
        c.setStrokeColor(RED)
        c.setFont(FONT, 12)
        c.rect(w - MARGIN_X - 16 * mm, h - 16 * mm, 16 * mm, 8 * mm)
        c.drawCentredString(w - MARGIN_X - 8 * mm, h - 13.8 * mm, "内部")
        c.setFillColor(colors.black)
        c.setStrokeColor(colors.black)
    if not decor.show_footer:
        c.restoreState()
        return
    c.setFont(FONT, 8)
    c.drawString(MARGIN_X, 7 * mm, f"打印时间：{decor.printed_at:%Y-%m-%d %H:%M}")
    if decor.internal:
        c.drawCentredString(w / 2, 7 * mm, "内部资料 · 含个人信息 · 不得公开")
    c.drawRightString(w - MARGIN_X, 7 * mm, f"第 {number} 页 / 共 {total} 页")
    c.restoreState()


def build_story(out: Output, decor: PageDecor, story: list[Flowable], *, wide: bool = False) -> None:
    """Lay out flowables on A4 (landscape if ``wide``) between header and footer."""
    register_font()
    size = landscape(A4) if wide else A4
    top = max(TOP, LINKED_TOP) if decor.link else TOP
    doc = BaseDocTemplate(
        str(out) if isinstance(out, Path) else out,
        pagesize=size,
        leftMargin=MARGIN_X,
        rightMargin=MARGIN_X,
        topMargin=top,
        bottomMargin=BOTTOM,
        title=f"{decor.title} {decor.header.event_name}",
        author="象棋赛事编排系统",
    )
    frame = Frame(
        MARGIN_X,
        BOTTOM,
        size[0] - 2 * MARGIN_X,
        size[1] - top - BOTTOM,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    doc.addPageTemplates([PageTemplate("page", [frame])])
    doc.build(story, canvasmaker=numbered_canvas(decor))


def pages_needed(rows: int, row_height: float, frame_height: float, header_height: float, tail: float) -> int:
    """Pages a :func:`grid` of ``rows`` takes, with ``tail`` points (a legend) after it on the last page."""
    per_page = max(1, int((frame_height - header_height) // row_height))
    full, rest = divmod(rows, per_page)
    pages = full + (1 if rest else 0)
    used = header_height + (rest or per_page) * row_height if rows else 0.0
    return max(1, pages + (1 if frame_height - used < tail else 0))


def fitted_row_height(
    rows: int,
    frame_height: float,
    *,
    header_height: float = 18.0,
    tail: float = 0.0,
    preferred: float = 16.0,
    smallest: float = 11.0,
) -> float:
    """The tallest row height (``preferred`` … ``smallest``) that needs the fewest pages.

    A table one row (or one legend) too long for its page gets slightly shorter rows instead of a
    page with a single row on it.

    >>> fitted_row_height(29, 487.6, tail=17)  # 29 rows of 16 pt leave no room for the legend
    15.5
    >>> fitted_row_height(10, 487.6)
    16.0
    """
    best, fewest = preferred, pages_needed(rows, preferred, frame_height, header_height, tail)
    h = preferred
    while h >= smallest:
        n = pages_needed(rows, h, frame_height, header_height, tail)
        if n < fewest:
            best, fewest = h, n
        h -= 0.25
    return best


def frame_size(wide: bool = False) -> tuple[float, float]:
    size = landscape(A4) if wide else A4
    return size[0] - 2 * MARGIN_X, size[1] - TOP - BOTTOM


def draw_pages(
    out: Output,
    decor: PageDecor,
    pages: Sequence[Callable[[rl_canvas.Canvas], None]],
    *,
    wide: bool = False,
) -> None:
    """Draw hand-laid pages (table cards, record sheets) with the same footer and page count."""
    register_font()
    size = landscape(A4) if wide else A4
    target = str(out) if isinstance(out, Path) else out
    c = numbered_canvas(decor)(target, pagesize=size)
    c.setTitle(f"{decor.title} {decor.header.event_name}")
    for draw in pages:
        draw(c)
        c.showPage()
    c.save()


__all__ = [
    "FONT",
    "Column",
    "Output",
    "PageDecor",
    "Paragraph",
    "SectionMarker",
    "build_story",
    "draw_pages",
    "fit_cell",
    "frame_size",
    "grid",
    "paragraph_style",
    "register_font",
    "shrink_to",
    "signoff_flowable",
    "width_of",
    "with_signoff",
    "wrap_chars",
]
