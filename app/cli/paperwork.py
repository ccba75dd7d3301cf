"""Regulations as files and the paperwork: export / import a regulation, a preset as a file,
the officials and the certificate template."""

from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path
from typing import Any

from app.cli.common import ROUND, add_take_over, open_file, output_path, print_json, write_output, writing
from app.engine.types import UserError


def cmd_regulation_export(args: argparse.Namespace) -> int:
    from app.services.regulation_files import regulation_file_text

    out = output_path(args.out)
    with open_file(args.file, read_only=True) as db:
        text = regulation_file_text(db)
    write_output(out, text)
    print(f"已导出规程文件 {out}")
    return 0


def cmd_regulation_import(args: argparse.Namespace) -> int:
    from app.services.regulation_files import import_regulation_file

    with writing(args) as db:
        import_regulation_file(db, Path(args.toml), reason=args.reason)
    print(f"已从 {args.toml} 导入规程")
    return 0


def cmd_preset_export(args: argparse.Namespace) -> int:
    from app.services.regulation_files import preset_file_text

    out = output_path(args.out)
    write_output(out, preset_file_text(args.preset))
    print(f"已将预设 {args.preset} 导出为规程文件 {out}")
    return 0


def _official(text: str) -> tuple[str, str]:
    role, sep, name = text.partition("=")
    if not sep or not role.strip():
        raise UserError(f"“{text}”应写成 职务=姓名（如 裁判长=高福荣）", f"{text!r}: write ROLE=NAME")
    return role.strip(), name.strip()


def cmd_officials(args: argparse.Namespace) -> int:
    import dataclasses

    from app.engine.paperwork import Official, paperwork_to_dict
    from app.services.paperwork import load_paperwork, update_paperwork

    changing = args.set is not None or args.organiser is not None or args.seal is not None
    with open_file(args.file, read_only=not changing, take_over=changing and args.take_over) as db:
        value = load_paperwork(db)
        if changing:
            if args.set is not None:
                unsigned = set(args.unsigned or ())
                people = [_official(text) for text in args.set]
                value = dataclasses.replace(
                    value, officials=tuple(Official(r, n, r not in unsigned) for r, n in people)
                )
            if args.organiser is not None:
                value = dataclasses.replace(value, organiser=args.organiser.strip())
            if args.seal is not None:
                value = dataclasses.replace(value, seal=args.seal.strip())
            update_paperwork(db, value, reason=args.reason)
    if args.json:
        print_json(paperwork_to_dict(value))
        return 0
    for o in value.officials:
        print(f"{o.role}：{o.name}" + ("" if o.signs else "（不在名单上签字）"))
    print(f"主办单位：{value.organiser or '（未填写）'}")
    print(f"盖章栏：{value.seal or '（无）'}")
    return 0


def cmd_certificate(args: argparse.Namespace) -> int:
    import dataclasses

    import tomli_w

    from app.engine.paperwork import paperwork_to_dict
    from app.services.paperwork import load_paperwork, update_paperwork

    setting = args.template is not None
    with open_file(args.file, read_only=not setting, take_over=setting and args.take_over) as db:
        value = load_paperwork(db)
        if args.template is not None:
            from app.engine.regulations import parse_toml
            from app.files import read_limited

            path = Path(args.template)
            raw = read_limited(path, TEMPLATE_MAX_BYTES, what_zh="证书模板", what_en="certificate template")
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise UserError(
                    f"证书模板 {path.name} 不是 UTF-8 编码的文本", f"{path.name} is not UTF-8 text"
                ) from None
            data = parse_toml(text, f"证书模板 {path.name} ", path.name)
            unknown = sorted(set(data) - {"title", "body", "signature", "date"})
            if unknown:
                raise UserError(
                    f"证书模板 {path.name} 中“{unknown[0]}”不是可用的项（title、body、signature、date）",
                    f"{path.name}: {unknown[0]!r} is not a template field (title, body, signature, date)",
                )
            if not all(isinstance(v, str) for v in data.values()):
                raise UserError(
                    f"证书模板 {path.name} 的各项应为文本", f"{path.name}: every field must be text"
                )
            template = dataclasses.replace(value.certificate, **data)
            value = dataclasses.replace(value, certificate=template)
            update_paperwork(db, value, reason=args.reason or f"证书模板 {path.name}")
            print(f"已更新证书模板（{path.name}）")
    print(tomli_w.dumps(paperwork_to_dict(value)["certificate"]), end="")
    return 0


TEMPLATE_MAX_BYTES = 100_000


def _moment(text: str) -> datetime:
    """``2024-07-26 09:00`` (or ``2024-07-26T09:00``): a round's announced start."""
    try:
        return datetime.fromisoformat(text.strip().replace(" ", "T", 1))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"开赛时间“{text}”无效，应写成 2024-07-26 09:00 / invalid start {text!r}: write 2024-07-26 09:00"
        ) from None


def cmd_schedule(args: argparse.Namespace) -> int:
    from app.services.public_pages import schedule
    from app.services.tournaments import set_round_start

    if (args.at is not None or args.clear) and args.round is None:
        raise UserError("请用 --round 指定轮次", "name the round with --round")
    with open_file(args.file, read_only=args.round is None) as db:
        if args.round is not None:
            if args.at is None and not args.clear:
                raise UserError("请给出 --at 开赛时间，或 --clear", "give --at START or --clear")
            set_round_start(db, args.round, None if args.clear else args.at)
        view = schedule(db)
    if args.json:
        print_json(
            [
                {
                    "group": group,
                    "round": x.round,
                    "starts": x.starts,
                    "stage": x.stage,
                    "time_controls": x.time_controls,
                }
                for group, lines in view.groups
                for x in lines
            ]
        )
        return 0
    for group, lines in view.groups:
        print(group)
        for x in lines:
            controls = "；".join(f"{label} {tc}".strip() for label, tc in x.time_controls)
            print(f"  第{x.round:>2}轮  {x.starts or '待定':<12} {x.stage}  {controls}")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("schedule", help="each round's start and time controls (赛程), or set a round's start")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--round", type=ROUND, default=None, help="the round to set")
    p.add_argument("--at", type=_moment, default=None, help="its announced start, e.g. '2024-07-26 09:00'")
    p.add_argument("--clear", action="store_true", help="the round's start is not known (待定)")
    p.add_argument("--json", action="store_true", help="print the schedule as JSON")
    p.set_defaults(func=cmd_schedule)

    p = sub.add_parser("regulation-export", help="export the event's regulation as a file (TOML) / 导出规程")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("out", help="the regulation file to write (.toml)")
    p.set_defaults(func=cmd_regulation_export)

    p = sub.add_parser("regulation-import", help="replace the event's regulation by a file's / 导入规程")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("toml", help="the regulation file to read (.toml)")
    p.add_argument("--reason", default="", help="why (written to the audit log)")
    add_take_over(p)
    p.set_defaults(func=cmd_regulation_import)

    p = sub.add_parser("preset-export", help="write a built-in preset as a regulation file to edit")
    p.add_argument("preset", help="the preset's name, e.g. tianshui-2024")
    p.add_argument("out", help="the regulation file to write (.toml)")
    p.set_defaults(func=cmd_preset_export)

    p = sub.add_parser("officials", help="show or set the officials, organiser and seal line / 裁判人员")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument(
        "--set",
        nargs="*",
        action="extend",
        default=None,
        metavar="ROLE=NAME",
        help="replace the officials, in order (repeat --set or give several)",
    )
    p.add_argument(
        "--unsigned",
        nargs="*",
        action="extend",
        default=None,
        metavar="ROLE",
        help="roles that do not sign the lists",
    )
    p.add_argument("--organiser", default=None, help="the organiser (主办单位) printed on certificates")
    p.add_argument("--seal", default=None, help="the seal line under the lists (an empty text for none)")
    p.add_argument("--reason", default="", help="why (written to the audit log)")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_take_over(p)
    p.set_defaults(func=cmd_officials)

    p = sub.add_parser("certificate", help="show or set the prize certificate's template / 证书模板")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument(
        "--template",
        default=None,
        metavar="TOML",
        help="set from a file with title, body, signature, date (placeholders such as {姓名} {奖项} {名次})",
    )
    p.add_argument("--reason", default="", help="why (written to the audit log)")
    add_take_over(p)
    p.set_defaults(func=cmd_certificate)
