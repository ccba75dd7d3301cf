"""serve / deputy / pending / confirm: the hall network (赛场网络) from the command line.

``xqarbiter serve`` is the hall server without the window: it owns the file (its lock) and runs the
deputies' writes in one thread of its own; when the window (another program) has the file open, it
serves the public pages read-only and refuses deputies' entries. Ctrl+C stops it.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import threading
from typing import Any

from app.cli.common import (
    ROUND,
    SQLITE_INT_MAX,
    add_take_over,
    bounded,
    group_of,
    hosting,
    open_file,
    print_json,
    writing,
)
from app.engine.types import UserError

_RANGE = re.compile(r"^\s*(\d{1,4})\s*(?:[-–~]\s*(\d{1,4}))?\s*$")


def board_range(text: str) -> tuple[int, int]:
    """``1-20`` → (1, 20); ``7`` → (7, 7)."""
    m = _RANGE.match(text)
    if not m:
        raise UserError(f"台次范围“{text}”无效，应形如 1-20", f"invalid board range {text!r}; e.g. 1-20")
    first = int(m.group(1))
    return first, int(m.group(2) or first)


def cmd_serve(args: argparse.Namespace) -> int:
    from app.reports.qr import qr_text
    from app.services import hall
    from app.services.tournaments import FileLockedError, open_tournament
    from app.termination import Termination
    from app.web.app import ThreadOwner
    from app.web.server import HallServer

    if hosting() is not None:
        return _serve_beside_the_owner(args)
    try:
        db = open_tournament(args.file, take_over=args.take_over)
        read_only = False
    except FileLockedError:
        db = open_tournament(args.file, read_only=True)
        read_only = True
    owner = None if read_only else ThreadOwner()
    stop = threading.Event()
    termination = Termination(lambda _why: stop.set()).install()  # SIGTERM, SIGHUP, a closed console
    channel = None
    try:
        server = HallServer(db, owner, host=args.host, port=args.port)
        url = server.start()
        if not read_only and server.reachable_url:
            hall.set_hall_base_url(db, server.reachable_url)
        if owner is not None:  # the command line beside it hands its commands to this process
            from app.cli.hosted import Host, open_channel

            channel = open_channel(
                Host(db, "serve", owner.submit, server.changed, start_hall=lambda _h, _p: server.url)
            )
        print(qr_text(url))
        print(f"赛场网络已启动：{url}")
        if server.loopback_only:
            print("只有本机能打开；要让手机访问，请用 --host 指定本机的局域网地址（或 0.0.0.0）")
        if read_only:
            print("赛事文件正由另一个程序编辑：只提供公开页面，不接收副裁判录入")
        elif channel is not None:
            print("它运行时，其他 xqarbiter 命令（录入成绩、编排、打印……）照常使用，由它代为执行")
        try:
            print("按 Ctrl+C 停止", flush=True)  # inside the try: a Ctrl+C right after it stops cleanly too
            while not stop.wait(1.0):
                if not server.running:
                    break
        except KeyboardInterrupt:
            pass
        if channel is not None:
            channel.close()  # no new command; those under way finish first
        server.stop()
        with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP)
            print("赛场网络已停止", flush=True)
    finally:
        if channel is not None:
            channel.close()
        if owner is not None:
            owner.close()
        db.close()
        termination.finished()
        termination.uninstall()
    return 0


def _serve_beside_the_owner(args: argparse.Namespace) -> int:
    """``serve`` handed to the file's owner: the owner serves the hall (the window starts its hall
    server, a running ``serve`` is already serving); the address is printed here."""
    from app.reports.qr import qr_text

    host = hosting()
    who_zh, _who_en = host.describe()
    if host.start_hall is None:  # pragma: no cover - every owner can serve the hall
        raise UserError(f"{who_zh}不能提供赛场网络", "the owner cannot serve the hall")
    url = host.start_hall(args.host, args.port)
    print(qr_text(url))
    print(f"赛场网络由{who_zh}提供：{url}")
    print(
        "要停止它，请在" + ("窗口的 赛场网络 菜单中停止" if host.owner == "window" else "它的控制台按 Ctrl+C")
    )
    return 0


def cmd_deputy(args: argparse.Namespace) -> int:
    from app.reports.qr import qr_text
    from app.services import hall

    first, last = board_range(args.boards)
    with writing(args) as db:
        group = group_of(db, args.group)
        issued = hall.issue_deputy_token(db, group, first, last, args.name, round_number=args.round)
        base = hall.hall_base_url(db)
    path = hall.deputy_path(issued.token)
    p = issued.deputy_pass
    print(f"{p.deputy}：{p.group} 第 {p.round} 轮 {p.boards_text}（本轮结束即失效；只显示这一次）")
    if base:
        print(qr_text(base + path))
        print(base + path)
    else:
        print(f"录入页面：http://<赛场网络地址>{path}")
    return 0


def cmd_pending(args: argparse.Namespace) -> int:
    from app.services import hall
    from app.services.exports import latest_round

    with open_file(args.file, read_only=True) as db:
        group = group_of(db, args.group)
        number = args.round or latest_round(db, group)
        lines = hall.pending_results(db, group, number)
    if args.json:
        print_json(
            [
                {
                    "id": x.id,
                    "board": x.board,
                    "result": x.result.value,
                    "deputy": x.deputy,
                    "device": x.device,
                    "submitted_at": x.submitted_at,
                    "conflict": x.conflict,
                }
                for x in lines
            ]
        )
        return 0
    for x in lines:
        mark = "  冲突" if x.conflict else ""
        print(f"{x.id}\t第 {x.board} 台\t{x.result.zh}\t{x.deputy}\t{x.submitted_at:%H:%M:%S}{mark}")
    if not lines:
        print(f"{group}第 {number} 轮没有待确认的成绩")
    return 0


def cmd_confirm(args: argparse.Namespace) -> int:
    from app.services import hall

    with writing(args) as db:
        if args.reject:
            hall.reject_pending_result(db, args.entry)
            print(f"已退回第 {args.entry} 条")
        else:
            done = hall.confirm_pending_result(db, args.entry)
            print(
                f"已确认第 {args.entry} 条"
                + (f"（同台另 {len(done.rejected)} 条作废）" if done.rejected else "")
            )
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("serve", help="serve the hall network to phones / 赛场网络")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this computer only)"
    )
    p.add_argument(
        "--port", type=bounded("端口", "port", 1, 65_535), default=8080, help="port (default 8080)"
    )
    add_take_over(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("deputy", help="issue a deputy's pass for a range of boards / 发放副裁判录入令牌")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="required when several groups have players")
    p.add_argument("--boards", required=True, help="the boards, e.g. 1-20")
    p.add_argument("--name", required=True, help="the deputy's name")
    p.add_argument("--round", type=ROUND, default=None, help="default: the group's latest round")
    add_take_over(p)
    p.set_defaults(func=cmd_deputy)

    p = sub.add_parser("pending", help="deputies' results waiting for confirmation / 待确认成绩")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", default=None, help="required when several groups have players")
    p.add_argument("--round", type=ROUND, default=None, help="default: the group's latest round")
    p.add_argument("--json", action="store_true", help="as JSON")
    p.set_defaults(func=cmd_pending)

    p = sub.add_parser("confirm", help="confirm (or --reject) a deputy's result / 确认副裁判成绩")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument(
        "entry", type=bounded("条目", "entry", 1, SQLITE_INT_MAX), help="the entry's number (from `pending`)"
    )
    p.add_argument("--reject", action="store_true", help="set the entry aside instead")
    add_take_over(p)
    p.set_defaults(func=cmd_confirm)
