"""TRF-2026's team section (团体赛): a hand-made example written column by column as FIDE's tables for the
records ``310 320 330 300 299 352 362 802`` say (docs/teams.md, "TRF"), and read back."""

from __future__ import annotations

from dataclasses import replace

from app.engine.regulations import Points
from app.engine.trf import (
    TrfEvent,
    TrfPlayer,
    TrfTeam,
    TrfTeamMatch,
    TrfTeamSection,
    read_trf,
    write_trf,
)
from app.engine.types import Game, GameResult, RoundRecord


def place(fields: dict[int, str]) -> str:
    """A record built from its fields at their 1-based starting columns (the spec's tables)."""
    line = ""
    for column, text in sorted(fields.items()):
        assert len(line) <= column - 1, (column, line)
        line = line.ljust(column - 1) + text
    return line


def _example() -> TrfEvent:
    """Three teams of two boards (and a reserve), two rounds, worked by hand.

    Round 1: 甲队 (home, Red on board 1) against 乙队, who play 201 and their reserve 203 (out of the
    registered order): 101–201 Red wins, 203 (Red on board 2) – 102 drawn: 局分 3:1, 场分 2:0.
    丙队 has the bye (场分 2, 局分 4: every board won). Round 2: 丙队 (home) does not appear against
    甲队: both boards forfeited to 甲队 (局分 0:4, 场分 0:2, 330 ``-+``); 乙队 has the bye.
    Totals: 甲队 场分 4, 局分 7, first; 乙队 场分 2, 局分 1 + 4 = 5, second; 丙队 场分 2, 局分 4, third."""
    players = tuple(TrfPlayer(no, f"选手{no}") for no in (101, 102, 103, 201, 202, 203, 301, 302, 303))
    rounds = (
        RoundRecord(1, (Game(1, 101, 201, GameResult.RED_WIN), Game(2, 203, 102, GameResult.DRAW))),
        RoundRecord(
            2, (Game(1, 301, 101, GameResult.RED_FORFEIT), Game(2, 102, 302, GameResult.BLACK_FORFEIT))
        ),
    )
    section = TrfTeamSection(
        teams=(
            TrfTeam(1, "甲队", (101, 102, 103), 4.0, 7.0, 1),
            TrfTeam(2, "乙队", (201, 202, 203), 2.0, 5.0, 2),
            TrfTeam(3, "丙队", (301, 302, 303), 2.0, 4.0, 3),
        ),
        matches=(
            TrfTeamMatch(1, 1, 2, 3.0, 1.0),
            TrfTeamMatch(2, 3, 1, 0.0, 4.0, "-+"),
        ),
        byes=((1, 3), (2, 2)),
        colours="WB",
        match_points=(3.0, 1.0, 0.0),
        bye_points=(2.0, 4.0),
        out_of_order=((1, 2, 1, (201, 203)),),
    )
    return TrfEvent(
        "团体赛",
        "团体组",
        players,
        rounds,
        Points(2, 1, 1, 0, 0, 2, 0),
        planned_rounds=2,
        team_section=section,
    )


def test_the_team_records_sit_in_the_specifications_columns() -> None:
    text = write_trf(_example())
    lines = text.splitlines()
    team = [line for line in lines if line[:3] in {"310", "320", "330", "300", "299", "352", "362", "802"}]
    assert team == [
        "352 WB",
        place({1: "362", 5: "TW", 8: " 3.0", 13: "TD", 16: " 1.0", 21: "TL", 24: " 0.0"}),
        # 310: number 5-7, name 9-40, match points 55-60, game points 62-67, rank 69-71, members 74-77 …
        place({1: "310", 5: "  1", 9: "甲队", 55: "   4.0", 62: "   7.0", 69: "  1", 74: " 101", 79: " 102", 84: " 103"}),
        place({1: "310", 5: "  2", 9: "乙队", 55: "   2.0", 62: "   5.0", 69: "  2", 74: " 201", 79: " 202", 84: " 203"}),
        place({1: "310", 5: "  3", 9: "丙队", 55: "   2.0", 62: "   4.0", 69: "  3", 74: " 301", 79: " 302", 84: " 303"}),
        # 320: PAB match points 5-8, game points 10-13, the team of round 1 in 15-17, round 2 in 19-21
        place({1: "320", 5: " 2.0", 10: " 4.0", 15: "003", 19: "002"}),
        # 330: type 5-6, round 8-10, white team 12-14, black team 16-18
        place({1: "330", 5: "-+", 8: "002", 12: "003", 16: "001"}),
        # 300: round 5-7, team 9-11, opponent 13-15, players 17-20, 22-25
        place({1: "300", 5: "001", 9: "002", 13: "001", 17: "0201", 22: "0203"}),
        # 802: number 5-7, match points 15-20, game points 22-27, per round from 29 (13 columns):
        # opponent 29-31, colour 33, game points 35-38, forfeit 39
        place({1: "802", 5: "  1", 15: "   4.0", 22: "   7.0", 29: "  2", 33: "w", 35: " 3.0", 42: "  3", 46: "b", 48: " 4.0", 52: "f"}),
        place({1: "802", 5: "  2", 15: "   2.0", 22: "   5.0", 29: "  1", 33: "b", 35: " 1.0", 42: "PAB", 48: " 4.0"}),
        place({1: "802", 5: "  3", 15: "   2.0", 22: "   4.0", 29: "PAB", 35: " 4.0", 42: "  1", 46: "w", 48: " 0.0", 52: "f"}),
    ]  # fmt: skip

    # the players' lines: 局分 under the 162 scoring (win 2, draw 1); a bye team's players are Z
    def rounds(line: str) -> list[str]:  # opponent 92-95, colour 97, result 99; then 102 … for round 2
        return [line[c - 1 : c + 3] + line[c + 4] + line[c + 6] for c in (92, 102)]

    p101 = next(line for line in lines if line.startswith("001  101"))
    assert p101[80:84] == " 4.0" and rounds(p101) == [" 201w1", " 301b+"]
    p203 = next(line for line in lines if line.startswith("001  203"))
    assert p203[80:84] == " 1.0" and rounds(p203) == [" 102w=", "0000-Z"]
    assert not any(line.startswith("013") for line in lines)  # 310 replaces 013


def test_the_team_section_is_read_back() -> None:
    event = _example()
    back = read_trf(write_trf(event))
    assert back.team_section == event.team_section
    assert back.rounds == event.rounds and back.points == event.points


def test_an_empty_board_is_a_299_forfeit_win_counted_in_the_players_points() -> None:
    event = _example()
    assert event.team_section is not None
    section = replace(event.team_section, forfeit_wins=((1, 103, 2.0),))
    text = write_trf(replace(event, team_section=section))
    line = next(x for x in text.splitlines() if x.startswith("299"))
    # type 5, game points 14-17, round 20-22, player 24-27
    assert line == place({1: "299", 5: "+", 14: " 2.0", 20: "001", 24: "0103"})
    p103 = next(x for x in text.splitlines() if x.startswith("001  103"))
    assert p103[80:84] == " 2.0"
    assert read_trf(text).team_section == section


def test_an_individual_event_keeps_its_013_teams() -> None:
    event = TrfEvent(
        "赛事",
        "公开组",
        (TrfPlayer(1, "甲"), TrfPlayer(2, "乙")),
        (RoundRecord(1, (Game(1, 1, 2, GameResult.DRAW),)),),
        teams=(("天水队", (1, 2)),),
    )
    text = write_trf(event)
    assert "013 天水队" in text and "310" not in text
    assert read_trf(text).team_section is None
