"""The owner's side of the channel: listen, check who is calling, run what they ask, answer.

:class:`OwnerChannel` is started by the file's owner (the window, ``xqarbiter serve``) once it holds
the file's lock, and closed before it lets the file go. It knows nothing of tournaments: each request
(a command line, the client's folder, and a way to know whether the client is still there) goes to the
``handler`` it was given, which returns an :class:`Answer`. The owner's handler runs the command with
its own open file (:mod:`app.cli.hosted`).

Every connection gets its own thread, at most :data:`MAX_CLIENTS` at a time (more are told the owner is
busy); a peer has :data:`~app.channel.wire.HANDSHAKE_SECONDS` to finish the handshake, so a connection
that sends nothing, or garbage, or a frame too large, is dropped without touching the owner's file.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.channel.wire import (
    CONTROLS,
    HANDSHAKE_SECONDS,
    KEEPALIVE_SECONDS,
    MAX_HELLO,
    MAX_REQUEST,
    Answer,
    ChannelError,
    ChannelUnavailable,
    Rendezvous,
    is_nonce,
    new_nonce,
    new_token,
    peer_uid,
    pid_alive,
    proof,
    proof_matches,
    read_rendezvous,
    real_file,
    recv_frame,
    rendezvous_path,
    run_dir,
    send_frame,
    socket_path,
    transport_for,
    write_rendezvous,
)

log = logging.getLogger("xqarbiter.channel")
MAX_CLIENTS = 8
MAX_ARGS = 200


@dataclass(frozen=True, slots=True)
class Request:
    """What a client asks: its command line (without the program's name) and its current folder."""

    argv: tuple[str, ...]
    cwd: str
    client_gone: Callable[[], bool]  # True once the client has hung up (a change not yet begun is skipped)


Handler = Callable[[Request], Answer]
#: answers a control request (``status``, ``hand-over``) with what to send back, or None (unknown);
#: called with the request's name and the caller's description (for the owner's messages)
Control = Callable[[str, str], dict[str, Any] | None]


class OwnerChannel:
    """The channel of one open tournament file, served by its owner until :meth:`close`."""

    def __init__(
        self, path: Path | str, handler: Handler, *, owner: str, control: Control | None = None
    ) -> None:
        self.path = Path(path)
        self.handler = handler
        self.control = control
        self.owner = owner
        self.record: Rendezvous | None = None
        self._listener: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._slots = threading.BoundedSemaphore(MAX_CLIENTS)
        self._closing = threading.Event()
        self._active: set[threading.Thread] = set()
        self._active_lock = threading.Lock()
        self._work = concurrent.futures.ThreadPoolExecutor(MAX_CLIENTS, thread_name_prefix="owner-request")

    # ------------------------------------------------------------------ life

    def start(self) -> Rendezvous:
        """Listen and write the rendezvous. Raises :class:`ChannelUnavailable` when there is no private
        folder, or when another live owner already answers for this file (never two owners)."""
        folder = run_dir()
        existing = read_rendezvous(self.path)
        if existing is not None and existing.pid != os.getpid() and pid_alive(existing.pid):
            from app.channel.client import owner_answers

            if owner_answers(existing):
                who_zh, _who_en = existing.describe()
                raise ChannelUnavailable(f"{self.path.name} already has an owner: {who_zh}")
        where = socket_path(self.path, folder)
        rendezvous = rendezvous_path(self.path, folder)
        token = new_token()
        transport = transport_for(where)
        if transport == "unix":
            with contextlib.suppress(FileNotFoundError):
                os.unlink(where)  # a socket left by an owner that was killed
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            old = os.umask(0o177)
            try:
                listener.bind(os.fspath(where))
            finally:
                os.umask(old)
            os.chmod(where, 0o600)
            record = Rendezvous(
                os.getpid(), real_file(self.path), "unix", os.fspath(where), 0, token, self.owner
            )
        else:
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            if hasattr(socket, "SO_EXCLUSIVEADDRUSE"):  # Windows: nobody else binds our port meanwhile
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
            listener.bind(("127.0.0.1", 0))
            record = Rendezvous(
                os.getpid(),
                real_file(self.path),
                "tcp",
                "127.0.0.1",
                listener.getsockname()[1],
                token,
                self.owner,
            )
        try:
            listener.listen(16)
            listener.settimeout(0.5)
            write_rendezvous(rendezvous, record)
        except BaseException:
            listener.close()
            if transport == "unix":
                with contextlib.suppress(OSError):
                    os.unlink(where)
            raise
        self._listener = listener
        self.record = record
        self._thread = threading.Thread(target=self._accept, name="owner-channel", daemon=True)
        self._thread.start()
        return record

    def stop_listening(self) -> None:
        """Take no new request (the rendezvous goes, so commands open the file themselves once it is
        closed); those under way go on."""
        self._closing.set()
        record = self.record
        if record is not None:
            target = rendezvous_path(self.path) if _run_dir_ok() else None
            if target is not None and _is_ours(target, record):
                with contextlib.suppress(OSError):
                    os.unlink(target)
            if record.transport == "unix":
                with contextlib.suppress(OSError):
                    os.unlink(record.address)
        if self._listener is not None:
            with contextlib.suppress(OSError):  # wakes the accepting thread now (Linux), not at its next poll
                self._listener.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                self._listener.close()

    def close(self, timeout: float = 30.0) -> None:
        """Stop listening, remove the rendezvous (if still ours) and wait for the requests under way."""
        self.stop_listening()
        self.record = None
        if self._thread is not None:
            self._thread.join(timeout)
        with self._active_lock:
            active = list(self._active)
        for thread in active:
            thread.join(timeout)
        self._work.shutdown(wait=False, cancel_futures=True)

    @property
    def listening(self) -> bool:
        return self.record is not None and self._thread is not None and self._thread.is_alive()

    # ------------------------------------------------------------------ connections

    def _accept(self) -> None:
        listener = self._listener
        assert listener is not None
        while not self._closing.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                if self._closing.is_set():
                    return
                continue
            if not self._slots.acquire(blocking=False):
                self._refuse(
                    conn,
                    "编排程序正忙（同时连接过多），请稍后重试",
                    "the owner is busy (too many clients); retry",
                )
                continue
            thread = threading.Thread(target=self._serve, args=(conn,), name="owner-client", daemon=True)
            with self._active_lock:
                self._active.add(thread)
            thread.start()

    @staticmethod
    def _refuse(conn: socket.socket, zh: str, en: str) -> None:
        with contextlib.suppress(OSError):
            conn.settimeout(1.0)
            send_frame(conn, {"refused": zh, "refused_en": en})
        with contextlib.suppress(OSError):
            conn.close()

    def _serve(self, conn: socket.socket) -> None:
        try:
            self._conversation(conn)
        except (ChannelError, OSError, ValueError) as exc:  # a peer that went away or spoke nonsense
            log.info("owner channel: connection dropped: %s", exc)
        except Exception:  # never let a client take the owner down
            log.exception("owner channel: request failed")
        finally:
            with contextlib.suppress(OSError):
                conn.close()
            self._slots.release()
            with self._active_lock:
                self._active.discard(threading.current_thread())

    def _conversation(self, conn: socket.socket) -> None:
        record = self.record
        if record is None:
            return
        conn.settimeout(HANDSHAKE_SECONDS)
        if record.transport == "unix":
            uid = peer_uid(conn)
            if uid is not None and uid != os.getuid():
                self._refuse(
                    conn,
                    "只有本机同一用户可以使用此通道",
                    "only the same user of this computer may use this channel",
                )
                return
        hello = recv_frame(conn, MAX_HELLO)
        client_nonce = hello.get("nonce")
        if hello.get("hello") != 1 or not is_nonce(client_nonce):
            raise ChannelError("not a client's hello")
        assert isinstance(client_nonce, str)
        nonce = new_nonce()
        send_frame(
            conn,
            {
                "nonce": nonce,
                "proof": proof(record.token, "owner", client_nonce, nonce),
                "pid": os.getpid(),
                "owner": self.owner,
            },
        )
        request = recv_frame(conn, MAX_REQUEST)
        if not proof_matches(record.token, "client", request.get("proof"), nonce, client_nonce):
            self._refuse(conn, "通道口令不符，拒绝执行", "the channel's secret does not match; refused")
            return
        if "control" in request:
            self._control(conn, request)
            return
        argv, cwd = request.get("argv"), request.get("cwd")
        if (
            not isinstance(argv, list)
            or len(argv) > MAX_ARGS
            or not all(isinstance(a, str) and "\x00" not in a for a in argv)
            or not isinstance(cwd, str)
            or "\x00" in cwd
        ):
            self._refuse(conn, "请求格式无效", "the request is malformed")
            return
        gone = threading.Event()

        def client_gone() -> bool:
            if gone.is_set():
                return True
            if _hung_up(conn):
                gone.set()
            return gone.is_set()

        conn.settimeout(KEEPALIVE_SECONDS * 5)
        future = self._work.submit(self.handler, Request(tuple(argv), cwd, client_gone))
        while True:
            try:
                answer = future.result(timeout=KEEPALIVE_SECONDS)
                break
            except concurrent.futures.TimeoutError:
                try:
                    send_frame(conn, {"working": True})
                except OSError:
                    gone.set()  # still waited for: the command runs to its end in its own thread
        if gone.is_set():
            return
        send_frame(conn, {"code": answer.code, "stdout": answer.stdout, "stderr": answer.stderr})

    def _control(self, conn: socket.socket, request: dict[str, Any]) -> None:
        """A control request (:data:`~app.channel.wire.CONTROLS`): answered at once, in this thread."""
        what, by = request.get("control"), request.get("by", "")
        if not isinstance(by, str) or len(by) > 200:
            by = ""
        info = self.control(what, by) if self.control is not None and what in CONTROLS else None
        if info is None:
            self._refuse(conn, "该程序不支持这个请求", f"this owner does not support {what!r}")
            return
        send_frame(conn, {"code": 0, "info": info})


def _hung_up(conn: socket.socket) -> bool:
    """Whether the client closed its end (it sends nothing after its request, so a readable socket
    means the end of it). Called from the owner's threads: it neither blocks nor changes the socket."""
    import select

    try:
        readable, _, _ = select.select([conn], [], [], 0)
        if not readable:
            return False
        return conn.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


def _run_dir_ok() -> bool:
    try:
        run_dir()
    except ChannelUnavailable:
        return False
    return True


def _is_ours(target: Path, record: Rendezvous) -> bool:
    found = read_rendezvous(record.file)
    return found is not None and found.pid == record.pid and found.token == record.token and target.exists()
