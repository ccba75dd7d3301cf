"""Every PDF of the demo event opened again: text layer, embedded font, page counts for 120 players, privacy."""

from __future__ import annotations

import io
import re

import pypdf
import pytest
from pypinyin import lazy_pinyin

from app.engine.types import UserError
from app.reports.model import (
    EventHeader,
    PairingRow,
    PlayerLine,
    RecordSheets,
    StandingRow,
    Standings,
    TableCards,
)
from app.reports.pdf import DOCUMENTS, render_document
from app.reports.pdf.base import fit_cell, width_of

from .conftest import CARDS_ROUND, PRINTED_AT, PUBLIC, DemoEvent, Rendered, render


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_every_document_name_is_rendered(documents: dict[str, Rendered]) -> None:
    assert set(DOCUMENTS) <= set(documents)


# Expected page counts, worked by hand for the open group of the demo (120 players; round 6: 59 boards
# and a bye; the prize tables of both groups and the teams: 24 + 16 + 8 lines). Portrait frame:
# 297 − 24 − 14 = 259 mm = 734.2 pt; header row 18 pt, rows 16 pt → ⌊716.2 / 16⌋ = 44 rows a page.
# Landscape frame: 210 − 38 = 172 mm = 487.6 pt → ⌊469.6 / 16⌋ = 29 rows a page.
@pytest.mark.parametrize(
    ("doc", "pages"),
    [
        ("table-cards", 30),  # 59 boards, 2 a page
        ("pairings", 2),  # 59 boards: 44 + 15, then the bye
        ("results", 2),  # 60 boards: 44 + 16, note fits under
        ("pairings-by-name", 3),  # 119 player lines: 44 + 44 + 31
        ("standings", 3),  # 120 rows: 44 + 44 + 32, footnotes fit
        ("crosstable", 4),  # 120 rows landscape: 29 × 4 + 4 would leave 4 rows alone; at 15 pt 31 × 3 + 27
        ("entry-list", 3),  # 120 rows
        ("entry-list-internal", 5),  # 120 rows landscape
        ("record-sheets", 10),  # boards 1–10, one sheet each
        ("prizes", 2),  # 48 lines + 3 subtotals + total = 52 rows: 44 + 8
        ("payout", 3),  # landscape (tax columns), 48 lines + total at 24 pt: ⌊469.6 / 24⌋ = 19 + 19 + 11
        ("bracket", 2),  # tree, then the placement matches
    ],
)
def test_page_count(documents: dict[str, Rendered], doc: str, pages: int) -> None:
    assert documents[doc].pages == pages


@pytest.mark.parametrize(("per_page", "pages"), [(1, 59), (4, 15)])
def test_table_cards_per_page_setting(event: DemoEvent, per_page: int, pages: int) -> None:
    cards = event.model("table-cards", round_number=CARDS_ROUND, per_page=per_page)
    assert render("table-cards", cards).pages == pages


def test_footer_counts_pages(documents: dict[str, Rendered]) -> None:
    cards = documents["table-cards"]
    assert "第 1 页 / 共 30 页" in cards.page_texts[0]
    assert "第 30 页 / 共 30 页" in cards.page_texts[29]
    assert "打印时间：2024-07-28 09:30" in cards.page_texts[0]


def test_header_names_event_group_and_round(documents: dict[str, Rendered]) -> None:
    first = documents["pairings"].page_texts[0]
    assert "魅力天水" in first
    assert "对阵表" in first and "公开组" in first and f"第{CARDS_ROUND}轮" in first


def test_table_cards_show_every_board_with_both_players(
    event: DemoEvent, documents: dict[str, Rendered]
) -> None:
    text = squash(documents["table-cards"].text)
    for row in event.model("table-cards", round_number=CARDS_ROUND).rows:
        assert f"第{row.board}台" in text
        for p in (row.red, row.black):
            assert p.name in text
            assert f"序号{p.no}积分{p.score}" in text
    page = squash(documents["table-cards"].page_texts[0])
    for label in ("红胜", "和", "黑胜", "红方签名", "黑方签名", "裁判签名", "20′+10″"):
        assert label in page


def test_pairing_list_rows_in_text(event: DemoEvent, documents: dict[str, Rendered]) -> None:
    text = documents["pairings"].text
    for row in event.model("pairings", round_number=CARDS_ROUND).rows:
        line = f"{row.board} {row.red.no} {row.red.name}"
        assert line in text


def test_byes_come_last(event: DemoEvent, documents: dict[str, Rendered]) -> None:
    pairing = event.model("pairings", round_number=CARDS_ROUND)
    assert len(pairing.byes) == 1
    text = documents["pairings"].text
    bye = pairing.byes[0]
    last = pairing.rows[-1]
    assert text.index(f"{bye.no} {bye.name}") > text.index(f"{last.board} {last.red.no} {last.red.name}")
    assert "轮空" in text


def test_pairings_by_name_follow_pinyin(event: DemoEvent, documents: dict[str, Rendered]) -> None:
    """Each line starts with a player's name; the lines follow the names' pinyin initials (a…z)."""
    names = {p.name for p in event.open_players()}
    firsts = [
        line.split()[0]
        for line in documents["pairings-by-name"].text.splitlines()
        if line.split() and line.split()[0] in names
    ]
    assert len(firsts) == 119  # both players of 59 boards, and the bye
    letters = [lazy_pinyin(name)[0][0] for name in firsts]
    assert letters == sorted(letters)
    assert letters[0] < letters[-1]


def test_results_mark_forfeits_and_violations(event: DemoEvent, documents: dict[str, Rendered]) -> None:
    text = squash(documents["results"].text)
    rows = event.model("results", round_number=event.results_round).rows
    assert any(r.result_zh in ("红弃权", "黑弃权", "双弃权") for r in rows)
    for r in rows:
        assert r.result_zh in text
    marks = [m for r in rows for m in r.marks]
    assert marks  # the violation the fixture recorded
    for m in marks:
        assert m in text


def test_standings_every_player_and_chain_columns(event: DemoEvent, documents: dict[str, Rendered]) -> None:
    text = squash(documents["standings"].text)
    for label in ("对手分", "胜局", "犯规", "后走局数", "后走胜局", "区分依据"):
        assert label in text
    for p in event.open_players():
        assert p.name in text
    assert "名次区分顺序：积分→对手分→胜局→犯规→后走局数→后走胜局→序号" in text


def test_standings_footnote_names_sequence_ties() -> None:
    """Players with identical records are ordered by 序号, and the footnote says so."""
    rows = tuple(StandingRow(i, i, f"棋手{i}", "天水", 0, (("对手分", 0),), "序号") for i in (1, 2, 3, 4))
    st = Standings(EventHeader("赛事", "公开组", 1), ("对手分",), rows, ((1, 2), (2, 3), (3, 4)))
    text = squash(render("standings", st).text)
    assert "1号先于2号" in text and "3号先于4号" in text


def test_crosstable_cells(event: DemoEvent, documents: dict[str, Rendered]) -> None:
    text = documents["crosstable"].text
    row = event.model("crosstable").rows[0]
    for cell in row.per_round:
        assert cell.text in text
    assert "第11轮" in text


def test_teams_prizes_bracket_record_sheets_content(event: DemoEvent, documents: dict[str, Rendered]) -> None:
    teams = squash(documents["teams"].text)
    for r in event.model("teams").rows:
        assert r.team in teams
    prizes = squash(documents["prizes"].text)
    # the preset's tables: open individual, local individual, team, and the grand total
    assert "27,800" in prizes and "7,900" in prizes and "3,000" in prizes and "38,700" in prizes
    bracket = squash(documents["bracket"].text)
    tree = event.model("bracket")
    titles = [m.title for column in tree.columns for m in column] + [m.title for m in tree.extra]
    assert len(titles) == 4 + 2 + 1 + 1 + 2 + 2  # the tree, the 3rd place, the 5–8 bracket
    for title in titles:
        assert squash(title) in bracket
    assert "慢棋" in bracket
    sheets = documents["record-sheets"]
    first = squash(sheets.page_texts[0])
    assert "第1台" in first and "80" in first and "41" in first
    duty = event.model("record-sheets", round_number=CARDS_ROUND).duties[9]
    assert duty.red.name in sheets.page_texts[9] and duty.black.name in sheets.page_texts[9]


def test_font_is_embedded_on_every_page(documents: dict[str, Rendered]) -> None:
    for name, doc in documents.items():
        reader = pypdf.PdfReader(io.BytesIO(doc.data))
        for page in reader.pages:
            fonts = [f.get_object() for f in page["/Resources"]["/Font"].values()]
            cjk = [f for f in fonts if "WenQuanYi" in str(f["/BaseFont"])]
            assert cjk, name
            assert all("/FontFile2" in f["/FontDescriptor"] for f in cjk), name


def test_public_documents_contain_no_id_or_phone(event: DemoEvent, documents: dict[str, Rendered]) -> None:
    for name in PUBLIC:
        text = squash(documents[name].text)
        for p in event.players:
            assert p.id_number not in text, (name, p.no)
            assert p.phone not in text, (name, p.no)
            assert p.id_number[6:14] not in text, (name, p.no)  # not even the birth date part


def test_payout_sheet_has_full_id_and_phone(event: DemoEvent, documents: dict[str, Rendered]) -> None:
    text = squash(documents["payout"].text)
    for line in event.model("payout", group=None).lines:
        assert line.id_number in text
        assert line.phone in text
    assert "内部" in text
    assert "38,700" in text  # the grand total of the preset: 27,800 + 7,900 + 3,000


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


@pytest.mark.parametrize("rows", [28, 29, 30, 31, 33])
def test_a_crosstable_a_few_rows_too_long_keeps_to_one_page(rows: int) -> None:
    """29 rows of 16 pt fill a landscape page; a group a few rows (or a legend) longer must not put a
    lone row — or the legend alone — on a second page."""
    from app.reports.model import CrossCell, Crosstable, CrosstableRow

    cells = tuple(CrossCell(n, "红", "胜") for n in range(1, 12))
    table = Crosstable(
        EventHeader("赛事", "组", 11),
        11,
        tuple(CrosstableRow(n, f"棋手{n}", "单位", cells, 22, n) for n in range(1, rows + 1)),
    )
    out = render("crosstable", table)
    assert out.pages == 1, out.pages
    assert f"棋手{rows}" in out.text and "每格" in out.text


def test_a_long_crosstable_is_not_squeezed_into_fewer_pages_than_it_reads_well() -> None:
    from app.reports.model import CrossCell, Crosstable, CrosstableRow

    cells = tuple(CrossCell(n, "红", "胜") for n in range(1, 12))
    table = Crosstable(
        EventHeader("赛事", "组", 11),
        11,
        tuple(CrosstableRow(n, f"棋手{n}", "单位", cells, 22, n) for n in range(1, 61)),
    )
    assert render("crosstable", table).pages == 2  # 60 rows: 30 + 30 at 15.5 pt rather than 29 + 29 + 2
