"""QR codes (reportlab's own encoder): as a module matrix, drawn on a PDF canvas, or as terminal text.

One encoder for every place a QR code appears: table cards and lists (PDF), the hall network dialog
(painted by Qt from :func:`qr_matrix`) and ``xqarbiter serve`` (:func:`qr_text`).

>>> m = qr_matrix("http://192.168.1.10:8080/g/1/")
>>> len(m) == len(m[0]), len(m) >= 21
(True, True)
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from functools import cache, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

QUIET = 2  # modules of white around the code (the paper around it is white too)

#: reportlab's QR encoder (pure Python: ``re`` and ``itertools`` only)
ENCODER = "reportlab.graphics.barcode.qrencoder"


@cache
def encoder() -> ModuleType:
    """reportlab's QR encoder module. Its package, ``reportlab.graphics.barcode``, registers every
    barcode widget when imported, and imports with them reportlab's drawing, paragraph and image
    modules (~0.15 s of CPU, a sixth of ``xqarbiter serve``'s start, for a code drawn once): unless
    that package is loaded already, the encoder's own file is loaded alone, kept here and not in
    ``sys.modules`` (the same code; the package, imported later for a PDF, loads its own copy). Where
    it cannot be found so (a build that keeps no path for it), it is imported the usual way."""
    if "reportlab.graphics.barcode" in sys.modules:
        return importlib.import_module(ENCODER)
    try:
        import reportlab.graphics  # a docstring and a version: no barcode widget

        spec = None
        for where in reportlab.graphics.__path__:
            for finder in sys.meta_path:
                find = getattr(finder, "find_spec", None)
                spec = find(ENCODER, [f"{where}/barcode"]) if find else None
                if spec is not None and spec.loader is not None:
                    break
            if spec is not None and spec.loader is not None:
                break
        if spec is None or spec.loader is None:
            raise ImportError(ENCODER)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception:  # any surprise: the usual import, widgets and all
        return importlib.import_module(ENCODER)
    return module


def qr_matrix(text: str) -> list[list[bool]]:
    """The dark (True) and light modules of ``text``'s QR code, error correction level M."""
    return [list(row) for row in _modules(text)]


@lru_cache(maxsize=1024)
def _modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """``text``'s QR code, made once: a list prints the same page's code on every page, table cards
    are printed again, and the encoder tries its eight masks in pure Python (~8 ms a code)."""
    qr = encoder()
    code = qr.QRCode(None, qr.QRErrorCorrectLevel.M)
    code.addData(text)
    code.make()
    return tuple(tuple(bool(cell) for cell in row) for row in code.modules)


def draw_qr(c: Canvas, text: str, x: float, y: float, size: float) -> None:
    """Draw the QR code of ``text`` in the square (x, y, size) — lower-left corner — quiet zone inside."""
    matrix = _modules(text)
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
