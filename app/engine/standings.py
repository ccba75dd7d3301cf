"""Individual ranking of a group (docs/rules.md §6): 积分, then the tiebreak chain; no two players share a place.

The chain of the regulation (所有名次均不并列): 积分, 对手分, 胜局, 犯规 (fewer first), 后走局数, 后走胜局;
if still tied, the same chain computed on the results up to the previous round, then the one before, back
to round 1 (比较前一轮成绩，直至区分); finally the sequence number (序号), lower first. The content and order
of the chain come from :class:`~app.engine.regulations.TiebreakRules` (累进分 may be added).

A :class:`Crosstable` holds every player's cumulative record after each round, computed once; ranking
it after any round is cheap, and values of earlier rounds (for the previous-round comparison) are only
computed for players still tied. :func:`standings` is the one-call entry point for services.

>>> from datetime import date
>>> from app.engine.regulations import Regulations
>>> from app.engine.types import Game, GameResult
>>> reg = Regulations("demo", date(2024, 7, 26), date(2024, 7, 28))
>>> players = [Entrant(1), Entrant(2), Entrant(3)]
>>> r1 = RoundRecord(1, (Game(1, 1, 2, GameResult.DRAW),), byes=(3,))
>>> table = standings(players, [r1], reg)
>>> [(s.rank, s.no, s.score) for s in table.rows]
[(1, 3, 2), (2, 2, 1), (3, 1, 1)]
>>> table.rows[1].separated_by.code  # drawn game: same 对手分, 胜局, 犯规; 2 played Black
'black_games'
>>> table.why(3, 1).code
'score'
"""

from __future__ import annotations

import bisect
import dataclasses
import enum
import itertools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.engine.regulations import Points, Regulations, Tiebreak, TiebreakRules
from app.engine.types import Colour, GameResult, PlayerStatus, RoundRecord, UserError

__all__ = [
    "BlackGame",
    "Criterion",
    "Crosstable",
    "Entrant",
    "Separation",
    "Standing",
    "Standings",
    "Violation",
    "group_crosstable",
    "rank",
    "rank_group",
    "standings",
]


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of the group as the ranking sees them."""

    no: int  # 序号
    status: PlayerStatus = PlayerStatus.ACTIVE
    team: str | None = None


@dataclass(frozen=True, slots=True)
class BlackGame:
    """A knockout game that ``no`` played as Black over the board in ``round`` (``won``: a 后走胜局).

    Knockout games give no Swiss points; they count in 后走局数 / 后走胜局 only when the regulation
    says so (``TiebreakRules.knockout_games_count_as_black``). A drawn deciding game that counts as a
    win for Black (和棋黑胜) decides the match, but as a game it is a draw: not a 后走胜局.
    """

    round: int
    no: int
    won: bool


@dataclass(frozen=True, slots=True)
class Violation:
    """One 犯规 of a player, charged in ``round`` (0 = counts after every round)."""

    no: int
    round: int = 0


class Criterion(enum.Enum):
    """What separated two players: 积分, one link of the chain, or the sequence number."""

    SCORE = "score"
    OPPONENT_SCORE = "opponent_score"
    WINS = "wins"
    VIOLATIONS = "violations"
    BLACK_GAMES = "black_games"
    BLACK_WINS = "black_wins"
    PROGRESSIVE = "progressive"
    HEAD_TO_HEAD = "head_to_head"  # 直胜: points among the players still tied (a mini-table)
    SONNEBORN_BERGER = "sonneborn_berger"  # 小分
    LOT = "lot"  # 抽签
    DROP_FIRST_ROUNDS = "drop_first_rounds"  # the score without the first round(s)
    SEQUENCE_NUMBER = "sequence_number"

    @property
    def zh(self) -> str:
        return _CRITERION_ZH[self]

    @property
    def en(self) -> str:
        return self.value.replace("_", " ")

    @property
    def fewer_first(self) -> bool:
        """True for 犯规 and 序号, where the smaller value ranks higher."""
        return self in (Criterion.VIOLATIONS, Criterion.SEQUENCE_NUMBER, Criterion.LOT)

    @classmethod
    def of(cls, tiebreak: Tiebreak) -> Criterion:
        if tiebreak is Tiebreak.DROP_FIRST_ROUNDS:
            return Criterion.DROP_FIRST_ROUNDS
        if tiebreak is Tiebreak.PREVIOUS_ROUNDS:
            raise ValueError("previous rounds is a comparison of earlier rounds, not a criterion")
        return cls(tiebreak.value)


_CRITERION_ZH = {
    Criterion.SCORE: "积分",
    Criterion.OPPONENT_SCORE: "对手分",
    Criterion.WINS: "胜局",
    Criterion.VIOLATIONS: "犯规",
    Criterion.BLACK_GAMES: "后走局数",
    Criterion.BLACK_WINS: "后走胜局",
    Criterion.PROGRESSIVE: "累进分",
    Criterion.HEAD_TO_HEAD: "直胜",
    Criterion.SONNEBORN_BERGER: "小分",
    Criterion.LOT: "抽签",
    Criterion.DROP_FIRST_ROUNDS: "去除前轮得分",
    Criterion.SEQUENCE_NUMBER: "序号",
}


@dataclass(frozen=True, slots=True)
class Separation:
    """Why ``upper_no`` ranks above ``lower_no``: the first criterion where they differ, with both values.

    ``after_round`` is the round whose cumulative results were compared; ``previous_round`` is True
    when the standings' own round left them tied and an earlier round decided (比较前一轮成绩).
    """

    upper_no: int
    lower_no: int
    criterion: Criterion
    after_round: int
    upper_value: int
    lower_value: int
    previous_round: bool = False
    dropped: int = 0  # DROP_FIRST_ROUNDS: the first ``dropped`` rounds were left out

    @property
    def code(self) -> str:
        """A short machine form: ``wins``, ``round_6:opponent_score``, ``sequence_number``."""
        if self.previous_round:
            return f"round_{self.after_round}:{self.criterion.value}"
        if self.dropped:
            return f"{self.criterion.value}:{self.dropped}"
        return self.criterion.value

    @property
    def zh(self) -> str:
        op = "<" if self.criterion.fewer_first else ">"
        text = f"{self.criterion.zh} {self.upper_value} {op} {self.lower_value}"
        if self.dropped:
            return f"去除前 {self.dropped} 轮得分后积分 {self.upper_value} {op} {self.lower_value}"
        if self.previous_round:
            return f"前轮比较：第{self.after_round}轮后{text}"
        return text

    @property
    def en(self) -> str:
        op = "<" if self.criterion.fewer_first else ">"
        text = f"{self.criterion.en} {self.upper_value} {op} {self.lower_value}"
        if self.dropped:
            return (
                f"score without the first {self.dropped} round(s) {self.upper_value} {op} {self.lower_value}"
            )
        if self.previous_round:
            return f"previous rounds: after round {self.after_round}, {text}"
        return text


@dataclass(frozen=True, slots=True)
class Standing:
    """One row of the standings, values as of ``Standings.after_round``."""

    rank: int
    no: int
    team: str | None
    status: PlayerStatus
    score: int
    opponent_score: int  # 对手分
    wins: int  # 胜局
    violations: int  # 犯规
    black_games: int  # 后走局数
    black_wins: int  # 后走胜局
    progressive: int | None  # 累进分, only when in the chain
    separated_by: Separation | None  # from the next player down; None for the last row
    head_to_head: int | None = None  # 直胜: points against the players tied with him (when in the chain)
    sonneborn_berger: int | float | None = None  # 小分, in points (x.5 possible), when in the chain
    lot: int | None = None  # 抽签, when in the chain

    def tiebreak_values(self) -> dict[str, int | float]:
        """Every tiebreak value by its JSON name (累进分 only when it is in the chain)."""
        values: dict[str, int | float] = {
            "opponent_score": self.opponent_score,
            "wins": self.wins,
            "violations": self.violations,
            "black_games": self.black_games,
            "black_wins": self.black_wins,
        }
        if self.progressive is not None:
            values["progressive"] = self.progressive
        for name in ("head_to_head", "sonneborn_berger", "lot"):
            value = getattr(self, name)
            if value is not None:
                values[name] = value
        return values

    def as_dict(self) -> dict[str, Any]:
        """The JSON row of ``xqarbiter standings --json`` (without the name, which the engine does not know)."""
        tiebreaks = self.tiebreak_values()
        return {
            "rank": self.rank,
            "no": self.no,
            "team": self.team,
            "score": self.score,
            "tiebreaks": tiebreaks,
            "separated_by": None if self.separated_by is None else self.separated_by.code,
        }


class Crosstable:
    """Each player's cumulative record after every round of a group, computed once.

    ``rounds`` are the Swiss rounds (any order). Pending games count as pairings (对手分) but give
    no points. ``violations`` are :class:`Violation` records, or a mapping no → count that counts
    after every round.

    Knockout players (docs/rules.md §6.2): with ``split_round`` and ``knockout_players``, the score that
    counts in their opponents' 对手分 after a later round is their score after ``split_round``.
    ``knockout_black`` adds knockout games played as Black to 后走局数 / 后走胜局 (the caller passes
    them only when the regulation counts them; games of rounds not recorded are ignored).
    ``lots`` is the tiebreak lot (抽签: no → 1, 2 …) of a stage that drew one.
    """

    def __init__(
        self,
        players: Iterable[Entrant],
        rounds: Iterable[RoundRecord],
        points: Points,
        violations: Iterable[Violation] | Mapping[int, int] = (),
        *,
        knockout_players: Collection[int] = (),
        split_round: int | None = None,
        knockout_black: Iterable[BlackGame] = (),
        lots: Mapping[int, int] | None = None,
    ) -> None:
        entrants = sorted(players, key=lambda p: p.no)
        self.entrants: tuple[Entrant, ...] = tuple(entrants)
        self._index: dict[int, int] = {}
        for i, p in enumerate(entrants):
            if p.no in self._index:
                raise UserError(f"序号 {p.no} 重复", f"sequence number {p.no} appears twice")
            self._index[p.no] = i
        n = len(entrants)
        records = sorted(rounds, key=lambda r: r.number)
        self.round_numbers: tuple[int, ...] = tuple(r.number for r in records)
        if len(set(self.round_numbers)) != len(records):
            raise UserError("轮次重复", "a round appears twice")
        if records and records[0].number < 1:
            raise UserError("轮次必须从 1 开始编号", "rounds are numbered from 1")

        self._score: list[list[int]] = []
        self._wins: list[list[int]] = []
        self._black_games: list[list[int]] = []
        self._black_wins: list[list[int]] = []
        self._progressive: list[list[int]] = []
        self._byes: list[list[int]] = []
        # each player's games in round order: the layer, the opponent's index, the points scored
        opponent_layers: list[list[int]] = [[] for _ in range(n)]
        opponent_indices: list[list[int]] = [[] for _ in range(n)]
        self._game_points: list[list[int]] = [[] for _ in range(n)]
        game_points = self._game_points
        self.win_points = points.win
        score, wins, bg, bw, prog, byes = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
        # Per result: red points, black points, red wins, black wins, played over the board.
        effects = {
            result: (
                *points.for_result(result),
                int(result.winner() is Colour.RED),
                int(result.winner() is Colour.BLACK),
                int(result.played_over_board),
            )
            for result in GameResult
        }
        index = self._index
        black_by_round: dict[int, list[BlackGame]] = {}
        for bg_fact in knockout_black:
            black_by_round.setdefault(bg_fact.round, []).append(bg_fact)
        for k, record in enumerate(records):
            score, wins, bg, bw, byes = score[:], wins[:], bg[:], bw[:], byes[:]
            seen: set[int] = set()
            for game in record.games:
                red, black = game.red, game.black
                if red == black:
                    raise UserError(
                        f"第{record.number}轮第{game.board}台：红黑双方是同一名棋手",
                        f"round {record.number} board {game.board}: a player cannot play themselves",
                    )
                r, b = index.get(red), index.get(black)
                if r is None or b is None or r in seen or b in seen:
                    for no in (red, black):
                        self._seat(no, record.number, seen)  # raises the precise error
                assert r is not None and b is not None
                seen.add(r)
                seen.add(b)
                opponent_layers[r].append(k)
                opponent_layers[b].append(k)
                opponent_indices[r].append(b)
                opponent_indices[b].append(r)
                red_points, black_points, red_won, black_won, over_board = effects[game.result]
                game_points[r].append(red_points)
                game_points[b].append(black_points)
                score[r] += red_points
                score[b] += black_points
                wins[r] += red_won  # forfeit wins included; over-the-board wins: see _over_board_wins
                wins[b] += black_won
                if over_board:
                    bg[b] += 1
                    bw[b] += black_won
            for no in record.byes:
                i = self._seat(no, record.number, seen)
                score[i] += points.bye
                wins[i] += 1  # a bye counts as a win unless the setting says over-the-board wins only
                byes[i] += 1
            for absence in record.absent:  # points only: no opponent, no win, no colour
                i = self._seat(absence.no, record.number, seen)
                score[i] += absence.points
            for fact in black_by_round.get(record.number, ()):
                i = self._player(fact.no)
                bg[i] += 1
                bw[i] += int(fact.won)
            prog = [p + s for p, s in zip(prog, score, strict=True)]
            for store, values in (
                (self._score, score),
                (self._wins, wins),
                (self._black_games, bg),
                (self._black_wins, bw),
                (self._progressive, prog),
                (self._byes, byes),
            ):
                store.append(values)
        self._wins_over_board: list[list[int]] | None = None
        self._records = tuple(records)
        self._opponent_layers = opponent_layers
        self._opponent_indices = opponent_indices

        self._violations: list[list[int]] = [[] for _ in range(n)]  # sorted rounds, 0 = always
        if isinstance(violations, Mapping):
            for no, count in violations.items():
                if count < 0:
                    raise UserError(f"序号 {no} 的犯规次数为负", f"negative violation count for {no}")
                self._violations[self._player(no)].extend([0] * count)
        else:
            for v in violations:
                self._violations[self._player(v.no)].append(v.round)
        for rounds_list in self._violations:
            rounds_list.sort()

        unknown = [no for no in knockout_players if no not in self._index]
        if unknown:
            raise UserError(
                f"淘汰赛棋手序号 {unknown[0]} 不在本组", f"knockout player {unknown[0]} is not in the group"
            )
        self._knockout = frozenset(self._index[no] for no in knockout_players)
        self._split_layer = (
            -1 if split_round is None else bisect.bisect_right(self.round_numbers, split_round) - 1
        )
        self._has_split = split_round is not None and bool(self._knockout)
        self._bye_value: dict[int, int] = {}
        self._seen_scores: dict[int, list[int]] = {}
        lot_of = lots or {}
        self._lot = [lot_of.get(p.no, 0) for p in self.entrants]

    # ----------------------------------------------------------------- building helpers

    def _player(self, no: int) -> int:
        try:
            return self._index[no]
        except KeyError:
            raise UserError(
                f"序号 {no} 不是本组棋手", f"sequence number {no} is not a player of the group"
            ) from None

    def _seat(self, no: int, round_number: int, seen: set[int]) -> int:
        i = self._player(no)
        if i in seen:
            raise UserError(
                f"第{round_number}轮中序号 {no} 出现了不止一次",
                f"round {round_number}: player {no} appears more than once",
            )
        seen.add(i)
        return i

    # ----------------------------------------------------------------- values per layer

    def layer(self, after_round: int | None) -> int:
        """Index of the round ``after_round`` among the recorded rounds (-1 = before round 1)."""
        if after_round is None:
            return len(self.round_numbers) - 1
        if after_round == 0:
            return -1
        k = bisect.bisect_left(self.round_numbers, after_round)
        if k == len(self.round_numbers) or self.round_numbers[k] != after_round:
            raise UserError(f"第{after_round}轮尚未编排", f"round {after_round} has not been paired")
        return k

    def cutoff(self, layer: int) -> int:
        return 0 if layer < 0 else self.round_numbers[layer]

    def score(self, no: int, after_round: int | None = None) -> int:
        k = self.layer(after_round)
        return 0 if k < 0 else self._score[k][self._player(no)]

    def _score_for_opponents(self, k: int) -> list[int]:
        """Every player's score as it counts for his opponents after layer ``k`` (对手分, 小分): a
        knockout player's score stays as it was after the split round (docs/rules.md §6.2)."""
        if not (self._has_split and k > self._split_layer):
            return self._score[k]
        seen = self._seen_scores.get(k)
        if seen is None:
            frozen = self._score[self._split_layer] if self._split_layer >= 0 else None
            seen = [
                (0 if frozen is None else frozen[j]) if j in self._knockout else s
                for j, s in enumerate(self._score[k])
            ]
            self._seen_scores[k] = seen
        return seen

    def bye_value(self, k: int) -> int:
        """对手分 of a bye after layer k: the lowest score among (not disqualified) players with points."""
        value = self._bye_value.get(k)
        if value is None:
            scores = self._score[k]
            positive = [
                s
                for s, p in zip(scores, self.entrants, strict=True)
                if s > 0 and p.status is not PlayerStatus.DISQUALIFIED
            ]
            value = min(positive, default=0)
            self._bye_value[k] = value
        return value

    def value(self, i: int, k: int, criterion: Criterion, forfeits_win: bool = True) -> int:
        """The value of ``criterion`` for player index ``i`` after layer ``k``."""
        if k < 0:
            return self.entrants[i].no if criterion is Criterion.SEQUENCE_NUMBER else 0
        match criterion:
            case Criterion.SCORE:
                return self._score[k][i]
            case Criterion.OPPONENT_SCORE:
                total = self._byes[k][i] * self.bye_value(k) if self._byes[k][i] else 0
                layers, opponents = self._opponent_layers[i], self._opponent_indices[i]
                count = bisect.bisect_right(layers, k)  # opponents are stored in round order
                return total + sum(map(self._score_for_opponents(k).__getitem__, opponents[:count]))
            case Criterion.WINS:
                return self._wins[k][i] if forfeits_win else self._over_board_wins(k, i)
            case Criterion.VIOLATIONS:
                return bisect.bisect_right(self._violations[i], self.round_numbers[k])
            case Criterion.BLACK_GAMES:
                return self._black_games[k][i]
            case Criterion.BLACK_WINS:
                return self._black_wins[k][i]
            case Criterion.PROGRESSIVE:
                return self._progressive[k][i]
            case Criterion.SONNEBORN_BERGER:
                layers, opponents = self._opponent_layers[i], self._opponent_indices[i]
                count = bisect.bisect_right(layers, k)
                won = self._game_points[i]
                seen = self._score_for_opponents(k)
                return sum(won[g] * seen[opponents[g]] for g in range(count))
            case Criterion.LOT:
                return self._lot[i]
            case Criterion.SEQUENCE_NUMBER:
                return self.entrants[i].no
            case Criterion.HEAD_TO_HEAD | Criterion.DROP_FIRST_ROUNDS:
                raise ValueError(f"{criterion.value} depends on more than the player")
        raise AssertionError(criterion)  # pragma: no cover

    def values(
        self, indices: Sequence[int], k: int, criterion: Criterion, forfeits_win: bool = True
    ) -> list[int]:
        """``[self.value(i, k, criterion, forfeits_win) for i in indices]``, each criterion's loop
        written once for all of them (a ranking of 5,000 players asks for tens of thousands)."""
        if k >= 0:
            if criterion is Criterion.OPPONENT_SCORE:
                seen = self._score_for_opponents(k).__getitem__
                byes = self._byes[k]
                all_layers, all_opponents = self._opponent_layers, self._opponent_indices
                right = bisect.bisect_right
                out = []
                for i in indices:
                    layers = all_layers[i]
                    count = len(layers) if not layers or layers[-1] <= k else right(layers, k)
                    total = sum(map(seen, all_opponents[i][:count]))
                    out.append(total + byes[i] * self.bye_value(k) if byes[i] else total)
                return out
            if criterion is Criterion.VIOLATIONS:
                cutoff, violations = self.round_numbers[k], self._violations
                return [bisect.bisect_right(violations[i], cutoff) for i in indices]
            column = self._column(k, criterion, forfeits_win)
            if column is not None:
                return [column[i] for i in indices]
        return [self.value(i, k, criterion, forfeits_win) for i in indices]

    def _column(self, k: int, criterion: Criterion, forfeits_win: bool) -> list[int] | None:
        """The kept list of a value every player has after layer ``k`` (None: it is computed)."""
        if criterion is Criterion.SCORE:
            return self._score[k]
        if criterion is Criterion.WINS:
            return self._wins[k] if forfeits_win else None
        if criterion is Criterion.BLACK_GAMES:
            return self._black_games[k]
        if criterion is Criterion.BLACK_WINS:
            return self._black_wins[k]
        if criterion is Criterion.PROGRESSIVE:
            return self._progressive[k]
        return None

    def getter(self, k: int, criterion: Criterion, forfeits_win: bool = True) -> Callable[[int], int]:
        """``lambda i: self.value(i, k, criterion, forfeits_win)``, reading a kept list directly where
        the value is one (a ranking's rows read six values of every player)."""
        if k >= 0:
            column = {
                Criterion.SCORE: self._score,
                Criterion.WINS: self._wins if forfeits_win else None,
                Criterion.BLACK_GAMES: self._black_games,
                Criterion.BLACK_WINS: self._black_wins,
                Criterion.PROGRESSIVE: self._progressive,
            }.get(criterion)
            if column is not None:
                return column[k].__getitem__
        return lambda i: self.value(i, k, criterion, forfeits_win)

    def head_to_head(self, i: int, k: int, among: Collection[int]) -> int:
        """直胜: the points player index ``i`` scored through layer ``k`` against the player indices
        ``among`` (the players still tied with him): one game for two players, a mini-table for more."""
        layers, opponents = self._opponent_layers[i], self._opponent_indices[i]
        count = bisect.bisect_right(layers, k)
        won = self._game_points[i]
        return sum(won[g] for g in range(count) if opponents[g] in among)

    def score_without_first(self, i: int, k: int, dropped: int) -> int:
        """The score through layer ``k`` without the first ``dropped`` layers (去除前轮得分)."""
        return self._score[k][i] - (self._score[dropped - 1][i] if dropped else 0)

    def _over_board_wins(self, k: int, i: int) -> int:
        if self._wins_over_board is None:
            table: list[list[int]] = []
            wins = [0] * len(self.entrants)
            for record in self._records:
                wins = wins[:]
                for game in record.games:
                    winner = game.result.winner()
                    if winner is not None and game.result.played_over_board:
                        wins[self._index[game.red if winner is Colour.RED else game.black]] += 1
                table.append(wins)
            self._wins_over_board = table
        return self._wins_over_board[k][i]


# --------------------------------------------------------------------------- ranking


@dataclass(frozen=True, slots=True)
class Standings:
    """The ranking of a group after a round: rows in rank order, disqualified players apart."""

    after_round: int
    rows: tuple[Standing, ...]
    disqualified: tuple[int, ...]  # sequence numbers, not ranked (取消成绩)
    decided_by_sequence_number: bool  # some adjacent pair was separated only by 序号 (footnote)
    _ranker: _Ranker = field(repr=False, compare=False)
    _index: dict[int, int] = field(default_factory=dict, repr=False, compare=False)  # 序号 → row, built once

    def row(self, no: int) -> Standing:
        if not self._index:
            self._index.update((s.no, k) for k, s in enumerate(self.rows))
        k = self._index.get(no)
        if k is None:
            raise UserError(f"序号 {no} 不在名次表中", f"player {no} is not in the standings")
        return self.rows[k]

    @property
    def order(self) -> tuple[int, ...]:
        """Sequence numbers in rank order."""
        return tuple(s.no for s in self.rows)

    def why(self, a: int, b: int) -> Separation:
        """Why the higher of players ``a`` and ``b`` ranks above the other (any two, not only adjacent).

        The answer names the higher player as ``upper_no``; check it equals ``a`` to ask "is A above B".
        """
        if a == b:
            raise UserError("请选择两名不同的棋手", "choose two different players")
        ra, rb = self.row(a), self.row(b)
        upper, lower = (ra, rb) if ra.rank < rb.rank else (rb, ra)
        return self._ranker.separation(upper.no, lower.no)


class _Ranker:
    """Sort keys of a crosstable under a tiebreak chain, layer by layer, memoised.

    A level is (layer, criterion position, dropped): the criterion's value after that layer; for the
    DROP_FIRST_ROUNDS link the score after the layer without its first ``dropped`` layers. 直胜
    (HEAD_TO_HEAD) is the one value that depends on the others still tied: it is computed for each tied
    group as it is split, never memoised.
    """

    def __init__(self, table: Crosstable, rules: TiebreakRules, top: int) -> None:
        self.table = table
        self.top = top
        self.criteria: tuple[Criterion, ...] = (
            Criterion.SCORE,
            *(Criterion.of(t) for t in rules.chain if not t.expands),
        )
        self.signs = tuple(1 if c.fewer_first else -1 for c in self.criteria)
        self.previous_rounds = Tiebreak.PREVIOUS_ROUNDS in rules.chain
        self.forfeits_win = rules.byes_and_forfeits_count_as_wins
        # The comparison levels in order: every criterion after the standings' round, then (with the
        # previous-round link) every criterion after each earlier round, or (with the dropped-rounds
        # link) the score without the first round, the first two …; the sequence number last.
        layers = range(top, -1, -1) if self.previous_rounds else range(top, top - 1, -1)
        levels = [(k, c, 0) for k in layers if k >= 0 for c in range(len(self.criteria))]
        if Tiebreak.DROP_FIRST_ROUNDS in rules.chain and top >= 1:
            self.criteria = (*self.criteria, Criterion.DROP_FIRST_ROUNDS)
            self.signs = (*self.signs, -1)
            drop = len(self.criteria) - 1
            levels += [(top, drop, d) for d in range(1, top + 1)]
        self.levels: tuple[tuple[int, int, int], ...] = tuple(levels)
        self._memo: dict[tuple[int, int, int], dict[int, int]] = {}
        self.split_group: dict[tuple[int, int], frozenset[int]] = {}  # tied group split by 直胜
        self.head_to_head_value: dict[int, int] = {}  # 直胜 of each player in his tied group (top layer)

    def _raw(self, i: int, level: tuple[int, int, int]) -> int:
        k, c, d = level
        criterion = self.criteria[c]
        if criterion is Criterion.DROP_FIRST_ROUNDS:
            return self.table.score_without_first(i, k, d)
        return self.table.value(i, k, criterion, self.forfeits_win)

    def value(self, i: int, level: tuple[int, int, int], among: frozenset[int] | None = None) -> int:
        """Unsigned value of player index ``i`` at a level, memoised (直胜: among ``among``)."""
        k, c, _ = level
        if self.criteria[c] is Criterion.HEAD_TO_HEAD:
            return self.table.head_to_head(i, k, among if among is not None else frozenset({i}))
        memo = self._memo.get(level)
        if memo is None:
            memo = self._memo[level] = {}
        got = memo.get(i)
        if got is None:
            got = memo[i] = self._raw(i, level)
        return got

    def _known(self, level: tuple[int, int, int], players: list[int]) -> dict[int, int]:
        """The level's memo, holding the value of every one of ``players`` (computed together)."""
        memo = self._memo.get(level)
        if memo is None:
            memo = self._memo[level] = {}
        missing = [i for i in players if i not in memo]
        if missing:
            k, c, d = level
            criterion = self.criteria[c]
            if criterion is Criterion.DROP_FIRST_ROUNDS:
                found = [self.table.score_without_first(i, k, d) for i in missing]
            else:
                found = self.table.values(missing, k, criterion, self.forfeits_win)
            memo.update(zip(missing, found, strict=True))
        return memo

    def order(self, players: list[int]) -> list[int]:
        """Rank ``players``; afterwards ``split_depth`` says at which level each adjacent pair split."""
        entrants = self.table.entrants
        self.split_depth: dict[tuple[int, int], int] = {}
        return self._refine(sorted(players, key=lambda i: entrants[i].no), 0)

    def _refine(self, players: list[int], depth: int) -> list[int]:
        """Order ``players`` (tied on every level before ``depth``, given by sequence number)."""
        if len(players) < 2 or depth == len(self.levels):
            return players  # the sequence number decides
        level = self.levels[depth]
        k, c, _ = level
        sign, criterion = self.signs[c], self.criteria[c]
        if criterion is Criterion.HEAD_TO_HEAD:
            among = frozenset(players)
            value: dict[int, int] = {}
            for i in players:
                h2h = value[i] = self.table.head_to_head(i, k, among)
                if k == self.top:
                    self.head_to_head_value[i] = h2h
        else:
            value = self._known(level, players)
        # a stable sort: players equal at this level keep their order (by sequence number)
        ordered = sorted(players, key=value.__getitem__, reverse=sign < 0)
        out: list[int] = []
        split_depth = self.split_depth
        for _, tied in itertools.groupby(ordered, key=value.__getitem__):
            same = list(tied)
            if out:
                split_depth[(out[-1], same[0])] = depth
                if criterion is Criterion.HEAD_TO_HEAD:
                    self.split_group[(out[-1], same[0])] = frozenset(players)
            if len(same) == 1:
                out.append(same[0])
            else:
                out.extend(self._refine(same, depth + 1))
        return out

    def separation(self, upper_no: int, lower_no: int) -> Separation:
        table = self.table
        return self.separation_of(table._player(upper_no), table._player(lower_no), upper_no, lower_no)

    def separation_of(self, i: int, j: int, upper_no: int, lower_no: int) -> Separation:
        """:meth:`separation` of player indices ``i`` above ``j`` (sequence numbers ``upper_no``,
        ``lower_no``)."""
        table = self.table
        depth = self.split_depth.get((i, j))  # adjacent pairs: known from the ranking itself
        levels = self.levels if depth is None else (self.levels[depth],)
        for level in levels:
            memo = self._memo.get(level)
            if memo is not None and i in memo and j in memo:  # the ranking compared them there
                a, b = memo[i], memo[j]
            else:
                among = self.split_group.get((i, j), frozenset({i, j}))
                a, b = self.value(i, level, among), self.value(j, level, among)
            if a != b:
                k, c, d = level
                return Separation(
                    upper_no,
                    lower_no,
                    self.criteria[c],
                    table.cutoff(k),
                    a,
                    b,
                    previous_round=k != self.top,
                    dropped=d,
                )
        return Separation(
            upper_no, lower_no, Criterion.SEQUENCE_NUMBER, table.cutoff(self.top), upper_no, lower_no
        )


def rank_group(table: Crosstable, rules: TiebreakRules, after_round: int | None = None) -> Standings:
    """Rank every player of ``table`` who is not disqualified, after ``after_round`` (default: the last).

    The order of any subset of the rows is the order those players have among themselves, so the
    places 9… of a group with a knockout are the rows of the non-knockout players, in order.
    """
    top = table.layer(after_round)
    ranker = _Ranker(table, rules, top)
    ranked = [i for i, p in enumerate(table.entrants) if p.status is not PlayerStatus.DISQUALIFIED]
    disqualified = tuple(p.no for p in table.entrants if p.status is PlayerStatus.DISQUALIFIED)
    order = ranker.order(ranked)
    has_progressive = Criterion.PROGRESSIVE in ranker.criteria
    has_h2h = Criterion.HEAD_TO_HEAD in ranker.criteria
    has_sb = Criterion.SONNEBORN_BERGER in ranker.criteria
    has_lot = Criterion.LOT in ranker.criteria
    rows: list[Standing] = []
    by_sequence = False
    forfeits_win = ranker.forfeits_win

    def column(c: Criterion, wanted: bool = True) -> list[Any]:
        """The value of ``c`` of every player, in rank order (None where the chain has no use for it)."""
        return table.values(order, top, c, forfeits_win) if wanted else [None] * len(order)

    entrants = table.entrants
    for rank, (
        i,
        score,
        opponent_score,
        wins,
        violations,
        black_games,
        black_wins,
        progressive,
        sb,
        lot,
    ) in enumerate(
        zip(
            order,
            column(Criterion.SCORE),
            column(Criterion.OPPONENT_SCORE),
            column(Criterion.WINS),
            column(Criterion.VIOLATIONS),
            column(Criterion.BLACK_GAMES),
            column(Criterion.BLACK_WINS),
            column(Criterion.PROGRESSIVE, has_progressive),
            column(Criterion.SONNEBORN_BERGER, has_sb),
            column(Criterion.LOT, has_lot),
            strict=True,
        ),
        start=1,
    ):
        separation = None
        p = entrants[i]
        if rank < len(order):
            j = order[rank]
            separation = ranker.separation_of(i, j, p.no, entrants[j].no)
            by_sequence = by_sequence or separation.criterion is Criterion.SEQUENCE_NUMBER
        rows.append(
            Standing(
                rank=rank,
                no=p.no,
                team=p.team,
                status=p.status,
                score=score,
                opponent_score=opponent_score,
                wins=wins,
                violations=violations,
                black_games=black_games,
                black_wins=black_wins,
                progressive=progressive,
                separated_by=separation,
                head_to_head=ranker.head_to_head_value.get(i) if has_h2h else None,
                sonneborn_berger=_in_points(sb, table.win_points) if has_sb else None,
                lot=lot,
            )
        )
    return Standings(table.cutoff(top), tuple(rows), disqualified, by_sequence, ranker)


def _in_points(numerator: int, win: int) -> int | float:
    """小分 in points: the sum of (points scored × opponent's score), divided by a win's points."""
    if win <= 0 or numerator % win == 0:
        return numerator // win if win > 0 else numerator
    return numerator / win


def standings(
    players: Iterable[Entrant],
    rounds: Iterable[RoundRecord],
    regulations: Regulations,
    violations: Iterable[Violation] | Mapping[int, int] = (),
    *,
    after_round: int | None = None,
    knockout_players: Collection[int] = (),
    split_round: int | None = None,
    knockout_black: Iterable[BlackGame] = (),
    chain: tuple[Tiebreak, ...] | None = None,
    lots: Mapping[int, int] | None = None,
) -> Standings:
    """The standings of a group after ``after_round`` (default: the last recorded round).

    ``after_round=0`` gives the list before round 1 (by sequence number). Disqualified players are
    left out of the ranking and listed in ``Standings.disqualified``. ``knockout_black`` (the knockout
    games played as Black) counts only where ``regulations.tiebreaks.knockout_games_count_as_black``.
    ``chain`` replaces the regulation's chain (a stage's own, e.g. a round robin's); ``lots`` is the
    stage's tiebreak lot.
    """
    table = group_crosstable(
        players,
        rounds,
        regulations,
        violations,
        knockout_players=knockout_players,
        split_round=split_round,
        knockout_black=knockout_black,
        lots=lots,
    )
    return rank(table, regulations, after_round, chain)


def group_crosstable(
    players: Iterable[Entrant],
    rounds: Iterable[RoundRecord],
    regulations: Regulations,
    violations: Iterable[Violation] | Mapping[int, int] = (),
    *,
    knockout_players: Collection[int] = (),
    split_round: int | None = None,
    knockout_black: Iterable[BlackGame] = (),
    lots: Mapping[int, int] | None = None,
) -> Crosstable:
    """The crosstable :func:`standings` ranks (one for every round: rank it after any of them with
    :func:`rank`)."""
    return Crosstable(
        players,
        rounds,
        regulations.points,
        violations,
        knockout_players=knockout_players,
        split_round=split_round,
        knockout_black=knockout_black if regulations.tiebreaks.knockout_games_count_as_black else (),
        lots=lots,
    )


def rank(
    table: Crosstable,
    regulations: Regulations,
    after_round: int | None = None,
    chain: tuple[Tiebreak, ...] | None = None,
) -> Standings:
    """:func:`standings` from a crosstable already made (:func:`group_crosstable`)."""
    rules = (
        regulations.tiebreaks if chain is None else dataclasses.replace(regulations.tiebreaks, chain=chain)
    )
    return rank_group(table, rules, after_round)
