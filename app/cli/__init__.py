"""xqarbiter — the headless command line. Every command goes through the same services as the window.

One module per command family, each with a ``register(sub)`` that adds its commands to the parser;
what they share is in :mod:`app.cli.common`. Errors an arbiter can cause are printed to stderr
(Chinese, then English) with exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any

from app.cli import (
    attendance,
    common,
    constraints,
    discipline,
    exports,
    hall,
    knockout,
    paperwork,
    records,
    registration,
    rounds,
    safety,
    simulation,
    standings,
    teams,
)
from app.engine.types import UserError

Handler = Callable[[argparse.Namespace], int]

# in the order `xqarbiter --help` lists them
COMMAND_FAMILIES: tuple[Callable[[Any], None], ...] = (
    registration.register,
    rounds.register,
    constraints.register,
    standings.register,
    knockout.register,
    teams.register,
    discipline.register,
    attendance.register,
    records.register,
    safety.register,
    exports.register,
    paperwork.register,
    hall.register,
    simulation.register,
)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: every command of every family."""
    parser = common.Parser(prog="xqarbiter", description="象棋赛事编排系统 Xiangqi Arbiter")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for register in COMMAND_FAMILIES:
        register(sub)
    return parser


# "-+" and "--" look like options to argparse: `result` gets the snapshot code instead
_DASH_RESULTS = {"-+": "red_forfeit", "--": "double_forfeit"}


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, ValueError):
            stream.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "result" and argv[-1] in _DASH_RESULTS:
        argv[-1] = _DASH_RESULTS[argv[-1]]
    try:
        if any("\x00" in a for a in argv):
            raise UserError(
                "命令行参数中含有 NUL 字符（\\x00），文件名和文字中都不能有它",
                "a command-line argument contains a NUL character (\\x00), which no file name or text may hold",
            )
        args = build_parser().parse_args(argv)
        handler: Handler = args.func
        return handler(args)
    except UserError as exc:
        print(f"错误：{exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head and friends
        sys.stderr.close()
        return 0
    except OSError as exc:  # the file system refused (a path given on the command line)
        from app.files import os_error

        print(f"错误：{os_error(exc, exc.filename or '?', reading=None)}", file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0


__all__ = ["build_parser", "main"]
