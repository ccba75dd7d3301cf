"""xqarbiter serve / deputy / pending / confirm / image, and print --base-url."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import Image

from app.cli import main
from app.engine.types import GameResult
from app.services import hall
from app.services.snapshot import import_snapshot
from app.services.tournaments import open_tournament
from tests.factories import player, snapshot, swiss_round

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def event(tmp_path: Path) -> Path:
    players = [player(i, f"棋手{i}") for i in range(1, 9)]
    rounds = [swiss_round(1, [(1, 5, "red_win"), (6, 2, "pending"), (3, 7, "pending"), (8, 4, "draw")])]
    import_snapshot(snapshot(players, rounds), tmp_path / "t.xqt").close()
    return tmp_path / "t.xqt"


def test_image_writes_one_tall_png(event: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "results.png"
    assert main(["image", str(event), "results", "--group", "公开组", "-o", str(out)]) == 0
    image = Image.open(out)
    assert image.format == "PNG" and image.width == 1191
    assert main(["image", str(event), "payout", "--group", "公开组", "-o", str(tmp_path / "p.png")]) == 2
    assert "不能做成图片" in capsys.readouterr().err
    assert not (tmp_path / "p.png").exists()
    assert (
        main(
            [
                "image",
                str(event),
                "results",
                "--group",
                "公开组",
                "--scale",
                "9",
                "-o",
                str(tmp_path / "s.png"),
            ]
        )
        == 2
    )
    assert not (tmp_path / "s.png").exists()


def test_print_with_the_hall_address(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "pairings.pdf"
    args = [
        "print",
        str(event),
        "pairings",
        "--group",
        "公开组",
        "--base-url",
        "http://192.168.1.10:8080",
        "-o",
        str(out),
    ]
    assert main(args) == 0
    page = pdfium.PdfDocument(out.read_bytes())[0].render(scale=4).to_pil()
    assert [r.text for r in zxingcpp.read_barcodes(page)] == ["http://192.168.1.10:8080/g/1/r/1/"]


def test_deputy_pending_confirm(event: Path, capsys) -> None:
    assert main(["deputy", str(event), "--group", "公开组", "--boards", "2-3", "--name", "张副裁判"]) == 0
    out = capsys.readouterr().out
    token = re.search(r"/d/([A-Za-z0-9_-]{20,})", out).group(1)
    assert "第 2–3 台" in out
    with open_tournament(event) as db:
        hall.submit_deputy_result(db, token, 2, GameResult.BLACK_WIN, "192.168.1.23 test")
    assert main(["pending", str(event), "--group", "公开组", "--json"]) == 0
    [entry] = json.loads(capsys.readouterr().out)
    assert (entry["board"], entry["result"], entry["deputy"]) == (2, "black_win", "张副裁判")
    assert main(["confirm", str(event), str(entry["id"])]) == 0
    assert main(["pending", str(event), "--group", "公开组"]) == 0
    assert "没有待确认" in capsys.readouterr().out
    assert main(["deputy", str(event), "--group", "公开组", "--boards", "x", "--name", "甲"]) == 2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(event: Path, port: int, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", str(event), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )


def read_until(process: subprocess.Popen[str], marker: str, limit: float = 30) -> str:
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if marker in line:
            return "".join(lines)
    raise AssertionError("".join(lines) + (process.stderr.read() if process.stderr else ""))


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_serve_until_ctrl_c_and_release_the_file(event: Path) -> None:
    port = free_port()
    process = serve(event, port)
    try:
        out = read_until(process, "按 Ctrl+C 停止")
        assert f"http://127.0.0.1:{port}" in out and "只有本机能打开" in out
        assert "▄" in out  # the QR code in the terminal
        body = urllib.request.urlopen(f"http://127.0.0.1:{port}/g/1/", timeout=10).read().decode()
        assert "公开组 第 1 轮" in body
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert not event.with_name(event.name + ".lock").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_serve_read_only_while_another_program_edits(event: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.xqt"
    shutil.copy(event, copy)
    editing = subprocess.Popen(  # another program holds the file
        [
            sys.executable,
            "-c",
            f"from app.services.tournaments import open_tournament; db = open_tournament({str(copy)!r}); print('open', flush=True); input()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert editing.stdout is not None and editing.stdout.readline().strip() == "open"
    port = free_port()
    # serve first waits for the holder's channel, as for an owner still starting (5 s): 0.5 s here
    process = serve(copy, port, XQARBITER_STARTING_SECONDS="0.5")
    try:
        out = read_until(process, "按 Ctrl+C 停止")
        assert "只提供公开页面" in out
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).status == 200
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 0
    finally:
        for p in (process, editing):
            if p.poll() is None:
                p.kill()
