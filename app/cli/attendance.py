"""Absence and re-entry: excuse a player for a round (请假), cancel it, list absences, re-entry."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.common import (
    PLAYER_NO,
    ROUND,
    add_take_over,
    group_of,
    open_file,
    player_id,
    print_json,
    writing,
)


def cmd_excuse(args: argparse.Namespace) -> int:
    from app.services.attendance import excuse_absence

    with writing(args) as db:
        group = group_of(db, args.group)
        excuse_absence(db, group, args.player, args.round, args.reason)
    print(f"{args.player} 号第 {args.round} 轮请假：不参加编排，本轮计 0 分，不作弃权")
    return 0


def cmd_cancel_excuse(args: argparse.Namespace) -> int:
    from app.services.attendance import cancel_absence

    with writing(args) as db:
        group = group_of(db, args.group)
        cancel_absence(db, group, args.player, args.round, reason=args.reason)
    print(f"已取消 {args.player} 号第 {args.round} 轮的请假")
    return 0


def cmd_absences(args: argparse.Namespace) -> int:
    from app.services.attendance import absences

    with open_file(args.file, read_only=True) as db:
        group = group_of(db, args.group)
        listed = absences(db, group)
    if args.json:
        print_json([a.as_json() for a in listed])
        return 0
    if not listed:
        print(f"{group}没有请假或后报名的轮次")
    for a in listed:
        reason = f"（{a.reason}）" if a.reason else ""
        print(f"第 {a.round} 轮  {a.no:>3} 号 {a.name}  {a.kind.zh}  {a.points} 分{reason}")
    return 0


def cmd_reenter(args: argparse.Namespace) -> int:
    from app.services.attendance import reenter_player

    with writing(args) as db:
        group = group_of(db, args.group)
        first = reenter_player(
            db, player_id(db, group, args.player), reason=args.reason, from_round=args.from_round
        )
    print(f"{args.player} 号恢复参赛，自第 {first} 轮起参加编排（缺赛轮次计 0 分）")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser(
        "excuse", help="excuse a player from one round (请假): not paired, 0 points, no forfeit"
    )
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--player", type=PLAYER_NO, required=True, help="the player's sequence number (序号)")
    p.add_argument("--round", type=ROUND, required=True, help="the round, not paired yet")
    p.add_argument("--reason", required=True, help="why (written to the audit log)")
    add_take_over(p)
    p.set_defaults(func=cmd_excuse)

    p = sub.add_parser("cancel-excuse", help="cancel an excused absence before its round is paired")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--player", type=PLAYER_NO, required=True, help="the player's sequence number (序号)")
    p.add_argument("--round", type=ROUND, required=True, help="the round of the absence")
    p.add_argument("--reason", default="", help="why (written to the audit log)")
    add_take_over(p)
    p.set_defaults(func=cmd_cancel_excuse)

    p = sub.add_parser(
        "absences", help="list excused absences and late entries' missed rounds with their points"
    )
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_absences)

    p = sub.add_parser("reenter", help="a withdrawn player plays again (恢复参赛), logged")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--player", type=PLAYER_NO, required=True, help="the player's sequence number (序号)")
    p.add_argument(
        "--from-round", type=ROUND, default=None, help="first round paired again (default: the next)"
    )
    p.add_argument("--reason", required=True, help="why (written to the audit log)")
    add_take_over(p)
    p.set_defaults(func=cmd_reenter)
