"""The hall server's ASGI application (Starlette): public pages, refresh on change, deputies' entry.

Security model (README, "赛场网络"):

- Public pages only read, and only public read models (no ID, no phone). Every route but a deputy's
  answers GET and HEAD only; any other method gets 405 and changes nothing.
- A deputy's page is ``/d/<token>``: the token (128 random bits, stored as a digest) is the deputy's
  credential. A wrong, revoked or expired token (its round closed) gets 403 and nothing is stored;
  ``/d`` without a token is 403 too. Each client address may fail only a few times before it is
  refused (429) for a while, and deputies' requests are rate-limited.
- A result is sent as a form POST with a CSRF field (an HMAC of the token under a secret made when the
  server starts); a POST whose ``Origin`` or ``Sec-Fetch-Site`` names another site is refused.
- The server writes nothing itself: a deputy's result is handed to the file's owner (the window, or
  ``xqarbiter serve``) which stores it through :func:`app.services.hall.submit_deputy_result` as
  *waiting* (待确认); only the chief's confirmation enters it.
- Every response carries a strict Content-Security-Policy (same-origin script and style only, no
  frames), ``nosniff`` and a same-origin referrer policy (nothing leaves the hall); a request whose Host is a name other than ``localhost``
  (not an IP address) is refused, which defeats DNS rebinding.
- Below this application, :mod:`app.web.limits` bounds what one client may hold (timeouts, connections
  per address and in all) and :mod:`app.web.cache` the requests per address (docs/hall-server.md).
"""

from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import contextlib
import functools
import hashlib
import hmac
import ipaddress
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar
from urllib.parse import parse_qs, quote

from starlette.applications import Starlette
from starlette.convertors import register_url_convertor
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.engine.types import GameResult, UserError
from app.reports import html as pages
from app.reports.html import HALL
from app.services import hall
from app.web.fanout import Hub, StreamResponse
from app.web.limits import BoundedInt, is_small_number
from app.web.site import HallSite, Key, Rendered

log = logging.getLogger("xqarbiter.hall")
T = TypeVar("T")

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]
MAX_FORM_BYTES = 2048
MAX_QUERY = 40
SUBMIT_TIMEOUT = 10.0
FORM_SECONDS = 10.0  # a deputy's form must arrive whole within this
#: the hall's stylesheet and script (the renderer's files), read once
CSS, JS = pages.asset("hall.css"), pages.asset("hall.js")

# every ``{x:int}`` in a path: at most 9 digits, no leading zero (a longer number is no page: 404)
register_url_convertor("int", BoundedInt())  # type: ignore[arg-type]


class Owner(Protocol):
    """Whoever owns the tournament file and runs its writes (the window's thread, or the CLI's)."""

    def submit(self, action: Callable[[], T]) -> concurrent.futures.Future[T]: ...


class ThreadOwner:
    """The file's owner for ``xqarbiter serve`` and tests: one thread runs every write, in order."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="hall-owner")

    def submit(self, action: Callable[[], T]) -> concurrent.futures.Future[T]:
        return self._executor.submit(action)

    def close(self) -> None:
        self._executor.shutdown(wait=True)


class RateLimiter:
    """A token bucket per key (a client address): ``burst`` at once, then ``rate`` per second."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def _level(self, key: str) -> float:
        level, at = self._buckets.get(key, (float(self.burst), self.clock()))
        return min(float(self.burst), level + (self.clock() - at) * self.rate)

    def allow(self, key: str) -> bool:
        """Take one token; False when none is left."""
        level = self._level(key)
        if len(self._buckets) > 10_000:  # bounded memory: forget the oldest buckets
            for old in list(self._buckets)[:5_000]:
                del self._buckets[old]
        if level < 1:
            self._buckets[key] = (level, self.clock())
            return False
        self._buckets[key] = (level - 1, self.clock())
        return True

    def exhausted(self, key: str) -> bool:
        return self._level(key) < 1


@functools.lru_cache(maxsize=256)
def _host_allowed(host: str) -> bool:
    """An IP address (any, with or without a port) or ``localhost``; names are refused (DNS rebinding)."""
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1 : name.find("]")] if "]" in name else ""
    elif name.count(":") == 1:
        name = name.split(":", 1)[0]
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """ASGI middleware: refuse foreign Host names, add the security headers to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
        if not _host_allowed(host):
            response = PlainTextResponse("请用 IP 地址访问本赛场网络 (use the IP address)", status_code=400)
            await response(scope, receive, self._secured(send))
            return
        await self.app(scope, receive, self._secured(send))

    @staticmethod
    def _secured(send: Send) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        return wrapped


class Hall:
    """The server's state: the pages, the worker thread that reads, the owner that writes, the streams."""

    def __init__(
        self, db: Any, owner: Owner | None, *, poll_seconds: float = 1.0, max_streams: int = 4000
    ) -> None:
        self.db = db
        self.owner = owner
        self.site = HallSite(db, compress=True)
        self.poll_seconds = poll_seconds
        self.max_streams = max_streams
        self.worker = ThreadPoolExecutor(1, thread_name_prefix="hall-pages")
        self.secret = secrets.token_bytes(32)
        self.hub = Hub(max_streams=max_streams)  # the refresh streams
        self.requests = RateLimiter(rate=2.0, burst=30)  # deputies' requests per client address
        self.failures = RateLimiter(rate=1 / 30, burst=10)  # refused tokens per client address
        self.loop: asyncio.AbstractEventLoop | None = None
        self._nudge: asyncio.Event | None = None
        self._watcher: asyncio.Task[None] | None = None
        self.closing = False

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._nudge = asyncio.Event()
        await self._in_worker(self.site.refresh)
        if self.site.current is not None:
            self.hub.version = self.site.current.version
        self._watcher = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        self.end_streams()
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        self.worker.shutdown(wait=False, cancel_futures=True)

    def end_streams(self) -> None:
        """Close every refresh stream (before the server stops: open streams would hold it)."""
        self.closing = True
        self.hub.close()

    def changed(self) -> None:
        """The file changed (called from any thread): look now instead of at the next poll."""
        loop, nudge = self.loop, self._nudge
        if loop is not None and nudge is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(nudge.set)

    async def _in_worker(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.worker, fn, *args)

    async def _watch(self) -> None:
        assert self._nudge is not None
        while not self.closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._nudge.wait(), self.poll_seconds)
            self._nudge.clear()
            try:
                changed = await self._in_worker(self.site.refresh)
            except Exception:  # a read that failed (file busy, being restored): try again at the next poll
                log.exception("hall: reading the tournament failed")
                continue
            if changed and self.site.current is not None:
                self.hub.publish(self.site.current.version)

    # ------------------------------------------------------------------ pages

    async def page(self, request: Request, key: Key, query: str = "") -> Response:
        snap = self.site.current
        cached = snap.pages.get(key) if snap is not None and not query else None
        if snap is not None and cached is not None:
            rendered, version = cached, snap.version
        else:  # rendered in the worker, labelled with the version it was rendered from
            rendered, version = await self._in_worker(self._render, key, query)
        return self._send(request, rendered, version)

    def _render(self, key: Key, query: str) -> tuple[Rendered, int]:
        version = self.site.snapshot().version  # the worker alone replaces the snapshot
        return self.site.page(key, query), version

    def _send(self, request: Request, rendered: Rendered, version: int) -> Response:
        part = request.query_params.get("part") == "main"
        gz = "gzip" in request.headers.get("accept-encoding", "")
        # what the page says (its time stamp and version left out): a page that did not change is
        # answered 304 under a new version too; the version itself goes in X-Hall-Version
        etag = f'W/"{rendered.part_tag if part else rendered.full_tag}"'
        headers = {"Cache-Control": "no-cache", "X-Hall-Version": str(version), "Vary": "Accept-Encoding"}
        if rendered.cacheable and rendered.status == 200:
            headers["ETag"] = etag
            if request.headers.get("if-none-match") == etag:
                return Response(status_code=304, headers=headers)
        body = (
            (rendered.part_gz if gz else rendered.part)
            if part
            else (rendered.full_gz if gz else rendered.full)
        )
        if gz:
            headers["Content-Encoding"] = "gzip"
        return Response(body, rendered.status, headers=headers, media_type="text/html; charset=utf-8")

    # ------------------------------------------------------------------ deputies

    def csrf_for(self, token: str) -> str:
        """The pass's CSRF field: an HMAC under this start's secret, in base64url (never a run of digits
        that could be read as an ID or phone number on the page)."""
        mac = hmac.new(self.secret, hall.token_digest(token).encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:24]).decode("ascii")

    def refuse(self, request: Request, status: int, text: str, token: str = "") -> Response:
        """The page saying why nothing was stored, with the way back: the hall's home page, and the
        deputy's own page again when the pass still holds (``token``)."""
        if status == 403:
            self.failures.allow(_client(request))
        snap = self.site.current
        back = [pages.NavLink(HALL.home(), "返回赛场网络首页")]
        if token:
            back.insert(0, pages.NavLink(hall.deputy_path(quote(token)), "重新打开录入页面"))
        main = pages.message_main("无法录入", text, back)
        body = pages.frame(HALL, snap.event if snap else "", "无法录入", main, refresh=False)
        return Response(
            body, status, media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-store"}
        )

    def limited(self, request: Request) -> Response | None:
        client = _client(request)
        if self.failures.exhausted(client) or not self.requests.allow(client):
            return self.refuse(request, 429, "请求过于频繁，请稍后再试")
        return None


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _same_origin(request: Request) -> bool:
    """A POST from our own page: no foreign ``Origin`` and no cross-site ``Sec-Fetch-Site``."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


async def _read_form(request: Request) -> dict[str, str] | None:
    """The urlencoded form, or None when it is too large or not a form."""
    if not request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return None
    body = b""
    try:
        async with asyncio.timeout(FORM_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_FORM_BYTES:
                    return None
    except TimeoutError:
        return None
    try:
        fields = parse_qs(body.decode("utf-8"), max_num_fields=10, strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        return None
    return {k: v[0] for k, v in fields.items() if v}


def create_app(db: Any, owner: Owner | None = None, *, poll_seconds: float = 1.0) -> Starlette:
    """The hall application for an open tournament; ``owner`` None serves the public pages only."""
    state = Hall(db, owner, poll_seconds=poll_seconds)

    async def index(request: Request) -> Response:
        return await state.page(request, ("index",))

    async def find(request: Request) -> Response:
        return await state.page(request, ("find",), request.query_params.get("q", "")[:MAX_QUERY] or " ")

    async def group_round(request: Request) -> Response:
        gi = request.path_params["gi"]
        number = request.path_params.get("n")
        if number is None:
            snap = state.site.current or await state._in_worker(state.site.snapshot)
            g = snap.groups[gi - 1] if snap is not None and 1 <= gi <= len(snap.groups) else None
            number = g.current.number if g is not None and g.current is not None else 0
        query = request.query_params.get("q", "")[:MAX_QUERY]
        return await state.page(request, ("round", gi, number), query)

    async def board(request: Request) -> Response:
        p = request.path_params
        return await state.page(request, ("board", p["gi"], p["n"], p["b"]))

    async def names(request: Request) -> Response:
        p = request.path_params
        return await state.page(request, ("names", p["gi"], p["n"]))

    async def record(request: Request) -> Response:
        p = request.path_params
        ply = request.query_params.get("ply", "")
        query = ply if ply.isdigit() and len(ply) <= 4 else ""
        return await state.page(request, ("record", p["gi"], p["n"], p["b"], p["k"]), query)

    async def player(request: Request) -> Response:
        p = request.path_params
        return await state.page(request, ("player", p["gi"], p["no"]))

    async def team(request: Request) -> Response:
        p = request.path_params
        return await state.page(request, ("team", p["gi"], p["no"]))

    async def match(request: Request) -> Response:
        p = request.path_params
        return await state.page(request, ("match", p["gi"], p["n"], p["m"]))

    async def entries_by_name(request: Request) -> Response:
        return await state.page(request, ("entries-names", request.path_params["gi"]))

    async def schedule(request: Request) -> Response:
        return await state.page(request, ("schedule",))

    def group_page(kind: str) -> Callable[[Request], Any]:
        async def handler(request: Request) -> Response:
            return await state.page(request, (kind, request.path_params["gi"]))

        return handler

    async def prizes(request: Request) -> Response:
        return await state.page(request, ("prizes",))

    async def version(request: Request) -> Response:
        snap = state.site.current
        return PlainTextResponse(str(snap.version if snap else 0), headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        return StreamResponse(state.hub)

    async def css(request: Request) -> Response:
        return Response(CSS, media_type="text/css; charset=utf-8", headers={"Cache-Control": "max-age=86400"})

    async def js(request: Request) -> Response:
        return Response(
            JS, media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "max-age=86400"}
        )

    async def no_token(request: Request) -> Response:
        return state.refuse(request, 403, "缺少录入令牌：请扫描裁判长发放的二维码")

    async def deputy(request: Request) -> Response:
        token = request.path_params["token"]
        limited = state.limited(request)
        if limited is not None:
            return limited
        if request.method == "POST":
            return await deputy_post(request, token)
        try:
            view = await state._in_worker(hall.deputy_view, db, token)
        except hall.TokenRefused as refused:
            return state.refuse(request, 403, refused.zh)
        p = view.deputy_pass
        notice = ""
        sent = request.query_params.get("sent", "")
        if is_small_number(sent):
            line = next((b for b in view.boards if b.board == int(sent)), None)
            if line is not None and line.sent is not None:
                notice = f"第 {line.board} 台已提交：{line.sent.zh}，待裁判长确认"
        lines = [
            pages.DeputyLine(
                b.board,
                b.red,
                b.black,
                "" if b.recorded.is_pending else b.recorded.zh,
                "" if b.sent is None else b.sent.zh,
                b.game,
                b.game_no,
            )
            for b in view.boards
        ]
        main = pages.deputy_main(
            p.deputy,
            p.group,
            p.round,
            p.boards_text,
            lines,
            f"/d/{quote(token)}",
            state.csrf_for(token),
            notice,
        )
        snap = state.site.current
        version = snap.version if snap else 0
        headers = {"Cache-Control": "no-store", "X-Hall-Version": str(version)}
        if request.query_params.get("part") == "main":  # the page refreshing itself
            return Response(main, media_type="text/html; charset=utf-8", headers=headers)
        body = pages.frame(HALL, snap.event if snap else "", "副裁判录入", main, version)
        return Response(body, media_type="text/html; charset=utf-8", headers=headers)

    async def deputy_post(request: Request, token: str) -> Response:
        if state.owner is None:
            return state.refuse(request, 503, "本机以只读方式打开赛事文件，不能接收录入")
        if not _same_origin(request):
            return state.refuse(request, 403, "拒绝来自其他网站的提交")
        form = await _read_form(request)
        if form is None:
            return state.refuse(request, 400, "提交的内容无效")
        expected = state.csrf_for(token)
        if not hmac.compare_digest(form.get("csrf", "").encode(), expected.encode()):
            try:  # an expired pass says so; a good pass with a stale page (the hall restarted) is re-opened
                await state._in_worker(hall.deputy_view, db, token)
            except hall.TokenRefused as refused:
                return state.refuse(request, 403, refused.zh)
            return state.refuse(
                request, 403, "录入页面已过期（赛场网络曾重新启动），请重新打开后再提交", token
            )
        board_text, code, game_text = form.get("board", ""), form.get("result", ""), form.get("game", "")
        allowed = {r.value for r, _ in pages.DEPUTY_RESULTS}
        if not is_small_number(board_text) or code not in allowed:
            return state.refuse(request, 400, "台次或结果无效")
        if game_text and (not game_text.isdigit() or len(game_text) > 2):
            return state.refuse(request, 400, "局次无效")
        board_no, result = int(board_text), GameResult(code)
        game_no = int(game_text) if game_text else None
        device = f"{_client(request)} {request.headers.get('user-agent', '')}"
        assert state.owner is not None
        future = state.owner.submit(
            lambda: hall.submit_deputy_result(db, token, board_no, result, device, game_no)
        )
        try:
            await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(future)), SUBMIT_TIMEOUT)
        except TimeoutError:
            if future.cancel():  # never ran: nothing stored
                return state.refuse(request, 503, "裁判长电脑正忙，请稍后重新提交", token)
            await asyncio.wrap_future(future)  # already running: wait for its answer
        except hall.TokenRefused as refused:
            return state.refuse(request, 403, refused.zh)
        except UserError as error:
            return state.refuse(request, 400, error.zh, token)
        state.changed()
        return RedirectResponse(f"/d/{quote(token)}?sent={board_no}#b{board_no}", status_code=303)

    routes = [
        Route("/", index),
        Route("/find", find),
        Route("/g/{gi:int}", lambda r: RedirectResponse(f"/g/{r.path_params['gi']}/", 301)),
        Route("/g/{gi:int}/", group_round),
        Route("/g/{gi:int}/r/{n:int}", group_round),
        Route("/g/{gi:int}/r/{n:int}/", group_round),
        Route("/g/{gi:int}/r/{n:int}/b/{b:int}", board),
        Route("/g/{gi:int}/r/{n:int}/names", names),
        Route("/g/{gi:int}/r/{n:int}/b/{b:int}/game/{k:int}", record),
        Route("/g/{gi:int}/p/{no:int}", player),
        Route("/g/{gi:int}/t/{no:int}", team),
        Route("/g/{gi:int}/r/{n:int}/m/{m:int}", match),
        Route("/g/{gi:int}/entries/names", entries_by_name),
        Route("/schedule", schedule),
        *(
            Route(f"/g/{{gi:int}}/{kind}", group_page(kind))
            for kind in ("standings", "crosstable", "order", "teams", "bracket", "entries")
        ),
        Route("/prizes", prizes),
        Route("/events", events),
        Route(
            "/favicon.ico", lambda r: Response(status_code=204, headers={"Cache-Control": "max-age=86400"})
        ),
        Route("/version", version),
        Route("/static/hall.css", css),
        Route("/static/hall.js", js),
        Route("/d", no_token, methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]),
        Route("/d/", no_token, methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]),
        Route("/d/{token}", deputy, methods=["GET", "HEAD", "POST"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await state.start()
        try:
            yield
        finally:
            await state.stop()

    async def not_found(request: Request, exc: Exception) -> Response:
        """An address the hall does not have: a page in Chinese with the way back (not a bare 404)."""
        status = getattr(exc, "status_code", 404)
        snap = state.site.current
        title = "没有这一页" if status == 404 else "不支持的请求"
        main = pages.message_main(title, "地址有误或页面已不存在。", [pages.NavLink(HALL.home(), "返回首页")])
        body = pages.frame(HALL, snap.event if snap else "", title, main, refresh=False)
        return Response(
            body, status, headers=getattr(exc, "headers", None), media_type="text/html; charset=utf-8"
        )

    application = Starlette(
        routes=routes, lifespan=lifespan, exception_handlers={404: not_found, 405: not_found}
    )
    application.state.hall = state
    application.add_middleware(Guard)
    return application


def hall_of(application: Starlette) -> Hall:
    hall_state: Hall = application.state.hall
    return hall_state
