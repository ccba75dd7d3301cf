"""Registration commands: new file, demo, the registration form, sequence numbers, players, snapshots."""

from __future__ import annotations

import argparse
import sys
from datetime import date, datetime
from pathlib import Path
from typing import Any

from app.cli.common import (
    ROUND,
    SEED,
    add_take_over,
    bounded,
    group_of,
    open_file,
    output_path,
    print_json,
    writing,
)
from app.engine.types import UserError

DEFAULT_PRESET = "tianshui-2024"


#: the years an event's dates may fall in (the calendar's ends overflow the date arithmetic)
EVENT_YEARS = (1990, 2200)


def _date(text: str, option: str) -> date:
    try:
        value = date.fromisoformat(text.strip())
    except ValueError:
        raise UserError(
            f"{option} 应为日期 年-月-日（如 2025-08-01），而不是“{text}”",
            f"{option} takes a date YYYY-MM-DD (e.g. 2025-08-01), not {text!r}",
        ) from None
    low, high = EVENT_YEARS
    if not low <= value.year <= high:
        raise UserError(
            f"{option} 的日期 {value.isoformat()} 不合理：年份应在 {low}–{high} 之间",
            f"{option} {value.isoformat()} is not a plausible date: the year must be {low}-{high}",
        )
    return value


def _datetime(text: str, option: str) -> datetime:
    try:
        value = datetime.fromisoformat(text.strip().replace(" ", "T", 1))
    except ValueError:
        raise UserError(
            f"{option} 应为“年-月-日 时:分”（如 2025-07-28 18:00），而不是“{text}”",
            f"{option} takes 'YYYY-MM-DD HH:MM' (e.g. 2025-07-28 18:00), not {text!r}",
        ) from None
    low, high = EVENT_YEARS
    if not low <= value.year <= high:
        raise UserError(
            f"{option} 的时间 {value:%Y-%m-%d %H:%M} 不合理：年份应在 {low}–{high} 之间",
            f"{option} {value:%Y-%m-%d %H:%M} is not plausible: the year must be {low}-{high}",
        )
    return value.replace(second=0, microsecond=0, tzinfo=None)


def cmd_new(args: argparse.Namespace) -> int:
    """A new event: the settings of a preset (or of a regulation file, --regulation) with the event's
    own name, dates, venue, deadline and groups. Without --start the template's own dates are kept (a
    past deadline is pointed out)."""
    from app.engine.regulations import PRESET_TITLES, preset
    from app.services.tournaments import NewEvent, create_event, split_group_names

    if args.regulation and args.preset:
        raise UserError(
            "--preset 与 --regulation 只能选一个（规程文件已给出全部设置）",
            "give --preset or --regulation, not both (a regulation file holds every setting)",
        )
    if args.regulation:
        from app.services.regulation_files import create_from_regulation_file, read_regulation_file

        base = read_regulation_file(Path(args.regulation))[0]
        title = f"规程文件 {Path(args.regulation).name}"
    else:
        key = args.preset or DEFAULT_PRESET
        base = preset(key)
        title = f"规程模板：{PRESET_TITLES.get(key, (key, key))[0]}"
    start = _date(args.start, "--start") if args.start else base.start_date
    end = _date(args.end, "--end") if args.end else start + (base.end_date - base.start_date)
    if args.deadline:
        deadline = _datetime(args.deadline, "--deadline")
    else:
        lead = base.start_date - base.registration.deadline.date()
        deadline = datetime.combine(start - lead, base.registration.deadline.time())
    groups = split_group_names(args.groups) if args.groups else tuple(g.name for g in base.groups)
    event = NewEvent(
        args.name or base.event_name,
        start,
        end,
        base.venue if args.venue is None else args.venue,
        deadline,
        groups,
    )
    if args.regulation:
        create_from_regulation_file(Path(args.file), Path(args.regulation), event).close()
    else:
        create_event(Path(args.file), args.preset or DEFAULT_PRESET, event).close()
    print(f"已创建赛事文件 {args.file}：{event.name}，{start}—{end}，组别 {'、'.join(groups)}（{title}）")
    print(f"报名截止 {deadline:%Y-%m-%d %H:%M}")
    if deadline < datetime.now():
        print(
            f"注意：报名截止时间 {deadline:%Y-%m-%d %H:%M} 已过，新报名须经裁判长批准（可用 --start/--deadline 指定本届日期）",
            file=sys.stderr,
        )
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    if getattr(args, "format", None) is not None and args.format.startswith("team-"):
        from app.engine.team_presets import TEAM_FORMATS
        from app.services.team_demo import create_team_demo

        db = create_team_demo(
            Path(args.file), args.format, teams=args.team_count, seed=args.seed, played_to=args.played_to
        )
        from app.services.team_events import team_standings_view, teams_of

        try:
            count = len(teams_of(db, "团体组"))
            played = ""
            if args.played_to is not None:
                view = team_standings_view(db, "团体组")
                played = f"；团体组已赛完第 {view.rounds_played} 轮"
                played += "，全部赛完，名次已可打印" if view.final else ""
        finally:
            db.close()
        print(
            f"已创建演示赛事 {args.file}：团体赛制 {TEAM_FORMATS[args.format][0]}，{count} 个队，种子 {args.seed}"
            f"{played}"
        )
        return 0
    if getattr(args, "format", None) is not None:
        from app.engine.format_presets import DEFAULT_PLAYERS, FORMATS
        from app.services.format_demo import create_format_demo

        if args.absent:
            raise UserError(
                "--absent 只用于默认的演示赛事，不能与 --format 同用",
                "--absent is for the default demo event only, not with --format",
            )
        players = args.players if args.players_given else DEFAULT_PLAYERS[args.format]
        db = create_format_demo(
            Path(args.file), args.format, players=players, seed=args.seed, played_to=args.played_to
        )
        try:
            played = _played_text(db, args.played_to)
        finally:
            db.close()
        print(
            f"已创建演示赛事 {args.file}：赛制 {FORMATS[args.format][0]}，{players} 名棋手，种子 {args.seed}"
            f"{played}"
        )
        return 0
    from app.services.demo import create_demo

    db = create_demo(
        Path(args.file), seed=args.seed, players=args.players, absent=args.absent, played_to=args.played_to
    )
    try:
        played = _played_text(db, args.played_to)
    finally:
        db.close()
    print(f"已创建演示赛事 {args.file}：{args.players} 名棋手，种子 {args.seed}{played}")
    return 0


class _Players(argparse.Action):
    """--players, remembering that it was given (a format's demo has its own default)."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.players_given = True


def _played_text(db: Any, played_to: int | str | None) -> str:
    """What ``--played-to`` left, group by group (the round each group reached, or its champion)."""
    if played_to is None:
        return ""
    from app.services.rounds import rounds_of
    from app.services.tournaments import tournament_info

    parts = []
    for group in (g.name for g in tournament_info(db).groups if g.players):
        rounds = rounds_of(db, group)
        last = max((r.number for r in rounds if r.closed), default=0)
        parts.append(f"{group}已赛完第 {last} 轮")
    ending = "，全部赛完，名次与奖金已可打印" if played_to == "end" else ""
    return "；" + "，".join(parts) + ending


def played_to(text: str) -> int | str:
    """An argparse ``type``: ``end`` or a round number (checked against the event by the service)."""
    if text.strip().lower() == "end":
        return "end"
    try:
        return ROUND(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"“{text}”应为轮次（如 5）或 end (a round such as 5, or end)"
        ) from None


def cmd_template(args: argparse.Namespace) -> int:
    from app.reports.excel_template import template_title, write_registration_template

    out = output_path(args.xlsx)
    if args.event and args.regulation:
        raise UserError("--event 与 --regulation 只能选一个", "give --event or --regulation, not both")
    if args.event:
        from app.services.excel_import import write_template

        with open_file(args.event, read_only=True) as db:
            write_template(db, out)
    elif args.regulation:
        from app.services.regulation_files import read_regulation_file

        reg, _ = read_regulation_file(args.regulation)
        write_registration_template(out, [g.name for g in reg.groups], title=template_title(reg.event_name))
    else:
        write_registration_template(out)
    print(f"已导出报名表模板 {args.xlsx}")
    return 0


def cmd_import_players(args: argparse.Namespace) -> int:
    from app.services.excel_import import ImportRefused, import_players

    override = args.override_deadline or ""
    if args.override_deadline is not None and not override.strip():
        raise UserError("--override-deadline 须写明理由", "--override-deadline needs a reason")
    with writing(args) as db:
        try:
            result = import_players(
                db,
                Path(args.xlsx),
                mode="valid_only" if args.valid_only else "all_or_nothing",
                override_reason=override,
            )
        except ImportRefused as refused:
            problems = refused.preview.problems
            bad = len(refused.preview.invalid)
            name = Path(args.xlsx).name
            late = any("截止" in p.message_zh for p in problems)
            outside = any("参赛资格" in p.message_zh for p in problems)
            hint_zh = "\n（过了报名截止时间的报名须加 --override-deadline 理由）" if late else ""
            hint_en = "\n(entries after the deadline need --override-deadline REASON)" if late else ""
            if outside:
                hint_zh += "\n（破例接受不符合参赛资格的报名须加 --override 理由）"
                hint_en += "\n(to accept entries outside the group's conditions: --override REASON)"
            namesakes = [(r, w) for r in refused.preview.rows for w in r.warnings]
            raise UserError(
                f"{name} 中有 {bad} 行有问题，未导入任何选手：\n"
                + "\n".join(str(p) for p in problems)
                + "".join(f"\n注意：第 {r.row} 行 {r.entry.name}：{w.message_zh}" for r, w in namesakes)
                + hint_zh,
                f"{name}: {bad} row(s) have problems; nothing was imported:\n"
                + "\n".join(p.en for p in problems)
                + "".join(f"\nnote: row {r.row} {r.entry.name}: {w.message_en}" for r, w in namesakes)
                + hint_en,
            ) from None
    for row in result.skipped:
        for problem in row.problems:
            print(f"未导入 {problem}（{problem.en}）", file=sys.stderr)
    # the same warnings as the window's import preview (not refusals: the arbiter checks them)
    flagged = [r for r in result.preview.rows if r.ok and r.warnings]
    for row in flagged:
        for warning in row.warnings:
            print(
                f"注意：第 {row.row} 行 {row.entry.name}：{warning.message_zh}"
                f"（row {row.row} {row.entry.name}: {warning.message_en}）",
                file=sys.stderr,
            )
    skipped = f"，{len(result.skipped)} 行有问题未导入" if result.skipped else ""
    print(f"已导入 {len(result.added)} 名棋手{skipped}")
    if flagged:
        print(f"其中 {len(flagged)} 行与他人同名同出生日期，请核对是否重复报名（用 players 命令查看）")
    return 0


def cmd_draw_numbers(args: argparse.Namespace) -> int:
    from app.services.registration import NumbersMethod, draw_numbers, new_seed
    from app.services.tournaments import tournament_info

    with writing(args) as db:
        groups = [args.group] if args.group else [g.name for g in tournament_info(db).groups if g.players]
        method: NumbersMethod = "rating" if args.by_rating else "lot"
        seed = new_seed() if args.seed is None else args.seed
        for group in groups:
            numbers = draw_numbers(db, group, method=method, seed=seed)
            how = "按等级分" if args.by_rating else "抽签"
            print(f"{group}：{len(numbers)} 名棋手的序号已{how}产生，随机种子 {seed}")
    return 0


_STATUS_ZH = {"active": "参赛", "withdrawn": "退赛", "disqualified": "取消成绩"}


def cmd_players(args: argparse.Namespace) -> int:
    from app.services.snapshot import export_snapshot

    with open_file(args.file, read_only=True) as db:
        snap = export_snapshot(db)
    players = snap["players"]
    groups = [g["name"] for g in snap["groups"]]
    if args.group:
        if args.group not in groups:
            names = "、".join(groups)
            raise UserError(
                f"没有名为“{args.group}”的组别（现有：{names}）",
                f"no group named {args.group!r} (groups: {', '.join(groups)})",
            )
        players = [p for p in players if p["group"] == args.group]
    if args.json:
        print_json(players)
        return 0
    for p in players:
        no = "" if p["no"] is None else p["no"]
        flags = ("已缴费" if p["fee_paid"] else "未缴费") + (" 已报到" if p["checked_in"] else " 未报到")
        status = _STATUS_ZH.get(p["status"], p["status"])
        rank = f"\t排名第{p['rating_rank']}名" if p.get("rating_rank") else ""
        print(f"{p['group']}\t{no}\t{p['name']}\t{p['team'] or p['unit'] or ''}\t{flags}\t{status}{rank}")
    return 0


def cmd_rating_rank(args: argparse.Namespace) -> int:
    from app.services.registration import set_rating_rank

    with writing(args) as db:
        group = group_of(db, args.group)
        view = set_rating_rank(db, group, args.player, args.rank or None, override_reason=args.override or "")
    shown = f"等级分排名第 {view.rating_rank} 名" if view.rating_rank else "无等级分排名"
    print(f"{group} {view.no or ''}{'号 ' if view.no else ''}{view.name}：{shown}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from app.services.snapshot import write_snapshot_file

    out = output_path(args.out)
    with open_file(args.file, read_only=True) as db:
        write_snapshot_file(db, out)
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
    p.add_argument(
        "--preset", default=None, help=f"the regulation preset to start from (default: {DEFAULT_PRESET})"
    )
    p.add_argument(
        "--regulation",
        default=None,
        metavar="TOML",
        help="start from a regulation file (exported from an earlier event) instead of a preset",
    )
    p.add_argument("--name", default=None, help="the event's name (default: the preset's)")
    p.add_argument("--start", default=None, help="first day of play, YYYY-MM-DD (default: the preset's)")
    p.add_argument(
        "--end", default=None, help="last day of play, YYYY-MM-DD (default: as long as the preset's)"
    )
    p.add_argument("--venue", default=None, help="the venue (default: the preset's)")
    p.add_argument(
        "--deadline",
        default=None,
        help="registration deadline 'YYYY-MM-DD HH:MM' (default: as long before the start as the preset's)",
    )
    p.add_argument(
        "--groups", default=None, help="the groups, e.g. '公开组,少年组' (default: the preset's groups)"
    )
    p.set_defaults(func=cmd_new)

    from app.engine.format_presets import FORMATS

    p = sub.add_parser("demo", help="create the demo event / 创建演示赛事")
    p.add_argument("file", help="the tournament file to create (.xqt)")
    p.add_argument("--seed", type=SEED, default=2024, help="random seed: the same seed gives the same event")
    p.add_argument(
        "--players",
        type=bounded("人数", "players", 0, 1_000_000),
        default=160,
        action=_Players,
        help="number of players (both groups together, 4 to the preset's capacity; with --format one group, "
        "a default per format)",
    )
    from app.engine.team_presets import TEAM_FORMATS

    p.add_argument(
        "--format",
        choices=sorted(FORMATS) + sorted(TEAM_FORMATS),
        default=None,
        help="a demo event of this format: one group, its players registered and numbered (team-…: teams "
        "registered in order, team numbers drawn)",
    )
    p.add_argument(
        "--team-count",
        type=bounded("队数", "teams", 2, 128),
        default=None,
        help="with a team format: the number of teams (a default per format)",
    )
    p.set_defaults(players_given=False)
    p.add_argument(
        "--absent",
        type=bounded("人数", "absent", 0, 1_000_000),
        default=0,
        help="leave about N unpaid and N absent",
    )
    p.add_argument(
        "--played-to",
        type=played_to,
        default=None,
        metavar="N|end",
        help="play the event through the services to round N of every group, or to the end "
        "(knockout, final ranking and prizes included)",
    )
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("template", help="export the empty registration form (附件 2) / 导出报名表")
    p.add_argument("xlsx", help="the .xlsx file to write")
    p.add_argument("--event", metavar="XQT", help="title and groups from this tournament file")
    p.add_argument("--regulation", metavar="TOML", help="title and groups from this regulation file")
    p.set_defaults(func=cmd_template)

    p = sub.add_parser("import-players", help="import players from the registration form / 导入报名表")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("xlsx", help="the filled-in registration form (.xlsx)")
    p.add_argument(
        "--valid-only", action="store_true", help="write the valid rows even if others have errors"
    )
    p.add_argument(
        "--override-deadline",
        "--override",
        dest="override_deadline",
        metavar="REASON",
        default=None,
        help="accept entries after the registration deadline or outside their group's conditions "
        "(参赛资格), for this reason (written to the audit log)",
    )
    add_take_over(p)
    p.set_defaults(func=cmd_import_players)

    p = sub.add_parser("draw-numbers", help="draw sequence numbers by lot / 抽签定序号")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="only this group (default: every group with players)")
    p.add_argument(
        "--seed", type=SEED, default=None, help="the lot's random seed (default: a new one, printed)"
    )
    p.add_argument("--by-rating", action="store_true", help="rated players first by rating, the rest by lot")
    add_take_over(p)
    p.set_defaults(func=cmd_draw_numbers)

    p = sub.add_parser("players", help="list the players / 棋手名单")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="only this group")
    p.add_argument("--json", action="store_true", help="print the snapshot's player objects as JSON")
    p.set_defaults(func=cmd_players)

    p = sub.add_parser(
        "rating-rank",
        help="set a player's rating-list rank (等级分排名), checked against the group's conditions",
    )
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument("--player", required=True, help="the player's sequence number or name")
    p.add_argument(
        "--rank",
        required=True,
        type=bounded("等级分排名", "rank", 0, 99_999),
        help="the place on the list; 0: none",
    )
    p.add_argument("--override", default=None, help="accept outside the group's conditions, with this reason")
    add_take_over(p)
    p.set_defaults(func=cmd_rating_rank)

    p = sub.add_parser("export", help="export a full-fidelity snapshot (JSON) / 导出快照")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("out", help="the JSON file to write")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="create a tournament file from a snapshot / 从快照创建")
    p.add_argument("snapshot", help="the snapshot JSON file")
    p.add_argument("file", help="the tournament file to create (.xqt)")
    p.set_defaults(func=cmd_import)
