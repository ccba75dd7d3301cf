"""Discipline commands: violations, forfeits, withdrawal, disqualification."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.common import group_of, open_file, player_id
from app.engine.types import UserError


def cmd_violation(args: argparse.Namespace) -> int:
    from app.services.discipline import record_violation

    with open_file(args.file) as db:
        group = group_of(db, args.group)
        record_violation(db, group, args.player, args.round, args.kind, args.reason)
    print(f"已记录 {args.player} 号第 {args.round} 轮犯规：{args.reason}")
    return 0


def cmd_forfeit(args: argparse.Namespace) -> int:
    from app.services.discipline import agreed_result, forfeit

    with open_file(args.file) as db:
        group = group_of(db, args.group)
        if args.kind == "agreed":
            if args.board is None:
                raise UserError("协商结果须用 --board 指定台次", "an agreed result needs --board")
            agreed_result(db, group, args.round, args.board, args.reason)
            print(f"第 {args.round} 轮第 {args.board} 台按双方弃权处理")
            return 0
        if args.player is None:
            raise UserError("请用 --player 指定棋手序号", "give --player")
        result = forfeit(db, group, args.round, args.player, args.kind, args.reason)
    print(f"{args.player} 号第 {args.round} 轮：{result.zh}")
    return 0


def cmd_withdraw(args: argparse.Namespace) -> int:
    from app.services.registration import withdraw_player

    with open_file(args.file) as db:
        group = group_of(db, args.group)
        withdraw_player(db, player_id(db, group, args.player), reason=args.reason)
    print(f"{args.player} 号已退赛（已赛成绩有效）")
    return 0


def cmd_disqualify(args: argparse.Namespace) -> int:
    from app.services.discipline import disqualify

    with open_file(args.file) as db:
        group = group_of(db, args.group)
        disqualify(db, group, args.player, args.games, args.reason)
    how = "已赛对局有效" if args.games == "stand" else "已赛对局作废（对手按弃权胜计）"
    print(f"{args.player} 号已取消成绩，{how}")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("violation", help="record a violation (犯规) with a reason")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--player", type=int, required=True, help="the player's sequence number (序号)")
    p.add_argument("--round", type=int, required=True, help="the round of the violation")
    p.add_argument(
        "--kind",
        default="other",
        help="refused_record, short_draw_record, other (also phone, late, left_table: see forfeit)",
    )
    p.add_argument("--reason", required=True, help="what happened (written to the audit log)")
    p.set_defaults(func=cmd_violation)

    p = sub.add_parser("forfeit", help="late / left the table / phone (判负), or an agreed result")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--round", type=int, required=True, help="the round")
    p.add_argument("--player", type=int, default=None, help="the player who forfeits (序号)")
    p.add_argument("--board", type=int, default=None, help="the board (for an agreed result)")
    p.add_argument(
        "--kind",
        choices=["late", "left_table", "phone", "agreed"],
        required=True,
        help="late 迟到, left_table 离席 (forfeit); phone 手机 (loss); agreed 协商结果 (double forfeit)",
    )
    p.add_argument("--reason", default="", help="what happened (written to the audit log)")
    p.set_defaults(func=cmd_forfeit)

    p = sub.add_parser("withdraw", help="withdraw a player (退赛): results stand")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--player", type=int, required=True, help="the player's sequence number (序号)")
    p.add_argument("--reason", required=True, help="why (written to the audit log)")
    p.set_defaults(func=cmd_withdraw)

    p = sub.add_parser("disqualify", help="disqualify (取消成绩): games stand or are annulled")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--player", type=int, required=True, help="the player's sequence number (序号)")
    p.add_argument(
        "--games",
        choices=["stand", "annul"],
        required=True,
        help="stand: games played count for the opponents; annul: they become forfeit wins",
    )
    p.add_argument("--reason", required=True, help="why (written to the audit log)")
    p.set_defaults(func=cmd_disqualify)
