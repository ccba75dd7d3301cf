"""xqarbiter — the headless command line. Every command goes through the same services as the window.

Errors an arbiter can cause are printed to stderr (Chinese, then English) with exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

from app.engine.types import UserError

Handler = Callable[[argparse.Namespace], int]


def _print_json(value: Any) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=1, default=str))


def _open(path: str, *, read_only: bool = False) -> Any:
    from app.services.tournaments import open_tournament

    return open_tournament(Path(path), read_only=read_only)


# --------------------------------------------------------------------------- foundation commands


def cmd_new(args: argparse.Namespace) -> int:
    from app.services.tournaments import create_tournament

    db = create_tournament(Path(args.file), args.preset, name=args.name)
    db.close()
    print(f"已创建赛事文件 {args.file}（预设 {args.preset}）")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from app.services.demo import create_demo

    db = create_demo(Path(args.file), seed=args.seed, players=args.players, absent=args.absent)
    db.close()
    print(f"已创建演示赛事 {args.file}：{args.players} 名棋手，种子 {args.seed}")
    return 0


def cmd_template(args: argparse.Namespace) -> int:
    from app.reports.excel_template import write_registration_template

    write_registration_template(Path(args.xlsx))
    print(f"已导出报名表模板 {args.xlsx}")
    return 0


def cmd_import_players(args: argparse.Namespace) -> int:
    from app.services.excel_import import import_players

    db = _open(args.file)
    try:
        report = import_players(
            db, Path(args.xlsx), mode="valid_only" if args.valid_only else "all_or_nothing"
        )
    finally:
        db.close()
    for problem in report.problems:
        print(problem, file=sys.stderr)
    print(f"导入 {report.written} 名棋手，{len(report.problems)} 处问题")
    return 0 if report.written or not report.problems else 2


def cmd_draw_numbers(args: argparse.Namespace) -> int:
    from app.services.registration import draw_numbers
    from app.services.tournaments import tournament_info

    db = _open(args.file)
    try:
        groups = [args.group] if args.group else [g.name for g in tournament_info(db).groups]
        method = "rating" if args.by_rating else "lot"
        for group in groups:
            seed = draw_numbers(db, group, method=method, seed=args.seed)
            print(f"{group}：序号已抽签产生（{method}，种子 {seed}）")
    finally:
        db.close()
    return 0


def cmd_players(args: argparse.Namespace) -> int:
    from app.services.snapshot import export_snapshot

    db = _open(args.file, read_only=True)
    try:
        players = export_snapshot(db)["players"]
    finally:
        db.close()
    if args.group:
        players = [p for p in players if p["group"] == args.group]
    if args.json:
        _print_json(players)
        return 0
    for p in players:
        no = "" if p["no"] is None else p["no"]
        flags = ("已缴费" if p["fee_paid"] else "未缴费") + (" 已报到" if p["checked_in"] else " 未报到")
        print(f"{p['group']}\t{no}\t{p['name']}\t{p['team'] or p['unit'] or ''}\t{flags}\t{p['status']}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from app.services.snapshot import write_snapshot_file

    db = _open(args.file, read_only=True)
    try:
        write_snapshot_file(db, Path(args.out))
    finally:
        db.close()
    print(f"已导出快照 {args.out}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from app.services.snapshot import import_snapshot, read_snapshot_file

    db = import_snapshot(read_snapshot_file(Path(args.snapshot)), Path(args.file))
    db.close()
    print(f"已从快照创建赛事文件 {args.file}")
    return 0


def add_foundation_commands(sub: Any) -> None:
    p = sub.add_parser("new", help="create a tournament file from a preset / 新建赛事")
    p.add_argument("file")
    p.add_argument("--preset", default="tianshui-2024")
    p.add_argument("--name", default=None)
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("demo", help="create the demo event / 创建演示赛事")
    p.add_argument("file")
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--players", type=int, default=160)
    p.add_argument("--absent", type=int, default=0, help="leave about N unpaid and N absent")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("template", help="export the empty registration form (附件 2)")
    p.add_argument("xlsx")
    p.set_defaults(func=cmd_template)

    p = sub.add_parser("import-players", help="import players from the registration form")
    p.add_argument("file")
    p.add_argument("xlsx")
    p.add_argument(
        "--valid-only", action="store_true", help="write the valid rows even if others have errors"
    )
    p.set_defaults(func=cmd_import_players)

    p = sub.add_parser("draw-numbers", help="draw sequence numbers by lot / 抽签")
    p.add_argument("file")
    p.add_argument("--group", default=None)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--by-rating", action="store_true")
    p.set_defaults(func=cmd_draw_numbers)

    p = sub.add_parser("players", help="list players")
    p.add_argument("file")
    p.add_argument("--group", default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_players)

    p = sub.add_parser("export", help="export a snapshot (JSON)")
    p.add_argument("file")
    p.add_argument("out")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="create a tournament file from a snapshot")
    p.add_argument("snapshot")
    p.add_argument("file")
    p.set_defaults(func=cmd_import)


COMMAND_GROUPS: list[Callable[[Any], None]] = [add_foundation_commands]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="xqarbiter", description="象棋赛事编排系统 Xiangqi Arbiter")
    sub = parser.add_subparsers(dest="command", required=True)
    for add in COMMAND_GROUPS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, ValueError):
            stream.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    args = build_parser().parse_args(argv)
    handler: Handler = args.func
    try:
        return handler(args)
    except UserError as exc:
        print(f"错误：{exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
