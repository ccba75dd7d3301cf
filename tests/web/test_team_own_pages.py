"""A team's own page and a match's own page (团体赛), in the hall and in the static folder: worked by hand on
a small team round robin, every link of the static folder leads to a page that exists, no ID or phone
number anywhere, and the hall answers 304 to a phone whose copy of a team's page has not changed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

import pytest
from sqlalchemy import select

from app.db.models import Player
from app.engine.types import GameResult
from app.services.team_demo import GROUP, create_team_demo, play_team_event_to_end
from app.services.team_events import (
    close_team_round,
    enter_board_result,
    pair_team_round,
    seat_team_round,
    team_round_view,
    teams_of,
)
from app.web.site import HallSite
from tests.conftest import built_once_file
from tests.factories import open_copy
from tests.web.htmltree import Node, main_of, parse

R, B, D = GameResult.RED_WIN, GameResult.BLACK_WIN, GameResult.DRAW


def _main(site: HallSite, key: tuple[Any, ...]) -> Node:
    rendered = site.page(key)
    assert rendered.status == 200, key
    return main_of(rendered.full.decode("utf-8"))


def _play_by_hand(db: Any) -> None:
    """Four teams, three rounds, boards in the registered order. In every match the lower-numbered team
    wins boards 1 and 2 and boards 3 and 4 are drawn (局分 6:2, 场分 2:0) — except teams 1 and 3, who draw
    every board (4:4, 场分 1:1). The home team has Red on boards 1 and 3.

    By hand: team 1 beats 2 and 4, draws 3: 场分 2+2+1 = 5, 局分 6+6+4 = 16, first;
    team 2 loses to 1, beats 3 and 4: 场分 4, 局分 2+6+6 = 14, second;
    team 3 draws 1, loses to 2, beats 4: 场分 3, 局分 4+2+6 = 12, third;
    team 4 loses all three: 场分 0, 局分 2+2+2 = 6, fourth."""
    for number in (1, 2, 3):
        pair_team_round(db, GROUP, seed=number)
        seat_team_round(db, GROUP, number)
        for m in team_round_view(db, GROUP, number).matches:
            assert m.away_no is not None
            if {m.home_no, m.away_no} == {1, 3}:
                results = [D, D, D, D]
            elif m.home_no < m.away_no:  # home wins board 1 with Red, board 2 with Black
                results = [R, B, D, D]
            else:  # the away team wins board 1 with Black, board 2 with Red
                results = [B, R, D, D]
            for board, result in enumerate(results, start=1):
                enter_board_result(db, GROUP, number, m.number, board, result)
        close_team_round(db, GROUP, number)


def _league(path: Path) -> None:
    db = create_team_demo(path, "team-round-robin", teams=4, seed=5)
    _play_by_hand(db)
    db.close()


@pytest.fixture
def league(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Any:
    """The league of :func:`_play_by_hand` (played once per run; this test's own copy)."""
    template = built_once_file(tmp_path_factory, "team-round-robin-4-by-hand", "league.xqt", _league)
    db = open_copy(template, tmp_path / "league.xqt")
    yield db
    db.close()


def _personal_numbers(db: Any) -> list[str]:
    with db.session() as s:
        players = list(s.scalars(select(Player)))
        numbers = [x for p in players for x in (p.id_number, p.phone) if x]
    assert numbers
    return numbers


def test_a_teams_page_worked_by_hand(league: Any) -> None:
    site = HallSite(league)
    site.refresh()
    teams = {t.no: t for t in teams_of(league, GROUP)}
    page = _main(site, ("team", 1, 3))
    text = page.text()
    t3 = teams[3]
    assert page.one("h1").text() == f"3号 {t3.name}"
    assert f"领队 {t3.leader}" in text and f"队长 {t3.captain}" in text
    assert "第 3 名" in text and "场分 3" in text and "局分 12" in text
    # the roster in registered order: 301 … 304 on boards 1–4, the reserve 305 last
    roster = page.all("table")[0]
    header, rows = roster.table_rows()
    assert header == ["顺序", "序号", "姓名", "备注", "上场局数", "局分"]
    assert [r[1] for r in rows] == ["301", "302", "303", "304", "305"]
    assert [r[2] for r in rows] == [p.name for p in t3.roster]
    assert "替补" in rows[4][3] and rows[4][4:] == ["0", "0"]
    captain = next(r for r in rows if r[2] == t3.captain)
    assert "队长" in captain[3]
    # board 1 (301): drew team 1, lost to team 2, beat team 4 — 3 games, 1+0+2 局分; board 3: three draws
    assert rows[0][4:] == ["3", "3"] and rows[2][4:] == ["3", "3"]
    # round by round: the opponent, home or away, each board's colour, players and result, 局分 and 场分
    sections = page.all("section", cls="match")
    assert len(sections) == 3
    for section in sections:
        number = int(section.attrs["id"][1:])
        view = team_round_view(league, GROUP, number)
        m = next(x for x in view.matches if 3 in (x.home_no, x.away_no))
        home = m.home_no == 3
        other = m.away_no if home else m.home_no
        heading = section.one("h3").text()
        assert ("主场" if home else "客场") in heading and f"{other}号 {teams[other or 0].name}" in heading
        hrefs = [a.attrs["href"] for a in section.one("h3").all("a")]
        assert hrefs == [f"/g/1/r/{number}/m/{m.number}", f"/g/1/t/{other}"]
        _, boards = section.one("table").table_rows()
        expected = {1: "1:1", 2: "0:2", 4: "2:0"}[other or 0]  # board 1's 局分, ours first
        meta = section.one("p").text()
        if other == 1:
            assert meta.startswith("和") and "局分 4:4" in meta and "场分 1" in meta
        elif other == 2:
            assert meta.startswith("负") and "局分 2:6" in meta and "场分 0" in meta
        else:
            assert meta.startswith("胜") and "局分 6:2" in meta and "场分 2" in meta
        assert boards[0][5] == expected
        for b, row in zip(m.boards, boards, strict=True):
            ours, theirs = (b.home, b.away) if home else (b.away, b.home)
            red = b.home_red == home
            assert row[:5] == [
                str(b.board),
                "红" if red else "黑",
                f"{ours.no} {ours.name}",
                f"{theirs.no} {theirs.name}",
                b.result.zh,
            ]
        # the home team has Red on boards 1 and 3
        assert [r[1] for r in boards] == (["红", "黑", "红", "黑"] if home else ["黑", "红", "黑", "红"])
    first = _main(site, ("team", 1, 1)).text()
    assert "第 1 名" in first and "场分 5" in first and "局分 16" in first
    assert "第 2 名" in _main(site, ("team", 1, 2)).text() and "局分 14" in _main(site, ("team", 1, 2)).text()
    assert "第 4 名" in _main(site, ("team", 1, 4)).text()
    assert site.page(("team", 1, 9)).status == 404


def test_a_matchs_page_and_the_links_to_it(league: Any) -> None:
    site = HallSite(league)
    site.refresh()
    teams = {t.no: t for t in teams_of(league, GROUP)}
    number, m = next(
        (n, x)
        for n in (1, 2, 3)
        for x in team_round_view(league, GROUP, n).matches
        if {x.home_no, x.away_no} == {1, 3}
    )
    page = _main(site, ("match", 1, number, m.number))
    assert page.one("h1").text() == f"{GROUP} 第 {number} 轮 第 {m.number} 场"
    score = page.one("p", cls="score")
    assert score.text().replace(" ", "") == f"{m.home}主4:4{m.away}客"
    assert [a.attrs["href"] for a in score.all("a")] == [f"/g/1/t/{m.home_no}", f"/g/1/t/{m.away_no}"]
    assert "场分 1:1" in page.text()
    header, rows = page.one("table").table_rows()
    assert header == ["台次", "主队", "客队", "结果", "局分"]
    assert [r[3] for r in rows] == ["和"] * 4 and [r[4] for r in rows] == ["1:1"] * 4
    home, away = teams[m.home_no], teams[m.away_no or 0]
    assert rows[0][1] == f"红 {home.roster[0].no} {home.roster[0].name}"
    assert rows[1][2] == f"红 {away.roster[1].no} {away.roster[1].name}"
    others = [a.attrs["href"] for a in page.one("ul", cls="nb").all("a")]
    assert others == [
        f"/g/1/r/{number}/m/{x.number}"
        for x in team_round_view(league, GROUP, number).matches
        if x.number != m.number
    ]
    # linked from the round page, the standings, the crosstable and the entry list
    round_page = _main(site, ("round", 1, number))
    hrefs = {a.attrs.get("href") for a in round_page.all("a")}
    assert f"/g/1/r/{number}/m/{m.number}" in hrefs and {f"/g/1/t/{n}" for n in (1, 2, 3, 4)} <= hrefs
    standings = _main(site, ("standings", 1))
    _, body = standings.table_rows()
    assert [r[2] for r in body] == [teams[n].name for n in (1, 2, 3, 4)]
    assert [a.attrs["href"] for a in standings.all("a") if "/t/" in a.attrs["href"]] == [
        f"/g/1/t/{n}" for n in (1, 2, 3, 4)
    ]
    cross = {a.attrs.get("href") for a in _main(site, ("crosstable", 1)).all("a")}
    assert f"/g/1/r/{number}/m/{m.number}" in cross and "/g/1/t/4" in cross
    entries = {a.attrs.get("href") for a in _main(site, ("entries", 1)).all("a")}
    assert {f"/g/1/t/{n}" for n in (1, 2, 3, 4)} <= entries
    assert site.page(("match", 1, number, 9)).status == 404


def test_every_team_and_match_page_answers_and_a_phone_gets_304(league: Any) -> None:
    from starlette.testclient import TestClient

    from app.web.app import create_app

    with TestClient(create_app(league), base_url="http://127.0.0.1") as client:
        site: HallSite = client.app.state.hall.site  # type: ignore[attr-defined]
        keys = site.all_keys()
        assert {("team", 1, n) for n in (1, 2, 3, 4)} <= set(keys)
        assert sum(1 for k in keys if k[0] == "match") == 6
        first = client.get("/g/1/t/2")
        assert first.status_code == 200 and "2号" in first.text
        again = client.get("/g/1/t/2", headers={"If-None-Match": first.headers["etag"]})
        assert again.status_code == 304
        match = client.get("/g/1/r/2/m/1")
        assert match.status_code == 200 and match.headers["etag"]
        assert client.get("/g/1/r/2/m/1", headers={"If-None-Match": match.headers["etag"]}).status_code == 304
        assert client.get("/g/1/t/1234567890").status_code == 404


def test_a_result_changes_the_teams_page_and_its_etag(tmp_path: Path) -> None:
    """A board entered: the team's page says so and a phone's old copy is no longer current."""
    db = create_team_demo(tmp_path / "live.xqt", "team-round-robin", teams=4, seed=5)
    try:
        pair_team_round(db, GROUP, seed=1)
        seat_team_round(db, GROUP, 1)
        site = HallSite(db)
        site.refresh()
        m = team_round_view(db, GROUP, 1).matches[0]
        before = site.page(("team", 1, m.home_no))
        assert "进行中" in before.full.decode("utf-8")
        enter_board_result(db, GROUP, 1, m.number, 1, R)
        assert site.refresh()
        after = site.page(("team", 1, m.home_no))
        assert after.full_tag != before.full_tag and "红胜" in after.full.decode("utf-8")
        assert "第 1 轮各场比赛结束后产生名次" in after.full.decode("utf-8")
    finally:
        db.close()


def _static_links_resolve(folder: Path) -> int:
    """Every href of every page of the folder names a file that exists (and an id on it, for #…)."""
    pages = {p.name: p.read_text(encoding="utf-8") for p in folder.glob("*.html")}
    checked = 0
    for name, html in pages.items():
        for a in parse(html).all("a"):
            href = a.attrs.get("href") or ""
            target, anchor = urldefrag(href)
            target = target or name
            assert target in pages, (name, href)
            if anchor:
                assert f'id="{anchor}"' in pages[target], (name, href)
            checked += 1
    return checked


@pytest.mark.parametrize(
    "fmt, teams",
    [
        pytest.param("team-swiss", 7, marks=pytest.mark.heavy),
        ("team-round-robin", 5),
        ("team-knockout", 6),
        ("team-all-play-all", 2),
    ],
)
def test_the_static_folder_of_a_played_team_event(tmp_path: Path, fmt: str, teams: int) -> None:
    from app.services.public_pages import write_public_site

    db = create_team_demo(tmp_path / "event.xqt", fmt, teams=teams, seed=2026)
    try:
        play_team_event_to_end(db, GROUP, seed=3)
        numbers = _personal_numbers(db)
        rounds = {n: team_round_view(db, GROUP, n) for n in range(1, 8) if _has_round(db, n)}
        files = {p.name for p in write_public_site(db, tmp_path / "site")}
    finally:
        db.close()
    folder = tmp_path / "site"
    assert {f"g1-t{n}.html" for n in range(1, teams + 1)} <= files
    for n, view in rounds.items():
        assert {f"g1-r{n}-m{m.number}.html" for m in view.matches if not m.bye} <= files
    assert _static_links_resolve(folder) > 100
    text = "".join(p.read_text(encoding="utf-8") for p in folder.glob("*.html"))
    for number in numbers:
        assert number not in re.sub(r"<[^>]+>", "", text)
        assert number not in text


def _has_round(db: Any, number: int) -> bool:
    from app.services.team_events import team_round_numbers

    return number in team_round_numbers(db, GROUP)


def test_a_team_table_card_carries_its_matchs_page(league: Any) -> None:
    """The printed team cards' QR codes open the match's page when the hall's address is known."""
    from app.services.exports import document

    base = "http://192.168.1.10:8080"
    doc = document(league, "team-cards", group=GROUP, round_number=2, base_url=base)
    matches = [m for m in team_round_view(league, GROUP, 2).matches if not m.bye]
    assert [m.link for m in doc.matches] == [f"{base}/g/1/r/2/m/{m.number}" for m in matches]
    site = HallSite(league)
    for m in doc.matches:
        assert site.page(("match", 1, 2, m.number)).status == 200
    assert all(
        not m.link for m in document(league, "team-cards", group=GROUP, round_number=2, base_url="").matches
    )
