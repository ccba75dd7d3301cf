"""The long-table flowable (:func:`app.reports.pdf.base.grid`) pages and draws exactly as ReportLab's
general ``Table`` with the same columns, fixed heights and cell styles: the same rows on each page, the
header repeated, the same text at the same places."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import pypdfium2 as pdfium
import pytest
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.platypus import Flowable, SimpleDocTemplate, Spacer, Table, TableStyle

from app.reports.pdf.base import FONT, GREY, Column, fit_cell, grid, register_font


def _reference(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    width: float,
    row_height: float,
    shaded: Sequence[int],
) -> Table:
    """The table as ReportLab's Table draws it: every cell's size, leading and alignment its own command."""
    total = sum(c.weight for c in columns)
    widths = [width * c.weight / total for c in columns]
    style: list[tuple[Any, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), GREY),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2.0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2.0),
        ("TOPPADDING", (0, 0), (-1, -1), 0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
    ]
    data = []
    for r, row in enumerate([[c.label for c in columns], *rows]):
        out = []
        h = 18.0 if r == 0 else row_height
        for c, text in enumerate(row):
            fitted = fit_cell(text, widths[c] - 4.5, h - 2, columns[c].size if r else 9.0, 6.5 if r else 8.0)
            out.append(fitted.text)
            style += [
                ("FONTSIZE", (c, r), (c, r), fitted.size),
                ("LEADING", (c, r), (c, r), fitted.leading),
                ("ALIGN", (c, r), (c, r), "CENTER" if r == 0 else columns[c].align),
            ]
        data.append(out)
    for r in shaded:
        style.append(("BACKGROUND", (0, r + 1), (-1, r + 1), colors.HexColor("#f4f4f4")))
    table = Table(data, colWidths=widths, rowHeights=[18.0] + [row_height] * len(rows), repeatRows=1)
    table.setStyle(TableStyle(style))
    return table


def _pages(story: list[Flowable]) -> list[list[tuple[str, int, int]]]:
    """Each page's characters with their places (rounded to a tenth of a point)."""
    buf = io.BytesIO()
    SimpleDocTemplate(buf, pagesize=A4).build(story)
    doc = pdfium.PdfDocument(buf.getvalue())
    out = []
    for page in doc:
        text = page.get_textpage()
        chars = []
        for i in range(text.count_chars()):
            box = text.get_charbox(i)
            chars.append((text.get_text_range(i, 1), round(box[0] * 10), round(box[1] * 10)))
        out.append(chars)
    return out


@pytest.mark.parametrize("lead", [0.0, 37.5, 650.0])  # the table starts high, lower, near a page's end
def test_the_grid_pages_and_places_text_as_reportlabs_table(lead: float) -> None:
    register_font()
    columns = [
        Column("台次", 1),
        Column("姓名", 3, "LEFT"),
        Column("单位", 4, "LEFT", 8.0),
        Column("积分", 1.2, "RIGHT"),
        Column("结果", 1.5),
    ]
    rows = [
        [
            str(i),
            f"选手{i}",
            "天水市象棋协会青少年培训中心代表队" if i % 7 == 0 else f"单位{i % 13}",
            f"{i % 9}",
            "1:0",
        ]
        for i in range(1, 181)
    ]
    rows[5][2] = "甲\n乙"  # an explicit line break
    width = 480.0
    ours = _pages([Spacer(1, lead), grid(columns, rows, width, 16.0, shaded_rows=[3, 90])])
    theirs = _pages([Spacer(1, lead), _reference(columns, rows, width, 16.0, [3, 90])])
    assert len(ours) == len(theirs) > 2
    assert ours == theirs
