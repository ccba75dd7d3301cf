"""The hall pages and the static folder for formats other than today's Swiss: a round robin's square
crosstable and its order of play (对局秩序表), a double elimination's two brackets, the schedule of a
group that plays pools then a knockout (each step of the ladder with its own time control)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.reports.html import HALL
from app.services import exports
from app.services.format_demo import GROUP, create_format_demo
from app.services.knockout import bracket_of
from app.services.public_pages import write_public_site
from app.services.round_robin_docs import begin_round_robin
from app.services.simulation import play_group_to_end
from app.web.site import HallSite, path_of
from tests.factories import open_copy
from tests.web.htmltree import Node, main_of, parse


def _main(site: HallSite, key: tuple[Any, ...]) -> Node:
    rendered = site.page(key)
    assert rendered.status == 200, key
    return main_of(rendered.full.decode("utf-8"))


def test_a_drawn_round_robin_has_its_order_of_play_before_round_one(tmp_path: Path) -> None:
    db = create_format_demo(tmp_path / "rr.xqt", "round-robin", players=7, seed=3)
    site = HallSite(db)
    assert ("order", 1) not in site.all_keys()  # not drawn yet: no such page
    assert site.page(("order", 1)).status == 404
    begin_round_robin(db, GROUP, seed=11)
    site.refresh()
    assert ("order", 1) in site.all_keys()
    index = _main(site, ("index",))
    assert any(a.attrs.get("href") == HALL.page(1, "order") for a in index.all("a"))
    page = _main(site, ("order", 1))
    printed = exports.order_of_play(db, GROUP)
    _, draw = page.table_rows()
    assert [row[1] for row in draw] == [who for _, who in printed.pools[0].numbers]
    rounds = page.all("table")[1].one("tbody").all("tr")
    assert len(rounds) == 7  # 7 players: 7 rounds, one resting in each
    for tr, r in zip(rounds, printed.pools[0].rounds, strict=True):
        pairs = [span.text() for span in tr.all("span", cls="tc")]
        assert pairs == [f"{red} — {black}" for red, black in r.pairs]
        assert r.rest and r.rest in tr.text()
        assert not tr.all("a")  # no round is paired yet: nothing to link to
    db.close()


def test_a_round_robins_crosstable_page_is_the_square_table(tmp_path: Path) -> None:
    db = create_format_demo(tmp_path / "rr.xqt", "round-robin", players=6, seed=5)
    play_group_to_end(db, GROUP, seed=5)
    site = HallSite(db)
    page = _main(site, ("crosstable", 1))
    table = exports.crosstable_of(db, GROUP)
    header, body = page.table_rows()
    assert header[3:9] == ["1", "2", "3", "4", "5", "6"]  # a column per table number
    for k, (row, printed) in enumerate(zip(body, table.pools[0].rows, strict=True)):
        assert row[3 + k] == "—"  # the diagonal
        assert row[3:9] == list(printed.cells)
        assert row[0] == str(printed.number) and printed.name in row[1]
    assert "第 5 轮后" in page.one("h1").text()
    # the order of play links every round now that each is paired
    order = _main(site, ("order", 1))
    links = [a.attrs["href"] for a in order.all("table")[1].all("a")]
    assert links == [HALL.round(1, n) for n in range(1, 6)]
    db.close()


def test_a_double_elimination_bracket_page_shows_both_brackets_and_each_games_time_control(
    double_elimination_of_six: Path, tmp_path: Path
) -> None:
    db = open_copy(double_elimination_of_six, tmp_path / "de.xqt")  # six players, seeds 9
    site = HallSite(db)
    page = _main(site, ("bracket", 1))
    assert [h.text() for h in page.all("h2")] == ["胜者组", "败者组", "总决赛"]
    eb = bracket_of(db, GROUP)
    assert eb is not None
    for m in eb.matches:
        for g in m.games:
            control = eb.time_control_of(m.code, g.number).label
            assert f"（{control}）" in page.text()
    assert "双败淘汰" in page.text()
    # six players in a bracket of eight: the top two seeds have byes, shown as such (not as 第7名)
    assert "轮空" in page.text() and "第7名" not in page.text() and "第8名" not in page.text()
    db.close()


def test_the_schedule_of_pools_then_a_knockout_names_each_stage_and_step(tmp_path: Path) -> None:
    db = create_format_demo(tmp_path / "gk.xqt", "groups-then-knockout", players=8, seed=4)
    play_group_to_end(db, GROUP, seed=4)
    site = HallSite(db)
    page = _main(site, ("schedule",))
    _, lines = page.table_rows()
    rr = [line for line in lines if "小组循环" in line[2]]  # the preset's name of the stage
    ko = [line for line in lines if "淘汰赛" in line[2]]
    assert len(rr) == 3 and len(ko) == 2  # pools of 4: 3 rounds; a knockout of 4: 2 rounds
    assert [line[0] for line in lines] == [f"第 {n} 轮" for n in range(1, 6)]
    ladder = exports.bracket(db, GROUP).columns[0][0].games
    assert ladder  # the semi-final was played: its first game's kind and control are in the schedule
    first = ladder[0].kind  # 慢棋（…）
    kind, control = first.split("（")
    assert f"{kind}{control.rstrip('）')}".replace(" ", "") in ko[0][2].replace(" ", "")
    db.close()


def test_the_static_folder_of_a_round_robin_has_its_square_table_and_order(tmp_path: Path) -> None:
    db = create_format_demo(tmp_path / "rr.xqt", "double-round-robin", players=4, seed=2)
    play_group_to_end(db, GROUP, seed=2)
    files = {f.name for f in write_public_site(db, tmp_path / "site")}
    assert {"g1-order.html", "g1-crosstable.html"} <= files
    square = parse((tmp_path / "site" / "g1-crosstable.html").read_text(encoding="utf-8")).one("main")
    header, body = square.table_rows()
    assert header[3:7] == ["1", "2", "3", "4"]
    assert all(len(row[3 + k].split()) == 1 and row[3 + k] == "—" for k, row in enumerate(body))
    assert all(" " in c or c == "—" for row in body for c in row[3:7])  # two cycles: two values a cell
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'href="g1-order.html"' in index
    assert path_of(("order", 1)) == "/g/1/order"
    db.close()


def test_before_the_draw_the_schedule_lists_only_the_ladders_the_stage_plays(tmp_path: Path) -> None:
    db = create_format_demo(tmp_path / "de.xqt", "double-elimination", players=8, seed=4)
    from app.services.public_pages import schedule

    lines = schedule(db).groups[0][1]
    labels = {label for line in lines for label, _ in line.time_controls}
    # every side of the double elimination has its own ladder: the regulation's default one is not played
    assert labels and all(("胜者组" in x) or ("败者组" in x) or ("总决赛" in x) for x in labels)
    db.close()


def test_a_players_page_shows_the_round_robin_round_they_rest(tmp_path: Path) -> None:
    from app.services.public_pages import player_book

    db = create_format_demo(tmp_path / "rr.xqt", "round-robin", players=5, seed=8)
    play_group_to_end(db, GROUP, seed=8)
    rests = {n: {b.no for b in exports.round_results(db, GROUP, n).byes} for n in range(1, 6)}
    for card in player_book(db, GROUP).players:
        rested = [r.round for r in card.rounds if any(g.outcome == "轮空" for g in r.games)]
        assert rested == [n for n, nos in rests.items() if card.no in nos]
        assert len(rested) == 1  # five players: each rests once
    db.close()


def test_the_format_pages_pass_axe_and_fit_a_phone(browser: Any, tmp_path: Path) -> None:
    """The square crosstable, the order of play, the double elimination's bracket and the schedule in
    chromium at a phone's width: no level A/AA violation, nothing wider than the screen."""
    from app.web.server import HallServer
    from tests.web.test_browser_pages import AXE_RUN, TARGETS, _axe_source, _context

    source = _axe_source()
    pools = create_format_demo(tmp_path / "gk.xqt", "groups-then-knockout", players=10, seed=3)
    play_group_to_end(pools, GROUP, seed=3)
    de = create_format_demo(tmp_path / "de.xqt", "double-elimination", players=6, seed=3)
    play_group_to_end(de, GROUP, seed=3)
    servers = [HallServer(db, None, port=0, poll_seconds=0.2) for db in (pools, de)]
    urls = [s.start() for s in servers]
    context = _context(browser, 390, bypass_csp=True)
    page = context.new_page()
    try:
        found, small, wide = {}, {}, []
        paths = [
            urls[0] + p for p in ("/g/1/crosstable", "/g/1/order", "/g/1/bracket", "/schedule", "/g/1/p/3")
        ]
        paths += [urls[1] + p for p in ("/g/1/bracket", "/schedule")]
        for path in paths:
            page.goto(path)
            if page.evaluate(TARGETS):
                small[path] = page.evaluate(TARGETS)[:5]
            if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"):
                wide.append(path)
            page.add_script_tag(content=source)
            violations = page.evaluate(AXE_RUN)
            if violations:
                found[path] = violations
        assert found == {} and small == {} and wide == []
    finally:
        context.close()
        for s in servers:
            s.stop()
        pools.close()
        de.close()
