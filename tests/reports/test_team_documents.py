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


def test_the_result_workbook_of_a_team_event(team_event: DemoEvent, tmp_path) -> None:
    """The workbook of a team competition: every round's matches board by board with 局分 and 场分, the
    team standings, the team crosstable and the board prizes — and no individual round sheet."""
    from openpyxl import load_workbook

    from app.services import exports

    out = tmp_path / "teams.xlsx"
    exports.write_result_workbook(team_event.db, out)
    wb = load_workbook(out, read_only=True)  # (the sheets read are those looked at)
    names = wb.sheetnames
    assert {"第1轮团体对阵", "第2轮团体对阵", "第3轮团体对阵", "团体名次表", "团体成绩总表", "台次奖"} <= set(
        names
    )
    assert not any(n.startswith("第1轮") and n != "第1轮团体对阵" for n in names)
    rows = [list(r) for r in wb["第1轮团体对阵"].iter_rows(values_only=True)]
    assert rows[0][:4] == ["场次", "台次", "主队", "主队棋手"]
    view = team_round_view(team_event.db, TEAM_GROUP, 1)
    played = [m for m in view.matches if not m.bye]
    first = played[0]
    total = next(r for r in rows if r[0] == first.number and r[1] == "合计")
    assert total[2] == first.home and total[4] == first.away
    assert first.score is not None
    assert total[8] == first.score.label
    assert total[9] == f"{first.score.home_match_points}:{first.score.away_match_points}"
    boards = [r for r in rows if r[0] == first.number and isinstance(r[1], int)]
    assert [r[1] for r in boards] == [1, 2, 3, 4]
    assert boards[0][3] == f"{first.boards[0].home.no} {first.boards[0].home.name}"
    assert any(r[2] == view.matches[-1].home and r[7] == "轮空" for r in rows) or all(
        not m.bye for m in view.matches
    )
    standings = [list(r) for r in wb["团体名次表"].iter_rows(values_only=True)]
    ranking = team_standings_view(team_event.db, TEAM_GROUP).ranking.rows
    assert standings[0][:9] == ["名次", "队号", "队名", "场次", "胜", "和", "负", "场分", "局分"]
    assert [r[1] for r in standings[1:]] == [r.team for r in ranking]
    assert [r[7] for r in standings[1:]] == [r.match_points for r in ranking]
    text = "".join(str(c) for ws in wb for row in ws.iter_rows(values_only=True) for c in row if c)
    for p in team_event.players:
        for number in (p.id_number, p.phone):
            assert not number or number not in text


def test_the_public_pages_of_a_team_event_are_written(team_event: DemoEvent, tmp_path) -> None:
    from datetime import datetime

    from app.services.public_pages import write_public_site

    written = write_public_site(team_event.db, tmp_path / "site", datetime(2026, 1, 1))
    assert any(p.name == "index.html" for p in written)


def test_team_prizes_follow_the_team_standings(team_event: DemoEvent) -> None:
    """A team competition's team prizes go by its standings (场分, 局分 …), not by the players' places."""
    from app.services import exports

    ranking = team_standings_view(team_event.db, TEAM_GROUP)
    expected = [ranking.names[r.team] for r in ranking.ranking.rows]
    lines = [p for p in exports.prize_list_model(team_event.db).lines if "团体" in p.table]
    assert lines, "the demo regulation has team prizes"
    assert [p.name for p in lines] == expected[: len(lines)]
    assert [p.place for p in lines] == list(range(1, len(lines) + 1))
