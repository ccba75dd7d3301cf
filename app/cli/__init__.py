"""xqarbiter — the headless command line. Every command goes through the same services as the window.

One module per command family, each with a ``register(sub)`` that adds its commands to the parser;
what they share is in :mod:`app.cli.common`. Errors an arbiter can cause are printed to stderr
(Chinese, then English) with exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from typing import Any, NoReturn

from app.cli import common
from app.engine.types import UserError
from app.gc_policy import tune_collector

Handler = Callable[[argparse.Namespace], int]

#: the command families, in the order `xqarbiter --help` lists them (module app.cli.<family>)
FAMILIES = (
    "registration",
    "rounds",
    "constraints",
    "standings",
    "knockout",
    "formats",
    "teams",
    "discipline",
    "attendance",
    "records",
    "safety",
    "exports",
    "paperwork",
    "hall",
    "simulation",
)

#: every command and its family, so that a command builds only its own parser (a test keeps this
#: equal to what the families register; a command missing here still works, through the whole parser)
COMMANDS = {
    **dict.fromkeys(
        (
            "new",
            "demo",
            "template",
            "import-players",
            "draw-numbers",
            "players",
            "rating-rank",
            "export",
            "import",
        ),
        "registration",
    ),
    **dict.fromkeys(("pair", "unpair", "why", "pairings", "result", "results", "close-round"), "rounds"),
    **dict.fromkeys(("avoid", "unavoid", "avoidances"), "constraints"),
    **dict.fromkeys(("standings", "why-above", "teams", "prizes"), "standings"),
    **dict.fromkeys(("knockout", "draw-colours", "choose-colour", "bracket"), "knockout"),
    **dict.fromkeys(("stages", "draw-round-robin", "unranked"), "formats"),
    **dict.fromkeys(
        (
            "team-roster",
            "team-details",
            "team-numbers",
            "team-list",
            "team-pair",
            "team-unpair",
            "lineup",
            "team-seat",
            "team-result",
            "team-results",
            "team-absent",
            "team-round",
            "team-close",
            "team-playoff",
            "team-standings",
        ),
        "teams",
    ),
    **dict.fromkeys(("violation", "forfeit", "withdraw", "disqualify"), "discipline"),
    **dict.fromkeys(("excuse", "cancel-excuse", "absences", "reenter"), "attendance"),
    **dict.fromkeys(("records-due", "hand-in", "record", "records"), "records"),
    **dict.fromkeys(("backups", "restore", "check-file", "audit", "export-trf", "import-trf"), "safety"),
    **dict.fromkeys(("print", "image", "excel", "html"), "exports"),
    **dict.fromkeys(
        ("regulation-export", "regulation-import", "preset-export", "officials", "certificate", "schedule"),
        "paperwork",
    ),
    **dict.fromkeys(("serve", "deputy", "pending", "confirm"), "hall"),
    **dict.fromkeys(("simulate", "check"), "simulation"),
}


def _register(family: str) -> Callable[[Any], None]:
    """The family's ``register(sub)`` (its module is imported only now)."""
    register: Callable[[Any], None] = importlib.import_module(f"app.cli.{family}").register
    return register


def __getattr__(name: str) -> Any:
    if name == "COMMAND_FAMILIES":  # every family's register, in order (imports them all)
        return tuple(_register(f) for f in FAMILIES)
    raise AttributeError(name)


class _Unused:
    """What a family's other commands are built on when one command was asked for: nothing."""

    def __getattr__(self, name: str) -> Callable[..., _Unused]:
        return lambda *args, **kwargs: self


class _OneCommand:
    """The sub-parsers of a family seen through one command: only that command's parser is built."""

    def __init__(self, sub: Any, command: str) -> None:
        self.sub = sub
        self.command = command

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        return self.sub.add_parser(name, **kwargs) if name == self.command else _Unused()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line: every command of every family, or only ``command``'s parser when it is
    given and known (building all 59 costs more than pairing a 160-player round)."""
    from app import __version__

    parser = common.Parser(prog="xqarbiter", description="象棋赛事编排系统 Xiangqi Arbiter")
    parser.add_argument("--version", action="version", version=f"xqarbiter {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    if command in COMMANDS:
        _register(COMMANDS[command])(_OneCommand(sub, command))
    else:
        for family in FAMILIES:
            _register(family)(sub)
    common.resolve_paths(parser)
    return parser


_parsers: dict[str | None, argparse.ArgumentParser] = {}
_parsers_lock = threading.Lock()


def parser_for(command: str | None) -> argparse.ArgumentParser:
    """:func:`build_parser` for ``command``, built once per process (the window and ``serve`` parse every
    command the owner's channel receives; a test process runs hundreds). Sharing it is safe: argparse's
    ``parse_args`` only reads the parser and writes the namespace it returns, and a path argument is
    resolved from the client's folder when it is parsed (:func:`app.cli.common.path_arg`), not when the
    parser is built; the parser's texts are fixed (argparse's own are not translated)."""
    key = command if command in COMMANDS else None
    parser = _parsers.get(key)
    if parser is None:
        with _parsers_lock:
            parser = _parsers.get(key)
            if parser is None:
                parser = _parsers[key] = build_parser(key)
    return parser


#: commands that keep the terminal for themselves (the hall server prints its address and runs on)
_NO_PROGRESS_LINE = frozenset({"serve"})

#: whole-event outputs read from one file: Python's cyclic collector is paused for the whole command,
#: imports and the opening of the file included (its passes there walk ~10⁵ objects and free nothing;
#: the read model and the output are made with it paused anyway: :mod:`app.services.collector`)
_COLLECTOR_PAUSED = frozenset({"print", "html", "excel", "standings"})

# "-+" and "--" look like options to argparse: `result` gets the snapshot code instead
_DASH_RESULTS = {"-+": "red_forfeit", "--": "double_forfeit"}

#: options whose value is free text: a value starting with "-" (``--reason -2+3``, ``--name -甲-``) is
#: the value, not an option (argparse reads only ``--reason=-2+3`` so)
TEXT_OPTIONS = frozenset({"--reason", "--name", "--venue", "--seal", "--organiser", "--override-deadline"})


def _join_text_values(argv: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if arg in TEXT_OPTIONS and nxt is not None and nxt.startswith("-") and not nxt.startswith("--"):
            out.append(f"{arg}={nxt}")
            i += 2
            continue
        out.append(arg)
        i += 1
    return out


#: commands that create FILE (never handed to an owner: a file that exists is refused by them)
CREATING = frozenset({"new", "demo", "import", "import-trf"})


def _collector_for(command: str, *, ending: bool) -> AbstractContextManager[None]:
    if command not in _COLLECTOR_PAUSED:
        return nullcontext()
    from app.services.collector import collection_paused

    return _paused_to_the_end() if ending else collection_paused()


@contextmanager
def _paused_to_the_end() -> Iterator[None]:
    """The collector paused for a command after which the process ends: what the command made is set
    aside for good (``gc.freeze``) before the collector runs again. Its first pass would otherwise walk
    every object made since the process started (~0.1 s for the smallest document, ~0.25 s for a
    results book of 5,000 players) to free a little cyclic garbage the process's end frees anyway."""
    import gc

    from app.services.collector import collection_paused

    with collection_paused():
        try:
            yield
        finally:
            gc.freeze()


def run() -> NoReturn:
    """The ``xqarbiter`` command (and ``python -m app.cli``): one command, then the process ends."""
    tune_collector()  # the collector's thresholds, as in the window and the tests (app.gc_policy)
    sys.exit(main(ending=True))


def main(argv: Sequence[str] | None = None, *, hosted: bool = False, ending: bool = False) -> int:
    """Run one command. ``hosted``: run by the file's owner for a client (:mod:`app.cli.hosted`) —
    the output streams are the owner's routed ones, and the command is never handed on again.
    ``ending``: the process ends after the command (:func:`run`); never in a process that goes on (the
    window, the hall, a test), which needs the collector to free what the command left."""
    if not hosted:
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
        args = parser_for(argv[0] if argv else None).parse_args(_join_text_values(argv))
        if not hosted:
            answer = _owner_answer(args, argv)
            if answer is not None:
                sys.stdout.write(answer.stdout)
                sys.stderr.write(answer.stderr)
                return int(answer.code)
        handler: Handler = args.func
        with _collector_for(args.command, ending=ending and not hosted):
            if args.command in _NO_PROGRESS_LINE:
                return handler(args)
            with common.progress_line(f"执行 {args.command}"):
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


def _owner_answer(args: argparse.Namespace, argv: list[str]) -> Any:
    """When another process owns the command's FILE (the window, ``xqarbiter serve``), hand it the
    command and return its answer (:class:`app.channel.server.Answer`); None to run it here."""
    file = getattr(args, "file", None)
    if not file or args.command in CREATING:
        return None
    from pathlib import Path

    path = Path(file)
    if not path.is_file():
        return None
    from app.channel.where import owner_may_answer

    if not owner_may_answer(path):  # no owner: the channel itself (sockets, HMAC) is not imported
        return None
    from app.channel.client import ask_owner

    return ask_owner(path, argv, os.getcwd())


__all__ = ["build_parser", "main", "parser_for"]
