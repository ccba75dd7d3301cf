"""The hall pages of a team competition (团体赛): a round's page lists its matches with the boards under
each (players, who has Red, results, 局分) and the match score read back; the team standings by 场分 and
局分 and the team crosstable; every page of the event answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.services.team_demo import GROUP, create_team_demo, play_team_round
from app.services.team_events import pair_team_round, team_round_view, team_standings_view
from app.web.site import HallSite
from tests.web.htmltree import Node, main_of


def _main(site: HallSite, key: tuple[Any, ...]) -> Node:
    rendered = site.page(key)
    assert rendered.status == 200, key
    return main_of(rendered.full.decode("utf-8"))


def test_a_team_event_in_the_hall(tmp_path: Path) -> None:
    db = create_team_demo(tmp_path / "teams.xqt", "team-swiss", teams=7, seed=2026)
    for number in (1, 2):
        pair_team_round(db, GROUP, seed=number)
        play_team_round(db, GROUP, number, seed=2026)
    pair_team_round(db, GROUP, seed=3)  # round 3 paired, boards not set yet
    site = HallSite(db)
    assert site.refresh()
    keys = site.all_keys()
    assert {("round", 1, 1), ("round", 1, 2), ("round", 1, 3), ("standings", 1), ("crosstable", 1)} <= set(
        keys
    )
    for key in keys:
        assert site.page(key).status == 200, key

    page = _main(site, ("round", 1, 2))
    view = team_round_view(db, GROUP, 2)
    played = [m for m in view.matches if not m.bye]
    sections = page.all("section")
    assert len(sections) == len(played)
    first, section = played[0], sections[0]
    assert first.score is not None
    heading = section.one("h2").text()
    assert first.home in heading and first.away and first.away in heading
    assert f"{first.score.home_points}:{first.score.away_points}" in heading
    assert f"场分 {first.score.home_match_points}:{first.score.away_match_points}" in section.text()
    _, rows = section.table_rows()
    assert [row[0] for row in rows[: len(first.boards)]] == [str(b.board) for b in first.boards]
    board = first.boards[0]
    assert rows[0][1] == f"{'红' if board.home_red else '黑'} {board.home.no} {board.home.name}"
    assert rows[0][3] == board.result.zh
    bye = next((m for m in view.matches if m.bye), None)
    assert bye is None or f"{bye.home}：轮空" in page.text()

    waiting = _main(site, ("round", 1, 3))
    assert "待排阵" in waiting.text()

    standings = _main(site, ("standings", 1))
    header, body = standings.table_rows()
    assert header[:9] == ["名次", "队号", "队名", "场次", "胜", "和", "负", "场分", "局分"]
    ranking = team_standings_view(db, GROUP).ranking.rows
    assert [row[2] for row in body] == [team_standings_view(db, GROUP).names[r.team] for r in ranking]
    assert [row[7] for row in body] == [str(r.match_points) for r in ranking]
    crosstable = _main(site, ("crosstable", 1))
    header, body = crosstable.table_rows()
    assert header[2:4] == ["第1轮", "第2轮"] and len(body) == 7
    assert site.page(("board", 1, 2, 1)).status == 404  # a team round has matches, not single boards
    index = _main(site, ("index",))
    hrefs = {a.attrs.get("href"): a.text() for a in index.all("a")}
    assert hrefs["/g/1/standings"].startswith("团体名次") and hrefs["/g/1/crosstable"] == "团体成绩总表"
    assert not any("/n" in (h or "") or h == "/g/1/teams" for h in hrefs)  # no by-name page, no sum of places
    entries = _main(site, ("entries", 1))
    assert not any((a.attrs.get("href") or "").startswith("/g/1/p/") for a in entries.all("a"))
    db.close()


def test_the_static_folder_publishes_a_team_competitions_rounds_and_ranking(tmp_path: Path) -> None:
    """`xqarbiter html` of a team competition: each round's matches with their boards, and once a round
    has every result the team standings and crosstable — the index says after which round."""
    from app.services.public_pages import write_public_site
    from app.services.team_demo import GROUP, create_team_demo, play_team_round
    from app.services.team_events import pair_team_round

    db = create_team_demo(tmp_path / "team.xqt", "team-swiss", teams=8, seed=7)
    try:
        pair_team_round(db, GROUP, seed=1)
        before = {p.name for p in write_public_site(db, tmp_path / "before")}
        assert "g1-r1.html" in before and "g1-standings.html" not in before  # nothing decided yet
        play_team_round(db, GROUP, 1, seed=1)
        pair_team_round(db, GROUP, seed=2)
        site = tmp_path / "site"
        files = {p.name for p in write_public_site(db, site)}
    finally:
        db.close()
    assert {"g1-r1.html", "g1-r2.html", "g1-standings.html", "g1-crosstable.html"} <= files
    assert not any(name.startswith("g1-p") for name in files)  # team players have no pages of their own
    round_one = (site / "g1-r1.html").read_text(encoding="utf-8")
    assert "第 1 场" in round_one and "第 4 场" in round_one and "场分" in round_one and "局分" in round_one
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "团体名次（第 1 轮后）" in index and "团体成绩总表" in index
    assert "场分" in (site / "g1-standings.html").read_text(encoding="utf-8")
