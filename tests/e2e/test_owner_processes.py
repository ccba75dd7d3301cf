"""The command line beside a running hall, with real processes and real signals (docs/file-safety.md).

``xqarbiter serve`` and the window (offscreen) are started as the arbiter starts them; ``xqarbiter``
commands are typed beside them; a phone holds the hall's refresh stream; a deputy uses the page. The
owner is stopped by ``SIGTERM`` and ``SIGHUP`` and must leave no stale lock and no stale channel;
killed with ``SIGKILL`` in the middle of a command, the command says so (exit 2, no traceback), the
file stays sound, and the next command takes it over with ``--take-over``.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.channel.wire import read_rendezvous, rendezvous_path
from tests.loaded import LOADING, loaded

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

ROOT = Path(__file__).resolve().parents[2]
GROUP = "公开组"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
#: a result typed on the command line reaches the phones within this (docs/file-safety.md)
PHONE_SECONDS = 2.0


@pytest.fixture(scope="module")
def paired_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from app.services.demo import create_demo
    from app.services.rounds import pair_next_round

    path = tmp_path_factory.mktemp("owners") / "template.xqt"
    db = create_demo(path, players=40)
    pair_next_round(db, GROUP, seed=1)
    db.close()
    return path


@pytest.fixture
def event(paired_template: Path, tmp_path: Path) -> Path:
    path = tmp_path / "event.xqt"
    shutil.copy(paired_template, path)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def xq(*args: str, record: Path | None = None) -> subprocess.CompletedProcess[str]:
    """A real ``xqarbiter`` process; with ``record``, one that writes there the modules it loaded."""
    start = (
        [sys.executable, "-m", "app.cli"] if record is None else [sys.executable, "-c", LOADING, str(record)]
    )
    return subprocess.run(
        [*start, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
        timeout=120,
    )


def wait_for_channel(path: Path, process: subprocess.Popen[str], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        record = read_rendezvous(path)
        if record is not None and record.pid == process.pid:
            return
        if process.poll() is not None:
            raise AssertionError(
                f"the owner ended: {process.returncode} {process.stderr.read() if process.stderr else ''}"
            )
        time.sleep(0.05)
    raise AssertionError("the owner offered no channel")


class Phone:
    """A phone holding the hall's refresh stream: the time each new version arrives."""

    def __init__(self, url: str) -> None:
        parts = urllib.parse.urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        self.conn.request("GET", "/events")
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        self.versions: list[tuple[float, int]] = []
        self.first = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        assert self.first.wait(30)

    def _read(self) -> None:
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                m = re.match(rb"data: (\d+)", line)
                if m:
                    self.versions.append((time.monotonic(), int(m.group(1))))
                    self.first.set()
        except (OSError, AttributeError, ValueError):  # closed by the test
            return

    def first_version_after(self, moment: float, seconds: float) -> float:
        """When (``time.monotonic``) the phone was first told of a new version after ``moment``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            later = [t for t, _v in self.versions if t >= moment]
            if later:
                return later[0]
            time.sleep(0.01)
        raise AssertionError(f"no new version within {seconds} s")

    def close(self) -> None:
        # Shut the socket down first: the reading thread sits in recv() holding the response's buffer,
        # and closing that buffer would wait for the stream's next ping (every 25 s) to release it.
        if self.conn.sock is not None:
            with contextlib.suppress(OSError):
                self.conn.sock.shutdown(socket.SHUT_RDWR)
        self.thread.join(10)
        assert not self.thread.is_alive()
        self.conn.close()


def deputy_sends(base: str, path: str, board: int, result: str) -> int:
    page = urllib.request.urlopen(base + path, timeout=30).read().decode("utf-8")
    csrf = re.search(r'name="csrf" value="([A-Za-z0-9_-]+)"', page).group(1)  # type: ignore[union-attr]
    data = urllib.parse.urlencode({"csrf": csrf, "board": str(board), "result": result}).encode()
    request = urllib.request.Request(base + path, data=data, headers={"Origin": base}, method="POST")

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    try:
        return urllib.request.build_opener(NoRedirect).open(request, timeout=30).status
    except urllib.error.HTTPError as answer:
        return answer.code


def no_stale_lock(path: Path) -> None:
    assert not Path(str(path) + ".lock").exists()
    assert not rendezvous_path(path).exists()
    assert not Path(str(rendezvous_path(path)).replace(".json", ".sock")).exists()


def the_hall_beside_the_command_line(path: Path, base: str) -> dict[str, float]:
    """Results, a deputy and the chief's confirmation from the command line while phones watch."""
    phone = Phone(base)
    try:
        started = time.monotonic()
        run = xq("result", str(path), "--group", GROUP, "--round", "1", "--board", "1", "1-0")
        done = time.monotonic()
        assert run.returncode == 0, run.stderr
        told = phone.first_version_after(started, (done - started) + PHONE_SECONDS + 5)
        to_phone = told - done  # negative: the phone knew before the command had returned
        assert to_phone <= PHONE_SECONDS, to_phone
        issued = xq("deputy", str(path), "--group", GROUP, "--boards", "2-6", "--name", "李副裁")
        assert issued.returncode == 0, issued.stderr
        link = re.search(r"/d/[A-Za-z0-9_\-]+", issued.stdout).group(0)  # type: ignore[union-attr]
        assert deputy_sends(base, link, 2, "draw") == 303
        pending = xq("pending", str(path), "--group", GROUP, "--json")
        assert pending.returncode == 0, pending.stderr
        [entry] = json.loads(pending.stdout)
        assert (entry["board"], entry["result"], entry["deputy"]) == (2, "draw", "李副裁")
        assert xq("confirm", str(path), str(entry["id"])).returncode == 0
        assert deputy_sends(base, link, 3, "black_win") == 303  # the deputy's page still works
        shown = json.loads(xq("pairings", str(path), "--group", GROUP, "--json").stdout)
        results = {g["board"]: g["result"] for g in shown["games"]}
        assert (results[1], results[2], results[3]) == ("red_win", "draw", "pending")
        return {"command_to_phone_s": to_phone, "command_s": done - started}
    finally:
        phone.close()


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_serve_with_the_command_line_beside_it_then_stopped_by_a_signal(
    event: Path, stop: signal.Signals
) -> None:
    port = free_port()
    serve = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", str(event), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=ENV,
    )
    try:
        wait_for_channel(event, serve)
        figures = the_hall_beside_the_command_line(event, f"http://127.0.0.1:{port}")
        print(json.dumps(figures))
        again = xq("serve", str(event), "--port", str(free_port()))  # a second serve: the first one serves
        assert again.returncode == 0 and f"127.0.0.1:{port}" in again.stdout, again.stderr
        serve.send_signal(stop)
        assert serve.wait(60) == 0, serve.stderr.read() if serve.stderr else ""
    finally:
        if serve.poll() is None:
            serve.kill()
    no_stale_lock(event)
    record = event.parent / "loaded.txt"
    after = xq("result", str(event), "--group", GROUP, "--round", "1", "--board", "4", "=", record=record)
    assert after.returncode == 0, after.stderr  # no take-over needed
    # run here, a Swiss result loads neither the knockout's service nor the whole event's reading
    assert loaded(record, "app.services.knockout", "app.db.mapping", "app.channel.client") == []


@pytest.fixture
def window(event: Path) -> Iterator[subprocess.Popen[str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "app", str(event)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**ENV, "XQARBITER_DATA": str(event.parent / "data"), "XQARBITER_LANG": "zh"},
    )
    try:
        wait_for_channel(event, process)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_the_window_with_the_command_line_and_its_hall_then_stopped_by_a_signal(
    event: Path, window: subprocess.Popen[str], stop: signal.Signals
) -> None:
    port = free_port()
    started = xq("serve", str(event), "--port", str(port))  # the window starts its hall server
    assert started.returncode == 0, started.stderr
    assert f"赛场网络由编排窗口（进程 {window.pid}）提供：http://127.0.0.1:{port}" in started.stdout
    figures = the_hall_beside_the_command_line(event, f"http://127.0.0.1:{port}")
    print(json.dumps(figures))
    window.send_signal(stop)
    assert window.wait(60) == 0, window.stderr.read() if window.stderr else ""
    no_stale_lock(event)
    assert xq("result", str(event), "--group", GROUP, "--round", "1", "--board", "5", "=").returncode == 0


def test_an_owner_killed_in_the_middle_of_a_command(event: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGKILL while the owner renders a long document for a command: the command says it does not
    know the outcome (exit 2, no traceback); the next one meets the stale lock and takes it over."""
    from app.channel import client, wire
    from app.cli import main
    from app.services.backups import check_file

    port = free_port()
    serve = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", str(event), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=ENV,
    )
    try:
        wait_for_channel(event, serve)
        sent = threading.Event()
        real_send = wire.send_frame

        def send_frame(sock: socket.socket, value: dict[str, object]) -> None:
            real_send(sock, value)
            if "argv" in value:
                sent.set()
                serve.send_signal(signal.SIGKILL)  # the owner has the command now

        monkeypatch.setattr(client, "send_frame", send_frame)
        with pytest.raises(client.OwnerLost, match="是否已执行不能确定"):
            client.ask_owner(
                event, ["print", str(event), "results-book", "-o", str(event.parent / "b.pdf")], "/"
            )
        assert sent.is_set()
        serve.wait(30)
    finally:
        if serve.poll() is None:
            serve.kill()
    monkeypatch.undo()
    stale = xq("result", str(event), "--group", GROUP, "--round", "1", "--board", "6", "1-0")
    assert stale.returncode == 2 and "--take-over" in stale.stderr and "Traceback" not in stale.stderr
    taken = xq("result", str(event), "--group", GROUP, "--round", "1", "--board", "6", "1-0", "--take-over")
    assert taken.returncode == 0, taken.stderr
    report = check_file(event)
    assert report.sound and not report.lock_alive
    assert main(["check-file", str(event)]) == 0
