"""The owner's channel itself (app/channel): who may use it, and what it survives.

Attacked from another process where it matters (a client is never its own owner): a client without
the secret, garbage, a frame announcing gigabytes, a peer that says nothing, more clients than slots,
a process of another user, a stale rendezvous of a killed owner, a port taken over by an impostor, a
second owner. Each time the owner's handler is not reached (or only as it should be) and the channel
still answers a proper client afterwards. Both transports: Unix socket, and the TCP + secret fallback
Windows uses (forced with ``XQARBITER_CHANNEL=tcp``).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.channel import wire
from app.channel.client import ask_owner
from app.channel.server import Answer, OwnerChannel, Request
from app.channel.wire import read_rendezvous, rendezvous_path

ROOT = Path(__file__).resolve().parents[2]
ECHO_OWNER = """
import json, os, sys, time
from pathlib import Path
from app.channel import server
from app.channel.server import Answer, OwnerChannel
# a test may shorten the owner's bounds (the product's own values are checked where they are documented)
for name in ("HANDSHAKE_SECONDS", "KEEPALIVE_SECONDS"):
    if os.environ.get("ECHO_" + name):
        setattr(server, name, float(os.environ["ECHO_" + name]))
path = Path(sys.argv[1])
calls = Path(sys.argv[2])
def handler(request):
    with open(calls, "a", encoding="utf-8") as f:
        f.write(json.dumps(list(request.argv)) + "\\n")
    if request.argv[:1] == ("sleep",):
        time.sleep(float(request.argv[1]))
    return Answer(0, "echo " + " ".join(request.argv) + " from " + request.cwd, "")
channel = OwnerChannel(path, handler, owner="serve")
channel.start()
print("ready", flush=True)
sys.stdin.readline()
channel.close()
"""


@pytest.fixture(params=["unix", "tcp"])
def transport(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "unix" and not hasattr(socket, "AF_UNIX"):
        pytest.skip("no Unix sockets here")
    monkeypatch.setenv("XQARBITER_CHANNEL", request.param)
    return str(request.param)


def python_for(user: int) -> str | None:
    """A Python ≥ 3.11 that ``user`` may run (this venv may live in root's home), or None."""
    for candidate in (sys.executable, "/usr/bin/python3"):
        try:
            ok = subprocess.run(
                [candidate, "-c", "import sys; print(sys.version_info >= (3, 11))"],
                capture_output=True,
                text=True,
                user=user,
                group=user,
                cwd="/",
                timeout=30,
            )
        except OSError:
            continue
        if ok.stdout.strip() == "True":
            return candidate
    return None


class EchoOwner:
    """An owner in another process whose handler echoes the command and logs each call."""

    def __init__(
        self,
        path: Path,
        calls: Path,
        env: dict[str, str] | None = None,
        python: str = sys.executable,
        **popen: object,
    ) -> None:
        self.path, self.calls = path, calls
        self.process = subprocess.Popen(
            [python, "-c", ECHO_OWNER, str(path), str(calls)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
            **popen,  # type: ignore[arg-type]
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        assert line == "ready", line + (self.process.stderr.read() if self.process.stderr else "")

    def seen(self) -> list[list[str]]:
        if not self.calls.exists():
            return []
        return [json.loads(line) for line in self.calls.read_text(encoding="utf-8").splitlines()]

    def stop(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.write("\n")
            self.process.stdin.flush()
            self.process.wait(30)


@pytest.fixture
def owner(tmp_path: Path, transport: str) -> Iterator[EchoOwner]:
    path = tmp_path / "event.xqt"
    path.write_bytes(b"")
    running = EchoOwner(path, tmp_path / "calls.jsonl")
    yield running
    running.stop()


def _raw(path: Path) -> socket.socket:
    record = read_rendezvous(path)
    assert record is not None
    if record.transport == "unix":
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(record.address)
    else:
        sock = socket.create_connection(("127.0.0.1", record.port))
    sock.settimeout(10)
    return sock


def test_a_command_reaches_the_owner_and_its_answer_comes_back(owner: EchoOwner, transport: str) -> None:
    record = read_rendezvous(owner.path)
    assert record is not None and record.transport == transport and record.pid == owner.process.pid
    mode = os.stat(rendezvous_path(owner.path)).st_mode & 0o777
    assert mode == 0o600
    if transport == "unix":
        assert os.stat(record.address).st_mode & 0o777 == 0o600
    assert os.stat(wire.run_dir()).st_mode & 0o777 == 0o700
    answer = ask_owner(owner.path, ["pairings", "x", "--json"], "/somewhere")
    assert answer == Answer(0, "echo pairings x --json from /somewhere", "")
    assert owner.seen() == [["pairings", "x", "--json"]]


def test_a_client_without_the_secret_gets_nothing(owner: EchoOwner) -> None:
    sock = _raw(owner.path)
    nonce = wire.new_nonce()
    wire.send_frame(sock, {"hello": 1, "nonce": nonce})
    hello = wire.recv_frame(sock, wire.MAX_HELLO)
    assert set(hello) >= {"nonce", "proof", "pid"} and "token" not in json.dumps(hello)
    guessed = wire.proof(wire.new_token(), "client", hello["nonce"], nonce)  # a secret of its own
    wire.send_frame(sock, {"proof": guessed, "argv": ["result", "x", "1-0"], "cwd": "/"})
    reply = wire.recv_frame(sock, wire.MAX_HELLO)
    assert "口令不符" in reply["refused"]
    sock.close()
    assert owner.seen() == []
    assert ask_owner(owner.path, ["ok"], "/").code == 0  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "garbage",
    [
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",  # a browser or a scanner
        struct.pack(">I", 0xFFFFFFF0) + b"{",  # a frame announcing 4 GB
        struct.pack(">I", 5) + b"\xff\xfe\x00\x01\x02",  # not UTF-8
        struct.pack(">I", 2) + b"[]",  # JSON, but not an object
        struct.pack(">I", 30) + json.dumps({"hello": 1, "nonce": "../../etc"}).encode()[:30],
        os.urandom(4096),
    ],
)
def test_garbage_is_dropped_and_the_owner_goes_on(owner: EchoOwner, garbage: bytes) -> None:
    sock = _raw(owner.path)
    started = time.monotonic()
    try:  # the owner may hang up before all of it is sent: that is the point
        sock.sendall(garbage)
        sock.shutdown(socket.SHUT_WR)
        while sock.recv(4096):
            pass
    except OSError:  # reset, or no longer connected: as good as a close
        pass
    sock.close()
    assert time.monotonic() - started < wire.HANDSHAKE_SECONDS + 3
    assert owner.seen() == []
    assert ask_owner(owner.path, ["still", "there"], "/").stdout.startswith("echo still there")  # type: ignore[union-attr]


def test_a_huge_request_is_refused_before_it_is_read(owner: EchoOwner) -> None:
    record = read_rendezvous(owner.path)
    assert record is not None
    sock = _raw(owner.path)
    nonce = wire.new_nonce()
    wire.send_frame(sock, {"hello": 1, "nonce": nonce})
    hello = wire.recv_frame(sock, wire.MAX_HELLO)
    body = json.dumps(
        {
            "proof": wire.proof(record.token, "client", hello["nonce"], nonce),
            "argv": ["x" * (wire.MAX_REQUEST + 10)],
            "cwd": "/",
        }
    ).encode()
    with pytest.raises(OSError):  # the owner hangs up after the length (it reads no further)
        sock.sendall(struct.pack(">I", len(body)) + body)
        wire.recv_frame(sock, wire.MAX_HELLO)
    sock.close()
    assert owner.seen() == []
    assert ask_owner(owner.path, ["ok"], "/").code == 0  # type: ignore[union-attr]


def test_silent_peers_are_dropped_and_extra_clients_told_to_wait(tmp_path: Path, transport: str) -> None:
    from app.channel.server import MAX_CLIENTS

    assert (wire.HANDSHAKE_SECONDS, MAX_CLIENTS) == (5.0, 8)  # the product's bounds (docs/file-safety.md)
    handshake = 1.0  # this owner's, shortened so the test waits 1 s, not 5
    path = tmp_path / "event.xqt"
    path.write_bytes(b"")
    owner = EchoOwner(path, tmp_path / "calls.jsonl", env={"ECHO_HANDSHAKE_SECONDS": str(handshake)})
    try:
        started = time.monotonic()
        idle = [_raw(owner.path) for _ in range(MAX_CLIENTS)]  # hold every slot, say nothing
        extra = _raw(owner.path)
        assert "正忙" in wire.recv_frame(extra, wire.MAX_HELLO)["refused"]
        extra.close()
        for sock in idle:  # each dropped once the handshake's time is up (not the socket's 10 s)
            assert sock.recv(1) == b""
            sock.close()
        elapsed = time.monotonic() - started
        assert handshake - 0.1 < elapsed < handshake + 3, elapsed  # the shortened bound, not 5 s
        assert ask_owner(owner.path, ["ok"], "/").code == 0  # type: ignore[union-attr]
        assert owner.seen() == [["ok"]]
    finally:
        owner.stop()


def test_a_stale_rendezvous_of_a_killed_owner_is_no_owner(tmp_path: Path, transport: str) -> None:
    path = tmp_path / "event.xqt"
    path.write_bytes(b"")
    killed = EchoOwner(path, tmp_path / "calls.jsonl")
    killed.process.kill()
    killed.process.wait(30)
    assert read_rendezvous(path) is not None  # left behind
    assert ask_owner(path, ["result"], "/") is None  # nobody to ask: the command opens the file itself
    again = EchoOwner(path, tmp_path / "calls2.jsonl")  # a new owner takes the place
    try:
        assert ask_owner(path, ["ok"], "/").code == 0  # type: ignore[union-attr]
    finally:
        again.stop()
    assert read_rendezvous(path) is None


def test_an_impostor_on_the_owners_port_learns_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner was killed and another program got its port: the client finds no owner (it cannot
    prove the secret), and what it sent proves nothing reusable."""
    monkeypatch.setenv("XQARBITER_CHANNEL", "tcp")
    path = tmp_path / "event.xqt"
    path.write_bytes(b"")
    impostor = socket.socket()
    impostor.bind(("127.0.0.1", 0))
    impostor.listen(1)
    heard: list[bytes] = []

    def answer() -> None:
        conn, _ = impostor.accept()
        conn.settimeout(5)
        heard.append(conn.recv(65536))
        wire.send_frame(conn, {"nonce": wire.new_nonce(), "proof": "0" * 64, "pid": 1})
        with contextlib.suppress(OSError):
            heard.append(conn.recv(65536))
        conn.close()

    thread = threading.Thread(target=answer)
    thread.start()
    # the rendezvous of the killed owner names a live process (here: this test's parent)
    record = wire.Rendezvous(
        os.getppid(),
        wire.real_file(path),
        "tcp",
        "127.0.0.1",
        impostor.getsockname()[1],
        wire.new_token(),
        "serve",
    )
    wire.write_rendezvous(rendezvous_path(path), record)
    assert ask_owner(path, ["result", str(path), "1-0"], "/") is None  # no owner: opened directly
    thread.join(10)
    impostor.close()
    assert record.token not in b"".join(heard).decode("utf-8", "replace")
    assert all(b"argv" not in h for h in heard)  # the command was never sent


def test_a_second_owner_of_the_same_file_is_refused(owner: EchoOwner) -> None:
    channel = OwnerChannel(owner.path, lambda r: Answer(0), owner="window")
    with pytest.raises(wire.ChannelUnavailable, match="already has an owner"):
        channel.start()
    assert read_rendezvous(owner.path).pid == owner.process.pid  # type: ignore[union-attr]
    assert ask_owner(owner.path, ["ok"], "/").stdout.startswith("echo ok")  # type: ignore[union-attr]


@pytest.mark.skipif(
    not hasattr(os, "setuid") or os.geteuid() != 0, reason="needs root to run as another user"
)
def test_a_process_of_another_user_cannot_use_the_channel(
    owner: EchoOwner, tmp_path: Path, transport: str
) -> None:
    """``nobody`` cannot even reach the socket (the folder is 0700) nor read the secret; on TCP it
    reaches the port but cannot prove the secret."""
    record = read_rendezvous(owner.path)
    assert record is not None
    probe = f"""
import socket, sys, json, struct, os
sys.path.insert(0, {str(ROOT)!r})
from app.channel import wire
try:
    open({str(rendezvous_path(owner.path))!r}).read()
    print("read the secret")
except OSError:
    print("secret unreadable")
try:
    if {record.transport!r} == "unix":
        s = socket.socket(socket.AF_UNIX); s.connect({record.address!r})
    else:
        s = socket.create_connection(("127.0.0.1", {record.port}))
    s.settimeout(5)
    n = wire.new_nonce()
    wire.send_frame(s, {{"hello": 1, "nonce": n}})
    h = wire.recv_frame(s, 4096)
    wire.send_frame(s, {{"proof": "0" * 64, "argv": ["result"], "cwd": "/"}})
    print("answer", json.dumps(wire.recv_frame(s, 4096), ensure_ascii=False))
except OSError as e:
    print("refused by the system", type(e).__name__)
"""
    python = python_for(65534)
    if python is None:
        pytest.skip("no Python that the user nobody may run")
    out = subprocess.run(
        [python, "-c", probe], capture_output=True, text=True, user=65534, group=65534, cwd="/", timeout=60
    ).stdout
    assert "secret unreadable" in out, out
    if transport == "unix":
        assert "refused by the system PermissionError" in out, out
    else:
        assert "口令不符" in out, out
    assert owner.seen() == []


@pytest.mark.skipif(
    not hasattr(os, "setuid") or os.geteuid() != 0, reason="needs root to run as another user"
)
@pytest.mark.skipif(not hasattr(socket, "SO_PEERCRED"), reason="peer credentials (Linux)")
def test_an_owner_refuses_a_peer_of_another_user_even_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """root can open any folder: the owner checks the peer's user id on its Unix socket."""
    monkeypatch.setenv("XQARBITER_CHANNEL", "unix")
    folder = Path(os.environ["XQARBITER_RUN_DIR"]).parent / f"xqrun-nobody-{os.getpid()}"
    folder.mkdir(mode=0o700)
    os.chown(folder, 65534, 65534)
    work = tmp_path / "nobody"
    work.mkdir()
    os.chown(work, 65534, 65534)
    path = work / "event.xqt"
    calls = work / "calls.jsonl"
    python = python_for(65534)
    if python is None:
        pytest.skip("no Python that the user nobody may run")
    theirs = EchoOwner(
        path, calls, env={"XQARBITER_RUN_DIR": str(folder)}, python=python, user=65534, group=65534
    )
    try:
        sock_path = folder / f"{wire.file_key(path)}.sock"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(str(sock_path))
        sock.settimeout(10)
        assert "同一用户" in wire.recv_frame(sock, wire.MAX_HELLO)["refused"]
        sock.close()
        monkeypatch.setenv("XQARBITER_RUN_DIR", str(folder))
        assert read_rendezvous(path) is None  # not root's own file: not trusted
        assert theirs.seen() == []
    finally:
        theirs.stop()
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def test_the_private_folder_must_be_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    os.chmod(shared, 0o777)
    monkeypatch.setenv("XQARBITER_RUN_DIR", str(shared))
    with pytest.raises(wire.ChannelUnavailable, match="not a private folder"):
        wire.run_dir()
    path = tmp_path / "event.xqt"
    path.write_bytes(b"")
    with pytest.raises(wire.ChannelUnavailable):
        OwnerChannel(path, lambda r: Answer(0), owner="serve").start()
    assert ask_owner(path, ["x"], "/") is None


def test_a_long_command_keeps_the_client_waiting_without_a_timeout(
    tmp_path: Path, transport: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner says it is still working every few seconds; a client waits as long as it does.
    Scaled down: the owner says so every 0.15 s, the client gives up after 0.75 s of silence, and the
    command takes 1.6 s."""
    assert wire.KEEPALIVE_SECONDS * 5 <= wire.SILENCE_SECONDS  # the product's: a client never gives up early
    import app.channel.client as client

    monkeypatch.setattr(client, "SILENCE_SECONDS", 0.75)
    path = tmp_path / "event.xqt"
    path.write_bytes(b"")
    owner = EchoOwner(path, tmp_path / "calls.jsonl", env={"ECHO_KEEPALIVE_SECONDS": "0.15"})
    try:
        started = time.monotonic()
        answer = ask_owner(owner.path, ["sleep", "1.6"], "/")
        assert time.monotonic() - started >= 1.6  # more than twice the client's silence bound
        assert answer is not None and answer.code == 0
        assert owner.seen() == [["sleep", "1.6"]]
    finally:
        owner.stop()


@pytest.mark.parametrize(
    ("value", "seconds"),
    [(None, 5.0), ("0.5", 0.5), ("0", 0.0), ("60", 5.0), ("-1", 5.0), ("nan", 5.0), ("x", 5.0)],
)
def test_the_wait_for_a_starting_owner_may_only_be_shortened(
    monkeypatch: pytest.MonkeyPatch, value: str | None, seconds: float
) -> None:
    from app.channel import client

    assert client.STARTING_SECONDS == 5.0
    if value is None:
        monkeypatch.delenv(client.STARTING_SECONDS_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(client.STARTING_SECONDS_VARIABLE, value)
    assert client.starting_seconds() == seconds


def test_a_request_carries_the_client_folder_and_whether_it_is_still_there() -> None:
    seen: list[Request] = []
    request = Request(("a",), "/x", lambda: False)
    seen.append(request)
    assert seen[0].cwd == "/x" and not seen[0].client_gone()


def test_control_requests_reach_only_an_owner_that_answers_them(tmp_path: Path, transport: str) -> None:
    """``status`` and ``hand-over`` go to the owner's control (with who asks); an owner without one,
    or a name it does not know, refuses — and no command is run for them."""
    from app.channel.client import ask_control
    from app.engine.types import UserError

    path = tmp_path / "event.xqt"
    path.write_bytes(b"")
    ran: list[tuple[str, ...]] = []
    asked: list[tuple[str, str]] = []

    def control(what: str, by: str) -> dict[str, object] | None:
        asked.append((what, by))
        return {"url": "http://127.0.0.1:8080"} if what == "status" else None

    def run(request: Request) -> Answer:
        ran.append(request.argv)
        return Answer(0)

    channel = OwnerChannel(path, run, owner="serve", control=control)
    record = channel.start()
    try:
        assert ask_control(record, "status", "编排窗口（进程 1）") == {"url": "http://127.0.0.1:8080"}
        with pytest.raises(UserError):
            ask_control(record, "hand-over")  # this owner does not hand over
        with pytest.raises(UserError):
            ask_control(record, "format-disk")  # not a control: never reaches the owner's code
    finally:
        channel.close()
    assert asked == [("status", "编排窗口（进程 1）"), ("hand-over", "")]
    assert ran == []

    plain = OwnerChannel(path, run, owner="window")
    record = plain.start()
    try:
        with pytest.raises(UserError):
            ask_control(record, "status")
    finally:
        plain.close()
    assert ran == []


def test_a_files_rendezvous_name_is_the_sha256_of_its_real_path_without_openssl(tmp_path: Path) -> None:
    """The rendezvous name is the first 24 hexadecimal digits of the SHA-256 of the file's real path —
    computed without importing :mod:`hashlib` (OpenSSL), which a short command would otherwise load
    whenever any owner's rendezvous is written."""
    import hashlib

    from app.channel.where import file_key

    for name in ("赛事.xqt", "a b.xqt", "x" * 200 + ".xqt"):
        path = tmp_path / name
        real = os.path.normcase(os.path.realpath(path))
        assert file_key(path) == hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:24]
    code = (
        "import sys\n"
        "from app.channel.where import file_key\n"
        f"print(file_key({str(tmp_path / 'e.xqt')!r}), 'hashlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    key, loaded = out.stdout.split()
    assert key == file_key(tmp_path / "e.xqt") and loaded == "False"
