"""A group's state as the rules see it: its entrants, its rounds, its violations.

``app/db/mapping.py`` builds a :class:`GroupState` from the tournament file; every rule module
(pairing, standings, knockout, record duty) reads what it needs from it. Players are known by
their sequence number (序号) within the group.
"""

from __future__ import annotations

from app.engine.discipline import annul_games
from app.engine.formats import StageKind
from app.engine.records import frozen
from app.engine.regulations import GroupFormat
from app.engine.types import GameResult, PlayerStatus, RoundRecord, RoundStage


@frozen
class Entrant:
    """A registered player of the group, as pairing and ranking need them."""

    no: int
    name: str
    team: str | None
    unit: str = ""
    rating: int | None = None
    status: PlayerStatus = PlayerStatus.ACTIVE
    status_round: int | None = None  # first round no longer paired in (withdrawn / disqualified)
    fee_paid: bool = True
    checked_in: bool = True
    annul_games: bool = False  # disqualified with games annulled
    region: str = ""  # 地区
    late_entry_round: int | None = None  # a late entry's first round (后报名)
    reentry_round: int | None = None  # re-entered after a withdrawal: paired again from this round
    ranked: bool = True  # False: 计成绩不计名次 (plays and scores, takes no place and no prize)

    @property
    def may_be_paired(self) -> bool:
        """Fee paid, present, and neither withdrawn nor disqualified (docs/rules.md §2, §5 pool)."""
        return self.status is PlayerStatus.ACTIVE and self.fee_paid and self.checked_in


@frozen
class StageEntrant:
    """A player in a begun stage: pool (0-based), number in it (table number or seed), tiebreak lot."""

    no: int
    pool: int = 0
    number: int = 0
    lot: int = 0


@frozen
class BegunStage:
    """A stage of the group that has begun: its entrants are fixed. ``kind`` is the kind as played (a
    Swiss with few enough entrants is played as a round robin)."""

    index: int
    kind: StageKind
    seed: int | None
    entrants: tuple[StageEntrant, ...]

    @property
    def players(self) -> frozenset[int]:
        return frozenset(e.no for e in self.entrants)

    def pools(self) -> tuple[tuple[StageEntrant, ...], ...]:
        """The entrants pool by pool (0, 1 …), each in number order."""
        count = max((e.pool for e in self.entrants), default=-1) + 1
        return tuple(
            tuple(sorted((e for e in self.entrants if e.pool == p), key=lambda e: e.number))
            for p in range(count)
        )

    def entrant(self, no: int) -> StageEntrant:
        for e in self.entrants:
            if e.no == no:
                return e
        raise KeyError(no)


@frozen
class ViolationFact:
    """One violation (犯规) counted in the tiebreak: player, round, kind."""

    no: int
    round: int
    kind: str


@frozen
class KnockoutGameFact:
    board: int
    game_no: int
    kind: str  # slow / rapid / deciding
    red: int
    black: int
    result: GameResult


@frozen
class GroupState:
    """Everything the rules need to know about one group, read in one go."""

    name: str
    format: GroupFormat
    entrants: tuple[Entrant, ...]
    rounds: tuple[RoundRecord, ...]  # every round in order, with its Swiss games and byes only
    stages: tuple[RoundStage, ...]  # the stage of each round above (knockout: after the split)
    closed: tuple[bool, ...]  # whether each round above is closed
    violations: tuple[ViolationFact, ...] = ()
    excused: tuple[tuple[int, int], ...] = ()  # (no, round) of every excused absence (请假), paired or not
    begun: tuple[BegunStage, ...] = ()  # the stages that have begun, by index

    def begun_stage(self, index: int) -> BegunStage | None:
        return next((b for b in self.begun if b.index == index), None)

    def excused_in(self, round_number: int) -> frozenset[int]:
        """The players excused from ``round_number`` (left out of its pairing)."""
        return frozenset(no for no, r in self.excused if r == round_number)

    @property
    def scored_rounds(self) -> tuple[RoundRecord, ...]:
        """The rounds as they count for points: the games of a player disqualified with his games
        annulled (取消成绩，已赛对局作废) become forfeits by him. Standings, the scores pairing reads, the
        pairing lists and the crosstable all read these, so that they never disagree."""
        rounds = self.rounds
        for e in self.entrants:
            if e.status is PlayerStatus.DISQUALIFIED and e.annul_games:
                rounds = annul_games(rounds, e.no)
        return rounds

    @property
    def last_round(self) -> int:
        return self.rounds[-1].number if self.rounds else 0

    def entrant(self, no: int) -> Entrant:
        for e in self.entrants:
            if e.no == no:
                return e
        raise KeyError(no)

    def pending_boards(self, round_number: int) -> tuple[int, ...]:
        for r in self.rounds:
            if r.number == round_number:
                return tuple(g.board for g in r.games if g.result is GameResult.PENDING)
        return ()
