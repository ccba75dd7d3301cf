"""The knockout bracket of a group, every game with its result (docs/rules.md §7)."""

from __future__ import annotations

from app.db.session import Database
from app.engine.knockout import Bracket as EngineBracket
from app.engine.knockout import (
    Feed,
    GameKind,
    KnockoutGame,
    Match,
    MatchPlan,
    match_result,
)
from app.engine.regulations import DecidingDraw, KnockoutRules, Regulations
from app.engine.types import (
    GameResult,
    UserError,
)
from app.reports import model
from app.services.exports.common import event_header, resolve_group
from app.services.knockout import bracket_of
from app.services.rounds import group_state
from app.services.tournaments import tournament_info

_MAIN_ROUND_NAMES = {"R16": "1/8决赛", "QF": "1/4决赛", "SF": "半决赛", "F": "决赛"}


def bracket(db: Database, group: str) -> model.Bracket:
    """淘汰赛对阵图 with every game (slow / rapid / deciding) and its result; refused before the split."""
    info = tournament_info(db)
    resolve_group(db, group)
    eb = bracket_of(db, group)
    if eb is None:
        raise UserError(
            f"{group}尚未产生淘汰赛对阵（分段之后才有）",
            f"{group} has no knockout bracket yet (only after the split)",
        )
    names = {e.no: e.name for e in group_state(db, group).entrants}
    columns: dict[int, list[model.BracketMatch]] = {}
    extra = []
    for plan in eb.plans:
        m = _bracket_match(eb, plan, eb.match(plan.code), names, info.regulations)
        prefix = plan.code.split("_")[0].rstrip("0123456789")
        if prefix in _MAIN_ROUND_NAMES:
            columns.setdefault(plan.round_number, []).append(m)
        else:
            extra.append(m)
    rounds = eb.round_numbers
    label = f"淘汰赛（第{rounds[0]}—{rounds[-1]}轮）" if len(rounds) > 1 else f"淘汰赛（第{rounds[0]}轮）"
    return model.Bracket(
        event_header(info, group, round_label=label),
        tuple(tuple(columns[r]) for r in sorted(columns)),
        tuple(extra),
    )


def _bracket_match(
    eb: EngineBracket, plan: MatchPlan, m: Match, names: dict[int, str], reg: Regulations
) -> model.BracketMatch:
    def label(no: int) -> str:
        return f"{eb.seed_rank(no)} {names.get(no, '')}"

    def slot(i: int) -> str:
        player = (m.high, m.low)[i]
        if player is not None:
            return label(player)
        source = plan.sources[i]
        return source.label_zh if isinstance(source, Feed) else f"第{source}名"

    result = match_result(m, eb.rules)
    winner = "" if result is None or result.winner is None else label(result.winner)
    if m.walkover and result is not None:
        winner = f"{winner}（{result.reason_zh}）"
    prefix = plan.code.split("_")[0].rstrip("0123456789")
    round_name = _MAIN_ROUND_NAMES.get(prefix, "排位赛")

    def player(no: int | None) -> tuple[int, int, str] | None:
        return None if no is None else (eb.seed_rank(no), no, names.get(no, ""))

    return model.BracketMatch(
        plan.code,
        round_name,
        slot(0),
        slot(1),
        tuple(_bracket_game(g, names, eb) for g in m.games),
        winner,
        plan.title_zh,
        player(m.high),
        player(m.low),
        None if result is None else result.winner,
    )


def knockout_game_text(g: KnockoutGame, rules: KnockoutRules) -> str:
    """A knockout game's result as every list prints it: a drawn deciding game that counts as a win for
    Black (和棋黑胜, 2020 rules art. 30) reads ``和（黑胜）``, never a bare 和."""
    if (
        g.kind is GameKind.DECIDING
        and g.result is GameResult.DRAW
        and rules.deciding_draw is DecidingDraw.BLACK_WINS
    ):
        return "和（黑胜）"
    return g.result.zh


def _bracket_game(g: KnockoutGame, names: dict[int, str], eb: EngineBracket) -> model.BracketGame:
    text = knockout_game_text(g, eb.rules)
    return model.BracketGame(
        g.kind.zh, names.get(g.red, str(g.red)), names.get(g.black, str(g.black)), text, g.red, g.black
    )
