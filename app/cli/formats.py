"""Format commands: a group's stages and their rounds, drawing a round robin ahead of its first round
(so that 对局秩序表 can be printed), and players who play unranked (计成绩不计名次)."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.common import PLAYER_NO, SEED, add_take_over, group_of, open_file, print_json, writing


def cmd_stages(args: argparse.Namespace) -> int:
    from app.services.stages import stages_of

    with open_file(args.file, read_only=True) as db:
        group = group_of(db, args.group)
        infos = stages_of(db, group)
    if args.json:
        print_json(
            [
                {
                    "stage": i.index + 1,
                    "title": i.title_zh,
                    "kind": i.kind.value,
                    "first_round": i.first_round or None,
                    "last_round": i.last_round or None,
                    "entrants": i.entrants,
                    "begun": i.begun,
                    "description": i.description_zh,
                }
                for i in infos
            ]
        )
        return 0
    print(f"{group}的赛制：")
    for i in infos:
        rounds = (
            f"第 {i.first_round}—{i.last_round} 轮"
            if i.first_round and i.last_round
            else "轮次待定（参赛人数未定）"
        )
        state = "已开始" if i.begun else "未开始"
        print(f"  {i.title_zh}：{rounds}，{i.entrants if i.entrants is not None else '?'} 人，{state}")
        print(f"    {i.description_zh}")
    return 0


def cmd_draw_round_robin(args: argparse.Namespace) -> int:
    from app.services.round_robin_docs import begin_round_robin
    from app.services.stages import pool_name

    with writing(args) as db:
        group = group_of(db, args.group)
        begun = begin_round_robin(db, group, seed=args.seed)
    pools = begun.pools()
    print(f"{group}第{begun.index + 1}阶段循环赛已确定抽签号（种子 {begun.seed}；抽签号：序号）：")
    for k, pool in enumerate(pools):
        label = f"{pool_name(k)}：" if len(pools) > 1 else ""
        print(f"  {label}" + "，".join(f"{e.number}：{e.no}号" for e in pool))
    print("可用 xqarbiter print FILE order-of-play 打印对局秩序表")
    return 0


def cmd_unranked(args: argparse.Namespace) -> int:
    from app.services.ranking_flags import set_unranked

    with writing(args) as db:
        group = group_of(db, args.group)
        set_unranked(db, group, args.player, not args.ranked, reason=args.reason)
    print(f"{args.player} 号{'恢复计名次' if args.ranked else '计成绩不计名次'}")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser(
        "stages", help="a group's stages (Swiss, round robin, knockout) and their rounds / 赛制"
    )
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--json", action="store_true", help="print as JSON")
    p.set_defaults(func=cmd_stages)

    p = sub.add_parser(
        "draw-round-robin",
        help="draw the next round robin now (pools, numbers, tiebreak lot), to print 对局秩序表 before it starts",
    )
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--seed", type=SEED, default=None, help="the lot's seed (default: a new one, recorded)")
    add_take_over(p)
    p.set_defaults(func=cmd_draw_round_robin)

    p = sub.add_parser("unranked", help="a player plays and scores but takes no place (计成绩不计名次)")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--player", type=PLAYER_NO, required=True, help="the player's sequence number (序号)")
    p.add_argument("--ranked", action="store_true", help="undo: the player is ranked again")
    p.add_argument("--reason", required=True, help="why (written to the audit log)")
    add_take_over(p)
    p.set_defaults(func=cmd_unranked)
