"""Why this floater and not another (RULES.md §5, S1–S3): an explanation of a finished pairing.

Kept apart from the pairing engine on purpose: it reads only the pool (:class:`PairingPlayer`) and
the pairs the engine (or the arbiter) made, and compares the pairing with the one-step alternatives
an arbiter would ask about — "why did 17 float and not 23, who is ranked lower?". For a pair joining
two scores, with F the higher-scored player (who floated down) and L the lower one:

- every player of F's score group ranked **below** F would have floated before F (S3: the floater
  is the lowest-ranked of the higher group). For each such player c, paired with p inside the
  group, the alternative is the exchange c–L, F–p; it is shown why that exchange is not taken: a
  hard rule (H1 rematch, H2 same team, H3 colour) for one of the two new pairs, more players
  without their due colour (S2, which outranks the order), more deviation from the order inside
  the group (S3), or — when the exchange is no worse by itself — the engine's whole-pool optimum;
- likewise every player of L's score group ranked **above** L would have met F before L.

Everything is computed from values; nothing is re-paired.

Three players on 2 points, one on 0; 3 (the lowest-ranked on 2) has already met 4, so 2 floats:

>>> pool = [PairingPlayer(1, 2), PairingPlayer(2, 2), PairingPlayer(3, 2, opponents=frozenset({4})),
...         PairingPlayer(4, 0, opponents=frozenset({3}))]
>>> why = explain_float(pool, [(1, 3), (2, 4)], 4)
>>> (why.floater, why.opponent, why.lowest, [(p.no, p.code) for p in why.passed_over])
(2, 4, False, [(3, 'rematch')])
>>> why.zh
'为什么是这名降组棋手：2分组中排名在2号之后的棋手没有降组：3号与4号已交过手（H1）。4号是0分组中排名最前的棋手，降组者与下一分组排名最前者对弈（S3）。'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.engine.pairing.model import PairingPlayer
from app.engine.types import Colour, UserError


@dataclass(frozen=True, slots=True)
class PassedOver:
    """A player who by the order would have floated (or been the floater's opponent) instead."""

    no: int
    code: str  # rematch / team / colour_rule / colours / order / also_floats / whole_pool
    zh: str
    en: str


@dataclass(frozen=True, slots=True)
class FloatExplanation:
    floater: int  # the higher-scored player of the pair (floated down)
    opponent: int  # the lower-scored player (floated up)
    floater_score: int
    opponent_score: int
    lowest: bool  # the floater is the lowest-ranked player of their score group
    highest: bool  # the opponent is the highest-ranked player of their score group
    passed_over: tuple[PassedOver, ...]  # ranked below the floater, and why each did not float
    not_chosen: tuple[PassedOver, ...]  # ranked above the opponent, and why each did not meet them

    @property
    def zh(self) -> str:
        f, o = self.floater, self.opponent
        parts = []
        if self.lowest:
            parts.append(f"{f}号是{self.floater_score}分组中排名最后的棋手，降组者按规则取该组排名最后者（S3）")
        else:
            parts.append(
                f"{self.floater_score}分组中排名在{f}号之后的棋手没有降组："
                + "；".join(p.zh for p in self.passed_over)
            )
        if self.highest:
            parts.append(f"{o}号是{self.opponent_score}分组中排名最前的棋手，降组者与下一分组排名最前者对弈（S3）")
        else:
            parts.append(
                f"{self.opponent_score}分组中排名在{o}号之前的棋手没有与{f}号对弈："
                + "；".join(p.zh for p in self.not_chosen)
            )
        return "为什么是这名降组棋手：" + "。".join(parts) + "。"

    @property
    def en(self) -> str:
        f, o = self.floater, self.opponent
        parts = []
        if self.lowest:
            parts.append(
                f"no. {f} is the lowest-ranked player with {self.floater_score} points, and the floater "
                "is the lowest-ranked of the group (S3)"
            )
        else:
            parts.append(
                f"the players ranked below no. {f} with {self.floater_score} points did not float: "
                + "; ".join(p.en for p in self.passed_over)
            )
        if self.highest:
            parts.append(
                f"no. {o} is the highest-ranked player with {self.opponent_score} points, whom the floater "
                "meets (S3)"
            )
        else:
            parts.append(
                f"the players ranked above no. {o} with {self.opponent_score} points did not meet no. {f}: "
                + "; ".join(p.en for p in self.not_chosen)
            )
        return "Why this floater: " + ". ".join(parts) + "."


def _legal(a: PairingPlayer, b: PairingPlayer, avoid_teams: bool) -> str | None:
    """``None`` if a and b may meet, else the rule that forbids it (rematch, team, colour_rule)."""
    if b.no in a.opponents or a.no in b.opponents:
        return "rematch"
    if avoid_teams and a.team is not None and a.team == b.team:
        return "team"
    red_black = a.may_take(Colour.RED) and b.may_take(Colour.BLACK)
    black_red = a.may_take(Colour.BLACK) and b.may_take(Colour.RED)
    return None if red_black or black_red else "colour_rule"


def _colour_cost(a: PairingPlayer, b: PairingPlayer) -> int:
    """Players of the pair not getting their due colour, at best (S2)."""
    best = 2
    for a_colour in (Colour.RED, Colour.BLACK):
        if a.may_take(a_colour) and b.may_take(a_colour.other):
            missed = (a.due_colour not in (None, a_colour)) + (b.due_colour not in (None, a_colour.other))
            best = min(best, missed)
    return best


_RULE_ZH = {"rematch": "已交过手（H1）", "team": "同队回避（H2）", "colour_rule": "先后手不允许（H3）"}
_RULE_EN = {"rematch": "have met before (H1)", "team": "are teammates (H2)", "colour_rule": "colours forbid it (H3)"}


class _Groups:
    def __init__(self, players: Sequence[PairingPlayer], by_tiebreaks: bool) -> None:
        ordered = sorted(players, key=lambda p: (-p.score, p.rank_key if by_tiebreaks else (), p.no))
        self.by_no = {p.no: p for p in ordered}
        self.members: dict[int, list[int]] = {}
        for p in ordered:
            self.members.setdefault(p.score, []).append(p.no)

    def rank(self, no: int) -> int:
        return self.members[self.by_no[no].score].index(no)

    def order_cost(self, a: int, b: int) -> int:
        """S3 of a pair (the engine's definition), a before b in the order."""
        pa, pb = self.by_no[a], self.by_no[b]
        if pa.score < pb.score or (pa.score == pb.score and self.rank(a) > self.rank(b)):
            a, b, pa, pb = b, a, pb, pa
        if pa.score == pb.score:
            m = len(self.members[pa.score])
            h, r, q = m // 2, self.rank(a), self.rank(b)
            cost = abs(q - r - h)
            return cost if r < h <= q else cost + h
        return (len(self.members[pa.score]) - 1 - self.rank(a)) + self.rank(b)


def _exchange(
    groups: _Groups,
    keep: tuple[int, int],
    other: tuple[int, int],
    new: tuple[tuple[int, int], tuple[int, int]],
    candidate: int,
    avoid_teams: bool,
    instead: tuple[str, str],
) -> PassedOver:
    """Why the exchange that puts ``candidate`` in the floating pair is not taken; ``instead`` says
    the exchange in words (zh, en), e.g. ("17号降组", "with no. 17 floating")."""
    zh_if, en_if = instead
    p = groups.by_no
    for x, y in new:
        rule = _legal(p[x], p[y], avoid_teams)
        if rule is not None:
            return PassedOver(
                candidate, rule, f"{x}号与{y}号{_RULE_ZH[rule]}", f"nos. {x} and {y} {_RULE_EN[rule]}"
            )
    now = _colour_cost(p[keep[0]], p[keep[1]]) + _colour_cost(p[other[0]], p[other[1]])
    then = sum(_colour_cost(p[x], p[y]) for x, y in new)
    if then > now:
        return PassedOver(
            candidate,
            "colours",
            f"{zh_if}会多 {then - now} 人得不到应得的先后手（先后手 S2 优先于组内顺序）",
            f"{en_if}, {then - now} more player(s) would miss their due colour (S2 comes before the order)",
        )
    order_now = groups.order_cost(*keep) + groups.order_cost(*other)
    order_then = sum(groups.order_cost(x, y) for x, y in new)
    if then == now and order_then > order_now:
        return PassedOver(
            candidate,
            "order",
            f"{zh_if}，其余配对偏离组内顺序更多（S3）",
            f"{en_if}, the other pairs would depart further from the order (S3)",
        )
    return PassedOver(
        candidate,
        "whole_pool",
        f"{zh_if}单独看并不更差，但全组整体编排（S1–S4 依次比较）以现方案为优",
        f"{en_if} alone is no worse, but the pairing of the whole pool (S1–S4 in turn) is better as made",
    )


def explain_float(
    players: Sequence[PairingPlayer],
    pairs: Sequence[tuple[int, int]],
    player: int,
    *,
    avoid_teams: bool = False,
    by_tiebreaks: bool = False,
    limit: int = 4,
) -> FloatExplanation:
    """Why the pair of ``player`` joins two scores with these two players (see the module doc).

    ``players`` is the pool as it was paired (without the bye), ``pairs`` the round's pairs by
    sequence number; ``limit`` caps the players listed on each side.
    """
    partner: dict[int, int] = {}
    for a, b in pairs:
        partner[a], partner[b] = b, a
    groups = _Groups(players, by_tiebreaks)
    if player not in partner or player not in groups.by_no:
        raise UserError(f"{player}号不在本轮的对局中", f"player {player} has no game in this round")
    a, b = player, partner[player]
    pa, pb = groups.by_no[a], groups.by_no[b]
    if pa.score == pb.score:
        raise UserError(f"{a}号与{b}号同分，没有降组", f"nos. {a} and {b} have the same score: nobody floated")
    floater, opponent = (a, b) if pa.score > pb.score else (b, a)
    high, low = groups.by_no[floater].score, groups.by_no[opponent].score

    below = groups.members[high][groups.rank(floater) + 1 :]
    passed: list[PassedOver] = []
    for c in below[:limit]:
        p = partner.get(c)
        if p is None or groups.by_no[p].score != high:
            passed.append(
                PassedOver(c, "also_floats", f"{c}号本身也降组（对{p}号）", f"no. {c} floats as well (against no. {p})")
            )
            continue
        passed.append(
            _exchange(
                groups,
                (floater, opponent),
                (c, p),
                ((c, opponent), (floater, p)),
                c,
                avoid_teams,
                (f"若由{c}号降组", f"with no. {c} floating"),
            )
        )

    above = groups.members[low][: groups.rank(opponent)]
    chosen: list[PassedOver] = []
    for u in above[:limit]:
        q = partner.get(u)
        if q is None or groups.by_no[q].score != low:
            chosen.append(
                PassedOver(u, "also_floats", f"{u}号已与{q}号跨分组对弈", f"no. {u} already meets no. {q} across scores")
            )
            continue
        chosen.append(
            _exchange(
                groups,
                (floater, opponent),
                (u, q),
                ((floater, u), (opponent, q)),
                u,
                avoid_teams,
                (f"若由{u}号与{floater}号对弈", f"with no. {u} meeting no. {floater}"),
            )
        )
    return FloatExplanation(
        floater, opponent, high, low, not below, not above, tuple(passed), tuple(chosen)
    )
