"""The file's safety: backups, restore, checking a file, the audit log, TRF exchange."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from app.cli.common import group_of, hosting, open_file, output_path, write_output
from app.engine.types import UserError


def cmd_backups(args: argparse.Namespace) -> int:
    from app.services.backups import list_backups, make_backup

    path = Path(args.file)
    if not path.is_file():
        what_zh = "是文件夹，不是赛事文件" if path.is_dir() else "不存在"
        what_en = "is a folder, not a tournament file" if path.is_dir() else "does not exist"
        raise UserError(f"{path} {what_zh}", f"{path} {what_en}")
    if args.make:
        made = make_backup(Path(args.file), args.reason)
        print(f"已备份到 {made}")
        return 0
    found = list_backups(Path(args.file))
    if not found:
        print(f"{args.file} 还没有备份")
        return 0
    for b in found:
        print(f"{b.made_at:%Y-%m-%d %H:%M:%S}\t{b.reason}\t{b.name}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from app.services.backups import restore_backup

    host = hosting()
    if host is not None:  # the file is open in its owner, which would go on with the replaced file
        who_zh, who_en = host.describe()
        raise UserError(
            f"{Path(args.file).name} 正由{who_zh}打开，不能在它运行时恢复备份："
            "请在编排窗口的 文件 → 从备份恢复 中恢复，或先关闭它（停止 serve）",
            f"{Path(args.file).name} is open in {who_en}; a backup cannot be restored under it: restore "
            "from the window's File menu, or close it (stop serve) first",
        )
    saved = restore_backup(Path(args.file), Path(args.backup), take_over=args.take_over)
    print(f"已从 {Path(args.backup).name} 恢复 {args.file}；恢复前的状态已备份为 {saved.name}")
    return 0


def cmd_check_file(args: argparse.Namespace) -> int:
    from app.services.backups import check_file

    report = check_file(Path(args.file))
    for line in report.lines():
        print(line)
    return 0 if report.sound else 2


def cmd_audit(args: argparse.Namespace) -> int:
    from app.services.audit import export_audit_csv, export_audit_json

    out = output_path(args.out) if args.out else None
    with open_file(args.file, read_only=True) as db:
        text = export_audit_json(db) if args.json else export_audit_csv(db)
    if out is not None:
        write_output(out, text, private=True)  # the log holds before/after values with personal numbers
        print(f"已导出操作记录 {args.out}")
    else:
        sys.stdout.write(text if args.json else text.lstrip("\ufeff"))
        if args.json:
            sys.stdout.write("\n")
    return 0


def cmd_export_trf(args: argparse.Namespace) -> int:
    from app.services.trf_exchange import export_trf

    out = output_path(args.out) if args.out else None
    if args.group_positional is not None and args.group is not None and args.group != args.group_positional:
        raise UserError(
            f"组别给了两次且不同：“{args.group_positional}”与 --group “{args.group}”",
            f"the group is given twice, differently: {args.group_positional!r} and --group {args.group!r}",
        )
    with open_file(args.file, read_only=True) as db:
        group = group_of(db, args.group or args.group_positional)
        text = export_trf(db, group, for_pairing=args.for_pairing)
    if out is not None:
        write_output(out, text)
        print(f"已导出 TRF {args.out}")
    else:
        sys.stdout.write(text)
    if args.group_positional is not None:  # said once the export is done (an error stays one message)
        print(
            "注意：组别请用 --group 给出（与其他命令一致）；直接写组别的旧写法以后会去掉 "
            "(note: give the group with --group, like every other command; the positional group is deprecated)",
            file=sys.stderr,
        )
    return 0


def cmd_import_trf(args: argparse.Namespace) -> int:
    from app.services.trf_exchange import import_trf_with_notes

    db, notes = import_trf_with_notes(Path(args.trf), Path(args.file), group=args.group)
    db.close()
    print(f"已从 TRF 创建赛事文件 {args.file}")
    for note in notes:
        print(f"注意：{note}")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("backups", help="list (or make) the backups of a tournament file / 备份")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--make", action="store_true", help="make a backup now")
    p.add_argument("--reason", default="manual", help="the reason recorded with a backup made now")
    p.set_defaults(func=cmd_backups)

    p = sub.add_parser("restore", help="restore a backup (the current state is backed up first) / 恢复")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("backup", help="a backup file, or its name in FILE's backups folder")
    p.add_argument("--take-over", action="store_true", help="take over a stale lock of a crashed instance")
    p.set_defaults(func=cmd_restore)

    p = sub.add_parser("check-file", help="integrity, version and lock of a tournament file / 检查文件")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.set_defaults(func=cmd_check_file)

    p = sub.add_parser("audit", help="export the audit log (CSV, or --json) / 操作记录")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--json", action="store_true", help="JSON instead of CSV")
    p.add_argument("--out", default=None, help="write to this file instead of stdout")
    p.set_defaults(func=cmd_audit)

    p = sub.add_parser("export-trf", help="export one group as a FIDE TRF / 导出 TRF")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="the group (needed when there are several)")
    p.add_argument(
        "group_positional", nargs="?", default=None, metavar="GROUP", help="(deprecated: use --group)"
    )
    p.add_argument("--out", default=None, help="write to this file instead of stdout")
    p.add_argument(
        "--for-pairing",
        action="store_true",
        help="for a pairing engine (bbpPairings, JaVaFo): completed rounds only, no team records",
    )
    p.set_defaults(func=cmd_export_trf)

    p = sub.add_parser("import-trf", help="create a tournament file from a FIDE TRF / 导入 TRF")
    p.add_argument("trf", help="the TRF file")
    p.add_argument("file", help="the tournament file to create (.xqt)")
    p.add_argument(
        "--group",
        default=None,
        help="the group's name (default: the title's （group） part, else the title, shortened)",
    )
    p.set_defaults(func=cmd_import_trf)
