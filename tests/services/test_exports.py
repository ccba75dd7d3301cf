"""Exports from a real tournament file: the demo event (160 players, both groups) mid-tournament.

Open group: 4 rounds paired, rounds 1–3 complete, round 4 with results on boards 1–40 only;
a late forfeit and a violation in round 2. Local group: played through the split (8 rounds), the
knockout created and its quarter-finals under way (one drawn slow game, then a rapid game).
"""

from __future__ import annotations

import io
import random
from datetime import datetime
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.engine.types import GameResult, UserError, ViolationKind
from app.reports.pdf import render_document
from app.services import exports, public_pages
from app.services.demo import create_demo
from app.services.discipline import forfeit, record_violation
from app.services.knockout import bracket_of, create_knockout, draw_round_colours, enter_match_result
from app.services.records import record_duty_list
from app.services.registration import list_players
from app.services.results import ResultEntry, enter_result, enter_results
from app.services.rounds import pair_next_round, round_view
from app.services.standings import group_standings

OPEN, LOCAL = "公开组", "天水本地组"
AT = datetime(2024, 7, 27, 14, 0)
CODES = ("1-0", "0-1", "=", "1-0", "0-1", "1-0", "0-1", "=")


def _play(db, group: str, number: int, rng: random.Random, boards: int | None = None) -> None:
    """Pair the round and enter its results (boards 1 … ``boards``) at once, as the bulk entry does:
    the same games, results and audit rows as entering them board by board, in one transaction."""
    pair_next_round(db, group, seed=number)
    entries = [
        ResultEntry(b.board, GameResult.from_code(rng.choice(CODES)))
        for b in round_view(db, group, number).boards
        if boards is None or b.board <= boards
    ]
    enter_results(db, group, number, entries)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory):
    rng = random.Random(11)
    db = create_demo(tmp_path_factory.mktemp("exports") / "demo.xqt", seed=2024)
    for n in range(1, 4):
        _play(db, OPEN, n, rng)
    forfeit(db, OPEN, 2, round_view(db, OPEN, 2).boards[4].red.no, ViolationKind.LATE, "迟到15分钟")
    record_violation(db, OPEN, round_view(db, OPEN, 2).boards[6].black.no, 2, ViolationKind.OTHER, "喧哗")
    _play(db, OPEN, 4, rng, boards=40)
    for n in range(1, 9):
        _play(db, LOCAL, n, rng)
    create_knockout(db, LOCAL)
    draw_round_colours(db, LOCAL, 9, seed=5)
    pair_next_round(db, LOCAL, seed=9)  # the continuing Swiss of the other 32, on boards 5–20
    enter_match_result(db, LOCAL, "QF1", 1, GameResult.DRAW)
    enter_match_result(db, LOCAL, "QF2", 1, GameResult.RED_WIN)
    yield db
    db.close()


@pytest.fixture(scope="module")
def players(db):
    return list_players(db)


def pdf(db, name: str, **options) -> tuple[int, str, PdfReader]:
    """The document's page count, its text without spaces (read by pdfium: the characters pypdf reads,
    twenty times sooner) and a pypdf reader of it (for its fonts)."""
    data = exports.render_pdf(db, name, printed_at=AT, **options)
    reader = PdfReader(io.BytesIO(data))
    document = pdfium.PdfDocument(data)
    try:
        pages = len(document)
        text = "\n".join(document[i].get_textpage().get_text_range() for i in range(pages))
    finally:
        document.close()
    assert len(reader.pages) == pages
    return len(reader.pages), text.replace(" ", ""), reader


def fonts_embedded(reader: PdfReader) -> set[str]:
    embedded = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            for desc in [font, *(d.get_object() for d in font.get("/DescendantFonts", []))]:
                fd = desc.get("/FontDescriptor")
                if fd is not None and any(k in fd.get_object() for k in ("/FontFile", "/FontFile2")):
                    embedded.add(str(desc["/BaseFont"]))
    return embedded


# --------------------------------------------------------------------------- round documents


def test_table_cards_one_card_per_board_two_per_page(db) -> None:
    view = round_view(db, OPEN, 4)
    pages, text, reader = pdf(db, "table-cards", group=OPEN, round_number=4)
    assert len(view.boards) == 60
    assert pages == 30
    assert fonts_embedded(reader)
    for b in view.boards[:5] + view.boards[-3:]:
        assert b.red.name in text and b.black.name in text
    pages4, _, _ = pdf(db, "table-cards", group=OPEN, round_number=4, per_page=4)
    assert pages4 == 15


def test_pairings_default_to_the_latest_round_with_scores_before_it(db) -> None:
    cards = exports.pairing_list(db, OPEN, 4)
    assert cards.header.round == 4
    assert exports.document(db, "pairings", group=OPEN).header.round == 4  # type: ignore[attr-defined]
    before = {line.no: line.score for line in group_standings(db, OPEN, 3).lines}
    for row in cards.rows:
        assert row.result_zh == ""
        assert row.red.score == before[row.red.no] and row.black.score == before[row.black.no]
    _, text, _ = pdf(db, "pairings", group=OPEN)
    assert cards.rows[0].red.name in text and "第4轮" in text


def test_round_results_mark_forfeits_and_violations(db) -> None:
    view = round_view(db, OPEN, 2)
    results = exports.round_results(db, OPEN, 2)
    late = results.rows[4]
    assert late.result_zh == "红弃权"
    assert late.marks == ("红方迟到",)
    assert results.rows[6].marks == ("黑方其他犯规",)
    assert [r.result_zh for r in results.rows] == [b.result.zh for b in view.boards]
    _, text, _ = pdf(db, "results", group=OPEN, round_number=2)
    assert "红弃权" in text and "迟到" in text


def test_record_sheets_for_the_boards_due(db) -> None:
    due = record_duty_list(db, OPEN, 4)
    assert due and all(d.board <= 10 for d in due)
    sheets = exports.record_sheets(db, OPEN, 4)
    assert [d.board for d in sheets.duties] == sorted(d.board for d in due)
    pages, text, _ = pdf(db, "record-sheets", group=OPEN, round_number=4)
    assert pages >= len(due)
    assert sheets.duties[0].red.name in text


# --------------------------------------------------------------------------- standings and tables


def test_standings_show_every_value_column_of_the_chain(db) -> None:
    view = group_standings(db, OPEN, 3)
    st = exports.standings(db, OPEN, 3)
    assert st.chain == ("对手分", "胜局", "犯规", "后走局数", "后走胜局")
    assert [(r.rank, r.no, r.score) for r in st.rows] == [(x.rank, x.no, x.score) for x in view.lines]
    first, line = st.rows[0], view.lines[0]
    assert dict(first.tiebreaks) == {
        "对手分": line.opponent_score,
        "胜局": line.wins,
        "犯规": line.violations,
        "后走局数": line.black_games,
        "后走胜局": line.black_wins,
    }
    ties = [
        (a.no, b.no)
        for a, b in zip(view.lines, view.lines[1:], strict=False)
        if a.separated_by == "sequence_number"
    ]
    assert list(st.sequence_ties) == ties
    pages, text, _ = pdf(db, "standings", group=OPEN, round_number=3)
    assert pages >= 3 and "对手分" in text and "后走胜局" in text and "序号" in text


def test_crosstable_rows_read_from_the_games(db) -> None:
    ct = exports.crosstable(db, OPEN, 3)
    assert ct.rounds == 3 and len(ct.rows) == 120
    r1 = round_view(db, OPEN, 1).boards[0]
    red_row = next(r for r in ct.rows if r.no == r1.red.no)
    black_row = next(r for r in ct.rows if r.no == r1.black.no)
    assert red_row.per_round[0].opponent == r1.black.no and red_row.per_round[0].colour == "红"
    assert black_row.per_round[0].opponent == r1.red.no and black_row.per_round[0].colour == "黑"
    places = {x.no: (x.rank, x.score) for x in group_standings(db, OPEN, 3).lines}
    assert all((r.place, r.score) == places[r.no] for r in ct.rows)
    _, text, _ = pdf(db, "crosstable", group=OPEN, round_number=3)
    assert red_row.per_round[0].text in text and black_row.per_round[0].text in text


def test_crosstable_lists_the_knockout_matches(db) -> None:
    ct = exports.crosstable(db, LOCAL, 9)
    bracket = bracket_of(db, LOCAL)
    qf2 = bracket.match("QF2")  # decided in game 1 (red won); QF1 still going (drawn slow game)
    winner = qf2.first_red
    loser = qf2.high if winner == qf2.low else qf2.low
    row = {r.no: r for r in ct.rows}
    assert row[winner].per_round[8].text == f"{loser}淘胜"
    assert row[loser].per_round[8].text == f"{winner}淘负"
    qf1 = bracket.match("QF1")
    assert row[qf1.high].per_round[8].text == f"{qf1.low}淘"
    assert all(len(r.per_round) == 9 for r in ct.rows)


def test_team_standings_and_prizes(db) -> None:
    teams = exports.team_standings_model(db, OPEN)
    # 公开组: round 4 is being played — the teams rest on the standings after round 3, and say so
    assert teams.rows and teams.header.round_label == "（暂列：按第 3 轮后名次）"
    assert all(len(r.members) == 4 for r in teams.rows if r.rank is not None)
    prizes = exports.prize_list_model(db)
    assert sum(p.amount for p in prizes.lines) == 27_800 + 7_900 + 3_000
    assert "暂列" in prizes.header.round_label
    assert {p.table for p in prizes.lines} == {
        "公开组个人（暂列）",
        "天水本地组个人（暂列）",
        "公开组团体（暂列）",
    }
    assert prizes.notes == ("公开组：暂列：按第 3 轮后名次。", "天水本地组：暂列：按第 8 轮后名次。")
    _, text, _ = pdf(db, "prizes")
    assert "38,700" in text  # 27,800 + 7,900 + 3,000


# --------------------------------------------------------------------------- privacy


PUBLIC = [
    ("table-cards", {"group": OPEN}),
    ("pairings", {"group": OPEN, "by_name": True}),
    ("results", {"group": OPEN, "round_number": 2}),
    ("standings", {"group": LOCAL}),
    ("crosstable", {"group": OPEN}),
    ("teams", {"group": OPEN}),
    ("prizes", {}),
    ("record-sheets", {"group": OPEN, "round_number": 4}),
    ("entry-list", {"group": OPEN}),
    ("entry-list", {"group": LOCAL}),
    ("bracket", {"group": LOCAL}),
    ("results-book", {}),  # 成绩册: every round, the standings, the teams, the prizes in one PDF
]


@pytest.mark.parametrize(("name", "options"), PUBLIC, ids=[f"{n}-{i}" for i, (n, _) in enumerate(PUBLIC)])
def test_no_public_document_shows_an_id_or_phone_number(db, players, name: str, options: dict) -> None:
    _, text, reader = pdf(db, name, **options)
    assert fonts_embedded(reader)
    assert len(players) == 160
    leaked = [p.name for p in players if p.id_number in text or p.phone in text]
    assert leaked == []


def test_payout_sheet_and_internal_entry_list_do_show_them(db, players) -> None:
    sheet = exports.payout_sheet(db)
    _, text, _ = pdf(db, "payout")
    by_name = {(p.name, p.id_number): p for p in players}
    winners = [x for x in sheet.lines if x.id_number]
    assert len(winners) == 24 + 16
    for x in winners:
        assert (x.name, x.id_number) in by_name and by_name[(x.name, x.id_number)].phone == x.phone
        assert x.id_number in text and x.phone in text
    _, internal, _ = pdf(db, "entry-list", group=LOCAL, internal=True)
    local = [p for p in players if p.group == LOCAL]
    assert all(p.id_number in internal for p in local)


@pytest.fixture(scope="module")
def workbook(db, tmp_path_factory: pytest.TempPathFactory):
    """The result workbook of the event as written and read back, written once for the tests that only
    read it (before any test of this module enters a result)."""
    path = tmp_path_factory.mktemp("workbook") / "r.xlsx"
    exports.write_result_workbook(db, path)
    return load_workbook(path)


def test_the_workbook_and_site_hold_no_personal_numbers(db, players, workbook, tmp_path: Path) -> None:
    wb = workbook
    values = " ".join(str(v) for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for v in row)
    site = public_pages.write_public_site(db, tmp_path / "site", AT)
    html = " ".join(p.read_text(encoding="utf-8") for p in site)
    for p in players:
        assert p.id_number not in values and p.phone not in values
        assert p.id_number not in html and p.phone not in html
    assert any(p.name.endswith("-bracket.html") for p in site)


# --------------------------------------------------------------------------- workbook


def test_workbook_sheets_hold_the_service_values_and_no_formulas(db, workbook) -> None:
    wb = workbook
    expected = {f"{OPEN}参赛名单", f"{LOCAL}参赛名单", f"{OPEN}名次表", f"{LOCAL}名次表"}
    expected |= {f"{OPEN}第{n}轮" for n in range(1, 5)} | {f"{LOCAL}第{n}轮" for n in range(1, 10)}
    expected |= {f"{OPEN}个人成绩总表", f"{LOCAL}个人成绩总表", f"{OPEN}团体名次表", "奖励名单", "操作日志"}
    assert set(wb.sheetnames) == expected
    assert all(
        c.data_type != "f" and not (isinstance(c.value, str) and c.value.startswith("="))
        for ws in wb.worksheets
        for row in ws.iter_rows()
        for c in row
    )
    rows = list(wb[f"{OPEN}名次表"].iter_rows(min_row=2, values_only=True))
    view = group_standings(db, OPEN, 3)  # round 4 is being played: the last complete round is 3
    assert [(r[0], r[1], r[2], r[4], r[5], r[6]) for r in rows] == [
        (x.rank, x.no, x.name, x.score, x.opponent_score, x.wins) for x in view.lines
    ]
    r2 = list(wb[f"{OPEN}第2轮"].iter_rows(min_row=2, values_only=True))
    boards = round_view(db, OPEN, 2).boards
    assert [(r[0], r[1], r[5], r[7]) for r in r2] == [
        (b.board, b.red.no, b.result.zh, b.black.no) for b in boards
    ]
    r4 = list(wb[f"{OPEN}第4轮"].iter_rows(min_row=2, values_only=True))
    assert sum(1 for r in r4 if r[5]) == 40  # results on boards 1–40 only


# --------------------------------------------------------------------------- knockout


def test_bracket_lists_every_game(db) -> None:
    br = exports.bracket(db, LOCAL)
    eb = bracket_of(db, LOCAL)
    assert eb is not None
    assert [len(c) for c in br.columns] == [4, 2, 1]
    qf1 = br.columns[0][0]
    # each game with its own time control (the demo's regulation: slow 20′+5″, rapid 10′+3″)
    assert [g.kind for g in qf1.games] == ["慢棋（20′+5″）", "快棋（10′+3″）"]
    assert qf1.games[0].result_zh == "和"
    assert qf1.games[1].result_zh == "" and qf1.winner == ""
    qf2 = br.columns[0][1]
    assert qf2.games[0].result_zh == "红胜" and qf2.winner.endswith(qf2.games[0].red)
    assert qf1.high.startswith("1 ") and qf1.low.startswith("8 ")
    _, text, _ = pdf(db, "bracket", group=LOCAL)
    assert qf1.games[0].red in text and "快棋" in text


def test_knockout_round_cards_show_the_current_game_and_results_every_game(db) -> None:
    cards = exports.table_cards(db, LOCAL, 9)
    assert len(cards.rows) == 4 + 16  # QF1–QF4 (their current game), 32 others on boards 5–20
    assert [r.board for r in cards.rows] == list(range(1, 21))
    assert cards.rows[0].marks == ("四分之一决赛第1场", "第2局 快棋（换先）")  # game 1 was drawn
    assert (cards.rows[0].match, cards.rows[0].time_control) == ("1/4决赛第1场", "10′+3″")
    assert cards.rows[1].marks == ("四分之一决赛第2场", "第1局 慢棋")
    assert cards.rows[1].time_control == "20′+5″"
    swiss = [b for b in round_view(db, LOCAL, 9).boards if b.match is None]
    assert [(r.red.no, r.black.no) for r in cards.rows[4:]] == [(b.red.no, b.black.no) for b in swiss]
    results = exports.round_results(db, LOCAL, 9)
    assert [r.board for r in results.rows[:5]] == [1, 1, 2, 3, 4]
    assert [r.result_zh for r in results.rows[:3]] == ["和", "", "红胜"]


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("call", "zh"),
    [
        (lambda db: exports.round_results(db, OPEN, 5), "第 5 轮尚未编排"),
        (lambda db: exports.table_cards(db, OPEN, 7), "尚未编排"),
        (lambda db: exports.bracket(db, OPEN), "尚未产生淘汰赛对阵"),
        (lambda db: exports.team_standings_model(db, LOCAL), "不设团体"),
        (lambda db: exports.record_sheets(db, OPEN, 1), "没有应录谱"),
        (lambda db: exports.document(db, "standings"), "多个组别"),
        (lambda db: exports.document(db, "pairings", group="少年组"), "少年组"),
        (lambda db: exports.document(db, "pairings", group=OPEN, internal=True), "内部"),
    ],
)
def test_documents_that_cannot_exist_are_refused(db, call, zh: str) -> None:
    with pytest.raises(UserError, match=zh) as info:
        call(db)
    assert info.value.en  # an English message too


def test_nothing_is_written_for_a_refused_document(db, tmp_path: Path) -> None:
    out = tmp_path / "x.pdf"
    with pytest.raises(UserError):
        exports.write_document(db, "bracket", out, group=OPEN)
    assert not out.exists()


def test_a_fresh_event_refuses_round_documents_and_prizes(tmp_path: Path) -> None:
    db = create_demo(tmp_path / "fresh.xqt", seed=3, players=40)
    try:
        with pytest.raises(UserError, match="尚未编排任何轮次"):
            exports.document(db, "pairings", group=OPEN)
        with pytest.raises(UserError, match="尚未编排任何轮次"):
            exports.prize_list_model(db)
        assert exports.entry_list(db, OPEN).lines
        buf = io.BytesIO()
        render_document("entry-list", exports.entry_list(db, OPEN), buf, printed_at=AT)
        assert buf.getvalue().startswith(b"%PDF")
    finally:
        db.close()


def test_an_export_reads_each_group_once(db, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workbook of every round, standings, crosstable… reads each group's state and bracket once
    (it was 45 state reads and 31 bracket reads for this event before one_reading)."""
    import app.db.mapping as mapping
    import app.services.brackets as brackets

    reads: list[str] = []
    real_state, real_bracket = mapping.read_group_state, brackets._read_bracket

    def state_spy(s, group, reg):
        reads.append(f"state {group.name}")
        return real_state(s, group, reg)

    def bracket_spy(s, group, reg):
        reads.append(f"bracket {group.name}")
        return real_bracket(s, group, reg)

    monkeypatch.setattr(mapping, "read_group_state", state_spy)
    monkeypatch.setattr(brackets, "_read_bracket", bracket_spy)
    workbook = exports.result_workbook(db)
    assert sorted(reads) == sorted([f"bracket {LOCAL}", f"bracket {OPEN}", f"state {LOCAL}", f"state {OPEN}"])
    assert len(workbook.rounds) == 4 + 9
    reads.clear()
    exports.document(db, "crosstable", group=LOCAL)
    assert reads.count(f"state {LOCAL}") == 1
    reads.clear()
    group_standings(db, OPEN)  # outside an export nothing is kept: every action reads the file afresh
    group_standings(db, OPEN)
    assert reads.count(f"state {OPEN}") == 2


def test_nothing_can_be_written_inside_one_reading(db) -> None:
    before = round_view(db, OPEN, 4).boards[-1]
    assert before.result is GameResult.PENDING
    with pytest.raises(RuntimeError, match="one_reading"), db.one_reading():
        enter_result(db, OPEN, 4, before.board, "1-0")
    assert round_view(db, OPEN, 4).boards[-1].result is GameResult.PENDING


def test_one_reading_belongs_to_its_thread(db) -> None:
    """A hall-server thread exporting must not refuse (or see stale values of) the window's writes."""
    import threading

    board = round_view(db, OPEN, 4).boards[-2]
    inside, done = threading.Event(), threading.Event()

    def export_in_another_thread() -> None:
        with db.one_reading():
            exports.result_workbook(db)
            inside.set()
            done.wait(10)

    t = threading.Thread(target=export_in_another_thread)
    t.start()
    try:
        assert inside.wait(30)
        enter_result(db, OPEN, 4, board.board, "=")  # the window's action, while the export is open
        assert round_view(db, OPEN, 4).boards[-2].result is GameResult.DRAW
    finally:
        done.set()
        t.join()


def test_the_workbooks_export_pauses_the_cyclic_collector(
    db, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The workbook is read and written with Python's cyclic collector paused (it walked the read
    models again and again for nothing), and the collector is running again afterwards — also after
    a failure; a collector paused by the caller stays paused."""
    import gc

    import app.reports.excel as excel

    seen: list[bool] = []
    write = excel.write_workbook

    def watched(*args, **kwargs) -> None:
        seen.append(gc.isenabled())
        write(*args, **kwargs)

    monkeypatch.setattr(excel, "write_workbook", watched)
    assert gc.isenabled()
    exports.write_result_workbook(db, tmp_path / "book.xlsx")
    assert seen == [False] and gc.isenabled()
    assert load_workbook(tmp_path / "book.xlsx", read_only=True).sheetnames  # written (no sheet read)

    def broken(*args, **kwargs) -> None:
        raise OSError("disk")

    monkeypatch.setattr(excel, "write_workbook", broken)
    with pytest.raises(OSError):
        exports.write_result_workbook(db, tmp_path / "book2.xlsx")
    assert gc.isenabled()
    gc.disable()
    try:
        with exports.collection_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def _watch_collector(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, fail: bool) -> list[bool]:
    """Replace ``owner.name`` by a function that notes whether the cyclic collector is running, then
    does the real work (or fails)."""
    import gc

    seen: list[bool] = []
    real = getattr(owner, name)

    def watched(*args, **kwargs):
        seen.append(gc.isenabled())
        if fail:
            raise RuntimeError("broken")
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, watched)
    return seen


@pytest.mark.parametrize("fail", [False, True], ids=["written", "failing"])
@pytest.mark.parametrize("command", ["print", "html", "standings", "final-standings"])
def test_whole_event_outputs_pause_the_cyclic_collector(
    db, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, fail: bool
) -> None:
    """A printed document (the command line's and the window's ``render_pdf``), the public site and
    the standings are read and made with Python's cyclic collector paused (it walked their read
    models again and again and freed nothing), and the collector runs again afterwards — also after
    a failure."""
    import gc

    import app.reports.pdf as pdf_package
    import app.services.standings as standings
    import app.services.standings_core as standings_core

    assert gc.isenabled()
    make: dict[str, tuple[object, str, object]] = {
        "print": (pdf_package, "render_document", lambda: exports.render_pdf(db, "results-book")),
        "html": (public_pages, "write_site", lambda: public_pages.write_public_site(db, tmp_path / "site")),
        "standings": (standings, "load_group_state", lambda: group_standings(db, OPEN)),
        "final-standings": (standings_core, "final_of", lambda: standings.final_standings(db, OPEN)),
    }
    owner, name, run = make[command]
    seen = _watch_collector(monkeypatch, owner, name, fail)
    if fail:
        with pytest.raises(RuntimeError):
            run()  # type: ignore[operator]
    elif command == "final-standings":  # the demo's groups are not over: refused, after reading
        with pytest.raises(UserError):
            run()  # type: ignore[operator]
    else:
        assert run()  # type: ignore[operator]
    assert seen and not any(seen)
    assert gc.isenabled()
