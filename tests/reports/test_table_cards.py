"""Every table card read back from its own place on the page: its board, both players, the labels.

The cards' shared part (title lines, boxes, result and signature lines) is drawn once per document
and shown on every card; the board's own text is drawn per card. A card whose shared part is missing,
doubled, or shown in another card's place, or that carries another board's text, fails here: the text
of each card's rectangle on the page (pypdfium2) is checked against its board.
"""

from __future__ import annotations

import io
import re
from datetime import datetime

import pypdfium2 as pdfium
import pytest

from app.reports.model import EventHeader, PairingRow, PlayerLine, TableCards, fmt_num
from app.reports.pdf import render_document
from app.reports.pdf.cards import _card_slots

PRINTED_AT = datetime(2024, 7, 28, 9, 30)
HEADER = EventHeader("2024“魅力天水·棋开得胜”互助保障杯职工象棋公开赛", "公开组", 9, time_control="20′+10″")
LABELS = ("红方", "黑方", "结果", "红胜", "黑胜", "红方签名", "黑方签名", "裁判签名")
UNITS = ("个人", "清水县", "天水市秦州区象棋协会（青少年业余训练基地）", "甘谷县", "")


def _rows(count: int, *, knockout_from: int | None = None, links: bool = False) -> tuple[PairingRow, ...]:
    rows = []
    for board in range(1, count + 1):
        red = PlayerLine(board, f"红{board:03d}号", UNITS[board % len(UNITS)], board % 7 / 2)
        black = PlayerLine(count + board, f"黑{board:03d}号", UNITS[(board + 2) % len(UNITS)], board % 5)
        knockout = knockout_from is not None and board >= knockout_from
        rows.append(
            PairingRow(
                board,
                red,
                black,
                match=f"半决赛第{board}场" if knockout else "",
                game="第1局 快棋" if knockout else "",
                time_control="10′+5″" if knockout else "",
                link=f"http://192.168.1.2:8000/board/{board}" if links else "",
            )
        )
    return tuple(rows)


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _card_texts(cards: TableCards) -> list[list[str]]:
    """Each page's cards' texts, in slot order, read from the slots' rectangles."""
    buf = io.BytesIO()
    render_document("table-cards", cards, buf, printed_at=PRINTED_AT)
    pdf = pdfium.PdfDocument(buf.getvalue())
    slots = _card_slots(cards.per_page)
    pages = []
    for page in pdf:
        text = page.get_textpage()
        pages.append(
            [_squash(text.get_text_bounded(x + 1, y + 1, x + w - 1, y + h - 1)) for x, y, w, h in slots]
        )
    return pages


def _check_card(text: str, row: PairingRow, others: list[PairingRow]) -> None:
    assert f"第{row.board}台" in text
    for p in (row.red, row.black):
        assert p.name in text
        assert f"序号{p.no}积分{fmt_num(p.score)}" in text
        assert _squash(p.unit) in text
    for label in LABELS:
        assert text.count(label) == (2 if label in ("红方", "黑方") else 1), label  # 红方 and 红方签名
    assert text.count(_squash(HEADER.event_name)) == 1
    control = row.time_control or HEADER.time_control
    assert f"用时{control}" in text
    assert (row.stage.replace(" ", "") in text) if row.stage else ("半决赛" not in text)
    assert text.count("扫码查看本台") == (1 if row.link else 0)
    for other in others:
        assert other.red.name not in text and f"第{other.board}台" not in text


@pytest.mark.parametrize("per_page", [1, 2, 4])
@pytest.mark.parametrize(("knockout_from", "links"), [(None, False), (4, True), (2, False)])
def test_every_card_shows_its_own_board(per_page: int, knockout_from: int | None, links: bool) -> None:
    rows = _rows(9, knockout_from=knockout_from, links=links)
    pages = _card_texts(TableCards(HEADER, rows, per_page))
    assert len(pages) == -(-len(rows) // per_page)
    for p, texts in enumerate(pages):
        chunk = rows[p * per_page : (p + 1) * per_page]
        for k, text in enumerate(texts):
            if k >= len(chunk):  # the empty slots of the last page
                assert text == ""
                continue
            _check_card(text, chunk[k], [r for r in rows if r is not chunk[k]])


def test_cards_of_a_long_round_each_carry_their_board() -> None:
    """Enough boards to use several of the font's subsets (their own names on every card)."""
    rows = tuple(
        PairingRow(
            b,
            PlayerLine(b, "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许"[b % 20] + chr(0x4E00 + 7 * b)),
            PlayerLine(900 + b, "何吕施张孔曹严华金魏陶姜戚谢邹喻柏水窦章"[b % 20] + chr(0x5E00 + 5 * b)),
        )
        for b in range(1, 301)
    )
    pages = _card_texts(TableCards(HEADER, rows, 4))
    texts = [t for page in pages for t in page]
    for row, text in zip(rows, texts, strict=True):
        assert f"第{row.board}台" in text
        assert row.red.name in text and row.black.name in text
        assert text.count("裁判签名") == 1
