"""Pictures for WeChat: a public list as one tall PNG of its stacked pages; refused for the rest."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from app.engine.types import UserError
from app.reports.image import MAX_HEIGHT, tall_png
from app.services import exports, hall
from app.services.snapshot import import_snapshot
from tests.factories import open_copy, player, snapshot, swiss_round


@pytest.fixture(scope="module")
def event_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The event (120 players, round 1 played), imported once for the module (read-only: each test
    opens its own copy)."""
    players = [player(i, f"棋手{i}") for i in range(1, 121)]
    pairs = [(i, i + 60, "draw" if i % 3 else "red_win") for i in range(1, 61)]
    path = tmp_path_factory.mktemp("hall-images") / "t.xqt"
    import_snapshot(snapshot(players, [swiss_round(1, pairs)]), path).close()
    return path


@pytest.fixture
def db(tmp_path: Path, event_file: Path) -> Any:
    database = open_copy(event_file, tmp_path / "t.xqt")
    yield database
    database.close()


def grey_rows(image: Image.Image) -> list[int]:
    x = image.width // 2
    return [y for y in range(image.height) if image.getpixel((x, y)) == (200, 200, 200)]


def test_a_list_of_two_pages_is_one_picture(db: Any) -> None:
    pdf = exports.render_pdf(db, "results", group="公开组")
    png = exports.render_image(db, "results", group="公开组")
    assert png.startswith(b"\x89PNG")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.width == round(A4[0] * 2)  # 144 dpi
    assert A4[1] * 2 < image.height < 2 * A4[1] * 2  # two pages, the second one shortened
    assert len(grey_rows(image)) == 6  # one gap between the pages
    assert pdf.startswith(b"%PDF")


def test_the_picture_carries_the_qr_code(db: Any) -> None:
    hall.set_hall_base_url(db, "http://192.168.1.10:8080")
    image = Image.open(io.BytesIO(exports.render_image(db, "pairings", group="公开组")))
    assert {r.text for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)} == {
        "http://192.168.1.10:8080/g/1/r/1/"
    }


@pytest.mark.parametrize("name", ["payout", "table-cards", "record-sheets", "nonsense"])
def test_only_public_lists(db: Any, name: str) -> None:
    with pytest.raises(UserError, match="不能做成图片"):
        exports.render_image(db, name, group="公开组")


def test_not_the_internal_entry_list(db: Any) -> None:
    with pytest.raises(UserError, match="内部"):
        exports.render_image(db, "entry-list", group="公开组", internal=True)


def test_a_list_too_long_for_one_picture_is_refused() -> None:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4)
    pages = int(MAX_HEIGHT / A4[1]) + 2
    for i in range(pages):
        c.drawString(100, 400, f"page {i}")
        c.showPage()
    c.save()
    with pytest.raises(UserError, match="太长"):
        tall_png(buf.getvalue())


def test_a_long_list_is_made_smaller_to_fit() -> None:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4)
    for i in range(30):  # 30 pages at 2× would be 50,000 pixels
        c.drawString(100, 400, f"page {i}")
        c.showPage()
    c.save()
    image = Image.open(io.BytesIO(tall_png(buf.getvalue())))
    assert image.height <= MAX_HEIGHT and image.width < A4[0] * 2
