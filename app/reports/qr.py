"""QR codes (reportlab's own encoder): as a module matrix, drawn on a PDF canvas, or as terminal text.

One encoder for every place a QR code appears: table cards and lists (PDF), the hall network dialog
(painted by Qt from :func:`qr_matrix`) and ``xqarbiter serve`` (:func:`qr_text`).

>>> m = qr_matrix("http://192.168.1.10:8080/g/1/")
>>> len(m) == len(m[0]), len(m) >= 21
(True, True)
"""

from __future__ import annotations

from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel
from reportlab.pdfgen.canvas import Canvas

QUIET = 2  # modules of white around the code (the paper around it is white too)


def qr_matrix(text: str) -> list[list[bool]]:
    """The dark (True) and light modules of ``text``'s QR code, error correction level M."""
    code = QRCode(None, QRErrorCorrectLevel.M)
    code.addData(text)
    code.make()
    return [[bool(cell) for cell in row] for row in code.modules]


def draw_qr(c: Canvas, text: str, x: float, y: float, size: float) -> None:
    """Draw the QR code of ``text`` in the square (x, y, size) — lower-left corner — quiet zone inside."""
    matrix = qr_matrix(text)
    n = len(matrix)
    module = size / (n + 2 * QUIET)
    c.saveState()
    c.setFillColorRGB(1, 1, 1)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    top = y + size - QUIET * module
    for r, row in enumerate(matrix):
        col = 0
        while col < n:
            if row[col]:
                start = col
                while col < n and row[col]:
                    col += 1
                c.rect(
                    x + (QUIET + start) * module,
                    top - (r + 1) * module,
                    (col - start) * module,
                    module,
                    stroke=0,
                    fill=1,
                )
            else:
                col += 1
    c.restoreState()


def qr_text(text: str) -> str:
    """The QR code as lines of half-block characters (two modules per character), for a terminal."""
    matrix = qr_matrix(text)
    n = len(matrix)
    pad = [[False] * (n + 2 * QUIET) for _ in range(QUIET)]
    rows = pad + [[False] * QUIET + row + [False] * QUIET for row in matrix] + pad
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    chars = {(False, False): "█", (True, False): "▄", (False, True): "▀", (True, True): " "}
    return "\n".join(
        "".join(chars[(top, bottom)] for top, bottom in zip(rows[i], rows[i + 1], strict=True))
        for i in range(0, len(rows), 2)
    )
