"""Why each pair was made: the sentences (Chinese and English) shown to the arbiter and the players.

A pair of one score group is explained by the order inside it; a floater by why its group
floated (odd group or hard constraints), which rule chose that floater (:func:`floater_choice`:
the exchange that would restore the natural choice is evaluated against the hard rules and the
criteria, in priority order), and whether it floated past whole groups. The avoidances in force
add what they decided against the pairing without them (:func:`with_constraint_notes`).
"""

from __future__ import annotations

from app.engine.pairing.constraints import RoundConstraints
from app.engine.pairing.model import (
    ColourReason,
    FloaterChoice,
    FloatReason,
    PairedGame,
    PairExplanation,
    Pairing,
)
from app.engine.pairing.pool import OrderedPool
from app.engine.records import replace


def explain(
    pool: OrderedPool,
    i: int,
    j: int,
    red: int,
    reason: ColourReason,
    partner: dict[int, int],
    chain: bool,
    exact: bool,
    received: int,
) -> PairExplanation:
    no = pool.no
    same = pool.score[i] == pool.score[j]
    diff = pool.score[i] - pool.score[j]
    black = j if red == i else i
    colour_zh = f"{no[red]}号执红、{no[black]}号执黑：{reason.zh}"
    colour_en = f"{no[red]} has Red, {no[black]} Black: {reason.en}"
    if same:
        zh = f"{no[i]}号与{no[j]}号同为{pool.score[i]}分，按积分组内顺序配对；{colour_zh}"
        en = f"{no[i]} and {no[j]} both have {pool.score[i]} points: paired in order inside the score group; {colour_en}"
        return PairExplanation(True, 0, None, None, reason, zh, en)
    odd = (pool.group_size[pool.grp[i]] + received) % 2 == 1
    float_reason = FloatReason.ODD_GROUP if odd else FloatReason.CONSTRAINTS
    skipped = pool.grp[j] - pool.grp[i] - 1
    choice, why_zh, why_en = floater_choice(pool, i, j, partner)
    with_zh = f"（连同从上一积分组降下的{received}人）" if odd and received else ""
    with_en = f" (counting the {received} floated into it from above)" if odd and received else ""
    zh = (
        f"{no[i]}号（{pool.score[i]}分）降组与{no[j]}号（{pool.score[j]}分）配对，"
        f"原因：{float_reason.zh}{with_zh}；{why_zh}"
    )
    en = (
        f"{no[i]} ({pool.score[i]} points) floats down to {no[j]} ({pool.score[j]} points) because "
        f"{float_reason.en}{with_en}; {why_en}"
    )
    if skipped:
        zh += (
            f"；越过{skipped}个积分组：降组人数相同而只在相邻积分组之间降组的合法编排不存在"
            "（近分者对弈：越组降组劣于相邻组之间的连续降组；L 计越过的整组数，不计对数）"
        )
        en += (
            f"; it floats past {skipped} score group(s): no legal pairing with the same floaters "
            "per score boundary floats only between neighbouring groups (a chain of short floats "
            "is preferred to a long float; L counts groups skipped, not pairs)"
        )
        if not exact:
            zh += "（大赛分步编排）"
            en += " (large event: paired step by step)"
    elif chain:
        zh += "；相邻积分组之间连续降组（近分者对弈：优先于越组降组）"
        en += "; part of a chain of short floats between neighbouring groups (preferred to one long float)"
    return PairExplanation(
        False,
        diff,
        no[i],
        float_reason,
        reason,
        f"{zh}；{colour_zh}",
        f"{en}; {colour_en}",
        floater_choice=choice,
        groups_skipped=skipped,
        chain=chain,
    )


def floater_choice(
    pool: OrderedPool, f: int, g: int, partner: dict[int, int]
) -> tuple[FloaterChoice, str, str]:
    """Which rule chose floater ``f`` (and opponent ``g``), checked against the natural choice.

    The natural choice (S3) is the lowest-ranked player of the higher group meeting the
    highest-ranked player of the lower group. When the pairing differs, the exchange that would
    restore it is evaluated: which hard rule it breaks, or which criterion it makes worse.
    """
    no = pool.no
    gf, gg = pool.grp[f], pool.grp[g]
    natural_f = pool.group_start[gf] + pool.group_size[gf] - 1
    natural_g = pool.group_start[gg]
    if f == natural_f and g == natural_g:
        return (
            FloaterChoice.ORDER,
            "降组人选按S3：高分组排名最低者对低分组排名最高者"
            "（S3 是降组人选与组内顺序的同一个总和，二者相互抵换，不分先后）",
            "the floater is chosen by S3: the lowest-ranked of the higher group meets the highest-ranked of the lower group"
            " (S3 is one sum of the floater's cost and the order inside the groups, traded against each other,"
            " not ranked one above the other)",
        )
    if f != natural_f:
        other, mate = natural_f, partner.get(natural_f)
        alt = [(other, g), (f, mate)] if mate is not None and mate != g else [(other, g)]
        who_zh, who_en = f"若改由{no[other]}号降组", f"if {no[other]} floated instead"
    else:
        other, mate = natural_g, partner.get(natural_g)
        alt = [(f, other), (g, mate)] if mate is not None and mate != f else [(f, other)]
        who_zh, who_en = f"若改对{no[other]}号", f"if {no[f]} met {no[other]} instead"
    now = [(f, g), (other, mate)] if mate is not None and mate not in (f, g) else [(f, g)]
    alt = [(min(a, b), max(a, b)) for a, b in alt]
    now = [(min(a, b), max(a, b)) for a, b in now]
    broken = [rule for a, b in alt if a != b and (rule := broken_rule(pool, a, b)) is not None]
    if broken:
        return FloaterChoice.HARD_RULE, f"{who_zh}，{broken[0][0]}", f"{who_en}, {broken[0][1]}"

    v_now, v_alt = pool.objective(now), pool.objective(alt)
    if (v_alt[0], v_alt[1]) > (v_now[0], v_now[1]):
        return (
            FloaterChoice.SCORES,
            f"{who_zh}，降组人数或降组距离会增加（S1优先）",
            f"{who_en}, more or longer floats would be needed (S1 comes first)",
        )
    if (v_alt[0], v_alt[1]) == (v_now[0], v_now[1]) and v_alt[2] > v_now[2]:
        named = weak_named(pool, alt)
        return (
            FloaterChoice.AVOIDANCE,
            f"{who_zh}，将出现尽量回避的对局（{named[0]}；W先于先后手S2）",
            f"{who_en}, a weakly avoided pair would be made ({named[1]}; W comes before colours, S2)",
        )
    if v_alt[3] > v_now[3]:
        d = v_alt[3] - v_now[3]
        return (
            FloaterChoice.COLOURS,
            f"{who_zh}，将多{d}人得不到应得先后手（S2先后手优先于降组人选S3）",
            f"{who_en}, {d} more player(s) would miss their due colour (S2 colours outrank the floater's identity, S3)",
        )
    if v_alt[4] > v_now[4]:
        return (
            FloaterChoice.ORDER,
            f"{who_zh}，降组人选与积分组内顺序的合计代价更大（S3 是二者的同一个总和）",
            f"{who_en}, the one sum of the floater's cost and the order inside the score groups would be larger (S3)",
        )
    if v_alt[4] == v_now[4] and v_alt[5] > v_now[5]:
        return (
            FloaterChoice.REPEATED_FLOAT,
            f"{who_zh}，将有人连续两轮降组或升组（S4）",
            f"{who_en}, someone would float in the same direction two rounds running (S4)",
        )
    if v_alt[2:] == v_now[2:]:
        return (
            FloaterChoice.WHOLE_ROUND,
            f"{who_zh}，各项标准完全相同（两种编排同样最优）",
            f"{who_en}, every criterion would be the same (both pairings are equally good)",
        )
    return (
        FloaterChoice.WHOLE_ROUND,
        "降组人选由全轮最优决定（牵动其他台次的先后手与顺序）",
        "the floater is decided by the whole round's optimum (it moves colours and order on other boards)",
    )


def weak_named(pool: OrderedPool, pairs: list[tuple[int, int]]) -> tuple[str, str]:
    """The first weak avoidance the pairs break, named (zh, en)."""
    assert pool.constraints is not None
    for a, b in pairs:
        for c in pool.constraints.weak(pool.no[a], pool.no[b]):
            return f"{pool.no[a]}号与{pool.no[b]}号{c.zh}", f"{pool.no[a]} and {pool.no[b]}: {c.en}"
    return "", ""  # pragma: no cover - called only when W is larger


def broken_rule(pool: OrderedPool, a: int, b: int) -> tuple[str, str] | None:
    no = pool.no
    if no[b] in pool.opp[a] or no[a] in pool.opp[b]:
        return f"{no[a]}号与{no[b]}号已交过手", f"{no[a]} and {no[b]} have already met (H1)"
    if pool.avoid_teams and pool.teammates(a, b):
        return f"{no[a]}号与{no[b]}号同队", f"{no[a]} and {no[b]} are teammates (H2)"
    if pool.constraints is not None and pool.avoided(a, b):
        c = pool.constraints.forbidden(no[a], no[b])
        assert c is not None
        return f"{no[a]}号与{no[b]}号{c.zh}", f"{no[a]} and {no[b]}: {c.en}"
    if not pool.legal(a, b):
        return (
            f"{no[a]}号与{no[b]}号的先后手无法合规（连续三局同色或先后手相差超过2）",
            f"{no[a]} and {no[b]} cannot be given legal colours (H3)",
        )
    return None


# --------------------------------------------------------------------------- what the constraints decided


def with_constraint_notes(pairing: Pairing, free: Pairing, constraints: RoundConstraints) -> Pairing:
    """Each game's explanation with what the avoidances decided, against the pairing without them.

    A player who would have met another player but for a constraint is told so, with the
    constraint's name; a weakly avoided pair that S1 still required says why it was made. The notes
    go into the explanation in both languages (``constraints`` / ``constraints_en`` hold them alone).
    """
    free_opponent: dict[int, int] = {}
    for g in free.games:
        free_opponent[g.red], free_opponent[g.black] = g.black, g.red
    games = []
    for g in pairing.games:
        notes: dict[str, str] = {}  # zh → en, in order, without repeats
        for c in constraints.weak(g.red, g.black):
            notes.setdefault(
                f"{g.red}号与{g.black}号虽属{c.zh}，但避开将破坏积分组（S1），故仍配对",
                f"{g.red} and {g.black} meet despite the {c.en}: avoiding it would break the score groups (S1)",
            )
        for me, other in ((g.red, g.black), (g.black, g.red)):
            natural = free_opponent.get(me)
            if natural is None or natural == other:
                continue
            reasons = constraints.between(me, natural)
            if reasons:
                notes.setdefault(
                    f"{me}号本应与{natural}号配对，因{reasons[0].zh}而改配",
                    f"{me} would have met {natural} but for the {reasons[0].en}",
                )
        if not notes:
            games.append(g)
            continue
        e = g.explanation
        zh, en = tuple(notes), tuple(notes.values())
        explanation = replace(
            e,
            zh=e.zh + "；" + "；".join(zh),
            en=(e.en + "; " if e.en else "") + "; ".join(en),
            constraints=zh,
            constraints_en=en,
        )
        games.append(PairedGame(g.board, g.red, g.black, explanation))
    return replace(pairing, games=tuple(games))
