"""QR codes on paper: table cards, the pairing list and the round results link to the hall's pages when
its address is known, and carry no QR code when it is not. Each code is read back by a real decoder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import Image

from app.engine.types import UserError
from app.reports.qr import qr_matrix, qr_text
from app.services import exports, hall
from app.services.snapshot import import_snapshot
from tests.factories import open_copy, player, snapshot, swiss_round

QR_CODES = zxingcpp.BarcodeFormat.QRCode
"""The decoder looks for QR codes only (the only kind the program prints): a fourth of the time of a
search for every kind of barcode on a page rendered at four pixels a point."""


@pytest.fixture(scope="module")
def event_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The event, imported once for the module (read-only: each test opens its own copy)."""
    players = [player(i, f"棋手{i}") for i in range(1, 9)]
    rounds = [swiss_round(1, [(1, 5, "red_win"), (6, 2, "pending"), (3, 7, "pending"), (8, 4, "draw")])]
    path = tmp_path_factory.mktemp("hall-print") / "t.xqt"
    import_snapshot(snapshot(players, rounds), path).close()
    return path


@pytest.fixture
def db(tmp_path: Path, event_file: Path) -> Any:
    database = open_copy(event_file, tmp_path / "t.xqt")
    yield database
    database.close()


def codes_on(pdf: bytes, page: int = 0) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        image = document[page].render(scale=4, grayscale=True).to_pil()  # the codes are black on white
    finally:
        document.close()
    return sorted(r.text for r in zxingcpp.read_barcodes(image, formats=QR_CODES))


def test_table_cards_link_each_board(db: Any) -> None:
    hall.set_hall_base_url(db, "http://192.168.1.10:8080")
    pdf = exports.render_pdf(db, "table-cards", per_page=2, group="公开组")
    assert codes_on(pdf, 0) == [
        "http://192.168.1.10:8080/g/1/r/1/b/1",
        "http://192.168.1.10:8080/g/1/r/1/b/2",
    ]
    assert codes_on(pdf, 1) == [
        "http://192.168.1.10:8080/g/1/r/1/b/3",
        "http://192.168.1.10:8080/g/1/r/1/b/4",
    ]
    four = exports.render_pdf(db, "table-cards", per_page=4, group="公开组")
    assert len(codes_on(four, 0)) == 4


@pytest.mark.parametrize("name", ["pairings", "results"])
def test_lists_link_the_round(db: Any, name: str) -> None:
    hall.set_hall_base_url(db, "http://192.168.1.10:8080")
    assert codes_on(exports.render_pdf(db, name, group="公开组")) == ["http://192.168.1.10:8080/g/1/r/1/"]


def test_no_address_no_qr_code(db: Any) -> None:
    for name in ("table-cards", "pairings", "results"):
        assert codes_on(exports.render_pdf(db, name, group="公开组")) == []
    hall.set_hall_base_url(db, "http://192.168.1.10:8080")
    assert (
        codes_on(exports.render_pdf(db, "pairings", base_url="", group="公开组")) == []
    )  # the option turns it off
    assert codes_on(exports.render_pdf(db, "pairings", base_url="http://10.0.0.2:9000", group="公开组")) == [
        "http://10.0.0.2:9000/g/1/r/1/"
    ]
    with pytest.raises(UserError, match="网址"):
        exports.render_pdf(db, "pairings", base_url="javascript:alert(1)", group="公开组")


def test_other_documents_carry_no_qr_code(db: Any) -> None:
    hall.set_hall_base_url(db, "http://192.168.1.10:8080")
    # round 1 still has boards open: the standings are asked for by round (printed as provisional)
    assert codes_on(exports.render_pdf(db, "standings", group="公开组", round_number=1)) == []


def test_the_matrix_decodes(db: Any) -> None:
    url = "http://192.168.100.200:65535/g/12/r/11/b/2500"
    matrix = qr_matrix(url)
    n, scale = len(matrix), 6
    image = Image.new("L", ((n + 8) * scale, (n + 8) * scale), 255)
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                image.paste(0, ((c + 4) * scale, (r + 4) * scale, (c + 5) * scale, (r + 5) * scale))
    assert [r.text for r in zxingcpp.read_barcodes(image, formats=QR_CODES)] == [url]
    lines = qr_text(url).splitlines()
    assert len(lines) == (n + 4 + 1) // 2 and {len(line) for line in lines} == {n + 4}


@pytest.mark.parametrize("name", ["pairings", "results"])
def test_the_posted_lists_qr_code_is_at_least_20_mm_and_clear_of_the_list(db: Any, name: str) -> None:
    """A list on the notice board is scanned from a step away: its code is at least 20 mm wide (the
    dark modules, not counting the white around them), like the table cards'."""
    hall.set_hall_base_url(db, "http://192.168.1.10:8080")
    document = pdfium.PdfDocument(exports.render_pdf(db, name, group="公开组"))
    scale = 4  # pixels per point
    try:
        page = document[0]
        image = page.render(scale=scale).to_pil()
        words = page.get_textpage()
        first_row = min(
            words.get_charbox(i)[3] for i in range(words.count_chars()) if words.get_text_range(i, 1) == "台"
        )
    finally:
        document.close()
    [code] = zxingcpp.read_barcodes(image, formats=QR_CODES)
    p = code.position
    width_px = max(p.top_right.x, p.bottom_right.x) - min(p.top_left.x, p.bottom_left.x)
    mm_per_px = 25.4 / 72 / scale
    assert width_px * mm_per_px >= 20.0
    bottom_of_code_pt = image.height / scale - max(p.bottom_left.y, p.bottom_right.y) / scale
    assert bottom_of_code_pt > first_row  # the code ends above the table's header row
