"""Where an owner of a tournament file would be found (the light part of :mod:`app.channel.wire`).

A command run on its own first asks :func:`owner_may_answer`; only when an owner may be there does it
import the channel itself (sockets, HMAC: ~10 ms of a short command's start).
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

_WINDOWS = sys.platform == "win32"


class ChannelError(Exception):
    """The channel failed (closed, garbage, too large, a proof that does not check)."""


class ChannelClosed(ChannelError):
    """The other side closed the connection."""


class ChannelUnavailable(ChannelError):
    """No channel can be offered here (the private folder cannot be made or is not private)."""


# --------------------------------------------------------------------------- where


def _private(folder: Path) -> bool:
    """A folder only this user can enter (Windows: the user's profile, whose ACL is the user's)."""
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if _WINDOWS:  # pragma: no cover - exercised on Windows only
        return True
    return st.st_uid == os.getuid() and not st.st_mode & 0o077


def run_dir() -> Path:
    """The user's private folder for owners' rendezvous files (made if missing).

    Raises :class:`ChannelUnavailable` when it cannot be made or is not private (another user made
    ``/tmp/xqarbiter-<uid>`` first, its mode was widened …): then no channel is offered or trusted."""
    override = os.environ.get("XQARBITER_RUN_DIR")
    if override:
        base = Path(override)
    elif _WINDOWS:  # pragma: no cover - exercised on Windows only
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home()) / "XiangqiArbiter" / "run"
    else:
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        if runtime and _private(Path(runtime)):
            base = Path(runtime) / "xqarbiter"
        else:
            base = Path(tempfile.gettempdir()) / f"xqarbiter-{os.getuid()}"
    try:
        base.mkdir(mode=0o700, parents=bool(override) or _WINDOWS, exist_ok=True)
    except OSError as exc:
        raise ChannelUnavailable(f"cannot make the folder {base}: {exc}") from None
    if not _private(base):
        raise ChannelUnavailable(f"{base} is not a private folder of this user")
    return base


def file_key(path: Path | str) -> str:
    """The name of a tournament file's rendezvous: a digest of its real path (case-folded on Windows)."""
    real = os.path.normcase(os.path.realpath(os.fspath(path)))
    return _sha256_hex(real.encode("utf-8", "surrogatepass"))[:24]


def _sha256_hex(data: bytes) -> str:
    """SHA-256 of ``data`` in hexadecimal, from Python's own SHA-256 module (what :mod:`hashlib` falls back
    to) when it is there: :mod:`hashlib` loads OpenSSL (~10 ms of a short command's start), and a
    command asks for this digest whenever any owner's rendezvous is written (see owner_may_answer)."""
    for name in ("_sha256", "_sha2"):  # Python 3.11; 3.12 and later
        try:
            module: Any = __import__(name)
        except ImportError:
            continue
        return str(module.sha256(data).hexdigest())
    import hashlib  # pragma: no cover - a Python built without its own SHA-256

    return hashlib.sha256(data).hexdigest()  # pragma: no cover


def real_file(path: Path | str) -> str:
    return os.path.normcase(os.path.realpath(os.fspath(path)))


def rendezvous_path(path: Path | str, folder: Path | None = None) -> Path:
    return (folder or run_dir()) / f"{file_key(path)}.json"


def socket_path(path: Path | str, folder: Path | None = None) -> Path:
    return (folder or run_dir()) / f"{file_key(path)}.sock"


def owner_may_answer(path: Path | str) -> bool:
    """Whether another process may own ``path``: its rendezvous file is written, or the file's lock is
    held (an owner starting, whose channel is not there yet). False: the command opens the file itself."""
    try:
        folder = run_dir()
        # no rendezvous of any file (the usual case on a laptop): no digest of this one needed
        if (
            any(name.endswith(".json") for name in os.listdir(folder))
            and rendezvous_path(path, folder).exists()
        ):
            return True
    except (OSError, ChannelUnavailable):
        pass
    from app.db.lock import lock_in_use

    return lock_in_use(Path(path))
