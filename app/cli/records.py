"""Game-record commands: records owed, paper records handed in, PGN records attached and exported."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.cli.common import open_file
from app.engine.types import UserError


def cmd_records_due(args: argparse.Namespace) -> int:
    from app.services.records import record_duty_list

    with open_file(args.file, read_only=True) as db:
        lines = record_duty_list(db, args.group, args.round)
    for ln in lines:
        print(
            f"第{ln.board:>2}台 {ln.recorder_no:>4} {ln.recorder_name:<6} {'已交' if ln.received else '未交'}  {ln.reason}"
        )
    return 0


def cmd_hand_in(args: argparse.Namespace) -> int:
    from app.services.records import designate_records, hand_in_record

    with open_file(args.file) as db:
        if args.designate:
            designate_records(db, args.group, args.round, args.designate)
            print(f"第 {args.round} 轮指定录谱：第 {'、'.join(map(str, args.designate))} 台")
        if args.board is not None:
            if args.moves is None:
                raise UserError("请用 --moves 给出棋谱的回合数", "give the record's move count with --moves")
            found = hand_in_record(db, args.group, args.round, args.board, args.moves)
            print(f"第 {args.round} 轮第 {args.board} 台棋谱已交（{args.moves} 回合）")
            for v in found:
                print(f"犯规：{v.player_no} 号 {v.reason}")
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    from app.services.game_records import attach_record

    try:
        data = Path(args.pgn).read_bytes()
    except OSError as exc:
        raise UserError(f"无法读取棋谱文件 {args.pgn}：{exc}", f"cannot read {args.pgn}: {exc}") from None
    with open_file(args.file) as db:
        attached = attach_record(db, args.group, args.round, args.board, data, game_no=args.game)
    print(f"{args.group} 第 {args.round} 轮 第 {args.board} 台：棋谱已保存，{attached.full_moves} 回合")
    for v in attached.violations:
        print(f"违规：{v.reason}")
    for f in attached.natural_limit:
        print(f"提示：{f.zh}")
    return 0


def cmd_records(args: argparse.Namespace) -> int:
    from app.services.game_records import export_round_records

    with open_file(args.file, read_only=True) as db:
        text = export_round_records(db, args.group, args.round)
    if not text:
        raise UserError("没有可导出的棋谱", "there are no records to export")
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"已导出 {text.count('[Game ')} 局棋谱到 {args.out}")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("records-due", help="who owes which game record (录谱) in a round")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--round", type=int, required=True, help="the round")
    p.set_defaults(func=cmd_records_due)

    p = sub.add_parser("hand-in", help="a paper record handed in (with its move count), or designate boards")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--round", type=int, required=True, help="the round")
    p.add_argument("--board", type=int, default=None, help="the board whose record is handed in")
    p.add_argument("--moves", type=int, default=None, help="回合 (full moves) of the record")
    p.add_argument("--designate", type=int, nargs="*", default=None, help="boards whose winners must record")
    p.set_defaults(func=cmd_hand_in)

    p = sub.add_parser("record", help="attach a game record (PGN, UTF-8 or GBK) to a board / 录入棋谱")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--round", type=int, required=True, help="the round")
    p.add_argument("--board", type=int, required=True, help="the board (台次)")
    p.add_argument("--game", type=int, default=1, help="game of a knockout match (default 1)")
    p.add_argument("--pgn", required=True, help="the game's PGN file")
    p.set_defaults(func=cmd_record)

    p = sub.add_parser("records", help="export stored game records as one PGN file / 导出棋谱")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="only this group")
    p.add_argument("--round", type=int, default=None, help="only this round")
    p.add_argument("-o", "--out", required=True, help="the PGN file to write")
    p.set_defaults(func=cmd_records)
