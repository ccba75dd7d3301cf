"""Where an owner is found, and how the two sides talk (standard library only).

**Where.** Each user has a private folder (:func:`run_dir`: ``$XDG_RUNTIME_DIR/xqarbiter``, else
``/tmp/xqarbiter-<uid>``; ``%LOCALAPPDATA%\\XiangqiArbiter\\run`` on Windows; ``XQARBITER_RUN_DIR``
overrides), made ``0700`` and refused when it is not the user's own and private. An owner writes there,
named by a digest of the file's real path, a *rendezvous* file (``0600``): its pid, the file, the
transport (``unix`` with the socket beside it, or ``tcp`` with a port on 127.0.0.1) and a per-run
secret of 256 bits.

**Framing.** A frame is a 4-byte big-endian length and that many bytes of UTF-8 JSON (an object).
A frame longer than the limit of its step is refused before it is read (:data:`MAX_HELLO`,
:data:`MAX_REQUEST`); nothing is allocated for it.

**Handshake.** client → ``{"hello": 1, "nonce": c}``; owner → ``{"nonce": s, "proof": P("owner", c, s),
"pid", "owner"}``; client, once the owner's proof checks → ``{"proof": P("client", s, c), "argv",
"cwd"}``; owner, once the client's proof checks, runs the command, sending ``{"working": true}`` every
:data:`KEEPALIVE_SECONDS`, then ``{"code", "stdout", "stderr"}`` — or ``{"refused": zh, "refused_en":
en}``. ``P`` is an HMAC-SHA256 under the secret: the secret itself never crosses the channel, and a
process that is not the owner (a port reused after a crash) cannot answer.

**Control.** Instead of ``argv`` the client's second frame may carry ``{"control": name, "by": who}``
(after the same proof): ``status`` asks the owner what it is (``serve``: the hall's address),
``hand-over`` asks it to stop cleanly and let the file go (``serve`` does; the window, which asks, opens
the file next). The owner answers ``{"code": 0, "info": {…}}`` or ``{"refused": …}``.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import socket
import struct
import sys
import tempfile
from pathlib import Path
from typing import Any

from app.channel.where import ChannelClosed as ChannelClosed
from app.channel.where import ChannelError as ChannelError
from app.channel.where import ChannelUnavailable as ChannelUnavailable
from app.channel.where import file_key as file_key
from app.channel.where import real_file as real_file
from app.channel.where import rendezvous_path as rendezvous_path
from app.channel.where import run_dir as run_dir
from app.channel.where import socket_path as socket_path
from app.engine.records import fields, frozen

PROTOCOL = 1
CONTROLS = ("status", "hand-over")
MAX_HELLO = 4096
MAX_REQUEST = 1 << 20  # a command line and a folder: 1 MiB is far more than any
MAX_ANSWER = 1 << 28  # what a command prints (256 MiB)
MAX_RENDEZVOUS = 16_384
HANDSHAKE_SECONDS = 5.0  # a peer that does not finish the handshake in time is dropped
KEEPALIVE_SECONDS = 2.0  # the owner says "still working" this often while a command runs
SILENCE_SECONDS = 60.0  # the client gives up on an owner that says nothing for this long
CONNECT_SECONDS = 3.0
UNIX_PATH_MAX = 100  # sockaddr_un holds 104–108 bytes; longer folders use TCP on 127.0.0.1
_WINDOWS = sys.platform == "win32"


@frozen  # a frozen, slotted dataclass, made without `dataclasses` (~8 ms of a command's start)
class Answer:
    """What the owner sends back: the command's exit code and what it printed."""

    code: int
    stdout: str = ""
    stderr: str = ""


@frozen
class Rendezvous:
    """Where the owner of one tournament file listens (the content of its rendezvous file)."""

    pid: int
    file: str  # the real path of the tournament file
    transport: str  # "unix" | "tcp"
    address: str  # the socket's path (unix) or "127.0.0.1"
    port: int  # tcp only (0 for unix)
    token: str  # the per-run secret, 64 hex digits
    owner: str  # "window" | "serve": for messages
    protocol: int = PROTOCOL

    def describe(self) -> tuple[str, str]:
        zh = {"window": "编排窗口", "serve": "xqarbiter serve"}.get(self.owner, self.owner)
        en = {"window": "the arbiter's window", "serve": "xqarbiter serve"}.get(self.owner, self.owner)
        return f"{zh}（进程 {self.pid}）", f"{en} (process {self.pid})"


def write_rendezvous(target: Path, record: Rendezvous) -> None:
    """Write the rendezvous file at once (a temporary file made ``0600``, then one rename)."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({f.name: getattr(record, f.name) for f in fields(record)}, f)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def read_rendezvous(path: Path | str) -> Rendezvous | None:
    """The rendezvous of ``path``'s owner, or None: none written, unreadable, not this user's own
    private file, another protocol, or written for another file (a digest collision)."""
    try:
        target = rendezvous_path(path)
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except (OSError, ChannelUnavailable):
        return None
    try:
        st = os.fstat(fd)
        if not _WINDOWS and (st.st_uid != os.getuid() or st.st_mode & 0o077):
            return None
        raw = os.read(fd, MAX_RENDEZVOUS + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        data = json.loads(raw.decode("utf-8"))
        record = Rendezvous(
            pid=int(data["pid"]),
            file=str(data["file"]),
            transport=str(data["transport"]),
            address=str(data["address"]),
            port=int(data["port"]),
            token=str(data["token"]),
            owner=str(data["owner"]),
            protocol=int(data.get("protocol", 0)),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if (
        record.protocol != PROTOCOL
        or record.file != real_file(path)
        or record.transport not in ("unix", "tcp")
    ):
        return None
    return record


def transport_for(sock: Path) -> str:
    """``unix`` where the system has Unix sockets and the path fits, else ``tcp`` (127.0.0.1).
    ``XQARBITER_CHANNEL=tcp`` forces the fallback (it is tested on every system)."""
    forced = os.environ.get("XQARBITER_CHANNEL", "")
    if forced in ("unix", "tcp"):
        return forced
    if _WINDOWS or not hasattr(socket, "AF_UNIX") or len(os.fsencode(sock)) >= UNIX_PATH_MAX:
        return "tcp"
    return "unix"


# --------------------------------------------------------------------------- frames


def new_token() -> str:
    return secrets.token_hex(32)


def new_nonce() -> str:
    return secrets.token_hex(16)


def is_nonce(value: object) -> bool:
    return isinstance(value, str) and len(value) == 32 and all(c in "0123456789abcdef" for c in value)


def proof(token: str, role: str, *nonces: str) -> str:
    """HMAC-SHA256 under the secret of the role and the nonces (each side proves it knows the secret)."""
    message = "|".join((role, *nonces)).encode("ascii")
    return hmac.new(bytes.fromhex(token), message, hashlib.sha256).hexdigest()


def proof_matches(token: str, role: str, given: object, *nonces: str) -> bool:
    if not isinstance(given, str) or len(given) != 64:
        return False
    return hmac.compare_digest(given.encode("ascii", "replace"), proof(token, role, *nonces).encode("ascii"))


def send_frame(sock: socket.socket, value: dict[str, Any]) -> None:
    data = json.dumps(value, ensure_ascii=False).encode("utf-8")
    sock.sendall(struct.pack(">I", len(data)) + data)


def _recv_exact(sock: socket.socket, count: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < count:
        chunk = sock.recv(min(1 << 20, count - len(chunks)))
        if not chunk:
            raise ChannelClosed("the other side closed the connection")
        chunks += chunk
    return bytes(chunks)


def recv_frame(sock: socket.socket, limit: int) -> dict[str, Any]:
    """One frame; a length over ``limit`` is refused before anything of the frame is read."""
    (length,) = struct.unpack(">I", _recv_exact(sock, 4))
    if length > limit:
        raise ChannelError(f"a frame of {length} bytes (at most {limit})")
    body = _recv_exact(sock, length)
    try:
        value = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ChannelError("a frame that is not JSON") from None
    if not isinstance(value, dict):
        raise ChannelError("a frame that is not a JSON object")
    return value


def peer_uid(sock: socket.socket) -> int | None:
    """The user id of the process at the other end of a Unix socket (Linux, macOS), or None."""
    so_peercred = getattr(socket, "SO_PEERCRED", None)
    if so_peercred is not None:
        raw = sock.getsockopt(socket.SOL_SOCKET, so_peercred, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", raw)
        return int(uid)
    if sys.platform == "darwin":  # pragma: no cover - exercised on macOS only
        local_peercred, sol_local = 0x001, 0
        raw = sock.getsockopt(sol_local, local_peercred, 76)  # struct xucred
        _version, uid = struct.unpack_from("=II", raw)
        return int(uid)
    return None


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs (the owner of a rendezvous may have been killed)."""
    from app.db.lock import pid_alive as alive

    return alive(pid)
