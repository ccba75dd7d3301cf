"""Feasibility: whether a set of players has a legal perfect pairing, and who gets the bye.

**Bye.** With an odd pool the bye goes to the first candidate, in the order (lowest score first,
then lowest-ranked first), among players without a bye, whose removal leaves a pool with a legal
perfect pairing. The bye is decided before S1–S4.

**Completability** (cheapest proof first): the previous witness pairing restricted to the rest,
or a greedy pairing in order; its leftovers re-paired on every legal edge inside windows around
them (:func:`_repair`, up to :attr:`Tuning.repair_limit` players); a sparse matching; finally every
legal edge — the only source of a negative answer, so a split or a step is never made wrongly.
"""

from __future__ import annotations

from collections.abc import Sequence

import rustworkx as rx

from app.engine.pairing.edges import dense_edges, sparse_edges
from app.engine.pairing.model import ByeExplanation, NoLegalPairing, PairingPlayer
from app.engine.pairing.pool import OrderedPool


def numbers(nos: Sequence[int]) -> str:
    """Sequence numbers as Chinese text: 3号、5号."""
    return "、".join(f"{n}号" for n in nos)


def choose_bye(full: OrderedPool) -> tuple[PairingPlayer | None, ByeExplanation | None]:
    """The bye player of the whole pool when it is odd (None when even), or :class:`NoLegalPairing`."""
    ordered = full.players
    if len(ordered) % 2 == 0:
        mate, unmatched = completable(full, list(range(full.n)))
        if mate is None:
            raise no_pairing(full, unmatched)
        return None, None
    candidates = [i for i in reversed(range(full.n)) if ordered[i].byes == 0]
    if not candidates:
        raise NoLegalPairing(
            "人数为奇数，但所有棋手都已轮空过（每人最多轮空一次）",
            "odd pool but every player has already had a bye (H4: at most one bye)",
            tuple(sorted(p.no for p in ordered)),
        )
    skipped: list[int] = []
    for c in candidates:
        rest = [i for i in range(full.n) if i != c]
        if completable(full, rest)[0] is not None:
            p = ordered[c]
            lowest = ordered[-1].score
            if p.score == lowest:
                zh = f"{p.no}号轮空：积分最低组中未轮空过的排名最低者，按胜局计分"
                en = f"{p.no} gets the bye: the lowest-ranked player without a bye in the lowest score group; it scores a win"
            else:  # the lowest group(s) had all had their byes (or could not give one): the bye moved up
                below = sorted({q.score for q in ordered if q.score < p.score})
                groups = "、".join(f"{s}分" for s in below)
                groups_en = ", ".join(f"{s}" for s in below)
                zh = (
                    f"{p.no}号轮空：{groups}组的棋手都已轮空过或不能轮空，轮空上移到{p.score}分组，"
                    f"由该组中未轮空过的排名最低者轮空，按胜局计分"
                )
                en = (
                    f"{p.no} gets the bye: every player on {groups_en} points has had a bye or could not take it, "
                    f"so the bye moved up to the {p.score}-point group, to its lowest-ranked player without a bye; "
                    "it scores a win"
                )
            if skipped:
                zh += f"（{numbers(skipped)}轮空后其余棋手无法合法配对，故顺延）"
                en += f" (with {skipped} out, the others could not be paired legally)"
            return p, ByeExplanation(player=p.no, score=p.score, skipped=tuple(skipped), zh=zh, en=en)
        skipped.append(ordered[c].no)
    _, unmatched = completable(full, list(range(full.n)))
    players = tuple(sorted({full.no[i] for i in unmatched} | set(skipped)))
    avoid_zh, avoid_en = (
        ("、绝对回避", ", an absolute avoidance") if full.constraints is not None else ("", "")
    )
    raise NoLegalPairing(
        f"无论谁轮空，其余棋手都无法在不重复交手、同队回避{avoid_zh}和先后手限制下配对，涉及：{numbers(players)}",
        "whoever gets the bye, the others cannot be paired without a rematch, teammates meeting"
        f"{avoid_en} or breaking the colour rule; players concerned: {list(players)}",
        players,
    )


def no_pairing(pool: OrderedPool, unmatched: list[int]) -> NoLegalPairing:
    nos = sorted(pool.no[i] for i in unmatched)
    lonely = [pool.no[i] for i in unmatched if not any(pool.legal(i, j) for j in range(pool.n) if j != i)]
    detail_zh = f"（{numbers(lonely)}已无任何合法对手）" if lonely else ""
    detail_en = f" ({lonely} have no legal opponent at all)" if lonely else ""
    if pool.constraints is not None:
        return NoLegalPairing(
            f"无法在不重复交手、同队回避、绝对回避和先后手限制下完成本轮编排，无法配对的棋手：{numbers(nos)}{detail_zh}；"
            "请裁判长手工编排",
            "no pairing satisfies H1–H4 and the absolute avoidances (no rematch, team avoidance, colours); "
            f"players left unpaired: {nos}{detail_en}; pair by hand",
            tuple(nos),
        )
    return NoLegalPairing(
        f"无法在不重复交手、同队回避和先后手限制下完成本轮编排，无法配对的棋手：{numbers(nos)}{detail_zh}；请裁判长手工编排",
        "no pairing satisfies H1–H4 (no rematch, team avoidance, colours); "
        f"players left unpaired: {nos}{detail_en}; pair by hand",
        tuple(nos),
    )


# --------------------------------------------------------------------------- completability


def completable(
    pool: OrderedPool, members: list[int], start: dict[int, int] | None = None
) -> tuple[dict[int, int] | None, list[int]]:
    """A legal perfect pairing of ``members`` (ascending) as a partner map, or None and who is left over.

    Positive answers come from the cheapest witness found: ``start`` restricted to ``members`` (or
    a greedy pairing in order), its leftovers re-paired inside growing windows around them
    (:func:`_repair`), then (beyond :attr:`Tuning.dense_limit` players) a matching on a sparse graph.
    Only a maximum-cardinality matching on every legal edge gives a negative answer.
    """
    if len(members) % 2:
        return None, members[-1:]
    if start is None:
        partial = _greedy_pairing(pool, members)
    else:
        inside = set(members)
        partial = {i: j for i, j in start.items() if i in inside and j in inside}
    if len(partial) == len(members):
        return partial, []
    repaired = _repair(pool, members, partial)
    if repaired is not None:
        return repaired, []
    if len(members) > pool.tuning.dense_limit:
        mate = _max_matching(pool, members, sparse_edges(pool, members))
        if len(mate) == len(members):
            return mate, []
    mate = _max_matching(pool, members, dense_edges(pool, members))
    if len(mate) == len(members):
        return mate, []
    return None, [i for i in members if i not in mate]


def _greedy_pairing(pool: OrderedPool, members: list[int]) -> dict[int, int]:
    """Each player in order takes the first legal partner after them; some may be left over."""
    mate: dict[int, int] = {}
    left = list(members)
    while left:
        i = left.pop(0)
        for t, j in enumerate(left):
            if pool.legal(i, j):
                del left[t]
                mate[i], mate[j] = j, i
                break
    return mate


def _repair(pool: OrderedPool, members: list[int], partial: dict[int, int]) -> dict[int, int] | None:
    """Complete a partial pairing by re-pairing, on every legal edge, a window around each leftover.

    The window holds the players within ``reach`` places of a leftover (in ``members`` order) with
    their partners; it grows (×4) up to :attr:`Tuning.repair_limit` players. None when no window worked.
    """
    orphans = [i for i in members if i not in partial]
    where = {x: t for t, x in enumerate(members)}
    reach = pool.tuning.window
    while True:
        window: set[int] = set(orphans)
        for o in orphans:
            t = where[o]
            for x in members[max(0, t - reach) : t + reach + 1]:
                window.add(x)
                if x in partial:
                    window.add(partial[x])
        if len(window) > pool.tuning.repair_limit:
            return None
        inside = sorted(window)
        local = _max_matching(pool, inside, dense_edges(pool, inside))
        if len(local) == len(inside):
            mate = {i: j for i, j in partial.items() if i not in window}
            mate.update(local)
            return mate
        if len(inside) == len(members):
            return None
        reach *= 4


def _max_matching(pool: OrderedPool, members: list[int], edges: list[tuple[int, int]]) -> dict[int, int]:
    g = rx.PyGraph()
    g.add_nodes_from(members)
    index = {m: t for t, m in enumerate(members)}
    g.add_edges_from_no_data([(index[i], index[j]) for i, j in edges])
    matching = rx.max_weight_matching(g, max_cardinality=True)
    mate: dict[int, int] = {}
    for u, v in matching:
        mate[members[u]], mate[members[v]] = members[v], members[u]
    return mate
