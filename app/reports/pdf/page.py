"""The PDF pages drawn straight on a canvas: the embedded CJK font, text widths and fitting, the page
header and footer with "第 x 页 / 共 y 页", hand-laid pages (table cards, record sheets, certificates).

Nothing here needs ReportLab's layout engine (platypus): a document drawn by hand imports only this
(the table cards of a large round start faster). The laid-out lists build on it in
:mod:`app.reports.pdf.base`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as rl_canvas

from app.paths import font_path
from app.reports.model import EventHeader

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
    found = _WIDTHS.get((text, size))
    if found is not None:
        return found
    register_font()
    return _width(text, size)


#: Texts' widths in the app's font by (text, size): cards and lists measure the same texts again and
#: again. Bounded: cleared when it grows past a few hundred thousand entries.
_WIDTHS: dict[tuple[str, float], float] = {}


def _width(text: str, size: float) -> float:
    """A text's width in the app's font (registered), kept in :data:`_WIDTHS`."""
    if len(_WIDTHS) > 1 << 19:
        _WIDTHS.clear()
    found = _WIDTHS[(text, size)] = float(pdfmetrics.stringWidth(text, FONT, size))
    return found


def shrink_to(text: str, width: float, size: float, minimum: float = 4.0) -> float:
    """The largest font size ≤ ``size`` at which ``text`` fits in ``width`` on one line."""
    w = width_of(text, size)
    if w <= width or w == 0:
        return size
    return max(minimum, size * width / w * 0.999)


def draw_string(c: rl_canvas.Canvas, x: float, y: float, text: str, align: str = "left") -> None:
    """What ``c.drawString`` (``align="center"``: ``drawCentredString``, ``"right"``: ``drawRightString``)
    draws in the current font, byte for byte, with each distinct text's PDF code and width made once
    per document: thousands of table cards repeat the same labels, and ReportLab splits every string
    into its font subsets again on each call."""
    if not c.bottomup:
        {"center": c.drawCentredString, "right": c.drawRightString}.get(align, c.drawString)(x, y, text)
        return
    key = (text, c._fontname, c._fontsize, c._leading)
    made: dict[tuple[str, str, float, float], tuple[str, float]] = c.__dict__.setdefault("_xq_strings", {})
    found = made.get(key)
    if found is None:
        # a fresh text object, as drawString makes: its code starts by choosing the font subset
        found = made[key] = (
            c.beginText()._formatText(text),
            pdfmetrics.stringWidth(text, c._fontname, c._fontsize),
        )
    code, width = found
    if align == "center":
        x -= 0.5 * width
    elif align == "right":
        x -= width
    c._code.append(f"BT 1 0 0 1 {fp_str(x, y)} Tm {code} T* ET")


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


def draw_decor(c: rl_canvas.Canvas, decor: PageDecor, number: int, total: int) -> None:
    """The page header and footer (each repeated text's PDF code made once per document)."""
    w, h = c._pagesize
    usable = w - 2 * MARGIN_X
    c.saveState()
    section = getattr(c, SECTION_ATTRIBUTE, None)
    if decor.link:
        from app.reports.qr import draw_qr

        # room for the QR code and its caption on both sides keeps the title centred
        usable -= 2 * (QR_SIZE + 12 * mm) - 30 * mm
        draw_qr(c, decor.link, w - MARGIN_X - QR_SIZE, h - QR_TOP - QR_SIZE, QR_SIZE)
        c.setFont(FONT, 6.5)
        right = w - MARGIN_X - QR_SIZE - 1 * mm
        draw_string(c, right, h - 12 * mm, "扫码看", "right")
        draw_string(c, right, h - 15 * mm, "实时成绩", "right")
    if decor.show_header:
        name = decor.header.event_name
        size = shrink_to(name, usable - 30 * mm, 13)
        c.setFont(FONT, size)
        draw_string(c, w / 2, h - 12 * mm, name, "center")
        sub = "  ".join(p for p in (decor.title, decor.header.subtitle) if p)
        if section is not None:
            sub = "  ".join(p for p in section if p)
        c.setFont(FONT, shrink_to(sub, usable - 30 * mm, 11))
        draw_string(c, w / 2, h - 18.5 * mm, sub, "center")
        c.setLineWidth(0.6)
        right_end = w - MARGIN_X - (QR_SIZE + 2 * mm if decor.link else 0)  # the rule stops before the code
        c.line(MARGIN_X, h - 21 * mm, right_end, h - 21 * mm)
    if decor.internal:
        c.setFillColor(RED)
        c.setStrokeColor(RED)
        c.setFont(FONT, 12)
        c.rect(w - MARGIN_X - 16 * mm, h - 16 * mm, 16 * mm, 8 * mm)
        draw_string(c, w - MARGIN_X - 8 * mm, h - 13.8 * mm, "内部", "center")
        c.setFillColor(colors.black)
        c.setStrokeColor(colors.black)
    if not decor.show_footer:
        c.restoreState()
        return
    c.setFont(FONT, 8)
    draw_string(c, MARGIN_X, 7 * mm, f"打印时间：{decor.printed_at:%Y-%m-%d %H:%M}")
    if decor.internal:
        draw_string(c, w / 2, 7 * mm, "内部资料 · 含个人信息 · 不得公开", "center")
    draw_string(c, w - MARGIN_X, 7 * mm, f"第 {number} 页 / 共 {total} 页", "right")
    c.restoreState()


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
