"""The server in its background thread: starts on loopback, refuses a busy port, stops with streams open."""

from __future__ import annotations

import http.client
import socket
from typing import Any
from urllib.parse import urlsplit

import pytest

from app.engine.types import UserError
from app.web.app import ThreadOwner
from app.web.server import LOOPBACK, HallServer, bind


def test_loopback_by_default_and_a_busy_port_is_a_clear_message(db: Any, owner: ThreadOwner) -> None:
    server = HallServer(db, owner, port=0)
    assert server.host == LOOPBACK and server.loopback_only
    url = server.start()
    try:
        port = urlsplit(url).port
        assert url == f"http://127.0.0.1:{port}"
        with pytest.raises(UserError, match="已被其他程序占用"):
            bind(LOOPBACK, port)
        with pytest.raises(UserError, match="端口"):
            HallServer(db, owner, port=70000)
    finally:
        server.stop()
    assert not server.running


def test_stopping_closes_open_refresh_streams(db: Any, owner: ThreadOwner) -> None:
    server = HallServer(db, owner, port=0)
    url = server.start()
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.request("GET", "/events")
    response = conn.getresponse()
    assert response.status == 200 and response.headers["content-type"].startswith("text/event-stream")
    assert b"retry:" in response.read1(4096)
    server.stop(timeout=10)
    assert not server.running
    rest = response.read()  # the stream ends instead of hanging
    assert b"ping" not in rest
    conn.close()
    with pytest.raises(OSError):
        socket.create_connection((parts.hostname, parts.port), timeout=2).close()


def test_only_an_address_phones_can_reach_is_printed(db: Any, owner: ThreadOwner, monkeypatch) -> None:
    from app.web import server as server_module

    assert HallServer(db, owner, host="127.0.0.1").reachable_url == ""
    monkeypatch.setattr(server_module, "local_addresses", lambda: [])
    assert HallServer(db, owner, host="0.0.0.0").reachable_url == ""  # no network address known
    monkeypatch.setattr(server_module, "local_addresses", lambda: ["192.168.1.10"])
    assert HallServer(db, owner, host="0.0.0.0", port=8080).reachable_url == "http://192.168.1.10:8080"
    assert HallServer(db, owner, host="192.168.1.10", port=8080).reachable_url == "http://192.168.1.10:8080"


def test_the_event_loop_gets_the_gil_back_quickly_while_pages_render(db: Any, owner: ThreadOwner) -> None:
    import sys

    from app.web.server import SWITCH_INTERVAL

    server = HallServer(db, owner, port=0)
    server.start()
    try:
        assert sys.getswitchinterval() <= SWITCH_INTERVAL < 0.005  # Python's default is 5 ms
    finally:
        server.stop()
