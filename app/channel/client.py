"""The command line's side of the channel: find the file's owner and hand it the command.

:func:`ask_owner` returns the owner's :class:`~app.channel.server.Answer` — or None when the file has
no live owner with a channel (nobody has it open, or its owner was killed and left its rendezvous):
then the command opens the file itself, as it always did. It never opens the tournament file or its
companions; it reads only the rendezvous in the user's private folder (and, to wait for an owner that
is starting, asks the OS whether the lock file is held).
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from pathlib import Path
from typing import Any

from app.channel.wire import (
    CONNECT_SECONDS,
    HANDSHAKE_SECONDS,
    MAX_ANSWER,
    MAX_HELLO,
    PROTOCOL,
    SILENCE_SECONDS,
    Answer,
    ChannelClosed,
    ChannelError,
    Rendezvous,
    is_nonce,
    new_nonce,
    pid_alive,
    proof,
    proof_matches,
    read_rendezvous,
    recv_frame,
    send_frame,
)
from app.engine.types import UserError

#: how long a command waits for the channel of an owner that holds the lock but is still starting
STARTING_SECONDS = 5.0
#: a shorter wait than :data:`STARTING_SECONDS` may be set here (the tests' knob; never a longer one)
STARTING_SECONDS_VARIABLE = "XQARBITER_STARTING_SECONDS"


def starting_seconds() -> float:
    """:data:`STARTING_SECONDS`, or the shorter wait named by :data:`STARTING_SECONDS_VARIABLE`."""
    try:
        shorter = float(os.environ.get(STARTING_SECONDS_VARIABLE, ""))
    except ValueError:
        return STARTING_SECONDS
    if not shorter >= 0.0:  # negative, or not a number
        return STARTING_SECONDS
    return min(shorter, STARTING_SECONDS)


class OwnerLost(UserError):
    """The owner stopped answering (killed, or hung) after the command was handed to it."""


def _connect(record: Rendezvous) -> socket.socket | None:
    try:
        if record.transport == "unix":
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(CONNECT_SECONDS)
            sock.connect(record.address)
        else:
            sock = socket.create_connection(("127.0.0.1", record.port), timeout=CONNECT_SECONDS)
    except OSError:  # refused, no such socket: an owner that is gone
        return None
    return sock


def _handshake(sock: socket.socket, record: Rendezvous) -> str | None:
    """The owner's nonce once it has proved it knows the secret; None when it cannot."""
    nonce = new_nonce()
    sock.settimeout(HANDSHAKE_SECONDS)
    send_frame(sock, {"hello": PROTOCOL, "nonce": nonce})
    reply = recv_frame(sock, MAX_HELLO)
    if "refused" in reply:
        raise _refusal(reply)
    theirs = reply.get("nonce")
    if not is_nonce(theirs) or not proof_matches(
        record.token, "owner", reply.get("proof"), nonce, str(theirs)
    ):
        return None
    assert isinstance(theirs, str)
    sock.settimeout(None)
    return theirs + nonce


def _refusal(reply: dict[str, object]) -> UserError:
    return UserError(str(reply.get("refused", "")), str(reply.get("refused_en", "")))


def owner_answers(record: Rendezvous) -> bool:
    """Whether the owner named by ``record`` is there and proves it knows its secret."""
    sock = _connect(record)
    if sock is None:
        return False
    try:
        return _handshake(sock, record) is not None
    except (ChannelError, OSError, UserError):
        return False
    finally:
        with contextlib.suppress(OSError):
            sock.close()


def live_owner(path: Path) -> Rendezvous | None:
    """The rendezvous of a live owner of ``path`` in another process, or None."""
    record = read_rendezvous(path)
    if record is None or record.pid == os.getpid() or not pid_alive(record.pid):
        return None
    return record


def ask_owner(path: Path, argv: list[str], cwd: str) -> Answer | None:
    """Hand the command to ``path``'s owner and return its answer; None when there is no owner to ask.

    Raises :class:`OwnerLost` when the owner took the command but ended (or fell silent for
    :data:`~app.channel.wire.SILENCE_SECONDS`) before answering: whether it was done is not known."""
    record = _owner_or_wait(path)
    if record is None:
        return None
    sock = _connect(record)
    if sock is None:
        return None
    who_zh, who_en = record.describe()
    try:
        try:
            nonces = _handshake(sock, record)
        except (ChannelError, OSError):
            return None  # not our owner (a port reused after a crash): the file is opened directly
        if nonces is None:
            return None
        theirs, mine = nonces[:32], nonces[32:]
        send_frame(sock, {"proof": proof(record.token, "client", theirs, mine), "argv": argv, "cwd": cwd})
        sock.settimeout(SILENCE_SECONDS)
        while True:
            try:
                reply = recv_frame(sock, MAX_ANSWER)
            except (ChannelClosed, ConnectionError, TimeoutError, ChannelError) as exc:
                silent = isinstance(exc, TimeoutError)
                raise OwnerLost(
                    f"{who_zh}{'没有回应' if silent else '在执行命令时结束了'}：这条命令是否已执行不能确定，"
                    f"请用 pairings / standings 等命令查看；若它已退出，加 --take-over 接管文件",
                    f"{who_en} {'stopped answering' if silent else 'ended while running the command'}: "
                    "whether it was done is not known; check with pairings / standings …; if it has "
                    "exited, add --take-over to take the file over",
                ) from None
            if reply.get("working"):
                continue
            if "refused" in reply:
                raise _refusal(reply)
            code = reply.get("code")
            if not isinstance(code, int):
                raise OwnerLost(f"{who_zh}的回答无效", f"{who_en} gave an invalid answer")
            return Answer(code, str(reply.get("stdout", "")), str(reply.get("stderr", "")))
    finally:
        with contextlib.suppress(OSError):
            sock.close()


def ask_control(record: Rendezvous, what: str, by: str = "") -> dict[str, Any] | None:
    """Send the control request ``what`` (``status``, ``hand-over``) to the owner named by ``record``.

    Returns what the owner answered; None when it is not there or does not prove it knows its secret;
    raises :class:`~app.engine.types.UserError` when it refuses (an owner that does not support it)."""
    sock = _connect(record)
    if sock is None:
        return None
    try:
        try:
            nonces = _handshake(sock, record)
        except (ChannelError, OSError):
            return None
        if nonces is None:
            return None
        theirs, mine = nonces[:32], nonces[32:]
        send_frame(sock, {"proof": proof(record.token, "client", theirs, mine), "control": what, "by": by})
        sock.settimeout(SILENCE_SECONDS)
        try:
            reply = recv_frame(sock, MAX_HELLO)
        except (ChannelError, OSError):
            return None
        if "refused" in reply:
            raise _refusal(reply)
        info = reply.get("info")
        return info if isinstance(info, dict) else None
    finally:
        with contextlib.suppress(OSError):
            sock.close()


def _owner_or_wait(path: Path) -> Rendezvous | None:
    """The live owner, waiting up to :func:`starting_seconds` while the lock is held by a process whose
    channel is not there yet (an owner starting, or a short command holding the file): None once the
    lock is free, or when the wait is over (the command then meets the lock as before)."""
    record = live_owner(path)
    if record is not None:
        return record
    from app.db.lock import held_by_this_process, lock_in_use

    if held_by_this_process(path):
        return None  # this process has the file open: it is its own owner
    deadline = time.monotonic() + starting_seconds()
    while lock_in_use(path) and time.monotonic() < deadline:
        time.sleep(0.05)
        record = live_owner(path)
        if record is not None:
            return record
    return None
