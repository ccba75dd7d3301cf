"""The team competition documents: what each page says, page counts worked by hand, and no personal
numbers on any of them."""

from __future__ import annotations

import re

from app.services.team_events import team_round_view, team_standings_view, teams_of

from .conftest import TEAM_GROUP, DemoEvent, Rendered


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_round_documents_one_half_page_per_match(
    team_event: DemoEvent, documents: dict[str, Rendered]
) -> None:
    # 7 teams: 3 matches and a bye a round; two matches per A4 page → 2 pages of cards, 2 of score sheets;
    # 6 teams need a line-up form, two a page → 3 pages
    assert documents["team-cards"].pages == 2
    assert documents["team-sheets"].pages == 2
    assert documents["lineup-forms"].pages == 3
    view = team_round_view(team_event.db, TEAM_GROUP, 3)
    cards = squash(documents["team-cards"].text)
    for m in view.matches:
        if m.bye:
            continue
        assert f"第{m.number}场" in cards and m.home in cards and m.away in cards
    sheets = squash(documents["team-sheets"].text)
    assert sheets.count("主队队长") == 3 and sheets.count("客队队长") == 3 and sheets.count("裁判员签名") == 3
    assert "局分合计" in sheets and "场分" in sheets


def test_a_handed_in_lineup_is_printed_on_its_form(
    team_event: DemoEvent, documents: dict[str, Rendered]
) -> None:
    team = teams_of(team_event.db, TEAM_GROUP)[0]
    page = next(t for t in documents["lineup-forms"].page_texts if team.name in t)
    text = squash(page)
    for p in team.roster[:4]:
        assert f"{p.no}{p.name}" in text
    assert "交表时间（队长）" in text and "须按报名顺序排阵" in text


def test_standings_crosstable_and_board_prizes(team_event: DemoEvent, documents: dict[str, Rendered]) -> None:
    view = team_standings_view(team_event.db, TEAM_GROUP)
    standings = squash(documents["team-standings"].text)
    assert "场分" in standings and "局分" in standings and "直胜" in standings and "台次分" in standings
    first = view.ranking.rows[0]
    assert f"1{first.team}{view.names[first.team]}" in standings
    cross = squash(documents["team-crosstable"].text)
    assert cross.count("轮空") == 3  # one bye in each round paired (round 3 is paired, not yet played)
    prizes = squash(documents["board-prizes"].text)
    for board in (1, 2, 3, 4):
        assert f"第{board}台" in prizes


def test_no_personal_number_on_a_team_document(team_event: DemoEvent, documents: dict[str, Rendered]) -> None:
    for name in (
        "team-cards",
        "team-sheets",
        "lineup-forms",
        "team-crosstable",
        "team-standings",
        "board-prizes",
    ):
        text = squash(documents[name].text)
        for p in team_event.players:
            assert p.id_number not in text and p.phone not in text, (name, p.name)
