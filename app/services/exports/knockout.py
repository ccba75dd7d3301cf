"""The knockout bracket of a group, every game with its result (docs/rules.md §7)."""

from __future__ import annotations

from app.db.session import Database
from app.engine.knockout import Bracket as EngineBracket
from app.engine.knockout import (
    Feed,
    KnockoutGame,
    Match,
    MatchPlan,
    match_result,
    short_title_zh,
)
from app.engine.regulations import DecidingDraw, Regulations
from app.engine.types import (
    GameResult,
    UserError,
)
from app.reports import model
from app.services.exports.common import event_header, event_info, resolve_group
from app.services.knockout import bracket_of
from app.services.rounds import group_state

_MAIN_ROUND_NAMES = {"R16": "1/8决赛", "QF": "1/4决赛", "SF": "半决赛", "F": "决赛"}


def bracket(db: Database, group: str) -> model.Bracket:
    """淘汰赛对阵图 with every game (slow / rapid / deciding) and its result; refused before the split."""
    info = event_info(db)
    resolve_group(db, group)
    eb = bracket_of(db, group)
    if eb is None:
        raise UserError(
            f"{group}尚未产生淘汰赛对阵（分段之后才有）",
            f"{group} has no knockout bracket yet (only after the split)",
        )
    names = {e.no: e.name for e in group_state(db, group).entrants}
    columns: dict[int, list[model.BracketMatch]] = {}
    losers: dict[int, list[model.BracketMatch]] = {}
    extra = []
    for plan in eb.plans:
        m = _bracket_match(eb, plan, eb.match(plan.code), names, info.regulations)
        if plan.side == "L":  # double elimination: the losers' bracket is a tree of its own
            losers.setdefault(plan.round_number, []).append(m)
        elif plan.side == "W" or (not plan.side and _main(plan.code)):
            columns.setdefault(plan.round_number, []).append(m)
        else:  # places below the final, the grand final
            extra.append(m)
    rounds = eb.round_numbers
    label = f"淘汰赛（第{rounds[0]}—{rounds[-1]}轮）" if len(rounds) > 1 else f"淘汰赛（第{rounds[0]}轮）"
    return model.Bracket(
        event_header(info, group, round_label=label),
        tuple(tuple(columns[r]) for r in sorted(columns)),
        tuple(extra),
        tuple(tuple(losers[r]) for r in sorted(losers)),
    )


def _main(code: str) -> bool:
    """A match of the main bracket (not a match for places 3 and below)."""
    return code != "3RD" and not code.startswith("P")


def _bracket_match(
    eb: EngineBracket, plan: MatchPlan, m: Match, names: dict[int, str], reg: Regulations
) -> model.BracketMatch:
    def label(no: int) -> str:
        return f"{eb.seed_rank(no)} {names.get(no, '')}"

    def slot(i: int) -> str:
        player = eb.slot_player(plan.code, i)
        if player is not None:
            return label(player)
        source = plan.sources[i]
        if isinstance(source, Feed):
            return source.label_zh
        return "轮空" if source > len(eb.seeds) else f"第{source}名"  # a seed beyond the field: a bye

    result = match_result(m, eb.ladder_of(m.code))
    winner = "" if result is None or result.winner is None else label(result.winner)
    if m.walkover and result is not None:
        winner = f"{winner}（{result.reason_zh}）"
    prefix = plan.code.split("_")[0].rstrip("0123456789")
    round_name = _MAIN_ROUND_NAMES.get(prefix, short_title_zh(plan.code) if _main(plan.code) else "排位赛")

    def player(no: int | None) -> tuple[int, int, str] | None:
        return None if no is None else (eb.seed_rank(no), no, names.get(no, ""))

    return model.BracketMatch(
        plan.code,
        round_name,
        slot(0),
        slot(1),
        tuple(_bracket_game(g, names, eb, m.code) for g in m.games),
        winner,
        plan.title_zh,
        player(m.high),
        player(m.low),
        None if result is None else result.winner,
    )


def knockout_game_text(g: KnockoutGame, eb: EngineBracket, code: str) -> str:
    """A knockout game's result as every list prints it: a drawn deciding game that counts as a win for
    Black (和棋黑胜, 2020 rules art. 30) reads ``和（黑胜）``, never a bare 和. The deciding game is the
    one game of the last step of the match's ladder."""
    ladder = eb.ladder_of(code)
    last = len(ladder.steps) - 1
    deciding = ladder.steps[last].kind is g.kind and g.number >= sum(s.games for s in ladder.steps[:last]) + 1
    if deciding and g.result is GameResult.DRAW and ladder.deciding_draw is DecidingDraw.BLACK_WINS:
        return "和（黑胜）"
    return g.result.zh


def _bracket_game(g: KnockoutGame, names: dict[int, str], eb: EngineBracket, code: str) -> model.BracketGame:
    text = knockout_game_text(g, eb, code)
    kind = f"{g.kind.zh}（{eb.time_control_of(code, g.number).label}）"
    return model.BracketGame(
        kind, names.get(g.red, str(g.red)), names.get(g.black, str(g.black)), text, g.red, g.black
    )
