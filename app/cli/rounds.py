"""Round commands: pair, unpair, why, pairings, results, closing a round."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from app.cli.common import (
    BOARD,
    GAME,
    PLAYER_NO,
    ROUND,
    SEED,
    add_take_over,
    hosting,
    open_file,
    print_json,
    writing,
)
from app.engine.types import UserError


def cmd_pair(args: argparse.Namespace) -> int:
    from app.services.fastpair import pair_next_round_lite

    # the plain case without SQLAlchemy (0.25 s of imports); anything else through the full service
    # (run by the file's owner for a client: the owner's open file, so the full service too)
    plain = not args.take_over and hosting() is None
    out = pair_next_round_lite(Path(args.file), args.group, seed=args.seed) if plain else None
    if out is None:
        from app.services.rounds import pair_next_round

        with writing(args) as db:
            out = pair_next_round(db, args.group, seed=args.seed)
    bye = f"，{out.bye} 号轮空" if out.bye is not None else ""
    split = (
        f"（淘汰赛 {out.knockout_boards} 台，积分编排 {out.swiss_boards} 台）" if out.knockout_boards else ""
    )
    print(f"{out.group} 第 {out.number} 轮已编排：{out.boards} 台{split}{bye}，随机种子 {out.seed}")
    for no in out.withdrawn:
        print(f"{no} 号连续弃权，已退出编排")
    if out.backup_warning:
        print(out.backup_warning, file=sys.stderr)
    return 0


def cmd_unpair(args: argparse.Namespace) -> int:
    from app.services.rounds import unpair_round

    with writing(args) as db:
        unpair_round(db, args.group, args.round)
    print(f"{args.group} 第 {args.round} 轮的编排已撤销")
    return 0


def cmd_why(args: argparse.Namespace) -> int:
    from app.services.rounds import pairing_explanation

    with open_file(args.file, read_only=True) as db:
        zh = pairing_explanation(db, args.group, args.round, args.player)
        en = pairing_explanation(db, args.group, args.round, args.player, english=True)
    print(zh)
    if en != zh:
        print(en)
    return 0


def cmd_pairings(args: argparse.Namespace) -> int:
    from app.services.rounds import round_view, rounds_of

    with open_file(args.file, read_only=True) as db:
        number = args.round or max((r.number for r in rounds_of(db, args.group)), default=0)
        if not number:
            raise UserError(f"{args.group}尚未编排任何轮次", f"{args.group} has no rounds yet")
        view = round_view(db, args.group, number)
    if args.json:
        print_json(
            {
                "group": view.group,
                "round": view.number,
                "games": [
                    {"board": b.board, "red": b.red.no, "black": b.black.no, "result": b.result.value}
                    for b in view.boards
                ],
                "byes": [s.no for s in view.byes],
            }
        )
        return 0
    print(f"{view.group} 第 {view.number} 轮")
    for b in view.boards:
        print(
            f"{b.board:>3}  {b.red.no:>3} {b.red.name:<6}({b.red.score})  {b.result.zh or '—':^4}  "
            f"{b.black.no:>3} {b.black.name:<6}({b.black.score})"
        )
    for seat in view.byes:
        print(f"轮空  {seat.no:>3} {seat.name}")
    return 0


def cmd_result(args: argparse.Namespace) -> int:
    from app.engine.types import GameResult
    from app.services.results import enter_result

    if args.match is None and (args.board is None or args.round is None):
        raise UserError(
            "请用 --round 与 --board 指定台次（淘汰赛也可用 --match 与 --game）",
            "give --round and --board (or --match and --game for a knockout game)",
        )
    with writing(args) as db:
        if args.match is not None:
            if args.game is None:
                raise UserError("淘汰赛成绩须用 --game 指定第几局", "a knockout result needs --game")
            from app.services.knockout import enter_match_result  # a knockout's own (~0.05 s to load)

            code = args.match.upper()
            enter_match_result(
                db, args.group, code, args.game, GameResult.from_code(args.result), reason=args.reason
            )
            where = f"{code} 第 {args.game} 局"
        else:
            enter_result(
                db, args.group, args.round, args.board, args.result, reason=args.reason, game_no=args.game
            )
            where = f"第 {args.round} 轮 第 {args.board} 台"
    print(f"{args.group} {where}：{GameResult.from_code(args.result).zh or '未录入'}")  # as the prints say
    return 0


def cmd_results(args: argparse.Namespace) -> int:
    from app.services.documents import read_json_document
    from app.services.results import enter_results, parse_result_entries

    entries = parse_result_entries(read_json_document(Path(args.input), "成绩文件", "results file"))
    with writing(args) as db:
        changed = enter_results(db, args.group, args.round, entries, reason=args.reason)
    print(f"已录入 {changed} 台成绩")
    return 0


def cmd_close_round(args: argparse.Namespace) -> int:
    from app.services.records import confirm_refusals, refusals_at_close
    from app.services.rounds import close_round

    with writing(args) as db:
        refusals = refusals_at_close(db, args.group, args.round)
        if refusals and not args.confirm_refusals:
            for v in refusals:
                print(f"{v.player_no} 号：{v.reason}", file=sys.stderr)
            raise UserError(
                f"第 {args.round} 轮还有 {len(refusals)} 份棋谱未交；确认记为拒不录谱请加 --confirm-refusals",
                f"{len(refusals)} records are still owed; add --confirm-refusals to record them as refusals",
            )
        stored = confirm_refusals(db, args.group, args.round) if refusals else 0
        warning = close_round(db, args.group, args.round)
    if stored:
        print(f"已记拒不录谱 {stored} 次")
    if warning:
        print(warning, file=sys.stderr)
    print(f"{args.group} 第 {args.round} 轮已结束")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("pair", help="pair the group's next Swiss round / 编排下一轮")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--seed", type=SEED, default=None, help="random seed for round 1's colour lot (recorded)")
    add_take_over(p)
    p.set_defaults(func=cmd_pair)

    p = sub.add_parser("unpair", help="delete a round's pairing, before any result / 撤销编排")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--round", type=ROUND, required=True, help="the round whose pairing is deleted")
    add_take_over(p)
    p.set_defaults(func=cmd_unpair)

    p = sub.add_parser("why", help="why a player got this opponent and colour (or the bye) / 编排说明")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--round", type=ROUND, required=True, help="the round")
    p.add_argument("--player", type=PLAYER_NO, required=True, help="the player's sequence number (序号)")
    p.set_defaults(func=cmd_why)

    p = sub.add_parser("pairings", help="show a round's pairings / 对阵")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--round", type=ROUND, default=None, help="the round (default: the latest paired)")
    p.add_argument("--json", action="store_true", help="print the snapshot's round object as JSON")
    p.set_defaults(func=cmd_pairings)

    p = sub.add_parser("result", help="enter one result: 1-0, 0-1, =, +-, -+, -- / 录入成绩")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--round", type=ROUND, default=None, help="the round of the board")
    p.add_argument("--board", type=BOARD, default=None, help="the board (台次)")
    p.add_argument("--match", default=None, help="knockout: the match code (QF1, SF2, F, 3RD, P5 …)")
    p.add_argument("--game", type=GAME, default=None, help="knockout: game number within the match")
    p.add_argument("--reason", default="", help="required to correct a closed round")
    add_take_over(p)
    p.add_argument(
        "result", help="1-0 red wins, 0-1 black wins, = draw, +- black forfeits, -+ red forfeits, -- both"
    )
    p.set_defaults(func=cmd_result)

    p = sub.add_parser("results", help="enter a round's results from JSON, all or nothing / 批量录入")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--round", type=ROUND, required=True, help="the round")
    p.add_argument(
        "--in", dest="input", required=True, help='JSON file: [{"board": 1, "result": "red_win"}, …]'
    )
    p.add_argument(
        "--reason", default="", help="required to correct a closed round, and to reset a result to pending"
    )
    add_take_over(p)
    p.set_defaults(func=cmd_results)

    p = sub.add_parser("close-round", help="close a round once every result is in / 结束本轮")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--round", type=ROUND, required=True, help="the round to close")
    p.add_argument(
        "--confirm-refusals", action="store_true", help="record the records still owed as refusals (拒不录谱)"
    )
    add_take_over(p)
    p.set_defaults(func=cmd_close_round)
