"""What every command family shares: opening a tournament file, printing JSON, naming a group or a player,
numbers and output paths checked before any work, and the parser that refuses in two languages.

Only this module and the command modules import services, and only inside functions: ``xqarbiter --help``
and the parser itself import no service, no SQLAlchemy.
"""

from __future__ import annotations

import argparse
import contextlib
import contextvars
import json
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

from app.engine.types import UserError

SQLITE_INT_MAX = 2**63 - 1


class CommandLineError(UserError):
    """The command line itself is wrong (unknown option, missing argument, a number out of range)."""


class Parser(argparse.ArgumentParser):
    """argparse, refusing with the program's two-language message (exit code 2) instead of its own."""

    def error(self, message: str) -> NoReturn:
        raise CommandLineError(
            f"命令行参数有误：{_zh_argparse(message)}（用 {self.prog} --help 查看用法）",
            f"invalid command line: {message} (see {self.prog} --help)",
        )


_ARGPARSE_ZH = (
    ("the following arguments are required", "缺少必需的参数"),
    ("unrecognized arguments", "无法识别的参数"),
    ("invalid choice", "不是可选的值"),
    ("expected one argument", "缺少参数值"),
    ("invalid int value", "不是整数"),
    ("invalid float value", "不是数字"),
    ("not allowed with argument", "不能同时使用"),
    ("ambiguous option", "选项不明确"),
)


def _zh_argparse(message: str) -> str:
    for en, zh in _ARGPARSE_ZH:
        if en in message:
            return message.replace(en, zh)
    return message


def bounded(what_zh: str, what_en: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number in ``low..high`` (refused cleanly, never an overflow)."""

    def parse(text: str) -> int:
        cleaned = text.strip()
        digits = cleaned.lstrip("+-")
        if not digits.isascii() or not digits.isdigit() or len(digits) > 30:
            raise argparse.ArgumentTypeError(
                f"{what_zh}“{text}”不是整数 ({what_en} {text!r} is not a whole number)"
            )
        value = int(cleaned)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{what_zh} {text} 超出范围 {low}–{high} ({what_en} {text} is outside {low}-{high})"
            )
        return value

    parse.__name__ = what_en
    return parse


def number_between(what_zh: str, what_en: str, low: float, high: float) -> Callable[[str], float]:
    """An argparse ``type``: a number from ``low`` to ``high`` (no NaN, no infinity)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{what_zh}“{text}”不是数字 ({what_en} {text!r} is not a number)"
            ) from None
        if not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{what_zh} {text} 应在 {low:g}–{high:g} 之间 ({what_en} must be {low:g}-{high:g})"
            )
        return value

    parse.__name__ = what_en
    return parse


def fraction(what_zh: str, what_en: str) -> Callable[[str], float]:
    """An argparse ``type``: a number from 0 to 1 (no NaN, no infinity)."""
    return number_between(what_zh, what_en, 0.0, 1.0)


ROUND = bounded("轮次", "round", 1, 999)
BOARD = bounded("台次", "board", 1, 99_999)
PLAYER_NO = bounded("序号", "sequence number", 1, 999_999)
GAME = bounded("局次", "game", 1, 99)
SEED = bounded("随机种子", "seed", 0, SQLITE_INT_MAX)
MOVES = bounded("回合数", "move count", 0, 9_999)


# --------------------------------------------------------------------------- run by the file's owner

_host: contextvars.ContextVar[Any] = contextvars.ContextVar("xq_owner_host", default=None)
_client_cwd: contextvars.ContextVar[str | None] = contextvars.ContextVar("xq_client_cwd", default=None)


def hosting() -> Any:
    """The owner running this command for a client (:class:`app.cli.hosted.Host`), or None when the
    command runs in a process of its own."""
    return _host.get()


@contextlib.contextmanager
def for_client(host: Any, cwd: str) -> Iterator[None]:
    """Run a command in the owner for a client whose current folder is ``cwd``."""
    tokens = (_host.set(host), _client_cwd.set(cwd))
    try:
        yield
    finally:
        _client_cwd.reset(tokens[1])
        _host.reset(tokens[0])


def path_arg(text: str) -> str:
    """An argparse ``type`` for every path: as typed, or — run by the owner for a client — resolved
    from the client's folder (the owner's own folder means nothing to the client)."""
    cwd = _client_cwd.get()
    if cwd is None or not text or os.path.isabs(text):
        return text
    return os.path.join(cwd, text)


#: the arguments that name a file or a folder, in every command (``path_arg`` is their type)
PATH_DESTS = frozenset(
    {
        "file",
        "xlsx",
        "out",
        "input",
        "snapshot",
        "pgn",
        "backup",
        "trf",
        "toml",
        "regulation",
        "template",
        "event",
    }
)


def resolve_paths(parser: argparse.ArgumentParser) -> None:
    """Give every path argument of every command :func:`path_arg` as its type (a test checks that
    every argument whose help names a file or a folder is one of them)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                resolve_paths(sub)
        elif action.dest in PATH_DESTS and action.type is None and action.nargs in (None, "?"):
            action.type = path_arg


def add_take_over(p: argparse.ArgumentParser) -> None:
    """``--take-over`` for a command that writes: continue after a crash (the take-over is logged)."""
    p.add_argument(
        "--take-over",
        action="store_true",
        help="take over the stale lock a crashed instance left (written to the audit log)",
    )


def print_json(value: Any) -> None:
    """Print a value as indented JSON with Chinese kept readable (not escaped)."""
    print(json.dumps(value, ensure_ascii=False, indent=1, default=str))


def open_file(path: str, *, read_only: bool = False, take_over: bool = False) -> Any:
    """Open a tournament file for one command (a context manager: the file is closed and unlocked after).

    A stale lock is taken over only with ``take_over`` (said on stderr, and logged in the file).
    """
    from app.services.tournaments import open_tournament, taken_over_note

    db = open_tournament(Path(path), read_only=read_only, take_over=take_over)
    note = taken_over_note(db)
    if note:
        print(note, file=sys.stderr)
    return db


def writing(args: argparse.Namespace) -> Any:
    """Open the command's FILE for writing, taking over a stale lock if ``--take-over`` was given."""
    return open_file(args.file, take_over=getattr(args, "take_over", False))


def output_path(path: str) -> Path:
    """An output path checked before any work: given, not a folder, in a folder that exists."""
    from app.files import check_output_path

    if not path.strip():
        raise UserError("没有给出输出文件名", "no output file name was given")
    return check_output_path(path)


def write_output(path: str | Path, data: bytes | str, *, private: bool = False) -> Path:
    """Write an output all at once (temporary file, then rename): never a truncated file."""
    from app.files import write_atomic

    return write_atomic(path, data, private=private)


def group_of(db: Any, given: str | None) -> str:
    """The --group given, or the only group with players; an error names the groups otherwise."""
    from app.services.tournaments import tournament_info

    if given:
        return given
    groups = [g.name for g in tournament_info(db).groups if g.players]
    if len(groups) == 1:
        return groups[0]
    raise UserError(
        f"请用 --group 指定组别：{'、'.join(groups)}", f"give --group, one of: {', '.join(groups)}"
    )


def player_id(db: Any, group: str, no: int) -> int:
    """The database id of the player with sequence number ``no`` in ``group``."""
    from app.services.registration import list_players

    for p in list_players(db, group):
        if p.no == no:
            return p.id
    raise UserError(f"{group}没有 {no} 号棋手", f"{group} has no player number {no}")


class _StopFirst:
    """A text stream that calls ``before`` once, before its first write (then writes through)."""

    def __init__(self, stream: Any, before: Callable[[], None]) -> None:
        self._stream = stream
        self._before = before

    def write(self, text: str) -> int:
        self._before()
        return int(self._stream.write(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def progress_line(what: str, *, delay: float = 1.0, interval: float = 0.5) -> Iterator[None]:
    """While a command works: after ``delay`` seconds, one line on the terminal saying what it does
    and for how long, rewritten every ``interval`` and erased when the command ends or prints.

    Only when standard error is a terminal (never in a pipe, a file or a test); nothing is printed
    for a command that ends sooner.
    """
    stream = sys.stderr
    if not (hasattr(stream, "isatty") and stream.isatty()):
        yield
        return
    done = threading.Event()
    lock = threading.Lock()
    start = time.monotonic()
    width = [0]

    def show() -> None:
        if done.wait(delay):
            return
        while True:
            with lock:
                if done.is_set():
                    return
                line = f"\r正在{what}…… {time.monotonic() - start:.0f} 秒 (working)"
                stream.write(line)
                stream.flush()
                width[0] = max(width[0], text_columns(line))
            if done.wait(interval):
                return

    def stop() -> None:
        with lock:
            if done.is_set():
                return
            done.set()
            if width[0]:
                stream.write("\r" + " " * width[0] + "\r")  # erased without terminal codes
                stream.flush()

    thread = threading.Thread(target=show, name="progress-line", daemon=True)
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _StopFirst(out, stop), _StopFirst(err, stop)
    thread.start()
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
        stop()


def text_columns(text: str) -> int:
    """Terminal columns of a text: a CJK character takes two."""
    return sum(2 if ord(ch) > 0x2E7F else 1 for ch in text if ch != "\r")
