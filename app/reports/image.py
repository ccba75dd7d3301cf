"""Pictures for WeChat: a document's PDF pages rendered (pypdfium2) and stacked into one tall PNG.

Chinese events post the lists to the players' WeChat group as pictures; one tall picture per list is
what they share. The pages are stacked as printed (header, footer and page count included) with a
thin grey line between them; the empty paper at the end of the last page is left out. The picture is kept under :data:`MAX_HEIGHT` pixels by lowering the
resolution, down to :data:`MIN_SCALE`; a list longer still is refused (print or send the PDF).
"""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from PIL import Image, ImageOps

from app.engine.types import UserError

DEFAULT_SCALE = 2.0  # 144 dpi: an A4 page 1190 pixels wide, small Chinese text still sharp on a phone
MIN_SCALE = 1.0
MAX_HEIGHT = 40_000  # pixels
GAP = 6  # pixels of grey between pages
FOOTER_PT = 14 * 72 / 25.4  # the footer band of every page (app.reports.pdf.base.BOTTOM)


def _close_gap(page: Image.Image, scale: float) -> Image.Image:
    """The last page without the empty paper between the end of the list and the footer."""
    footer = round(FOOTER_PT * scale)
    body = page.crop((0, 0, page.width, page.height - footer))
    box = ImageOps.invert(body.convert("L")).getbbox()
    if box is None:
        return page
    cut = min(body.height, box[3] + round(8 * scale))
    shorter = Image.new("RGB", (page.width, cut + footer), (255, 255, 255))
    shorter.paste(body.crop((0, 0, page.width, cut)), (0, 0))
    shorter.paste(page.crop((0, page.height - footer, page.width, page.height)), (0, cut))
    return shorter


def tall_png(pdf: bytes, scale: float = DEFAULT_SCALE) -> bytes:
    """The PDF's pages one under the other as a single PNG."""
    document = pdfium.PdfDocument(pdf)
    try:
        count = len(document)
        if count == 0:
            raise UserError("文档没有页面", "the document has no pages")
        heights = [document[i].get_height() for i in range(count)]
        total_pt = sum(heights)
        fit = (MAX_HEIGHT - GAP * (count - 1)) / total_pt  # the largest scale one picture holds
        if fit < scale and fit < MIN_SCALE:  # too long even at the smallest readable scale
            raise UserError(
                f"这份名单共 {count} 页，太长，无法做成一张图片；请打印或发送 PDF",
                f"the list has {count} page{'' if count == 1 else 's'}: too long for one picture; print or send the PDF",
            )
        pages = []
        for i in range(count):
            page = document[i]
            pages.append(page.render(scale=min(scale, fit)).to_pil().convert("RGB"))
            page.close()
    finally:
        document.close()
    pages[-1] = _close_gap(pages[-1], min(scale, fit))
    width = max(p.width for p in pages)
    height = sum(p.height for p in pages) + GAP * (len(pages) - 1)
    picture = Image.new("RGB", (width, height), (200, 200, 200))
    y = 0
    for p in pages:
        picture.paste(p, ((width - p.width) // 2, y))
        y += p.height + GAP
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
