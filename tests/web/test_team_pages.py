"""The hall pages of a team competition (团体赛): a round's page lists its matches with the boards under
each (players, who has Red, results, 局分) and the match score read back; the team standings by 场分 and
局分 and the team crosstable; every page of the event answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.services.team_demo import GROUP, create_team_demo, play_team_round
from app.services.team_events import pair_team_round, team_round_view, team_standings_view
from app.web.site import HallSite
from tests.web.htmltree import Node, parse


def _main(site: HallSite, key: tuple[Any, ...]) -> Node:
    rendered = site.page(key)
    assert rendered.status == 200, key
    return parse(rendered.full.decode("utf-8")).one("main")


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
