"""A command of the command line run inside the file's owner (the window, ``xqarbiter serve``).

The owner has the tournament file open and offers it on its channel (:mod:`app.channel`). A command
that reaches it is parsed again here, as the client typed it (relative paths from the client's folder),
and run by the same code as a command of its own (:func:`app.cli.main`), with three differences:

- it uses the owner's open file: every ``open_tournament`` of that file inside the command borrows the
  owner's connections (:func:`app.services.tournaments.lending`) — the file is opened by nobody else;
- a command that can change the file (one that takes ``--take-over``) runs in the owner's writer thread —
  the window's thread, or ``serve``'s — one change at a time with the window's own actions and the
  deputies'; the owner is told when the file changed (the views refresh, the hall's phones follow);
  a change the client gave up on before it began is not made;
- what it prints is captured for the client: ``sys.stdout`` / ``sys.stderr`` are routed, per command,
  to the command's own buffers (:func:`install_capture`); the owner's own output is untouched.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import contextvars
import io
import logging
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TextIO, TypeVar

from app.channel.server import OwnerChannel, Request
from app.channel.wire import Answer, ChannelUnavailable
from app.cli import common
from app.engine.types import UserError

log = logging.getLogger("xqarbiter.owner")
T = TypeVar("T")

#: exit code when the client hung up before a change began (nothing was done)
NOT_RUN = 3


@dataclass
class Host:
    """The file's owner as a command sees it."""

    db: Any  # the owner's open Database
    owner: str  # "window" | "serve"
    write: Callable[[Callable[[], Any]], concurrent.futures.Future[Any]]  # run on the writer thread
    changed: Callable[[], None]  # the file changed (called on the writer thread)
    start_hall: Callable[[str, int], str] | None = None  # ``serve`` beside the owner: the hall's address
    #: the owner's answers to the channel's control requests (``status``, ``hand-over``): see ``serve``
    control: Callable[[str, str], dict[str, Any] | None] | None = None

    def describe(self) -> tuple[str, str]:
        import os

        if self.owner == "window":
            return f"编排窗口（进程 {os.getpid()}）", f"the arbiter's window (process {os.getpid()})"
        return f"xqarbiter serve（进程 {os.getpid()}）", f"xqarbiter serve (process {os.getpid()})"


# --------------------------------------------------------------------------- captured output

_capture: contextvars.ContextVar[tuple[TextIO, TextIO] | None] = contextvars.ContextVar(
    "xq_captured_output", default=None
)
_installed = threading.Lock()


class _Routed(io.TextIOBase):
    """``sys.stdout`` / ``sys.stderr`` of an owner: a command's output goes to its buffer, anything
    else to the original stream (which may be None in a program without a console)."""

    def __init__(self, original: TextIO | None, which: int) -> None:
        self.original = original
        self.which = which

    def _target(self) -> TextIO | None:
        captured = _capture.get()
        return captured[self.which] if captured is not None else self.original

    def write(self, text: str) -> int:
        target = self._target()
        if target is None:
            return len(text)
        return target.write(text)

    def flush(self) -> None:
        target = self._target()
        if target is not None:
            target.flush()

    def isatty(self) -> bool:
        target = self._target()
        return bool(target is not None and target is self.original and target.isatty())

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8" if _capture.get() is not None else getattr(self.original, "encoding", "utf-8")

    def fileno(self) -> int:
        if self.original is None:
            raise io.UnsupportedOperation("no console")
        return self.original.fileno()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.original, name)


def install_capture() -> None:
    """Route ``sys.stdout`` and ``sys.stderr`` through per-command buffers (once per process)."""
    with _installed:
        if not isinstance(sys.stdout, _Routed):
            sys.stdout = _Routed(sys.stdout, 0)
        if not isinstance(sys.stderr, _Routed):
            sys.stderr = _Routed(sys.stderr, 1)


@contextlib.contextmanager
def captured() -> Iterator[tuple[io.StringIO, io.StringIO]]:
    out, err = io.StringIO(), io.StringIO()
    token = _capture.set((out, err))
    try:
        yield out, err
    finally:
        _capture.reset(token)


# --------------------------------------------------------------------------- running a command


def changes_the_file(argv: list[str]) -> bool:
    """Whether the command can change the file: it takes ``--take-over`` (every command that writes
    does), or it is ``serve`` (starting the hall records its address)."""
    args = _parsed(argv)
    return args is not None and ("take_over" in vars(args) or getattr(args, "command", "") == "serve")


def _parsed(argv: list[str]) -> Any:
    from app.cli import parser_for

    try:
        return parser_for(argv[0] if argv else None).parse_args(argv)
    except (UserError, SystemExit):
        return None  # refused by the parser: run where reads run, which says why


def _foreign_file(host: Host, argv: list[str]) -> str | None:
    """The command's FILE when it is not the owner's file (a command is only handed to its file's owner)."""
    import os

    args = _parsed(argv)
    file = getattr(args, "file", None) if args is not None else None
    if not file:
        return None
    same = os.path.normcase(os.path.realpath(file)) == os.path.normcase(os.path.realpath(host.db.path))
    return None if same else str(file)


def run_command(host: Host, request: Request) -> Answer:
    """Run ``request`` (a client's command line) in the owner, and return what it printed and its code."""
    from app.cli import main
    from app.services.hall import change_stamp
    from app.services.tournaments import lending

    install_capture()
    argv = list(request.argv)
    with captured() as (out, err), common.for_client(host, request.cwd):
        foreign = _foreign_file(host, argv)
        if foreign is not None:
            name = host.db.path.name
            return Answer(
                2,
                "",
                f"错误：本程序打开的是 {name}，不是 {foreign} (this owner has {name} open, not {foreign})\n",
            )
        context = contextvars.copy_context()

        def command() -> int:
            with lending(host.db):
                return main(argv, hosted=True)

        try:
            if changes_the_file(argv):

                def change() -> int:
                    if request.client_gone():
                        return NOT_RUN  # the client gave up before it began: nothing is done
                    before = change_stamp(host.db)
                    code = context.run(command)
                    if change_stamp(host.db) != before:
                        host.changed()
                    return code

                code = host.write(change).result()
            else:
                code = context.run(command)
        except concurrent.futures.CancelledError:  # the owner closed the file before it ran
            who_zh, who_en = host.describe()
            err.write(
                f"错误：{who_zh}已关闭赛事文件，命令没有执行 ({who_en} closed the file; nothing was done)\n"
            )
            code = 2
        except Exception:  # a defect: the client sees the traceback a command of its own would print
            log.exception("owner: a command of the command line failed")
            err.write(traceback.format_exc())
            code = 1
    return Answer(code, out.getvalue(), err.getvalue())


def open_channel(host: Host) -> OwnerChannel | None:
    """Offer the owner's file on its channel; None (said on stderr) when no channel can be offered."""
    channel = OwnerChannel(
        host.db.path, lambda request: run_command(host, request), owner=host.owner, control=host.control
    )
    try:
        channel.start()
    except (ChannelUnavailable, OSError) as exc:
        print(
            f"注意：命令行无法通过本程序使用 {host.db.path.name}（{exc}）；其他命令运行时会发现文件正被编辑",
            file=sys.stderr,
        )
        return None
    return channel
