"""Build the pairing pool from the rounds already played (the bridge services and tools use).

>>> from app.engine.types import Game, GameResult, RoundRecord
>>> r1 = RoundRecord(1, (Game(1, red=1, black=3, result=GameResult.RED_WIN),), byes=(2,))
>>> [(p.no, p.score, p.byes, p.float_history) for p in pool_from_history([Entrant(1), Entrant(2), Entrant(3)], [r1])]
[(1, 2, 0, (<Float.NONE: 'none'>,)), (2, 2, 1, (<Float.DOWN: 'down'>,)), (3, 0, 0, (<Float.NONE: 'none'>,))]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.engine.pairing.model import Float, PairingPlayer
from app.engine.records import frozen
from app.engine.regulations import Points
from app.engine.types import Colour, RoundRecord

_DEFAULT_POINTS = Points()


@frozen
class Entrant:
    """A player of the group as pairing needs them before any game: number, team, rating."""

    no: int
    team: str | None = None
    rating: int | None = None


def pool_from_history(
    entrants: Iterable[Entrant],
    rounds: Sequence[RoundRecord],
    points: Points = _DEFAULT_POINTS,
    rank_keys: dict[int, tuple[int, ...]] | None = None,
    scored: Sequence[RoundRecord] | None = None,
) -> list[PairingPlayer]:
    """Every entrant with score, colours, opponents, byes and floats after ``rounds``.

    A pending game counts as paired (H1) but gives no points and no colour. A player missing
    from a round gets ``Float.NONE`` for it. The bye scores ``points.bye`` and is a down-float. An
    absence (excused, late entry) adds its points and nothing else.
    ``scored``: the same rounds as they count for points (games annulled by a disqualification become
    forfeits, :attr:`app.engine.event.GroupState.scored_rounds`); colours and opponents stay as played.
    """
    scoring = rounds if scored is None else scored
    if len(scoring) != len(rounds) or any(
        len(a.games) != len(b.games) or a.number != b.number for a, b in zip(rounds, scoring, strict=True)
    ):
        raise ValueError("scored rounds must be the same rounds and games as the rounds played")
    people = list(entrants)
    score = {e.no: 0 for e in people}
    colours: dict[int, list[Colour]] = {e.no: [] for e in people}
    opponents: dict[int, set[int]] = {e.no: set() for e in people}
    byes = {e.no: 0 for e in people}
    floats: dict[int, list[Float]] = {e.no: [] for e in people}
    for rnd, scored_rnd in zip(rounds, scoring, strict=True):
        before = dict(score)
        seen: set[int] = set()
        for g, counted in zip(rnd.games, scored_rnd.games, strict=True):
            opponents.setdefault(g.red, set()).add(g.black)
            opponents.setdefault(g.black, set()).add(g.red)
            if g.result.played_over_board:
                colours.setdefault(g.red, []).append(Colour.RED)
                colours.setdefault(g.black, []).append(Colour.BLACK)
            red_pts, black_pts = points.for_result(counted.result)
            score[g.red] = score.get(g.red, 0) + red_pts
            score[g.black] = score.get(g.black, 0) + black_pts
            for me, other in ((g.red, g.black), (g.black, g.red)):
                mine, theirs = before.get(me, 0), before.get(other, 0)
                f = Float.DOWN if mine > theirs else Float.UP if mine < theirs else Float.NONE
                floats.setdefault(me, []).append(f)
                seen.add(me)
        for b in rnd.byes:
            score[b] = score.get(b, 0) + points.bye
            byes[b] = byes.get(b, 0) + 1
            floats.setdefault(b, []).append(Float.DOWN)
            seen.add(b)
        for absence in rnd.absent:  # excused (0) or a late entry's compensation: points, nothing else
            score[absence.no] = score.get(absence.no, 0) + absence.points
        for e in people:
            if e.no not in seen:
                floats[e.no].append(Float.NONE)
    keys = rank_keys or {}
    return [
        PairingPlayer(
            no=e.no,
            score=score[e.no],
            colours=tuple(colours[e.no]),
            opponents=frozenset(opponents[e.no]),
            byes=byes[e.no],
            float_history=tuple(floats[e.no]),
            team=e.team,
            rating=e.rating,
            rank_key=keys.get(e.no, ()),
        )
        for e in people
    ]
