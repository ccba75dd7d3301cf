"""Registration commands: new file, demo, the registration form, sequence numbers, players, snapshots."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from app.cli.common import open_file, print_json


def cmd_new(args: argparse.Namespace) -> int:
    from app.services.tournaments import create_tournament

    if args.regulation:
        from app.services.regulation_files import create_from_regulation_file

        create_from_regulation_file(Path(args.file), Path(args.regulation), name=args.name).close()
        print(f"已创建赛事文件 {args.file}（规程文件 {args.regulation}）")
        return 0
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

    with open_file(args.file) as db:
        report = import_players(
            db, Path(args.xlsx), mode="valid_only" if args.valid_only else "all_or_nothing"
        )
    for problem in report.problems:
        print(problem, file=sys.stderr)
    print(f"导入 {report.written} 名棋手，{len(report.problems)} 处问题")
    return 0 if report.written or not report.problems else 2


def cmd_draw_numbers(args: argparse.Namespace) -> int:
    from app.services.registration import draw_numbers, new_seed
    from app.services.tournaments import tournament_info

    with open_file(args.file) as db:
        groups = [args.group] if args.group else [g.name for g in tournament_info(db).groups if g.players]
        method = "rating" if args.by_rating else "lot"
        seed = new_seed() if args.seed is None else args.seed
        for group in groups:
            numbers = draw_numbers(db, group, method=method, seed=seed)
            how = "按等级分" if args.by_rating else "抽签"
            print(f"{group}：{len(numbers)} 名棋手的序号已{how}产生，随机种子 {seed}")
    return 0


def cmd_players(args: argparse.Namespace) -> int:
    from app.services.snapshot import export_snapshot

    with open_file(args.file, read_only=True) as db:
        players = export_snapshot(db)["players"]
    if args.group:
        players = [p for p in players if p["group"] == args.group]
    if args.json:
        print_json(players)
        return 0
    for p in players:
        no = "" if p["no"] is None else p["no"]
        flags = ("已缴费" if p["fee_paid"] else "未缴费") + (" 已报到" if p["checked_in"] else " 未报到")
        print(f"{p['group']}\t{no}\t{p['name']}\t{p['team'] or p['unit'] or ''}\t{flags}\t{p['status']}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from app.services.snapshot import write_snapshot_file

    with open_file(args.file, read_only=True) as db:
        write_snapshot_file(db, Path(args.out))
    print(f"已导出快照 {args.out}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from app.services.snapshot import import_snapshot, read_snapshot_file

    db = import_snapshot(read_snapshot_file(Path(args.snapshot)), Path(args.file))
    db.close()
    print(f"已从快照创建赛事文件 {args.file}")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("new", help="create a tournament file from a preset / 新建赛事")
    p.add_argument("file", help="the tournament file to create (.xqt)")
    p.add_argument("--preset", default="tianshui-2024", help="the regulation preset to start from")
    p.add_argument("--name", default=None, help="the event's name (default: the preset's)")
    p.add_argument(
        "--regulation", default=None, metavar="TOML", help="start from a regulation file instead of a preset"
    )
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("demo", help="create the demo event / 创建演示赛事")
    p.add_argument("file", help="the tournament file to create (.xqt)")
    p.add_argument("--seed", type=int, default=2024, help="random seed: the same seed gives the same event")
    p.add_argument("--players", type=int, default=160, help="number of players (both groups together)")
    p.add_argument("--absent", type=int, default=0, help="leave about N unpaid and N absent")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("template", help="export the empty registration form (附件 2) / 导出报名表")
    p.add_argument("xlsx", help="the .xlsx file to write")
    p.set_defaults(func=cmd_template)

    p = sub.add_parser("import-players", help="import players from the registration form / 导入报名表")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("xlsx", help="the filled-in registration form (.xlsx)")
    p.add_argument(
        "--valid-only", action="store_true", help="write the valid rows even if others have errors"
    )
    p.set_defaults(func=cmd_import_players)

    p = sub.add_parser("draw-numbers", help="draw sequence numbers by lot / 抽签定序号")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="only this group (default: every group with players)")
    p.add_argument(
        "--seed", type=int, default=None, help="the lot's random seed (default: a new one, printed)"
    )
    p.add_argument("--by-rating", action="store_true", help="rated players first by rating, the rest by lot")
    p.set_defaults(func=cmd_draw_numbers)

    p = sub.add_parser("players", help="list the players / 棋手名单")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="only this group")
    p.add_argument("--json", action="store_true", help="print the snapshot's player objects as JSON")
    p.set_defaults(func=cmd_players)

    p = sub.add_parser("export", help="export a full-fidelity snapshot (JSON) / 导出快照")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("out", help="the JSON file to write")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="create a tournament file from a snapshot / 从快照创建")
    p.add_argument("snapshot", help="the snapshot JSON file")
    p.add_argument("file", help="the tournament file to create (.xqt)")
    p.set_defaults(func=cmd_import)
