"""Knockout commands: the bracket, colour lots, the deciding game's colour choice."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.common import PLAYER_NO, ROUND, SEED, add_take_over, open_file, print_json, writing
from app.engine.types import Colour, UserError


def cmd_knockout(args: argparse.Namespace) -> int:
    from app.services.knockout import create_knockout

    with writing(args) as db:
        bracket = create_knockout(db, args.group)
    print(f"{args.group}淘汰赛对阵已产生，种子：{'、'.join(map(str, bracket.seeds))}")
    return 0


def cmd_draw_colours(args: argparse.Namespace) -> int:
    from app.services.knockout import draw_round_colours

    manual: dict[str, int] = {}
    for item in args.manual or []:
        code, _, red = item.partition("=")
        try:
            manual[code.strip().upper()] = PLAYER_NO(red)
        except Exception:
            raise UserError(
                f"--manual 的格式应为 场次=红方序号，而不是“{item}”",
                f"--manual takes MATCH=red_no, not {item!r}",
            ) from None
    with writing(args) as db:
        bracket = draw_round_colours(db, args.group, args.round, seed=args.seed, manual=manual or None)
    for m in bracket.matches_in_round(args.round):
        lot = f"抽签种子 {m.colour_seed}" if m.colour_seed is not None else "现场抽签"
        print(f"{m.code}: {m.first_red} 号执红（{lot}）")
    return 0


def _bracket_json(bracket: Any) -> dict[str, Any]:
    from app.engine.knockout import match_result

    out = []
    for plan, m in zip(bracket.plans, bracket.matches, strict=True):
        res = match_result(m, bracket.ladder_of(m.code))
        out.append(
            {
                "code": m.code,
                "round": m.round_number,
                "board": plan.board,
                "title": plan.title_zh,
                "high": m.high,
                "low": m.low,
                "first_red": m.first_red,
                "colour_seed": m.colour_seed,
                "games": [
                    {
                        "game": g.number,
                        "kind": g.kind.value,
                        "red": g.red,
                        "black": g.black,
                        "result": g.result.value,
                        "time_control": bracket.time_control_of(m.code, g.number).label,
                    }
                    for g in m.games
                ],
                "winner": None if res is None else res.winner,
                "decided": None if res is None else res.reason_zh,
            }
        )
    return {"seeds": list(bracket.seeds), "split_round": bracket.split_round, "matches": out}


def cmd_bracket(args: argparse.Namespace) -> int:
    from app.services.knockout import bracket_of

    with open_file(args.file, read_only=True) as db:
        bracket = bracket_of(db, args.group)
    if bracket is None:
        raise UserError(f"{args.group}尚未产生淘汰赛对阵", f"{args.group} has no knockout bracket yet")
    data = _bracket_json(bracket)
    if args.json:
        print_json(data)
        return 0
    from app.engine.knockout import Feed, GameKind
    from app.engine.regulations import DecidingDraw
    from app.engine.types import GameResult

    kinds = {k.value: k.zh for k in GameKind}

    def result_text(kind: str, code: str, match: str = "") -> str:
        result = GameResult(code)
        black_wins_draw = (
            bracket.ladder_of(match).deciding_draw is DecidingDraw.BLACK_WINS if match else False
        )
        if kind == GameKind.DECIDING.value and result is GameResult.DRAW and black_wins_draw:
            return "和（黑胜）"
        return result.zh or "待赛"

    for plan, m in zip(bracket.plans, data["matches"], strict=True):

        def slot(i: int, plan: Any = plan, m: dict[str, Any] = m) -> str:
            player = bracket.slot_player(plan.code, i)  # known though the other side is not yet
            if player is not None:
                return f"{player} 号"
            source = plan.sources[i]  # not known yet: where the player will come from
            return f"{source.label_zh}（待定）" if isinstance(source, Feed) else "待定"

        games = "，".join(
            f"第{g['game']}局{kinds[g['kind']]} {g['red']}红-{g['black']}黑 {result_text(g['kind'], g['result'], m['code'])}"
            for g in m["games"]
        )
        winner = f"胜者 {m['winner']} 号" if m["winner"] else ""
        print(
            f"第{m['round']}轮 {m['code']:<6} {m['title']}：{slot(0)} 对 {slot(1)}  {games}  {winner}".rstrip()
        )
    return 0


def cmd_choose_colour(args: argparse.Namespace) -> int:
    from app.services.knockout import choose_deciding_colour

    with writing(args) as db:
        choose_deciding_colour(db, args.group, args.match.upper(), Colour(args.colour))
    print(f"{args.match} 附加赛：排名靠前者选择{'红' if args.colour == 'red' else '黑'}方")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("knockout", help="create the knockout bracket after the split round / 产生淘汰赛对阵")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    add_take_over(p)
    p.set_defaults(func=cmd_knockout)

    p = sub.add_parser("draw-colours", help="colour lot of a knockout round, or a physical draw / 先后手抽签")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--round", type=ROUND, required=True, help="the knockout round")
    p.add_argument(
        "--seed", type=SEED, default=None, help="the lot's random seed (default: a new one, printed)"
    )
    p.add_argument(
        "--manual",
        nargs="*",
        metavar="MATCH=red_no",
        help="a physical draw: who has Red in game 1 of each match",
    )
    add_take_over(p)
    p.set_defaults(func=cmd_draw_colours)

    p = sub.add_parser("choose-colour", help="the higher seed's colour for the deciding game / 附加赛选先")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--match", required=True, help="the match code (QF1, SF2, F …)")
    p.add_argument("colour", choices=["red", "black"], help="the colour the higher seed chooses")
    add_take_over(p)
    p.set_defaults(func=cmd_choose_colour)

    p = sub.add_parser("bracket", help="the knockout bracket with every game / 淘汰赛对阵")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--json", action="store_true", help="print the bracket as JSON")
    p.set_defaults(func=cmd_bracket)
