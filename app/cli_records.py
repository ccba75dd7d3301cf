"""Command-line commands for game records (棋谱): attach a PGN to a board, export a round's records.

Registered by ``app.cli`` (``_command_groups``) through :func:`add_record_commands`.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.engine.types import UserError


def cmd_record(args: argparse.Namespace) -> int:
    from app.services.game_records import attach_record
    from app.services.tournaments import open_tournament

    try:
        data = Path(args.pgn).read_bytes()
    except OSError as exc:
        raise UserError(f"无法读取棋谱文件 {args.pgn}：{exc}", f"cannot read {args.pgn}: {exc}") from None
    with open_tournament(Path(args.file)) as db:
        attached = attach_record(db, args.group, args.round, args.board, data, game_no=args.game)
    print(f"{args.group} 第 {args.round} 轮 第 {args.board} 台：棋谱已保存，{attached.full_moves} 回合")
    for v in attached.violations:
        print(f"违规：{v.reason}")
    for f in attached.natural_limit:
        print(f"提示：{f.zh}")
    return 0


def cmd_records(args: argparse.Namespace) -> int:
    from app.services.game_records import export_round_records
    from app.services.tournaments import open_tournament

    with open_tournament(Path(args.file), read_only=True) as db:
        text = export_round_records(db, args.group, args.round)
    if not text:
        raise UserError("没有可导出的棋谱", "there are no records to export")
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"已导出 {text.count('[Game ')} 局棋谱到 {args.out}")
    return 0


def add_record_commands(sub: Any) -> None:
    p = sub.add_parser("record", help="attach a game record (PGN, UTF-8 or GBK) to a board / 录入棋谱")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--board", type=int, required=True)
    p.add_argument("--game", type=int, default=1, help="game of a knockout match (default 1)")
    p.add_argument("--pgn", required=True, help="the game's PGN file")
    p.set_defaults(func=cmd_record)

    p = sub.add_parser("records", help="export stored game records as one PGN file / 导出棋谱")
    p.add_argument("file")
    p.add_argument("--group", default=None)
    p.add_argument("--round", type=int, default=None)
    p.add_argument("-o", "--out", required=True)
    p.set_defaults(func=cmd_records)
