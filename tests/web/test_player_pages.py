"""The players' pages of the hall: a page of one's own, names linked everywhere, lists in 拼音 order, the
schedule, a game record on a board — read back from the served HTML and checked against the services."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.engine.xiangqi import Board, format_chinese, parse_pgn
from app.reports.html import pieces
from app.reports.names import pinyin_key
from app.services import exports
from app.services.game_records import attach_record, record_of
from app.services.rounds import round_view
from app.services.snapshot import import_snapshot
from app.services.tournaments import open_tournament, set_round_start
from app.web.app import ThreadOwner, create_app
from app.web.site import HallSite, path_of
from tests.factories import player, snapshot, swiss_round

from .conftest import BASE
from .htmltree import Node, main_of, parse
from .stages import LOCAL, OPEN

MASTER = Path(__file__).parents[1] / "engine" / "xiangqi" / "data" / "liu_dahua_yang_guanlin_1982.pgn"


@pytest.fixture(scope="module")
def knockout(stage_files: dict[str, Path]) -> Any:
    db = open_tournament(stage_files["knockout"], read_only=True)
    yield db
    db.close()


@pytest.fixture(scope="module")
def knockout_site(knockout: Any) -> HallSite:
    """The hall's pages of the knockout stage, for the module: the file is read only, so its one
    version's pages are built once and read by every test (as by every phone)."""
    return HallSite(knockout)


@pytest.fixture(scope="module")
def knockout_tree(knockout_site: HallSite) -> Callable[[tuple[Any, ...]], Node]:
    """Each whole page of ``knockout_site`` parsed once for the module (its one version does not
    change), for the tests that read every page."""
    trees: dict[tuple[Any, ...], Node] = {}

    def tree(key: tuple[Any, ...]) -> Node:
        if key not in trees:
            rendered = knockout_site.page(key)
            assert rendered.status == 200, key
            trees[key] = parse(rendered.full.decode("utf-8"))
        return trees[key]

    return tree


def _main(site: HallSite, key: tuple[Any, ...], query: str = "") -> Node:
    rendered = site.page(key, query)
    assert rendered.status == 200, key
    return main_of(rendered.full.decode("utf-8"))


def test_a_players_page_has_every_round_the_place_its_neighbours_and_the_next_board(
    knockout: Any, knockout_site: HallSite
) -> None:
    site = knockout_site
    table = exports.standings(knockout, LOCAL)  # after round 9 (round 10 is being played)
    r10 = exports.round_results(knockout, LOCAL, 10)
    pending = next(r for r in r10.rows if not r.result_zh and r.match)  # a knockout game not played yet
    me, opponent = pending.red, pending.black
    main = _main(site, ("player", 2, me.no))
    assert main.one("h1").text().startswith(f"{me.no}号 {me.name}")
    # the next board: round, board, colour, opponent (linked), what game, when, which time control
    nxt = main.one("section", "next")
    assert nxt.one("p", "next-head").text().split() == [
        "第",
        "10",
        "轮",
        "·",
        "第",
        str(pending.board),
        "台",
        "·",
        "执红",
    ]
    assert nxt.first("a", href=f"/g/2/p/{opponent.no}").text() == f"{opponent.no} {opponent.name}"
    assert "开赛 7月28日 10:30" in nxt.text() and "用时 20′+5″" in nxt.text() and "第1局 慢棋" in nxt.text()
    # the place and its neighbours, as the 名次表 says (区分依据 against the one above and below)
    i = next(k for k, r in enumerate(table.rows) if r.no == me.no)
    row = table.rows[i]
    assert f"第 {row.rank} 名" in main.one("p", "place").text()
    values = [(d.one("dt").text(), d.one("dd").text()) for d in main.one("dl", "tb").all("div")]
    assert values == [(k, str(v)) for k, v in row.tiebreaks]
    neighbours = [li.text() for li in main.one("ul", "nb").all("li")]
    if i > 0:
        up = table.rows[i - 1]
        assert f"上一名：第 {up.rank} 名 {up.no} {up.name}" in neighbours[0]
        assert f"区分依据：{up.separated_by}" in neighbours[0]
    down = table.rows[i + 1]
    assert f"下一名：第 {down.rank} 名 {down.no} {down.name}" in neighbours[-1]
    assert f"区分依据：{row.separated_by}" in neighbours[-1]
    # every round: board, colour, opponent as the rounds' lists say; the score after each round
    header, rows = main.table_rows()
    assert header == ["轮次", "台次", "执色", "对手", "结果", "积分"]
    first = [r for r in rows if len(r) == 6]
    assert [r[0] for r in first] == [str(n) for n in range(1, 11)]
    for r in first[:8]:
        n = int(r[0])
        doc = exports.round_results(knockout, LOCAL, n)
        game = next((g for g in doc.rows if me.no in (g.red.no, g.black.no)), None)
        if game is None:  # a bye or an excused round
            continue
        mine, other = (game.red, game.black) if game.red.no == me.no else (game.black, game.red)
        assert r[1:4] == [str(game.board), "红" if mine is game.red else "黑", f"{other.no} {other.name}"]
    crosstable = exports.crosstable(knockout, LOCAL)
    assert first[8][5] == str(next(x.score for x in crosstable.rows if x.no == me.no))  # after round 9
    assert first[9][4] == "待赛" and first[9][5] == "—"
    assert main.first("a", href=f"/g/2/p/{opponent.no}") is not None


def test_every_name_on_every_page_opens_that_players_page(
    knockout: Any, knockout_site: HallSite, knockout_tree: Callable[[tuple[Any, ...]], Node]
) -> None:
    site = knockout_site
    books = {gi: site.snapshot().model(("players", gi)) for gi in (1, 2)}
    names = {(gi, c.no): c.name for gi, book in books.items() for c in book.players}
    linked: Counter[str] = Counter()
    for key in site.all_keys():
        if key[0] in ("player", "record"):
            continue
        main = knockout_tree(key).one("main")
        for a in main.all("a"):
            href = a.attrs.get("href", "")
            if not href.startswith("/g/") or "/p/" not in href:
                continue
            gi, no = int(href.split("/")[2]), int(href.rsplit("/", 1)[1])
            text = a.text()
            if text[:1].isdigit() and not text.split()[0].isdigit():  # a crosstable cell: "17红胜"
                assert int("".join(itertools.takewhile(str.isdigit, text))) == no, (path_of(key), href, text)
            else:
                assert names[(gi, no)] in text, (path_of(key), href, text)
            linked[key[0]] += 1
        if key[0] in ("standings", "crosstable", "entries", "entries-names"):
            cells = [tr for tr in main.one("tbody").all("tr") if "letter" not in tr.classes]
            assert all(tr.all("td")[1].first("a") is not None for tr in cells), path_of(key)
        if key[0] == "round":
            for li in main.all("li", "board"):
                assert len(li.all("a", "name")) == 2, (path_of(key), li.attrs["id"])
    assert {"round", "board", "standings", "crosstable", "teams", "bracket", "entries", "names"} <= set(
        linked
    )
    # and each player's own page opens from its link with the right player on it
    for gi, no in [(1, 1), (2, 7), (2, 31)]:
        assert _main(site, ("player", gi, no)).one("h1").text().startswith(f"{no}号 {names[(gi, no)]}")


def test_lists_in_pinyin_order_as_well_as_by_number(knockout: Any, knockout_site: HallSite) -> None:
    site = knockout_site
    by_number = _main(site, ("entries", 1))
    _, rows = by_number.table_rows()
    numbers = [int(r[0]) for r in rows]
    assert numbers == sorted(numbers)
    by_name = _main(site, ("entries-names", 1))
    body = by_name.one("tbody")
    names = [tr.all("td")[1].text() for tr in body.all("tr") if "letter" not in tr.classes]
    assert sorted(names, key=pinyin_key) == names and len(names) == len(rows)
    letters = [tr.text() for tr in body.all("tr") if "letter" in tr.classes]
    assert letters == sorted(set(letters)) and len(letters) > 5
    jump = [a.attrs["href"] for a in by_name.one("nav", "letters").all("a")]
    assert jump == [f"#L-{x}" for x in letters]
    # a round by name: every player once, with their board and colour as the round's list says
    page = _main(site, ("names", 2, 10))
    lines = [tr for tr in page.one("tbody").all("tr") if "letter" not in tr.classes]
    shown = [(tr.all("td")[0].text(), tr.all("td")[2].text(), tr.all("td")[3].text()) for tr in lines]
    assert [n for n, _, _ in shown] == sorted((n for n, _, _ in shown), key=pinyin_key)
    view = round_view(knockout, LOCAL, 10)
    seats = {}
    for b in view.boards:
        seats[b.red.name] = (str(b.board), "红")
        seats[b.black.name] = (str(b.board), "黑")
    assert {n: (board, colour) for n, board, colour in shown if board} == seats


def test_the_schedule_page_and_the_rounds_say_when_and_under_which_time_control(
    db: Any, client: TestClient
) -> None:
    page = parse(client.get("/schedule").text).one("main")
    tables = page.all("table")
    local = [[c.text() for c in tr.all() if c.tag in ("th", "td")] for tr in tables[1].one("tbody").all("tr")]
    assert local[0][:2] == ["第 1 轮", "7月26日 09:00"]
    assert local[8][:2] == ["第 9 轮", "7月28日 09:00"]
    assert "淘汰赛 慢棋 20′+5″" in local[8][2] and "快棋" in local[8][2] and "10′+3″" in local[8][2]
    assert "附加赛" in local[8][2] and "5′+3″" in local[8][2] and "其余棋手 积分编排 20′+10″" in local[8][2]
    assert "开赛 7月26日 16:00 · 用时 20′+10″" in client.get("/g/1/").text  # round 4's start on its page
    set_round_start(db, 4, datetime(2024, 7, 26, 16, 20))
    from app.web.app import hall_of

    hall_of(client.app).site.refresh()
    assert "开赛 7月26日 16:20" in client.get("/g/1/").text
    assert "7月26日 16:20" in client.get("/schedule").text
    assert 'href="/schedule"' in client.get("/").text


@pytest.fixture
def recorded(tmp_path: Path) -> Any:
    players = [player(1, "柳大华"), player(2, "杨官璘"), player(3, "甲"), player(4, "乙")]
    db = import_snapshot(
        snapshot(players, [swiss_round(1, [(1, 2, "draw"), (3, 4, "pending")])]), tmp_path / "r.xqt"
    )
    attach_record(db, "公开组", 1, 1, MASTER.read_text(encoding="utf-8"))
    yield db
    db.close()


def test_a_stored_game_is_shown_on_a_board_move_by_move_in_chinese_notation(recorded: Any) -> None:
    site = HallSite(recorded)
    board = _main(site, ("board", 1, 1, 1))
    link = board.first("a", href="/g/1/r/1/b/1/game/1")
    assert link is not None and "棋谱" in link.text()
    assert _main(site, ("board", 1, 1, 2)).first("a", href="/g/1/r/1/b/2/game/1") is None  # no record there
    record = record_of(recorded, "公开组", 1, 1)
    assert record is not None
    position, expected, fens = Board(record.fen), [], []
    for move in record.moves:
        expected.append(format_chinese(position, move))
        position.push(move)
        fens.append(position.fen())
    main = _main(site, ("record", 1, 1, 1, 1))
    moves = main.one("ol", "moves").all("li")
    assert [li.one("a").own_text() for li in moves] == expected
    assert expected[0] == "炮八平五"
    assert [li.attrs["data-fen"] for li in moves] == fens
    meta = main.all("p", "meta")[0].text()
    assert "红 1 柳大华" in meta and "黑 2 杨官璘" in meta and meta.endswith("和")
    # without the script: one position per link (?ply=N), the board drawn for it
    at5 = _main(site, ("record", 1, 1, 1, 1), "5")
    assert at5.one("li", "at").attrs["data-ply"] == "5"
    drawn = [(g.attrs["transform"], g.one("text").text()) for g in at5.one("g", "pieces").all("g")]
    assert drawn == [(f"translate({f * 40},{(9 - r) * 40})", glyph) for f, r, glyph, _ in pieces(fens[4])]
    assert parse_pgn(MASTER.read_text(encoding="utf-8")).full_moves == len(moves) // 2 + len(moves) % 2


def test_a_number_search_says_whether_it_matched_a_board_or_a_number(reader: TestClient) -> None:
    main = parse(reader.get("/g/1/r/4/", params={"q": "9"}).text).one("main")
    count = main.one("p", "count").text()
    assert count.startswith("找到") and "台次 9 有 1 台" in count and "序号 9 有 1 人" in count
    whys = {li.attrs["data-b"]: li.one("small", "why").text() for li in main.all("li", "board")}
    assert whys["9"].startswith("台次 9")
    assert any(w.endswith("序号 9") for b, w in whys.items() if b != "9") or "序号 9" in whys["9"]


def test_no_element_id_is_used_twice_on_any_page(
    knockout: Any, knockout_site: HallSite, knockout_tree: Callable[[tuple[Any, ...]], Node]
) -> None:
    site = knockout_site
    for key in site.all_keys():
        if key[0] == "player" and key[2] > 5:
            continue
        ids = [n.attrs["id"] for n in knockout_tree(key).all() if "id" in n.attrs]
        assert len(ids) == len(set(ids)), (path_of(key), [i for i, c in Counter(ids).items() if c > 1])
    # "本轮全部对阵" on a knockout board lands on the game being played
    doc = exports.round_results(knockout, LOCAL, 9)
    board = next(r.board for r in doc.rows if "附加赛" in r.game)
    page = parse(site.page(("round", 2, 9)).full.decode("utf-8"))
    latest = page.one("li", id=f"b{board}")
    assert "附加赛" in latest.text()


def test_the_bracket_says_numbers_and_seeds_apart(knockout: Any, knockout_site: HallSite) -> None:
    main = _main(knockout_site, ("bracket", 2))
    bracket = exports.bracket(knockout, LOCAL)
    first = bracket.columns[0][0]
    assert first.high_player is not None
    seed, no, name = first.high_player
    text = main.all("section", "match")[0].text()
    assert f"{name} {no}号 · 种子{seed}" in text
    assert "种子" in main.one("p", "note").text() and "序号" in main.one("p", "note").text()


def test_an_excused_or_paired_player_of_the_open_group_has_a_page(reader: TestClient) -> None:
    assert reader.get("/g/1/p/1").status_code == 200
    assert reader.get("/g/1/p/999").status_code == 404
    assert reader.get("/g/1/r/4/b/1/game/1").status_code == 404  # no record stored there
    assert reader.get("/g/1/entries/names").status_code == 200
    assert reader.get("/g/1/r/4/names").status_code == 200


def test_the_static_folder_has_the_same_player_pages(tmp_path: Path, stage_files: dict[str, Path]) -> None:
    from app.services.public_pages import write_public_site

    db = open_tournament(stage_files["knockout"], read_only=True)
    try:
        files = write_public_site(db, tmp_path / "site", datetime(2024, 7, 28, 12))
        hall = HallSite(db)
        static = parse((tmp_path / "site" / "g2-p1.html").read_text(encoding="utf-8")).one("main")
        served = _main(hall, ("player", 2, 1))
        assert static.table_rows() == served.table_rows()
        assert static.one("section", "next").text() == served.one("section", "next").text()
        assert (
            static.first("a", href="g2-p31.html") is not None or static.first("a", href="/g/2/p/31") is None
        )
        assert any(f.name == "schedule.html" for f in files)
    finally:
        db.close()


def test_the_open_group_pages_of_a_fresh_event(tmp_path: Path) -> None:
    players = [player(i, f"棋手{i}") for i in range(1, 5)]
    db = import_snapshot(snapshot(players, []), tmp_path / "f.xqt")
    owner = ThreadOwner()
    try:
        with TestClient(create_app(db, owner), base_url=BASE) as c:
            page = parse(c.get("/g/1/p/3").text).one("main")
            assert "下一轮尚未编排" in page.text() and "尚无对局" in page.text()
            assert c.get("/schedule").status_code == 200
    finally:
        owner.close()
        db.close()


def test_the_same_player_book_for_the_open_group(knockout: Any, knockout_site: HallSite) -> None:
    site = knockout_site
    book = site.snapshot().model(("players", 1))
    table = exports.standings(knockout, OPEN)
    assert [(c.no, c.rank) for c in sorted(book.players, key=lambda c: c.rank or 0)] == [
        (r.no, r.rank) for r in table.rows
    ]
