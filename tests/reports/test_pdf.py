"""Every PDF opened again: text layer, embedded font, page counts for 160 players, privacy."""

from __future__ import annotations

import io
import re

import pypdf
import pytest

from app.engine.types import UserError
from app.reports.model import EventHeader, PairingRow, PlayerLine, RecordSheets, TableCards
from app.reports.pdf import DOCUMENTS, render_document
from app.reports.pdf.base import fit_cell, width_of
from app.reports.sample import SampleEvent

from .conftest import PRINTED_AT, PUBLIC, Rendered, render


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_every_document_name_is_rendered(documents: dict[str, Rendered]) -> None:
    assert set(DOCUMENTS) <= set(documents)


# Expected page counts, worked by hand. Portrait frame: 297 − 24 − 14 = 259 mm = 734.2 pt; header row
# 18 pt, rows 16 pt → ⌊716.2 / 16⌋ = 44 rows a page. Landscape frame: 210 − 38 = 172 mm = 487.6 pt →
# ⌊469.6 / 16⌋ = 29 rows a page.
@pytest.mark.parametrize(
    ("doc", "pages"),
    [
        ("table-cards", 40),  # 80 boards, 2 a page
        ("pairings", 2),  # 80 boards: 44 + 36
        ("results", 2),  # 80 boards: 44 + 36, note fits under
        ("pairings-by-name", 4),  # 160 player lines: 44 + 44 + 44 + 28
        ("standings", 4),  # 160 rows: 44 × 3 + 28, footnotes fit
        ("crosstable", 6),  # 160 rows landscape: 29 × 5 + 15
        ("entry-list", 4),  # 160 rows
        ("entry-list-internal", 6),  # 160 rows landscape
        ("record-sheets", 10),  # boards 1–10, one sheet each
        ("prizes", 1),  # 24 + 8 lines + 2 subtotals + total
        ("payout", 1),  # 24 lines at 24 pt + total
        ("bracket", 2),  # tree, then the placement matches
    ],
)
def test_page_count(documents: dict[str, Rendered], doc: str, pages: int) -> None:
    assert documents[doc].pages == pages


@pytest.mark.parametrize(("per_page", "pages"), [(1, 80), (4, 20)])
def test_table_cards_per_page_setting(event: SampleEvent, per_page: int, pages: int) -> None:
    assert render("table-cards", event.table_cards(6, per_page=per_page)).pages == pages


def test_footer_counts_pages(documents: dict[str, Rendered]) -> None:
    cards = documents["table-cards"]
    assert "第 1 页 / 共 40 页" in cards.page_texts[0]
    assert "第 40 页 / 共 40 页" in cards.page_texts[39]
    assert "打印时间：2024-07-28 09:30" in cards.page_texts[0]


def test_header_names_event_group_and_round(documents: dict[str, Rendered]) -> None:
    first = documents["pairings"].page_texts[0]
    assert "天水市象棋公开赛" in first
    assert "对阵表" in first and "公开组" in first and "第6轮" in first


def test_table_cards_show_every_board_with_both_players(
    event: SampleEvent, documents: dict[str, Rendered]
) -> None:
    text = squash(documents["table-cards"].text)
    for row in event.table_cards(6).rows:
        assert f"第{row.board}台" in text
        for p in (row.red, row.black):
            assert p.name in text
            assert f"序号{p.no}积分{p.score}" in text
    page = squash(documents["table-cards"].page_texts[0])
    for label in ("红胜", "和", "黑胜", "红方签名", "黑方签名", "裁判签名", "20′+10″"):
        assert label in page


def test_pairing_list_rows_in_text(event: SampleEvent, documents: dict[str, Rendered]) -> None:
    text = documents["pairings"].text
    for row in event.pairing_list(6).rows:
        line = f"{row.board} {row.red.no} {row.red.name}"
        assert line in text


def test_byes_come_last() -> None:
    ev = SampleEvent.generate(players=21, rounds=2, seed=5)
    pairing = ev.pairing_list(2)
    assert len(pairing.byes) == 1
    text = render("pairings", pairing).text
    bye = pairing.byes[0]
    assert text.index(f"{bye.no} {bye.name}") > text.index(f"10 {pairing.rows[-1].red.no}")
    assert "轮空" in text


def test_pairings_by_name_follow_pinyin(event: SampleEvent, documents: dict[str, Rendered]) -> None:
    text = documents["pairings-by-name"].text
    # 阿 (a) sorts before 蔡 (cai) before 张 (zhang)
    names = [p.name for p in event.players]
    first_a = min(text.index(n) for n in names if n.startswith("阿"))
    first_zh = min(text.index(n) for n in names if n.startswith("张"))
    assert first_a < first_zh


def test_results_mark_forfeits_and_violations(event: SampleEvent, documents: dict[str, Rendered]) -> None:
    text = squash(documents["results"].text)
    rows = event.pairing_list(5, with_results=True).rows
    assert any(r.result_zh in ("红弃权", "黑弃权") for r in rows)
    for r in rows:
        assert r.result_zh in text
    for r in rows:
        if r.marks:
            assert "红方犯规" in text


def test_standings_every_player_and_chain_columns(event: SampleEvent, documents: dict[str, Rendered]) -> None:
    text = squash(documents["standings"].text)
    for label in ("对手分", "胜局", "犯规", "后走局数", "后走胜局", "区分依据"):
        assert label in text
    for p in event.players:
        assert p.name in text
    assert "名次区分顺序：积分→对手分→胜局→犯规→后走局数→后走胜局→序号" in text


def test_standings_footnote_names_sequence_ties() -> None:
    # a 2-player event where nobody has played yet: the order is by 序号 only
    ev = SampleEvent.generate(players=4, rounds=0, seed=1)
    st = ev.standings(0)
    assert st.sequence_ties == ((1, 2), (2, 3), (3, 4))
    assert "1号先于2号" in squash(render("standings", st).text)


def test_crosstable_cells(event: SampleEvent, documents: dict[str, Rendered]) -> None:
    text = documents["crosstable"].text
    row = event.crosstable().rows[0]
    for cell in row.per_round:
        assert cell.text in text
    assert "第11轮" in text


def test_teams_prizes_bracket_record_sheets_content(
    event: SampleEvent, documents: dict[str, Rendered]
) -> None:
    teams = squash(documents["teams"].text)
    for r in event.team_standings().rows:
        assert r.team in teams
    prizes = squash(documents["prizes"].text)
    assert "27,800" in prizes and "3,000" in prizes and "30,800" in prizes  # open individual, team, total
    bracket = squash(documents["bracket"].text)
    assert "冠亚军决赛" in bracket and "慢棋" in bracket and "第7名决赛" in bracket
    sheets = documents["record-sheets"]
    first = squash(sheets.page_texts[0])
    assert "第1台" in first and "80" in first and "41" in first
    duty = event.record_sheets(6).duties[9]
    assert duty.red.name in sheets.page_texts[9] and duty.black.name in sheets.page_texts[9]


def test_font_is_embedded_on_every_page(documents: dict[str, Rendered]) -> None:
    for name, doc in documents.items():
        reader = pypdf.PdfReader(io.BytesIO(doc.data))
        for page in reader.pages:
            fonts = [f.get_object() for f in page["/Resources"]["/Font"].values()]
            cjk = [f for f in fonts if "WenQuanYi" in str(f["/BaseFont"])]
            assert cjk, name
            assert all("/FontFile2" in f["/FontDescriptor"] for f in cjk), name


def test_public_documents_contain_no_id_or_phone(event: SampleEvent, documents: dict[str, Rendered]) -> None:
    for name in PUBLIC:
        text = squash(documents[name].text)
        for p in event.players:
            assert p.id_number not in text, (name, p.no)
            assert p.phone not in text, (name, p.no)
            assert p.id_number[6:14] not in text, (name, p.no)  # not even the birth date part


def test_payout_sheet_has_full_id_and_phone(event: SampleEvent, documents: dict[str, Rendered]) -> None:
    text = squash(documents["payout"].text)
    for line in event.payout_sheet().lines:
        assert line.id_number in text
        assert line.phone in text
    assert "内部" in text
    assert "27,800" in text


def test_internal_entry_list_is_marked_internal(documents: dict[str, Rendered]) -> None:
    text = documents["entry-list-internal"].text
    assert "内部" in text and "报到" in text and "缴费" in text and "保险" in text


def test_fit_cell_never_cuts() -> None:
    unit = "甘肃省天水市秦州区青少年象棋协会象棋分会"
    fitted = fit_cell(unit, 60.0, 14.0, 9.0, 6.5)
    lines = fitted.text.split("\n")
    assert "".join(lines) == unit
    assert all(width_of(line, fitted.size) <= 60.0 for line in lines)
    assert len(lines) * fitted.leading <= 14.0
    short = fit_cell("王天一", 60.0, 14.0)
    assert (short.text, short.size) == ("王天一", 9.0)


def test_unknown_document_and_wrong_input() -> None:
    header = EventHeader("赛", "公开组", 1)
    with pytest.raises(UserError):
        render_document("scoresheet", None, io.BytesIO(), printed_at=PRINTED_AT)
    with pytest.raises(UserError):
        render_document("standings", TableCards(header, ()), io.BytesIO(), printed_at=PRINTED_AT)
    with pytest.raises(UserError):
        render_document("table-cards", TableCards(header, ()), io.BytesIO(), printed_at=PRINTED_AT)
    with pytest.raises(UserError):
        render_document("record-sheets", RecordSheets(header, ()), io.BytesIO(), printed_at=PRINTED_AT)
    p = PlayerLine(1, "甲")
    with pytest.raises(UserError):
        render_document(
            "table-cards", TableCards(header, (PairingRow(1, p, p),), 3), io.BytesIO(), printed_at=PRINTED_AT
        )
