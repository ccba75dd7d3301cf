"""Pairing constraints beyond teams: named pairs kept apart, and the avoidances in force."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.common import PLAYER_NO, ROUND, add_take_over, bounded, group_of, open_file, print_json, writing

TO_ROUND = bounded("轮次", "round", 0, 999)  # 0 = to the last round


def cmd_avoid(args: argparse.Namespace) -> int:
    from app.services.constraints import add_pair_avoidance

    strength = "weak" if args.weak else "absolute"
    with writing(args) as db:
        group = group_of(db, args.group)
        first_round = add_pair_avoidance(
            db,
            group,
            args.first,
            args.second,
            strength,
            from_round=args.from_round,
            to_round=args.to_round,
            reason=args.reason,
        )
    level = "尽量回避" if args.weak else "绝对回避"
    print(f"{args.first} 号与 {args.second} 号{level}（{args.reason or '未注明理由'}）")
    if first_round > args.from_round:
        print(f"注意：第 {first_round - 1} 轮及以前已编排，回避自第 {first_round} 轮起生效")
    return 0


def cmd_unavoid(args: argparse.Namespace) -> int:
    from app.services.constraints import remove_pair_avoidance

    with writing(args) as db:
        group = group_of(db, args.group)
        remove_pair_avoidance(db, group, args.first, args.second, reason=args.reason)
    print(f"已取消 {args.first} 号与 {args.second} 号的回避")
    return 0


def cmd_avoidances(args: argparse.Namespace) -> int:
    from app.services.constraints import pair_avoidances
    from app.services.tournaments import load_regulations

    with open_file(args.file, read_only=True) as db:
        group = group_of(db, args.group)
        named = pair_avoidances(db, group)
        rules = load_regulations(db).pairing.avoidances
    if args.json:
        print_json(
            {
                "rules": [
                    {
                        "basis": r.basis.value,
                        "strength": r.strength.value,
                        "from_round": r.from_round,
                        "to_round": r.to_round,
                    }
                    for r in rules
                ],
                "pairs": [v.as_json() for v in named],
            }
        )
        return 0
    for r in rules:
        print(f"规程：{r.basis.zh}{r.strength.zh}（{r.rounds_zh}）")
    for v in named:
        reason = f"（{v.reason}）" if v.reason else ""
        print(
            f"{v.first} 号 {v.first_name} — {v.second} 号 {v.second_name}：{v.strength.zh}，{v.rounds_zh}{reason}"
        )
    if not rules and not named:
        print(f"{group}没有同队回避以外的回避设置")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("avoid", help="keep two players apart (家属回避 …) for a range of rounds")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("first", type=PLAYER_NO, help="a player's sequence number (序号)")
    p.add_argument("second", type=PLAYER_NO, help="the other player's sequence number")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument(
        "--weak", action="store_true", help="avoid where the score groups allow (default: never pair)"
    )
    p.add_argument("--from-round", type=ROUND, default=1, help="first round it applies to")
    p.add_argument(
        "--to-round", type=TO_ROUND, default=0, help="last round it applies to (0 = the last round)"
    )
    p.add_argument("--reason", default="", help="why, e.g. 父子 (written to the audit log)")
    add_take_over(p)
    p.set_defaults(func=cmd_avoid)

    p = sub.add_parser("unavoid", help="remove a named pair's avoidance")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("first", type=PLAYER_NO, help="a player's sequence number (序号)")
    p.add_argument("second", type=PLAYER_NO, help="the other player's sequence number")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--reason", default="", help="why (written to the audit log)")
    add_take_over(p)
    p.set_defaults(func=cmd_unavoid)

    p = sub.add_parser("avoidances", help="the unit / region rules and the named pairs kept apart")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_avoidances)
