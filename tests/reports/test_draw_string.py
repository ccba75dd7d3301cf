"""The table cards' fast text drawing writes exactly what ReportLab's own string drawing writes."""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from app.reports.pdf.base import FONT, draw_string, register_font

# more than 256 distinct characters: the font's subsets change inside one text and between texts
MANY = "".join(chr(0x4E00 + k * 7) for k in range(300))
TEXTS = [
    ("第 12 台", 66.0, "center"),
    ("红方", 14.0, "left"),
    ("序号 3　　积分 4", 13.0, "right"),
    (MANY, 9.5, "left"),
    ("第 12 台", 66.0, "center"),  # again, after the subsets have grown
    ("张三 (天水市象棋协会) abc", 12.25, "center"),
    ("红方", 11.0, "left"),  # the same text at another size
    ("", 10.0, "center"),
]


def _pdf(fast: bool) -> bytes:
    register_font()
    out = io.BytesIO()
    c = Canvas(out, invariant=1)
    for page in range(2):
        for k, (text, size, align) in enumerate(TEXTS):
            c.setFont(FONT, size)
            x, y = 20.0 + k * 1.37, 800.0 - k * 31.3 - page
            if fast:
                draw_string(c, x, y, text, align)
            elif align == "center":
                c.drawCentredString(x, y, text)
            elif align == "right":
                c.drawRightString(x, y, text)
            else:
                c.drawString(x, y, text)
        c.showPage()
    c.save()
    return out.getvalue()


def test_draw_string_is_byte_for_byte_reportlab_s_drawing() -> None:
    assert _pdf(fast=True) == _pdf(fast=False)
