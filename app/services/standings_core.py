"""The standings and the final ranking of a group computed from one reading of it, with no SQLAlchemy.

:mod:`app.services.standings` reads the group through the ORM (every service, the window, the hall);
:mod:`app.services.faststandings` reads it through :mod:`sqlite3` (the command line's ``standings``,
which then does not import SQLAlchemy). Both hand this module a :class:`GroupSource` — the group's
name, its regulation, its state, its bracket and the values kept for one reading — so the two cannot
rank a group differently (docs/rules.md §6, §9).
"""

from __future__ import annotations

import dataclasses
import itertools
import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from app.engine import standings as ranking
from app.engine.event import GroupState
from app.engine.formats import Entrants, StageKind, default_chain, source_stage
from app.engine.knockout import Bracket, match_result
from app.engine.knockout import final_places as final_places_of
from app.engine.regulations import Regulations, Tiebreak
from app.engine.stages import compose_final, entrants_of, played_stages, stage_players
from app.engine.text import count_en
from app.engine.types import GameResult, PlayerStatus, RoundRecord, UserError, ViolationKind
from app.services.stage_tables import (
    PoolTable,
    plan_of,
    pool_name,
    pool_order,
    round_robin_tables,
    rounds_known,
)


class GroupSource(Protocol):
    """One group as a reading of the file gives it."""

    @property
    def name(self) -> str: ...

    @property
    def key(self) -> int:
        """The group's id in the file (the kept values' keys)."""
        ...

    @property
    def reg(self) -> Regulations: ...

    def state(self) -> GroupState: ...

    def bracket(self) -> Bracket | None:
        """The knockout bracket, None before the split."""
        ...

    def memo(self) -> dict[object, Any] | None:
        """The values kept for this reading (None: nothing is kept)."""
        ...


def _swiss_input(
    state: GroupState,
) -> tuple[list[ranking.Entrant], tuple[RoundRecord, ...], list[ranking.Violation]]:
    rounds = state.scored_rounds  # the same scores pairing reads
    entrants = [ranking.Entrant(e.no, e.status, e.team) for e in state.entrants]
    violations = [ranking.Violation(v.no, v.round) for v in state.violations if v.kind in _COUNTING_KINDS]
    return entrants, rounds, violations


_COUNTING_KINDS = {k.value for k in ViolationKind if k.counts_in_tiebreak}


def complete_through(rounds: Iterable[RoundRecord]) -> int:
    """The last round ``n`` such that rounds 1 … n all have every (Swiss) result in; 0 for none.

    >>> from app.engine.types import Game, GameResult
    >>> done = RoundRecord(1, (Game(1, 1, 2, GameResult.DRAW),))
    >>> running = RoundRecord(2, (Game(1, 1, 2, GameResult.PENDING),))
    >>> complete_through([done, running]), complete_through([running])
    (1, 0)
    """
    if isinstance(rounds, tuple):
        asked, answer = _last_complete[0]  # one read: the pair another thread wrote, whole
        if asked is rounds:
            return answer  # the same (immutable) rounds asked again
    pending = {result for result in GameResult if result.is_pending}
    n = 0
    for r in sorted(rounds, key=lambda r: r.number):
        if r.number != n + 1 or not pending.isdisjoint(map(_result_of, r.games)):
            break
        n = r.number
    if isinstance(rounds, tuple):
        _last_complete[0] = (rounds, n)
    return n


_result_of = operator.attrgetter("result")
#: the rounds last asked about and their answer (the final standings ask seven times for the same
#: tuple of 27,000 games). It cannot give one file's, state's or thread's answer for another:
#: * it is found by identity (``is``), and it holds the tuple itself, so while it is kept no other
#:   object can take its identity (a freed tuple's id may be reused; a kept one's cannot);
#: * the tuple, its RoundRecords and their Games are frozen (tuples of frozen records all the way
#:   down), so the answer is a function of the object: a tuple built from another file, from the
#:   state after an undo, or after another process wrote the file is another object, asked afresh;
#:   the same object asked again has the same rounds and the same answer;
#: * the hall server's threads: the question and its answer are one pair, read in one step and
#:   replaced in one step, so a thread never reads one thread's question with another's answer.
#: (tests/services/test_standings_cache.py holds those premises.) It starts as the empty tuple's answer.
_last_complete: list[tuple[tuple[RoundRecord, ...], int]] = [((), 0)]


def _pending_in(state: GroupState, number: int) -> int:
    return sum(g.result.is_pending for r in state.rounds if r.number == number for g in r.games)


def standings_of(
    src: GroupSource, after_round: int | None, state: GroupState | None = None
) -> tuple[GroupState, ranking.Standings]:
    """The ranking after ``after_round``; ``None``: after the last round with every result in.

    Inside :meth:`Database.one_reading` each ranking is computed once (the final standings read the
    group's standings twice: as they are, and for the final order)."""
    reg = src.reg
    state = state if state is not None else src.state()
    if after_round is None:
        after_round = complete_through(state.rounds)
    memo = src.memo()
    key = ("standings", src.key, after_round)
    if memo is not None and key in memo:
        table: ranking.Standings = memo[key]
        return state, table
    cross_key = ("swiss_crosstable", src.key)  # every round's values: one for any after_round
    cross: ranking.Crosstable | None = memo.get(cross_key) if memo is not None else None
    if cross is None:
        entrants, rounds, violations = _swiss_input(state)
        left, split = _left_swiss(src, state)
        cross = ranking.group_crosstable(
            entrants,
            rounds,
            reg,
            violations,
            knockout_players=left,
            split_round=split,
            knockout_black=_knockout_black(src) if left else (),
        )
        if memo is not None:
            memo[cross_key] = cross
    table = ranking.rank(cross, reg, after_round)
    if memo is not None:
        memo[key] = table
    return state, table


def _left_swiss(src: GroupSource, state: GroupState) -> tuple[frozenset[int], int | None]:
    """The players who left the Swiss for another stage (a knockout or a round robin of the top) and the
    last Swiss round before they did: in their opponents' 对手分 their score stays as it was then."""
    bracket = src.bracket()  # the knockout's players left at its split
    players = set(bracket.seeds) if bracket is not None else set()
    split = bracket.split_round if bracket is not None else None
    plans = plan_of(state)
    for b in state.begun:
        if b.index == 0 or b.kind is StageKind.SWISS:
            continue
        players |= b.players
        first = plans[b.index].first_round - 1
        split = first if split is None else min(split, first)
    return frozenset(players), split


def _round_robin_stage_at(state: GroupState, after_round: int) -> int | None:
    """The begun round-robin stage whose standings the group shows after ``after_round``: the one playing
    that round (or, before its first round is complete, the next), else the last one played before."""
    plans = plan_of(state)
    candidates = []
    for b in state.begun:
        if b.kind is not StageKind.ROUND_ROBIN:
            continue
        p = plans[b.index]
        if p.first_round <= max(after_round, 1) <= p.last_round or p.first_round == after_round + 1:
            return b.index
        if p.last_round <= after_round:
            candidates.append((p.last_round, b.index))
    swiss_later = any(
        p.stage.kind is StageKind.SWISS and p.rounds and p.first_round <= after_round <= p.last_round
        for p in plans
        if state.begun_stage(p.index) is None or state.begun_stage(p.index).kind is StageKind.SWISS  # type: ignore[union-attr]
    )
    if candidates and not swiss_later:
        return max(candidates)[1]
    return None


def _knockout_black(src: GroupSource) -> tuple[ranking.BlackGame, ...]:
    """The knockout games played as Black over the board, where the regulation counts them (后走局数)."""
    if not src.reg.tiebreaks.knockout_games_count_as_black:
        return ()
    bracket = src.bracket()
    if bracket is None:
        return ()
    return tuple(
        ranking.BlackGame(m.round_number, g.black, g.result is GameResult.BLACK_WIN)
        for m in bracket.matches
        for g in m.games
        if g.result.played_over_board
    )


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    no: int
    name: str
    unit: str
    standing: ranking.Standing  # the engine's row: every tiebreak value and what separated it
    # in the final ranking: what separates this player from the next one in the final order
    final_separation: FinalSeparation | None = None
    pool: str = ""  # a pooled round robin: the pool (A组 …); the rank is the place in it

    # the engine row's values, read through (no copy: the final standings of 5,000 make many lines)
    @property
    def team(self) -> str | None:
        return self.standing.team

    @property
    def status(self) -> PlayerStatus:
        return self.standing.status

    @property
    def score(self) -> int:
        return self.standing.score

    @property
    def opponent_score(self) -> int:
        return self.standing.opponent_score

    @property
    def wins(self) -> int:
        return self.standing.wins

    @property
    def violations(self) -> int:
        return self.standing.violations

    @property
    def black_games(self) -> int:
        return self.standing.black_games

    @property
    def black_wins(self) -> int:
        return self.standing.black_wins

    @property
    def progressive(self) -> int | None:
        return self.standing.progressive

    @property
    def head_to_head(self) -> int | None:
        return self.standing.head_to_head

    @property
    def sonneborn_berger(self) -> int | float | None:
        return self.standing.sonneborn_berger

    @property
    def lot(self) -> int | None:
        return self.standing.lot

    def _separation(self) -> ranking.Separation | FinalSeparation | None:
        return self.final_separation if self.final_separation is not None else self.standing.separated_by

    @property
    def separated_by(self) -> str | None:
        """The code, e.g. ``wins``, ``round_6:opponent_score``, ``sequence_number``; None for the last row."""
        sep = self._separation()
        return None if sep is None else sep.code

    @property
    def separated_by_zh(self) -> str:
        sep = self._separation()
        return "" if sep is None else sep.zh

    @property
    def separated_by_en(self) -> str:
        sep = self._separation()
        return "" if sep is None else sep.en

    def as_json(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "no": self.no,
            "name": self.name,
            "team": self.standing.team,
            "score": self.standing.score,
            "tiebreaks": self.standing.tiebreak_values(),
            "separated_by": self.separated_by,
        }


@dataclass(frozen=True, slots=True)
class StandingsView:
    """A standing and what it is: after which round, whether that round is complete, the latest
    round paired (a later one is being played), or the final ranking."""

    group: str
    after_round: int
    chain: tuple[Tiebreak, ...]
    lines: tuple[StandingLine, ...]
    disqualified: tuple[tuple[int, str], ...]
    decided_by_sequence_number: bool
    final: bool = False
    latest_round: int = 0  # the group's latest paired round
    pending: int = 0  # boards of ``after_round`` still without a result (asked for explicitly)
    stage: str = ""  # the stage the standings are of, when the group has several (第2阶段 分4组单循环)
    round_robin: bool = False  # a round robin's standings (ranked by its own chain, pool by pool)
    latest_complete: bool = False  # every result of ``latest_round`` is in (an earlier round was asked for)

    @property
    def chain_zh(self) -> str:
        return "、".join(["积分", *(t.zh for t in self.chain), "序号"])

    @property
    def complete(self) -> bool:
        return self.pending == 0

    @property
    def title_zh(self) -> str:
        """``第 3 轮后名次``, ``最终名次``, ``赛前名单（按序号）``; an incomplete round says so."""
        if self.final:
            return "最终名次"
        if self.after_round == 0:
            return "赛前名单（按序号，尚无完整的轮次）"
        title = f"第 {self.after_round} 轮后名次"
        if self.pending:
            title += f"（第 {self.after_round} 轮尚有 {self.pending} 台未录入，暂列）"
        return title

    @property
    def title_en(self) -> str:
        if self.final:
            return "final ranking"
        if self.after_round == 0:
            return "before round 1 (by sequence number; no round complete yet)"
        title = f"standings after round {self.after_round}"
        if self.pending:
            title += f" (round {self.after_round} still has {count_en(self.pending, 'board')} without a result: provisional)"
        return title

    @property
    def note_zh(self) -> str:
        """Why a later round is not counted, when one is being played (empty otherwise)."""
        if self.final or self.latest_round <= self.after_round:
            return ""
        if self.latest_complete:
            return f"名次截至第 {self.after_round} 轮（按所选轮次；已赛至第 {self.latest_round} 轮）"
        return (
            f"第 {self.latest_round} 轮尚未全部结束，名次截至第 {self.after_round} 轮（成绩已齐的最后一轮）"
        )

    @property
    def note_en(self) -> str:
        if self.final or self.latest_round <= self.after_round:
            return ""
        if self.latest_complete:
            return f"standings after round {self.after_round}, as asked (round {self.latest_round} is played too)"
        return (
            f"round {self.latest_round} is not complete: the standings are after round "
            f"{self.after_round}, the last round with every result in"
        )


def group_view(src: GroupSource, after_round: int | None = None) -> StandingsView:
    """The standings of a group after a round (default: the last round with every result in): the Swiss
    standings, or a round robin's, pool by pool, when a round-robin stage is what the group plays."""
    reg, group = src.reg, src.name
    state = src.state()
    done = complete_through(state.rounds) if after_round is None else after_round
    rr = _round_robin_stage_at(state, done)
    if rr is not None:
        return _round_robin_view(state, reg, group, rr, done)
    state, table = standings_of(src, after_round, state)
    by_no = {e.no: e for e in state.entrants}
    lines = tuple(StandingLine(r.rank, r.no, by_no[r.no].name, by_no[r.no].unit, r) for r in table.rows)
    latest = max((r.number for r in state.rounds), default=0)
    return StandingsView(
        group=group,
        after_round=table.after_round,
        chain=reg.tiebreaks.chain,
        lines=lines,
        disqualified=tuple((no, by_no[no].name) for no in table.disqualified),
        decided_by_sequence_number=table.decided_by_sequence_number,
        latest_round=latest,
        pending=_pending_in(state, table.after_round),
        latest_complete=latest > 0 and _pending_in(state, latest) == 0,
    )


def _round_robin_view(
    state: GroupState, reg: Regulations, group: str, index: int, after_round: int
) -> StandingsView:
    tables = round_robin_tables(state, reg, index, after_round)
    by_no = {e.no: e for e in state.entrants}
    lines: list[StandingLine] = []
    disqualified: list[tuple[int, str]] = []
    by_sequence = False
    for t in tables:
        pool = pool_name(t.pool) if len(tables) > 1 else ""
        lines += [
            StandingLine(r.rank, r.no, by_no[r.no].name, by_no[r.no].unit, r, pool=pool)
            for r in t.standings.rows
        ]
        disqualified += [(no, by_no[no].name) for no in t.standings.disqualified]
        by_sequence = by_sequence or t.standings.decided_by_sequence_number
    stage = state.format.stages[index]
    played = (
        stage
        if stage.kind is StageKind.ROUND_ROBIN
        else dataclasses.replace(stage, kind=StageKind.ROUND_ROBIN)
    )
    return StandingsView(
        group=group,
        after_round=after_round,
        chain=default_chain(played, reg.tiebreaks.chain),
        lines=tuple(lines),
        disqualified=tuple(disqualified),
        decided_by_sequence_number=by_sequence,
        latest_round=max((r.number for r in state.rounds), default=0),
        pending=_pending_in(state, after_round),
        stage=f"第{index + 1}阶段 {played.title_zh}" if len(state.format.stages) > 1 else played.title_zh,
        round_robin=True,
    )


@dataclass(frozen=True, slots=True)
class FinalSeparation:
    """Why ``upper_no`` is above ``lower_no`` in the final ranking; ``zh``/``en`` fit a column."""

    upper_no: int
    lower_no: int
    code: str  # knockout_match:F, knockout_places, knockout_entry, or the chain's code
    zh: str
    en: str

    @property
    def zh_sentence(self) -> str:
        return f"{self.upper_no} 号排在 {self.lower_no} 号之前（最终名次）：{self.zh}"

    @property
    def en_sentence(self) -> str:
        return f"No. {self.upper_no} ranks above no. {self.lower_no} (final ranking): {self.en}"


@dataclass(frozen=True)
class _Final:
    places: dict[int, int]  # no → final place
    table: ranking.Standings  # the chain over every round (places after the knockout)
    knockout: dict[int, int]  # no → knockout place
    how: dict[int, tuple[str, str, str]]  # no → (zh, en, match code) of how the knockout place was won
    size: int
    pools: tuple[PoolTable, ...] = ()  # the round-robin tables, when the group played one

    @property
    def order(self) -> list[int]:
        return sorted(self.places, key=lambda no: self.places[no])

    def separation(self, upper: int, lower: int) -> FinalSeparation:
        pu, pl = self.places[upper], self.places[lower]
        if upper in self.knockout and lower in self.knockout:
            (u_zh, u_en, u_code), (l_zh, l_en, l_code) = self.how[upper], self.how[lower]
            if u_code and u_code == l_code:
                title_zh, title_en = u_zh.removesuffix("胜"), u_en.removeprefix("won the ")
                return FinalSeparation(
                    upper, lower, f"knockout_match:{u_code}", f"{title_zh}胜出", f"won the {title_en}"
                )
            return FinalSeparation(
                upper,
                lower,
                "knockout_places",
                f"淘汰赛第 {pu} 名（{u_zh}）先于第 {pl} 名（{l_zh}）",
                f"knockout place {pu} ({u_en}) before place {pl} ({l_en})",
            )
        if upper in self.knockout:
            return FinalSeparation(
                upper,
                lower,
                "knockout_entry",
                f"进入前 {self.size} 名淘汰赛（第 {pu} 名，{self.how[upper][0]}），列于未进入淘汰赛者之前",
                f"played the top-{self.size} knockout (place {pu}, {self.how[upper][1]}): "
                "ranked before every player outside it",
            )
        for t in self.pools:
            if (
                upper in t.numbers
                and lower in t.numbers
                and upper not in t.annulled
                and lower not in t.annulled
            ):
                sep = t.standings.why(upper, lower)
                return FinalSeparation(upper, lower, sep.code, sep.zh, sep.en)
        place = {no: (i, t.name) for t in self.pools for i, no in enumerate(t.standings.order, start=1)}
        if upper in place and lower in place:
            (iu, nu), (il, nl) = place[upper], place[lower]
            if iu != il:
                return FinalSeparation(
                    upper,
                    lower,
                    "pool_place",
                    f"小组名次：{nu}第 {iu} 名先于{nl}第 {il} 名",
                    f"place in the pools: {iu} in {nu[0]} before {il} in {nl[0]}",
                )
            return FinalSeparation(
                upper,
                lower,
                "pool_score",
                f"同为小组第 {iu} 名，按得分率",
                f"both placed {iu} in their pools: by the share of points",
            )
        sep = self.table.why(upper, lower)
        return FinalSeparation(upper, lower, sep.code, sep.zh, sep.en)


def _knockout_how(bracket: Bracket, split_round: int) -> dict[int, tuple[str, str, str]]:
    """How each knockout player got their place: the deciding match won or lost, or the standing."""
    how: dict[int, tuple[str, str, str]] = {}
    for plan, m in zip(bracket.plans, bracket.matches, strict=True):
        res = match_result(m, bracket.ladder_of(m.code))
        if res is None:
            continue
        if plan.winner_place is not None and res.winner is not None:
            how[res.winner] = (f"{plan.title_zh}胜", f"won the {plan.title_en}", plan.code)
        if plan.loser_place is not None and res.loser is not None:
            how[res.loser] = (f"{plan.title_zh}负", f"lost the {plan.title_en}", plan.code)
    before = f"按第 {split_round} 轮后名次" if split_round else "按种子顺序"
    before_en = f"by the standing after round {split_round}" if split_round else "by seed"
    for no in bracket.seeds:
        how.setdefault(no, (before, before_en, ""))
    return how


def unranked_players(state: GroupState, reg: Regulations) -> set[int]:
    """Players who take no place: 计成绩不计名次 (they play and score), and — where the regulation says so
    — players withdrawn for forfeiting the set number of rounds in a row."""
    out = {e.no for e in state.entrants if not e.ranked}
    if reg.discipline.forfeits_withdrawn_unranked and reg.discipline.consecutive_forfeits_withdraw:
        from app.engine.discipline import consecutive_forfeits

        reentered = {e.no: e.reentry_round for e in state.entrants if e.reentry_round is not None}
        withdrawn = {e.no for e in state.entrants if e.status is PlayerStatus.WITHDRAWN}
        out |= {
            f.no for f in consecutive_forfeits(state.rounds, reg.discipline, reentered) if f.no in withdrawn
        }
    return out


def stage_order(src: GroupSource, state: GroupState, index: int) -> list[int]:
    """A stage's own ranking of its entrants, best first: the Swiss chain (over every Swiss round up to
    the stage's last), a round robin's tables (pool places, then the share of points), or the knockout's
    places (its seeds while it is not over)."""
    stages = played_stages(state)
    stage = stages[index]
    plan = plan_of(state)[index]
    reg = src.reg
    players = stage_players_of(src, state, index)
    if stage.kind is StageKind.ROUND_ROBIN:
        tables = round_robin_tables(state, reg, index)
        return [no for no in pool_order(tables, reg.points.win) if no in players]
    if stage.kind is StageKind.KNOCKOUT:
        bracket = src.bracket()
        if bracket is None:
            return sorted(players)
        if bracket.is_complete:
            places = final_places_of(bracket)
            return sorted(places, key=places.__getitem__)
        return list(bracket.seeds)
    done = complete_through(state.rounds)
    after = min(done, plan.last_round) if plan.rounds is not None else done
    _state, table = standings_of(src, after)
    return [no for no in table.order if no in players]


def stage_players_of(src: GroupSource, state: GroupState, index: int) -> frozenset[int]:
    """A stage's players (a knockout created before stages were recorded has them in its bracket)."""
    taken: dict[int, frozenset[int]] = {}
    bracket = src.bracket()
    for j, st in enumerate(state.format.stages):
        if st.kind is StageKind.KNOCKOUT and bracket is not None and state.begun_stage(j) is None:
            taken[j] = frozenset(bracket.seeds)
    if index in taken:
        return taken[index]
    return stage_players(state, index, taken)


def stage_entry_order(src: GroupSource, state: GroupState, index: int) -> list[int]:
    """The entrants of stage ``index`` before its own seeding: the players of the group who may play (by
    sequence number) for the first stage; else the top, the rest or the pools' top of the stage before,
    skipping withdrawn, disqualified and unranked players (the next one moves up)."""
    reg = src.reg
    stage = state.format.stages[index]
    eligible = {e.no for e in state.entrants if e.status is PlayerStatus.ACTIVE and e.ranked}
    if stage.entrants is Entrants.ALL:
        return [e.no for e in state.entrants if e.may_be_paired]
    source = source_stage(state.format.stages, index)
    if stage.entrants is Entrants.POOL_TOP:
        tables = round_robin_tables(state, reg, source)
        pools = [[no for no in t.standings.order if no in eligible] for t in tables]
        return list(entrants_of(stage, (), pools))
    ranking = stage_order(src, state, source)
    order = [no for no in ranking if no in eligible]
    if stage.entrants is Entrants.REST:
        if stage.count:  # the rest below place ``count`` go on; the places above them are final
            below = set(ranking[stage.count :])
            taken = {
                no
                for j, st in enumerate(state.format.stages)
                if j != index
                and st.entrants is Entrants.TOP
                and source_stage(state.format.stages, j) == source
                for no in stage_players_of(src, state, j)
            }
            return [no for no in order if no in below and no not in taken]
        return [no for no in order if no in stage_players(state, index)]
    return list(entrants_of(stage, order))


def final_of(src: GroupSource) -> _Final:
    """The final ranking with what separates any two players in it; refused before the end.

    Inside :meth:`Database.one_reading` it is made once per group (the results book asks for it
    through the prizes, the final standings and the prize list)."""
    memo = src.memo()
    key = ("final", src.key)
    if memo is not None and key in memo:
        found: _Final = memo[key]
        return found
    final = _final_of(src)
    if memo is not None:
        memo[key] = final
    return final


def _final_of(src: GroupSource) -> _Final:
    reg, name = src.reg, src.name
    # whether the group is over is known from its state and bracket: a group not over is refused before
    # its standings are ranked (what is ranked below is the same either way)
    state = src.state()
    plans = plan_of(state)
    total = rounds_known(state)
    point_last = max(
        (p.last_round for p in plans if p.stage.kind is not StageKind.KNOCKOUT and p.rounds is not None),
        default=0,
    )
    done = complete_through(state.rounds)
    unknown = any(p.rounds is None for p in plans if p.stage.kind is not StageKind.KNOCKOUT)
    if unknown or done < point_last or not state.rounds:
        shown = total if total is not None else "?"
        raise UserError(
            f"{name}共 {shown} 轮，成绩已齐的只到第 {done} 轮：最终名次在最后一轮结束后产生",
            f"{name} has {shown} rounds and only {done} are complete: "
            "the final ranking comes after the last round",
        )
    stages = state.format.stages
    bracket = src.bracket()
    knockout = final_places_of(bracket) if bracket is not None and bracket.is_complete else None
    has_knockout = any(st.kind is StageKind.KNOCKOUT for st in stages)
    if has_knockout and (knockout is None or bracket is None):
        raise UserError(
            f"{name}的淘汰赛尚未结束，还不能排出最终名次", f"the knockout of {name} is not finished yet"
        )
    state, table = standings_of(src, None, state)
    removed = set(table.disqualified) | unranked_players(state, reg)
    rankings = {i: stage_order(src, state, i) for i in range(len(stages))}
    entrants = {i: stage_players_of(src, state, i) for i in range(1, len(stages))}
    order = compose_final(played_stages(state), rankings, entrants, removed)
    places = {no: place for place, no in enumerate(order, start=1)}
    pools = tuple(
        t
        for b in state.begun
        if b.kind is StageKind.ROUND_ROBIN
        for t in round_robin_tables(state, reg, b.index)
    )
    if bracket is None or knockout is None:
        return _Final(places, table, {}, {}, 0, pools)
    kept_places = {no: p for no, p in knockout.items() if no not in removed}
    kept_order = sorted(kept_places, key=kept_places.__getitem__)
    kept_places = {no: i for i, no in enumerate(kept_order, start=1)}
    return _Final(
        places, table, kept_places, _knockout_how(bracket, bracket.split_round), bracket.size, pools
    )


def final_view(src: GroupSource) -> StandingsView:
    """The final ranking as standings lines: places 1–n, tiebreak values over every Swiss round (a round
    robin's player: over its table), and what separates each player from the next one **in the final
    order** (places 1–8 by the knockout)."""
    view = group_view(src)
    final = final_of(src)
    state, table = standings_of(src, None)
    by_no = {e.no: e for e in state.entrants}
    lines_of = {r.no: StandingLine(r.rank, r.no, by_no[r.no].name, by_no[r.no].unit, r) for r in table.rows}
    for t in final.pools:
        pool = pool_name(t.pool) if len([p for p in final.pools if p.stage == t.stage]) > 1 else ""
        for r in t.standings.rows:
            lines_of[r.no] = StandingLine(r.rank, r.no, by_no[r.no].name, by_no[r.no].unit, r, pool=pool)
    order = final.order
    below = dict(itertools.pairwise(order))
    lines = tuple(
        StandingLine(
            final.places[no],
            line.no,
            line.name,
            line.unit,
            line.standing,
            final.separation(no, below[no]) if no in below else None,
            line.pool,
        )
        for no in order
        for line in (lines_of[no],)
    )
    return dataclasses.replace(view, lines=lines, final=True)
