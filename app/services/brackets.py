"""The stored knockout bracket: reading a group's bracket rows into the engine's ``Bracket`` and writing
it back whole, and what the rest of the services ask of it (who left the Swiss pool at the split, the
places once the knockout is over).

Kept apart from :mod:`app.services.knockout` (the arbiter's knockout actions) so that the ranking
(:mod:`app.services.standings`, which owns every standing, including the one the seeds come from) and
the knockout can both read the bracket without importing each other: the knockout asks the standings
for the seeds; the standings ask this module, never the knockout service.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from app.db.bracket_rows import (
    MATCH_COLUMNS,
    MATCH_GAME_COLUMNS,
    begun_from_rows,
    bracket_from_rows,
    split_round_from_rows,
)
from app.db.bracket_rows import bracket_options as bracket_options
from app.db.bracket_rows import knockout_stage as knockout_stage
from app.db.models import GameRow, Group, GroupStage, KnockoutMatch, Player, Round, StageEntry
from app.db.session import kept
from app.engine.knockout import (
    Bracket,
    ColourState,
    final_places,
    match_result,
    next_game,
)
from app.engine.regulations import Regulations
from app.engine.types import GameResult, RoundStage
from app.services.tournaments import find_round, player_numbers

# The reads of every knockout action, built once (the values bound per call; the same SQL as built per call).
_MATCH_ROWS = (
    select(KnockoutMatch).where(KnockoutMatch.group_id == bindparam("group_id")).order_by(KnockoutMatch.id)
)
_STAGES = select(GroupStage.id, GroupStage.stage, GroupStage.kind).where(
    GroupStage.group_id == bindparam("group_id")
)
_STAGE_ENTRIES = select(StageEntry.stage_id, StageEntry.player_id, StageEntry.number).where(
    StageEntry.stage_id.in_(bindparam("stage_ids", expanding=True))
)
_MATCHES = (
    select(*(getattr(KnockoutMatch, c) for c in MATCH_COLUMNS))
    .where(KnockoutMatch.group_id == bindparam("group_id"))
    .order_by(KnockoutMatch.id)
)
_MATCH_GAMES = (
    select(*(getattr(GameRow, c) for c in MATCH_GAME_COLUMNS))
    .join(Round, GameRow.round_id == Round.id)
    .where(Round.group_id == bindparam("group_id"), GameRow.match_id.is_not(None))
    .order_by(GameRow.game_no)
)


def _ids(s: Session, group: Group) -> tuple[dict[int, int], dict[int, int]]:
    no_of = player_numbers(s, group)
    return no_of, {no: pid for pid, no in no_of.items()}


def rows_of(s: Session, group: Group) -> list[KnockoutMatch]:
    return list(s.scalars(_MATCH_ROWS, {"group_id": group.id}))


def load_bracket(s: Session, group: Group, reg: Regulations) -> Bracket | None:
    """The group's bracket as the engine sees it, or None before the split (read once inside
    :meth:`Database.one_reading`)."""
    memo = kept(s)
    if memo is None:
        return _read_bracket(s, group, reg)
    key = ("bracket", group.id)
    if key not in memo:
        memo[key] = _read_bracket(s, group, reg)
    bracket: Bracket | None = memo[key]
    return bracket


def _begun_rows(s: Session, group: Group) -> dict[int, tuple[str, list[tuple[int, int]]]]:
    """The begun stages of a group, read directly: stage → (kind, [(player id, number)])."""
    rows = s.execute(_STAGES, {"group_id": group.id}).all()
    ids = [r[0] for r in rows]
    entries = s.execute(_STAGE_ENTRIES, {"stage_ids": ids}).all() if ids else []
    return begun_from_rows(rows, entries)


def split_round_of(s: Session, group: Group, reg: Regulations) -> int:
    """The last round before the knockout stage begins (0 for a knockout from round 1)."""
    if knockout_stage(reg, group.name) is None:
        return 0
    size = s.scalar(select(func.count(Player.id)).where(Player.group_id == group.id, Player.no.is_not(None)))
    return split_round_from_rows(group.name, reg, _begun_rows(s, group), size or 0)


def _read_bracket(s: Session, group: Group, reg: Regulations) -> Bracket | None:
    """The rows, as :func:`app.db.lite.read_bracket` reads them, to :func:`bracket_from_rows`."""
    matches = s.execute(_MATCHES, {"group_id": group.id}).all()
    if not matches:
        return None
    no_of, _ = _ids(s, group)
    games = s.execute(_MATCH_GAMES, {"group_id": group.id}).all()
    return bracket_from_rows(group.name, reg, matches, no_of, _begun_rows(s, group), games)


def _round(s: Session, group: Group, number: int) -> Round:
    rnd = find_round(s, group, number)
    if rnd is None:
        rnd = Round(
            group_id=group.id,
            number=number,
            stage=RoundStage.KNOCKOUT.value,
            paired_at=datetime.now().replace(microsecond=0),
        )
        s.add(rnd)
        s.flush()
    return rnd


def _with_due_games(bracket: Bracket) -> Bracket:
    """Pair the next game of every match whose colours are known (a pending game)."""
    for m in bracket.matches:
        due = next_game(m, bracket.ladder_of(m.code))
        if due is None or due.colours is not ColourState.SET:
            continue
        if m.games and m.games[-1].result.is_pending:
            continue
        bracket = bracket.enter_result(m.code, due.number, GameResult.PENDING)
    return bracket


def save_bracket(s: Session, group: Group, bracket: Bracket) -> None:
    """Write the whole bracket back: match rows and their games (created, updated or removed).

    The games of every match and the rounds are read once, not once per match; the session is flushed
    where those reads used to flush it (before a match's games are compared, before its round is
    looked up), so that the rows are written in the same order and get the same ids."""
    bracket = _with_due_games(bracket)
    _, id_of = _ids(s, group)
    rows = {r.code: r for r in rows_of(s, group)}
    games_of: dict[int, list[GameRow]] = {}
    if rows:
        for gm in s.scalars(
            select(GameRow).where(GameRow.match_id.in_([r.id for r in rows.values()])).order_by(GameRow.id)
        ):
            assert gm.match_id is not None
            games_of.setdefault(gm.match_id, []).append(gm)
    rounds: dict[int, Round] = {}
    for plan, m in zip(bracket.plans, bracket.matches, strict=True):
        row = rows.get(m.code)
        fresh = row is None
        if row is None:
            row = KnockoutMatch(group_id=group.id, code=m.code, round_number=m.round_number)
            s.add(row)
            s.flush()
        choices = m.colour_choices(bracket.ladder_of(m.code))
        result = match_result(m, bracket.ladder_of(m.code))
        _assign(
            row,
            fresh,
            high_id=id_of[m.high] if m.high is not None else None,
            low_id=id_of[m.low] if m.low is not None else None,
            colour_method=m.colour_method.value if m.colour_method else "",
            colour_seed=m.colour_seed,
            first_red_id=id_of[m.first_red] if m.first_red is not None else None,
            colour_choices={str(k): id_of[red] for k, red in sorted(choices.items())} or None,
            deciding_red_id=None,
            winner_id=id_of[result.winner] if result and result.winner is not None else None,
        )
        s.flush()
        existing = {g.game_no: g for g in games_of.get(row.id, ())}
        wanted = {g.number: g for g in m.games}
        for number, g in existing.items():
            if number not in wanted:
                s.delete(g)
        if not wanted:
            continue
        if m.round_number in rounds:
            s.flush()
        else:
            rounds[m.round_number] = _round(s, group, m.round_number)
        rnd = rounds[m.round_number]
        for number, kg in wanted.items():
            game = existing.get(number)
            new_game = game is None
            if game is None:
                game = GameRow(round_id=rnd.id, board=plan.board, game_no=number, match_id=row.id)
                s.add(game)
            _assign(
                game,
                new_game,
                kind=kg.kind.value,
                red_id=id_of[kg.red],
                black_id=id_of[kg.black],
                result=kg.result.value,
            )
    s.flush()


def _assign(row: KnockoutMatch | GameRow, fresh: bool, **values: object) -> None:
    """Set the columns of a row read from the file whose values differ (a new row: every column, as
    given). A column set to the value it has is written by no UPDATE anyway, but it marks the row
    changed, and every flush of the save (one per match) then works through every such row of the
    bracket to find nothing to write. A new row gets every value set, as before: a JSON column set to
    None is stored as JSON ``null``, which a column left unset (SQL NULL) is not."""
    for name, value in values.items():
        if fresh or getattr(row, name) != value:
            setattr(row, name, value)


@dataclass(frozen=True, slots=True)
class KnockoutPlayers:
    """Who left the Swiss pool at the split, and from which round."""

    split_round: int
    players: frozenset[int]


def knockout_players(s: Session, group: Group, reg: Regulations) -> KnockoutPlayers | None:
    bracket = load_bracket(s, group, reg)
    if bracket is None:
        return None
    return KnockoutPlayers(bracket.split_round, frozenset(bracket.seeds))


def knockout_places(s: Session, group: Group, reg: Regulations) -> dict[int, int] | None:
    """Places 1…size once the knockout is finished, else None."""
    bracket = load_bracket(s, group, reg)
    if bracket is None or not bracket.is_complete:
        return None
    return final_places(bracket)
