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

    with _open(args.file) as db:
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

    with _open(args.file) as db:
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

    with _open(args.file, read_only=True) as db:
        players = export_snapshot(db)["players"]
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

    with _open(args.file, read_only=True) as db:
        write_snapshot_file(db, Path(args.out))
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


# --------------------------------------------------------------------------- rounds and results


def cmd_pairings(args: argparse.Namespace) -> int:
    from app.services.rounds import round_view, rounds_of

    with _open(args.file, read_only=True) as db:
        number = args.round or max((r.number for r in rounds_of(db, args.group)), default=0)
        if not number:
            raise UserError(f"{args.group}尚未编排任何轮次", f"{args.group} has no rounds yet")
        view = round_view(db, args.group, number)
    if args.json:
        _print_json(
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
    from app.services.knockout import enter_match_result
    from app.services.results import enter_result

    if args.match is None and (args.board is None or args.round is None):
        raise UserError(
            "请用 --round 与 --board 指定台次（淘汰赛也可用 --match 与 --game）",
            "give --round and --board (or --match and --game for a knockout game)",
        )
    with _open(args.file) as db:
        if args.match is not None:
            if args.game is None:
                raise UserError("淘汰赛成绩须用 --game 指定第几局", "a knockout result needs --game")
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
    print(f"{args.group} {where}：{args.result}")
    return 0


def cmd_results(args: argparse.Namespace) -> int:
    from app.services.results import enter_results, parse_result_entries

    try:
        data = json.loads(Path(args.input).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UserError(
            f"无法读取成绩文件 {args.input}：{exc}", f"cannot read results file {args.input}: {exc}"
        ) from None
    entries = parse_result_entries(data)
    with _open(args.file) as db:
        changed = enter_results(db, args.group, args.round, entries, reason=args.reason)
    print(f"已录入 {changed} 台成绩")
    return 0


def cmd_close_round(args: argparse.Namespace) -> int:
    from app.services.records import confirm_refusals, refusals_at_close
    from app.services.rounds import close_round

    with _open(args.file) as db:
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


def add_round_commands(sub: Any) -> None:
    p = sub.add_parser("pairings", help="show a round's pairings / 对阵")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--round", type=int, default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_pairings)

    p = sub.add_parser("result", help="enter one result: 1-0, 0-1, =, +-, -+, --")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--round", type=int, default=None)
    p.add_argument("--board", type=int, default=None)
    p.add_argument("--match", default=None, help="knockout: the match code (QF1, SF2, F, 3RD, P5 …)")
    p.add_argument("--game", type=int, default=None, help="knockout: game number within the match")
    p.add_argument("--reason", default="", help="required to correct a closed round")
    p.add_argument("result")
    p.set_defaults(func=cmd_result)

    p = sub.add_parser("results", help="enter a round's results from JSON (all or nothing)")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--in", dest="input", required=True)
    p.add_argument("--reason", default="")
    p.set_defaults(func=cmd_results)

    p = sub.add_parser("close-round", help="close a round once every result is in")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--round", type=int, required=True)
    p.add_argument(
        "--confirm-refusals", action="store_true", help="record the records still owed as refusals (拒不录谱)"
    )
    p.set_defaults(func=cmd_close_round)


def _command_groups() -> list[Callable[[Any], None]]:
    from app.cli_event import add_event_commands
    from app.cli_exports import add_export_commands
    from app.cli_records import add_record_commands
    from app.cli_safety import add_safety_commands

    return [
        add_foundation_commands,
        add_round_commands,
        add_event_commands,
        add_safety_commands,
        add_export_commands,
        add_record_commands,
    ]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="xqarbiter", description="象棋赛事编排系统 Xiangqi Arbiter")
    sub = parser.add_subparsers(dest="command", required=True)
    for add in _command_groups():
        add(sub)
    return parser


_DASH_RESULTS = {"-+": "red_forfeit", "--": "double_forfeit"}


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, ValueError):
            stream.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "result" and argv[-1] in _DASH_RESULTS:
        # "-+" and "--" look like options to argparse: give it the snapshot code instead
        argv[-1] = _DASH_RESULTS[argv[-1]]
    args = build_parser().parse_args(argv)
    handler: Handler = args.func
    try:
        return handler(args)
    except UserError as exc:
        print(f"错误：{exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head and friends
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
