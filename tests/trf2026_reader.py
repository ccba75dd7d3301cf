"""A second, independent TRF reader, written from the TRF-2026 text (FIDE handbook, "Format of
Tournament Report File — Version 2026"), strict the way a pairing engine is when it is handed a
file to pair the next round (in-tournament data exchange, ITDX). It shares no code with
``app.engine.trf``; the tests feed it what ``xqarbiter export-trf`` writes.

What it checks, each from the text:

- every line starts with a three-character tag; ``###`` lines are comments; tags it does not
  know are left alone (programs add their own, e.g. ``XXR``, ``BBW``);
- ``142`` number of rounds: "mandatory only for ITDX" — required here, and no player may have
  more rounds than that;
- ``162`` scoring: a result code in position 6, 15, 24 … (one of W, D, L, A, P, X) with its points
  in the next four positions (format ``11.5``); defaults W 1.0, D 0.5, L 0.0, A 0.0, P = W, X = D;
- ``001``: starting rank 5–8 (1–9999, unique), points 81–84, rank 86–89, then per round ten
  positions from 92: opponent 92–95 (``0000`` or blanks: none), colour 97 (``w``, ``b``, ``-`` or
  blank ≡ ``-``), result 99 (``- + W D L 1 = 0 H F U Z`` or blank ≡ ``Z``, any case);
- a game with an opponent has a colour and a game result; a round without one has a bye or
  absence code; ``U`` at most once per round; both players list the game the same way
  (opponents, opposite colours, results that agree);
- the points in 81–84 equal the sum of the round results under the ``162`` scoring;
- ``013`` teams (to be phased out, still valid): members are starting ranks of the player section.
- the team section of a team competition: ``310`` team pairing number 5–7, name 9–40, match points
  55–60, game points 62–67, rank 69–71, members from 74–77 in steps of five (starting ranks of the
  player section); ``320`` PAB match and game points 5–8 and 10–13, then the PAB team of round 1, 2 …
  from 15–17 in steps of four; ``299`` abnormal points, type 5, game points 14–17, round 20–22,
  player 24–27 (added to the player's points); ``802`` match points 15–20, game points 22–27, then
  per round from 29, thirteen positions each: opponent or bye type 29–31, colour 33, game points
  35–38, forfeit 39. Checked: the two teams of a match list each other with opposite colours; a
  team's game points in a round are its members' points that round (``162`` scoring, ``299``
  added) or the PAB's; the rounds' game points add up to the ``310`` and ``802`` totals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation


class Trf2026Error(ValueError):
    """The file is not acceptable; the message names the line."""


@dataclass(frozen=True)
class RoundEntry:
    opponent: int | None
    colour: str  # "w", "b" or "-"
    result: str  # upper case; blank stays " "


@dataclass
class Player:
    start_rank: int
    name: str
    points: Decimal
    rank: int | None
    rounds: list[RoundEntry]


@dataclass
class Tournament:
    name: str = ""
    planned_rounds: int | None = None
    scoring: dict[str, Decimal] = field(default_factory=dict)
    players: dict[int, Player] = field(default_factory=dict)
    teams: dict[str, list[int]] = field(default_factory=dict)
    #: 310: team pairing number → (name, match points, game points, rank, members)
    team_records: dict[int, tuple[str, Decimal, Decimal, int, list[int]]] = field(default_factory=dict)
    #: 802: team → (match points, game points, per round (opponent or bye type, colour, game points))
    team_rounds: dict[int, tuple[Decimal, Decimal, list[tuple[str, str, Decimal | None]]]] = field(
        default_factory=dict
    )
    pab: tuple[Decimal, Decimal, dict[int, int]] | None = None  # 320: points, round → team
    abnormal: list[tuple[int, int, Decimal]] = field(default_factory=list)  # 299: round, player, points

    def points_for(self, result: str) -> Decimal:
        win = self.scoring.get("W", Decimal("1.0"))
        draw = self.scoring.get("D", Decimal("0.5"))
        table = {
            "W": win,
            "D": draw,
            "L": self.scoring.get("L", Decimal("0.0")),
            "A": self.scoring.get("A", Decimal("0.0")),
            "P": self.scoring.get("P", win),
            "X": self.scoring.get("X", draw),
        }
        kind = {"1": "W", "+": "W", "W": "W", "F": "W", "=": "D", "D": "D", "H": "D", "0": "L", "L": "L"}
        kind |= {"-": "A", "Z": "A", " ": "A", "U": "P"}
        return table[kind[result]]


GAME_RESULTS = set("+-WDL1=0")
NO_GAME_RESULTS = set("HFUZ ")
SCORING_CODES = set("WDLAPX")
AGREE = {
    ("1", "0"),
    ("0", "1"),
    ("=", "="),
    ("+", "-"),
    ("-", "+"),
    ("-", "-"),
    ("W", "L"),
    ("L", "W"),
    ("D", "D"),
}


def _points(text: str, line: str) -> Decimal:
    text = text.strip()
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise Trf2026Error(f"points {text!r} are not in the format 11.5: {line!r}") from None
    if value.as_tuple().exponent < -1:  # type: ignore[operator]
        raise Trf2026Error(f"points {text!r} have more than one decimal: {line!r}")
    return value


def _player(line: str) -> Player:
    if len(line) < 84:
        raise Trf2026Error(f"001 record shorter than its points field (positions 81–84): {line!r}")
    try:
        start = int(line[4:8])
    except ValueError:
        raise Trf2026Error(f"001 record without a starting rank in positions 5–8: {line!r}") from None
    if not 1 <= start <= 9999:
        raise Trf2026Error(f"starting rank {start} outside 1–9999: {line!r}")
    points = _points(line[80:84], line)
    rank_text = line[85:89].strip() if len(line) > 85 else ""
    rank = int(rank_text) if rank_text else None
    rounds: list[RoundEntry] = []
    position = 91  # 0-based index of position 92
    while position < len(line):
        block = line[position : position + 10].ljust(10)
        if block[4] != " " or block[6] != " " or block[8:] != "  ":
            raise Trf2026Error(f"round {len(rounds) + 1} is not aligned on positions 92, 102, …: {line!r}")
        opponent_text = block[0:4]
        opponent = None if opponent_text in ("    ", "0000") else int(opponent_text)
        colour = block[5] if block[5] != " " else "-"
        result = block[7].upper()
        if colour not in "wb-":
            raise Trf2026Error(f"round {len(rounds) + 1}: colour {colour!r} is not w, b or -: {line!r}")
        if opponent is not None and (colour == "-" or result not in GAME_RESULTS):
            raise Trf2026Error(
                f"round {len(rounds) + 1}: a scheduled opponent needs a colour and a game result: {line!r}"
            )
        if opponent is None and (colour != "-" or result not in NO_GAME_RESULTS):
            raise Trf2026Error(f"round {len(rounds) + 1}: no opponent but a game result: {line!r}")
        rounds.append(RoundEntry(opponent, colour, result))
        position += 10
    return Player(start, line[14:47].strip(), points, rank, rounds)


def _scoring(line: str) -> dict[str, Decimal]:
    scoring: dict[str, Decimal] = {}
    position = 5  # position 6
    while position < len(line):
        code = line[position]
        if code not in SCORING_CODES:
            raise Trf2026Error(
                f"162: {code!r} in position {position + 1} is not W, D, L, A, P or X: {line!r}"
            )
        if code in scoring:
            raise Trf2026Error(f"162: {code} given twice: {line!r}")
        scoring[code] = _points(line[position + 1 : position + 5], line)
        gap = line[position + 5 : position + 9]
        if gap.strip():
            raise Trf2026Error(f"162: the next code must be in position {position + 10}: {line!r}")
        position += 9
    return scoring


def read(text: str, *, pairing_next_round: bool = True) -> Tournament:
    """The tournament in ``text``; raises :class:`Trf2026Error` on the first thing that is wrong."""
    t = Tournament()
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if not line.strip() or line.startswith("###"):
            continue
        if len(line) < 3:
            raise Trf2026Error(f"a line without a three-character tag: {line!r}")
        tag = line[:3]
        if tag == "001":
            player = _player(line)
            if player.start_rank in t.players:
                raise Trf2026Error(f"starting rank {player.start_rank} appears twice")
            t.players[player.start_rank] = player
        elif tag == "012":
            t.name = line[4:].strip()
        elif tag == "142":
            try:
                t.planned_rounds = int(line[4:].strip())
            except ValueError:
                raise Trf2026Error(f"142: not a number of rounds: {line!r}") from None
            if t.planned_rounds < 1:
                raise Trf2026Error(f"142: not a number of rounds: {line!r}")
        elif tag == "162":
            t.scoring = _scoring(line)
        elif tag == "013":
            members = [int(line[p : p + 4]) for p in range(36, len(line), 5) if line[p : p + 4].strip()]
            t.teams[line[4:36].strip()] = members
        elif tag == "310":
            members = [int(line[p : p + 4]) for p in range(73, len(line), 5) if line[p : p + 4].strip()]
            rank = int(line[68:71])
            record = (
                line[8:40].strip(),
                _points(line[54:60], line),
                _points(line[61:67], line),
                rank,
                members,
            )
            t.team_records[int(line[4:7])] = record
        elif tag == "320":
            teams = {r + 1: int(line[p : p + 3]) for r, p in enumerate(range(14, len(line), 4))}
            t.pab = (_points(line[4:8], line), _points(line[9:13], line), teams)
        elif tag == "299":
            if line[4] != "+":
                raise Trf2026Error(f"299: only '+' is expected here: {line!r}")
            t.abnormal.append((int(line[19:22]), int(line[23:27]), _points(line[13:17], line)))
        elif tag == "802":
            blocks = []
            for p in range(28, len(line), 13):
                block = line[p : p + 13].ljust(13)
                if block[3] != " " or block[5] != " ":
                    raise Trf2026Error(f"802: round block not aligned on 29, 42, …: {line!r}")
                value = block[6:10].strip()
                blocks.append((block[0:3].strip(), block[4], _points(value, line) if value else None))
            t.team_rounds[int(line[4:7])] = (_points(line[14:20], line), _points(line[21:27], line), blocks)
    _check(t, pairing_next_round)
    _check_teams(t)
    return t


def _check_teams(t: Tournament) -> None:
    """The team section against the player section (see the module docstring)."""
    if not t.team_records:
        return
    team_of = {}
    for no, (name, _mp, _gp, _rank, members) in t.team_records.items():
        for m in members:
            if m not in t.players:
                raise Trf2026Error(f"310 team {no} {name}: member {m} is not in the player section")
            team_of[m] = no
    for no, (mp, gp, blocks) in t.team_rounds.items():
        name, mp310, gp310, _rank, _members = t.team_records[no]
        if (mp, gp) != (mp310, gp310):
            raise Trf2026Error(f"team {no}: 802 says {mp}/{gp}, 310 says {mp310}/{gp310}")
        total = Decimal(0)
        for r, (other, colour, points) in enumerate(blocks, start=1):
            total += points or 0
            if other == "PAB":
                if t.pab is None or t.pab[2].get(r) != no or points != t.pab[1]:
                    raise Trf2026Error(f"team {no} round {r}: a PAB that 320 does not give")
                continue
            if not other.isdigit():
                continue
            mirror = t.team_rounds[int(other)][2][r - 1]
            if mirror[0] != str(no) or {mirror[1], colour} != {"w", "b"}:
                raise Trf2026Error(f"round {r}: teams {no} and {other} do not list the same match")
            if points is None:
                continue
            members = Decimal(0)
            for p, player in t.players.items():
                if team_of.get(p) == no and r <= len(player.rounds) and player.rounds[r - 1].opponent:
                    members += t.points_for(player.rounds[r - 1].result)
            members += sum((v for rr, p, v in t.abnormal if rr == r and team_of.get(p) == no), Decimal(0))
            if members != points:
                raise Trf2026Error(f"team {no} round {r}: 802 says {points}, its members scored {members}")
        if total != gp:
            raise Trf2026Error(f"team {no} {name}: its rounds give {total} game points, 310 says {gp}")


def _check(t: Tournament, pairing_next_round: bool) -> None:
    if not t.players:
        raise Trf2026Error("no 001 records")
    played = max(len(p.rounds) for p in t.players.values())
    if pairing_next_round and t.planned_rounds is None:
        raise Trf2026Error("142 (number of rounds) is mandatory for in-tournament data exchange")
    if t.planned_rounds is not None and played > t.planned_rounds:
        raise Trf2026Error(f"{played} rounds written but 142 says {t.planned_rounds}")
    for r in range(played):
        byes = [p.start_rank for p in t.players.values() if r < len(p.rounds) and p.rounds[r].result == "U"]
        if len(byes) > 1:
            raise Trf2026Error(f"round {r + 1}: more than one pairing-allocated bye: {byes}")
    for p in t.players.values():
        total = sum((v for _r, no, v in t.abnormal if no == p.start_rank), Decimal(0))
        for r, e in enumerate(p.rounds):
            total += t.points_for(e.result)
            if e.opponent is None:
                continue
            other = t.players.get(e.opponent)
            if other is None or r >= len(other.rounds):
                raise Trf2026Error(f"round {r + 1}: {p.start_rank}'s opponent {e.opponent} has no such round")
            mirror = other.rounds[r]
            if mirror.opponent != p.start_rank or {mirror.colour, e.colour} != {"w", "b"}:
                raise Trf2026Error(
                    f"round {r + 1}: {p.start_rank} and {e.opponent} do not list the same game"
                )
            if (e.result, mirror.result) not in AGREE:
                raise Trf2026Error(f"round {r + 1}: results {e.result!r} / {mirror.result!r} disagree")
        if total != p.points:
            raise Trf2026Error(f"player {p.start_rank}: points {p.points} but the results give {total}")
    for name, members in t.teams.items():
        missing = [m for m in members if m not in t.players]
        if missing:
            raise Trf2026Error(f"team {name}: members {missing} are not in the player section")
