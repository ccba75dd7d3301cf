"""The paperwork documents on the real demo played to its end: check-in sheet, results book,
certificates, the tax columns of the payout sheet, the officials' sign-off under the lists."""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from app.reports import model

from .conftest import DemoEvent, Rendered, render

OPEN = "公开组"


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _head(page: str) -> str:
    """The page header's second line (document, group, round): drawn last, after the event's name."""
    lines = [squash(line) for line in page.splitlines()]
    name = squash("2024“魅力天水 · 棋开得胜”互助保障杯职工象棋公开赛")
    return lines[max(i for i, line in enumerate(lines) if line == name) + 1]


# Page counts worked by hand. Check-in (landscape, 20 pt rows): ⌊(487.6 − 18) / 20⌋ = 23 rows a page;
# 120 players + the total row = 121 rows → 23 × 5 + 6 → 6 pages. Results book: cover 1, regulation
# summary and officials 1; open group: 11 rounds × 2 pages (60 rows each), knockout tree and placement
# matches 2 (landscape), final standings 3, teams 1; local group: 11 rounds × 1 (20 boards), knockout 2,
# final standings 1; prizes 2 (48 lines + 3 subtotals + total) → 46. Certificates: one per prize awarded:
# 24 + 16 + 8 = 48.
@pytest.mark.parametrize(
    ("doc", "pages", "landscape"), [("check-in", 6, 6), ("results-book", 46, 4), ("certificates", 48, 48)]
)
def test_page_counts_and_orientation(
    documents: dict[str, Rendered], doc: str, pages: int, landscape: int
) -> None:
    pdf = pdfium.PdfDocument(documents[doc].data)
    sizes = [pdf[i].get_size() for i in range(len(pdf))]
    assert len(sizes) == pages
    assert sum(w > h for w, h in sizes) == landscape


def test_check_in_sheet_totals_and_privacy(event: DemoEvent, documents: dict[str, Rendered]) -> None:
    sheet = event.model("check-in")
    assert isinstance(sheet, model.CheckInSheet)
    assert (sheet.due, sheet.paid, sheet.owed) == (12_000, 12_000, 0)
    text = squash(documents["check-in"].text)
    assert "应缴120人×100元=12,000元；已缴120人12,000元；未缴0人0元" in text
    assert "内部" in text and "本人签到" in text
    for p in event.open_players():
        assert p.id_number not in text and p.phone not in text  # masked ID, no phone
        assert p.id_number[:6] + "********" + p.id_number[-4:] in text


def test_results_book_holds_every_part_in_order(documents: dict[str, Rendered]) -> None:
    pages = documents["results-book"].page_texts
    heads = [_head(t) for t in pages]
    assert heads[0] == "成绩册" and "成绩册" in squash(pages[0]) and "麦积区道北体育馆" in pages[0]
    text = squash(documents["results-book"].text)
    for part in ("竞赛规程摘要", "比赛用时", "计分办法", "名次区分", "奖励办法", "裁判人员"):
        assert part in text, part
    for group in ("公开组", "天水本地组"):
        for n in range(1, 12):
            assert any(h == f"成绩公告{group}第{n}轮" for h in heads), (group, n)
        assert any(h == f"最终名次{group}" for h in heads) and any(h == f"淘汰赛对阵图{group}" for h in heads)
    assert any(h == "团体名次表公开组" for h in heads) and heads[-1] == "奖励名单"
    order = [
        next(i for i, h in enumerate(heads) if h.startswith(p))
        for p in ("成绩公告公开组", "最终名次公开组", "成绩公告天水本地组", "奖励名单")
    ]
    assert order == sorted(order)
    assert "第46页/共46页" in squash(pages[-1]) and "竞赛组委会（盖章）" in squash(pages[-1])


def test_certificates_one_per_prize_from_the_template(
    event: DemoEvent, documents: dict[str, Rendered]
) -> None:
    certs = event.model("certificates", group=None)
    prizes = event.model("prizes", group=None)
    assert isinstance(certs, model.Certificates) and isinstance(prizes, model.PrizeList)
    assert len(certs.certificates) == len(prizes.lines) == 48
    for page, line in zip(documents["certificates"].page_texts, prizes.lines, strict=True):
        text = squash(page)
        assert text.startswith("荣誉证书") and line.name in text and line.table in text
        assert "打印时间" not in text and "第1页" not in text  # no footer on a certificate
    assert "第一名" in squash(documents["certificates"].page_texts[0])


def test_payout_sheet_withholds_the_tax_and_has_signature_lines(
    event: DemoEvent, documents: dict[str, Rendered]
) -> None:
    sheet = event.model("payout", group=None)
    assert isinstance(sheet, model.PayoutSheet) and sheet.withholding_percent == 20
    text = squash(documents["payout"].text)
    assert "代扣个税（20%）" in text and "实发金额" in text and "奖金为税前" in text
    assert "10,0002,000.008,000.00" in text  # first prize: before tax, withheld, paid
    total = sum(x.amount for x in sheet.lines)
    assert f"{total * 20 // 100:,}.00{total * 80 // 100:,}.00" in text  # totals row: 7,740.00 and 30,960.00
    assert "发放人" in text and "复核人" in text and "领款人签名" in text


def test_lists_carry_the_signature_and_seal_lines(documents: dict[str, Rendered]) -> None:
    for name in ("standings", "results", "teams", "prizes", "entry-list", "crosstable"):
        last = squash(documents[name].page_texts[-1])
        assert "裁判长：" in last and "竞赛组委会（盖章）" in last, name
    assert "竞赛组委会（盖章）" not in squash(documents["table-cards"].text)  # a score slip is no list


def test_entry_list_by_rating_and_by_name(event: DemoEvent) -> None:
    by_rating = event.model("entry-list", order="rating")
    assert isinstance(by_rating, model.EntryList) and by_rating.order_label == "按等级分排列"
    ratings = {p.no: p.rating for p in event.open_players()}
    values = [ratings[line.no] for line in by_rating.lines]
    rated = [v for v in values if v is not None]
    assert rated == sorted(rated, reverse=True) and values[len(rated) :] == [None] * (
        len(values) - len(rated)
    )
    by_name = event.model("entry-list", order="name")
    from app.reports.pdf.tables import pinyin_key

    keys = [pinyin_key(line.name) for line in by_name.lines]
    assert keys == sorted(keys)
    assert render("entry-list", by_name).pages == 3


def test_non_cash_prizes_reach_the_workbook_and_the_pages() -> None:
    import io
    from datetime import datetime

    from openpyxl import load_workbook

    from app.reports.excel import write_workbook
    from app.reports.html import HALL, StaticLinks, prizes_main

    header = model.EventHeader("赛")
    lines = (
        model.PrizeLine("女子", 1, "甲", "天水", 800, "奖杯"),
        model.PrizeLine("个人", 1, "乙", "", 1000),
    )
    prizes = model.PrizeList(header, lines)
    buf = io.BytesIO()
    write_workbook(model.ResultWorkbook("赛", prizes=prizes), buf)
    sheet = load_workbook(buf)["奖励名单"]
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert ["女子", 1, "甲", "天水", 800, "奖杯"] in values
    at = datetime(2024, 7, 28)
    assert "奖杯" in prizes_main(StaticLinks(), prizes, at) and "奖杯" in prizes_main(HALL, prizes, at)
    plain = model.PrizeList(header, lines[1:])
    assert "奖品" not in prizes_main(StaticLinks(), plain, at)  # no column where no prize has an item


def test_the_results_books_final_ranking_is_the_printed_one(event: DemoEvent) -> None:
    """The book's 最终名次 is the 名次表 the lists print once the group is over: the same order and the
    same 区分依据 (each place explained against the next player in the final order)."""
    book = event.model("results-book", group=None)
    assert isinstance(book, model.ResultsBook)
    for group in book.groups:
        printed = event.model("standings", group=group.name)
        assert isinstance(printed, model.Standings) and group.final and group.standings is not None
        assert [(r.rank, r.no, r.separated_by) for r in group.standings.rows] == [
            (r.rank, r.no, r.separated_by) for r in printed.rows
        ]
        assert printed.header.round_label == "最终名次"
        assert all(r.separated_by for r in printed.rows[:-1])  # every place but the last explained
