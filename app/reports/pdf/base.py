"""Shared PDF machinery: the embedded CJK font, page header/footer with "第 x 页 / 共 y 页", fitted cells.

Every page gets the tournament name, the document title with group and round, and a footer with the
print time (passed in, never read from a clock) and the page count, which a deferred canvas knows only
when the document is saved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import getitem
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
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

from app.reports.model import SignOff
from app.reports.pdf.page import (  # re-exported: the lists and the hand-laid pages share them
    _WIDTHS,
    BOTTOM,
    FONT,
    GREY,
    LINKED_TOP,
    MARGIN_X,
    NO_LINE_START,
    QR_SIZE,
    QR_TOP,
    RED,
    SECTION_ATTRIBUTE,
    TOP,
    Output,
    PageDecor,
    _width,
    draw_decor,
    draw_pages,
    draw_string,
    frame_size,
    numbered_canvas,
    register_font,
    shrink_to,
    width_of,
    wrap_chars,
)


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
) -> Flowable:
    """A ruled table with a repeated header row and fixed row heights; every cell fitted, never cut.

    Fixed heights make pagination predictable: rows per page = ⌊(frame − header) / row_height⌋.
    """
    total = sum(c.weight for c in columns)
    widths = [width * c.weight / total for c in columns]
    register_font()
    header = [
        fit_cell(str(c.label), widths[k] - 2 * _PAD - 0.5, header_height - 2, 9.0, 8.0)
        for k, c in enumerate(columns)
    ]
    # a body cell's fit depends only on its text and column: one fit per distinct (column, text), each
    # cell then one lookup (made in C: 338,000 cells in a results book of 5,000 players)
    fitted = [_ColumnFits(widths[k] - 2 * _PAD - 0.5, row_height - 2, c.size) for k, c in enumerate(columns)]
    cells: list[list[Fitted]] = [header]
    cells += [list(map(getitem, fitted, map(str, row))) for row in rows]
    return Grid(
        widths,
        cells,
        [c.align for c in columns],
        row_height,
        header_height,
        frozenset(shaded_rows),
        1,
        len(cells),
    )


_PAD = 2.0
_SHADE = colors.HexColor("#f4f4f4")


class _ColumnFits(dict[str, Fitted]):
    """``fit_cell(text, width, height, size, 6.5)`` of one column's body cells by text, each distinct
    text fitted once (when first looked up): the one-line case (nearly every cell) measured straight
    from the width cache."""

    def __init__(self, width: float, height: float, size: float) -> None:
        super().__init__()
        self.width, self.height, self.size = width, height, size

    def __missing__(self, text: str) -> Fitted:
        width, size = self.width, self.size
        if "\n" not in text:
            w = _WIDTHS.get((text, size))
            if w is None:
                w = _width(text, size)
            one = size if w <= width or w == 0 else max(0, size * width / w * 0.999)
            if one >= 6.5:
                found = self[text] = Fitted(text, one, one * 1.15)
                return found
        found = self[text] = fit_cell(text, width, self.height, size, 6.5)
        return found


class Grid(Flowable):  # type: ignore[misc]
    """The rows ``lo``–``hi`` of a :func:`grid` (row 0 is the header, repeated on every page).

    It lays out and splits exactly as ReportLab's ``Table`` with the same fixed heights would, but
    builds a ``Table`` only for the part drawn on a page: splitting a long table page by page no longer
    copies all the rows left (quadratic), and its cells' styles are a few column-wise commands.
    """

    def __init__(
        self,
        widths: list[float],
        cells: list[list[Fitted]],
        aligns: list[str],
        row_height: float,
        header_height: float,
        shaded: frozenset[int],
        lo: int,
        hi: int,
    ) -> None:
        super().__init__()
        self.hAlign = "CENTER"  # as a Table
        self._widths, self._cells, self._aligns = widths, cells, aligns
        self._row_height, self._header_height, self._shaded = row_height, header_height, shaded
        self._lo, self._hi = lo, hi

    def _heights(self) -> list[float]:
        return [self._header_height] + [self._row_height] * (self._hi - self._lo)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        width = 0.0
        for w in self._widths:  # summed as Table sums them
            width = width + w
        rows = self._hi - self._lo
        rough = self._header_height + rows * self._row_height
        if rows > 8 and rough > availHeight + rows * 1e-6 * self._row_height + 1.0:
            # far too tall for the space: the frame splits it whatever the last bits of its height (the
            # compensated sum over every row left, at each page of a long table, cost quadratic time)
            self.width, self.height = width, rough
            return width, rough
        height = c = 0.0
        heights = self._heights()
        for i in range(len(heights) - 1, -1, -1):  # Table's compensated sum, backwards
            y = heights[i] - c
            t = height + y
            c = (t - height) - y
            height = t
        self.width, self.height = width, height
        return width, height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        h = 0.0
        n = 1
        split_at = 0
        for rh in self._heights():  # Table._getFirstPossibleSplitRowPosition
            if h + rh > availHeight:
                break
            split_at = n
            h = h + rh
            n = n + 1
        if split_at <= 1:  # not even the header and one row
            return []
        if split_at == self._hi - self._lo + 1:
            return [self]
        cut = self._lo + split_at - 1
        return [self._part(self._lo, cut), self._part(cut, self._hi)]

    def _part(self, lo: int, hi: int) -> Grid:
        return Grid(
            self._widths,
            self._cells,
            self._aligns,
            self._row_height,
            self._header_height,
            self._shaded,
            lo,
            hi,
        )

    def draw(self) -> None:
        """Backgrounds, then every cell's text, then the rules: what ReportLab's ``Table`` with
        ``VALIGN MIDDLE``, paddings 2/2/0/1 and a 0.5 pt black ``GRID`` draws, at the same places."""
        canv = self.canv
        heights = self._heights()
        rows = [self._cells[0], *self._cells[self._lo : self._hi]]
        aligns = [["CENTER"] * len(self._aligns), *[self._aligns] * (len(rows) - 1)]
        cols = [0.0]
        for w in self._widths:
            cols.append(cols[-1] + w)
        tops: list[float] = []  # Table._calc_height's row positions: compensated sums from the bottom
        height = c = 0.0
        for i in range(len(heights) - 1, -1, -1):
            tops.append(height)
            y = heights[i] - c
            t = height + y
            c = (t - height) - y
            height = t
        tops.append(height)
        tops.reverse()
        canv.saveState()
        x0, x1 = cols[0], cols[-1]
        canv.setFillColor(GREY)
        canv.rect(x0, tops[0], x1 - x0, tops[1] - tops[0], stroke=0, fill=1)
        for r in range(1, len(rows)):
            if self._lo + r - 2 in self._shaded:
                canv.setFillColor(_SHADE)
                canv.rect(x0, tops[r], x1 - x0, tops[r + 1] - tops[r], stroke=0, fill=1)
        text = canv.beginText()
        text.setFillColor(colors.black)
        font: tuple[float, float] | None = None
        code = text._code
        append = code.append
        # per document: each (text, size, leading, font subset) line's PDF code, the subset after it
        # and its width; the same text at the same size in the same subset is the same PDF code
        formatted: dict[tuple[str, float, float, int], tuple[str, int, float]] = canv.__dict__.setdefault(
            "_xq_cells", {}
        )
        numbers: dict[float, str] = {}
        widths = self._widths
        lefts = [x + _PAD for x in cols]
        rights = [cols[k] + widths[k] - _PAD for k in range(len(widths))]
        centres = [cols[k] + (widths[k] + _PAD - _PAD) * 0.5 for k in range(len(widths))]
        for r, row in enumerate(rows):
            bottom, rh = tops[r + 1], heights[r]
            row_aligns = aligns[r]
            for col, cell in enumerate(row):
                size, leading = cell.size, cell.leading
                if (size, leading) != font:
                    font = (size, leading)
                    text.setFont(FONT, size, leading)
                vals = cell.text.split("\n") if "\n" in cell.text else (cell.text,)
                y = bottom + (1 + rh - 0 + len(vals) * leading) / 2.0 - size
                just = row_aligns[col]
                for v in vals:
                    key = (v, size, leading, text._curSubset)
                    made = formatted.get(key)
                    if made is None:
                        made = formatted[key] = (
                            text._formatText(v),
                            text._curSubset,
                            pdfmetrics.stringWidth(v, FONT, size),
                        )
                    else:
                        text._curSubset = made[1]
                    if just == "LEFT":
                        x = lefts[col]
                    elif just == "RIGHT":
                        x = rights[col] - made[2]
                    else:
                        x = centres[col] - 0.5 * made[2]
                    # what setTextOrigin then textOut (without moving the cursor) write; fp_str(x, y)
                    # is fp_str(x) and fp_str(y) joined by a space, and a column repeats its x, a row its y
                    xs = numbers.get(x)
                    if xs is None:
                        xs = numbers[x] = fp_str(x)
                    ys = numbers.get(y)
                    if ys is None:
                        ys = numbers[y] = fp_str(y)
                    append(f"1 0 0 1 {xs} {ys} Tm")
                    append(made[0])
                    y -= leading
        canv.drawText(text)
        canv.setStrokeColor(colors.black)
        canv.setLineWidth(0.5)
        for y in tops:
            canv.line(x0, y, x1, y)
        for x in cols:
            canv.line(x, tops[-1], x, tops[0])
        canv.restoreState()


def paragraph_style(size: float = 9.0, leading: float | None = None, **kw: Any) -> ParagraphStyle:
    """A paragraph style in the app's font (registered first: a Paragraph needs its family mapping)."""
    font = register_font()
    return ParagraphStyle(
        f"p{size}", fontName=font, fontSize=size, leading=leading or size * 1.35, wordWrap="CJK", **kw
    )


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


__all__ = [
    "BOTTOM",
    "FONT",
    "GREY",
    "LINKED_TOP",
    "MARGIN_X",
    "NO_LINE_START",
    "QR_SIZE",
    "QR_TOP",
    "RED",
    "SECTION_ATTRIBUTE",
    "TOP",
    "Column",
    "Fitted",
    "Grid",
    "Output",
    "PageDecor",
    "Paragraph",
    "SectionMarker",
    "build_story",
    "draw_decor",
    "draw_pages",
    "draw_string",
    "fit_cell",
    "fitted_row_height",
    "frame_size",
    "grid",
    "numbered_canvas",
    "pages_needed",
    "paragraph_style",
    "register_font",
    "shrink_to",
    "signoff_flowable",
    "width_of",
    "with_signoff",
    "wrap_chars",
]
