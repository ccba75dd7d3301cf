"""The hall network's side of the tournament file: deputies' passes, their results waiting for the
chief's confirmation (待确认), the address printed on paper, and the file's change stamp.

A deputy arbiter (副裁判) gets a *token* from the chief: a random secret good for a range of boards
of one round of one group. Only its SHA-256 digest is stored; the token itself is shown once (a link
and a QR code). It stops working when the round is closed, when the round's pairing is deleted and
when the chief revokes it. A result a deputy sends is stored as a :class:`PendingResult`; it changes
no game until the chief confirms it, which enters it through :func:`app.services.results.enter_result`
like a result typed in the window. Every step is written to the audit log (who, which device).

The web pages' paths are defined here too (:func:`group_path`, :func:`board_path`) so that the
printed QR codes (:mod:`app.services.exports`) and the hall server (:mod:`app.web`) agree.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.models import AuditEntry, DeputyToken, GameRow, Group, PendingResult, Player, Round, Setting
from app.db.session import Database, storage_error
from app.engine.text import clean_text
from app.engine.types import GameResult, UserError
from app.reports.links import HALL
from app.services import audit
from app.services.results import enter_result, round_row
from app.services.tournaments import group_row

BASE_URL_KEY = "hall_base_url"
TOKEN_BYTES = 16  # 128 random bits
MAX_NAME = 64
MAX_DEVICE = 200

PENDING, CONFIRMED, REJECTED, SUPERSEDED = "pending", "confirmed", "rejected", "superseded"


class TokenRefused(UserError):
    """A deputy's token that is unknown, revoked or expired (the round is closed or gone): HTTP 403."""


def now() -> datetime:
    return datetime.now().replace(microsecond=0)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


# --------------------------------------------------------------------------- paths and the printed address


def group_path(group_index: int) -> str:
    """The group's page on the hall server (``group_index`` counts from 1 in the groups' order)."""
    return HALL.group(group_index)


def round_path(group_index: int, number: int) -> str:
    return HALL.round(group_index, number)


def board_path(group_index: int, number: int, board: int) -> str:
    """One board of one round: the page a table card's QR code opens."""
    return HALL.board(group_index, number, board)


def deputy_path(token: str) -> str:
    return f"/d/{token}"


def group_index(db: Database, group: str) -> int:
    with db.session() as s:
        names = list(s.scalars(select(Group.name).order_by(Group.position, Group.id)))
    if group not in names:
        raise UserError(f"没有名为“{group}”的组别", f"no group named {group!r}")
    return names.index(group) + 1


def normalise_base_url(url: str) -> str:
    """``http://192.168.1.10:8080`` (no trailing slash); "" stays "" (no address: nothing printed).

    >>> normalise_base_url(" http://192.168.1.10:8080/ ")
    'http://192.168.1.10:8080'
    """
    text = url.strip().rstrip("/")
    if not text:
        return ""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
        or parts.username
        or len(text) > 100
        or any(c.isspace() for c in text)
    ):
        raise UserError(
            f"网址“{url.strip()}”无效，应形如 http://192.168.1.10:8080",
            f"invalid address {url.strip()!r}; expected e.g. http://192.168.1.10:8080",
        )
    del port
    return text


def hall_base_url(db: Database) -> str:
    """The address printed as QR codes on table cards and lists ("" when none is known)."""
    with db.session() as s:
        row = s.get(Setting, BASE_URL_KEY)
        return row.value if row is not None else ""


def set_hall_base_url(db: Database, url: str, *, who: str = audit.DEFAULT_ARBITER) -> str:
    """Set (or with "" clear) the printed address; returns it normalised. Logged when it changes."""
    value = normalise_base_url(url)
    with db.session() as s:
        row = s.get(Setting, BASE_URL_KEY)
        before = row.value if row is not None else ""
        if before == value:
            return value
        if row is None:
            s.add(Setting(key=BASE_URL_KEY, value=value))
        else:
            row.value = value
        audit.record(s, "set_hall_address", entity="赛场网络地址", before=before, after=value, who=who)
    return value


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


_STAMP_SQL = f"SELECT max(id) FROM {AuditEntry.__tablename__}"


def change_stamp(db: Database) -> int:
    """A number that grows with every change to the file (every change is audit-logged).

    Read with one statement on a pooled connection, not through an ORM session: the hall server asks
    for it at every poll (a fifth of the time; the same answer, the same storage errors)."""
    try:
        with db.engine.connect() as connection:
            return int(connection.exec_driver_sql(_STAMP_SQL).scalar() or 0)
    except Exception as exc:
        translated = storage_error(exc, db.path)
        if translated is not None:
            raise translated from None
        raise


# --------------------------------------------------------------------------- deputies' passes


@dataclass(frozen=True, slots=True)
class DeputyPass:
    id: int
    deputy: str
    group: str
    round: int
    first_board: int
    last_board: int
    issued_at: datetime
    revoked: bool
    round_open: bool

    @property
    def active(self) -> bool:
        return self.round_open and not self.revoked

    @property
    def boards_text(self) -> str:
        if self.first_board == self.last_board:
            return f"第 {self.first_board} 台"
        return f"第 {self.first_board}–{self.last_board} 台"


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A new pass and its token, which is never stored and cannot be shown again."""

    deputy_pass: DeputyPass
    token: str


def _pass(t: DeputyToken) -> DeputyPass:
    rnd = t.round
    return DeputyPass(
        t.id,
        t.deputy,
        _group_name(t),
        rnd.number,
        t.first_board,
        t.last_board,
        t.issued_at,
        t.revoked_at is not None,
        rnd.closed_at is None,
    )


def _group_name(t: DeputyToken) -> str:
    session = Session.object_session(t)
    assert session is not None
    group = session.get(Group, t.round.group_id)
    assert group is not None
    return group.name


def _boards(rnd: Round) -> list[int]:
    return sorted({g.board for g in rnd.games})


def issue_deputy_token(
    db: Database,
    group: str,
    first_board: int,
    last_board: int,
    deputy: str,
    *,
    round_number: int | None = None,
    who: str = audit.DEFAULT_ARBITER,
) -> IssuedToken:
    """A pass for ``deputy`` on boards ``first_board``–``last_board`` of the round (default: the latest)."""
    # shown on the deputy's page and in the audit log: the same text rules as a player's name
    name = clean_text(deputy, "副裁判姓名", "the deputy's name", MAX_NAME, required=True)
    if first_board < 1 or last_board < first_board:
        raise UserError(
            f"台次范围 {first_board}–{last_board} 无效", f"invalid board range {first_board}–{last_board}"
        )
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with db.session() as s:
        g = group_row(s, group)
        if round_number is None:
            round_number = s.scalar(select(func.max(Round.number)).where(Round.group_id == g.id))
            if round_number is None:
                raise UserError(f"{group}尚未编排任何轮次", f"{group} has no paired round yet")
        rnd = round_row(s, g, round_number)
        if rnd.closed_at is not None:
            raise UserError(
                f"{group}第 {round_number} 轮已结束，不能再发放录入令牌",
                f"{group} round {round_number} is closed: no more deputy passes",
            )
        boards = _boards(rnd)
        inside = [b for b in boards if first_board <= b <= last_board]
        if not inside:
            last = f"1–{boards[-1]}" if boards else "无"
            raise UserError(
                f"第 {round_number} 轮没有第 {first_board}–{last_board} 台（本轮台次：{last}）",
                f"round {round_number} has no boards {first_board}–{last_board} (boards: {last})",
            )
        row = DeputyToken(
            round_id=rnd.id,
            deputy=name,
            first_board=first_board,
            last_board=last_board,
            digest=token_digest(token),
            issued_at=now(),
            issued_by=who,
        )
        s.add(row)
        s.flush()
        audit.record(
            s,
            "issue_deputy_token",
            entity=f"{group} 第{round_number}轮 第{first_board}–{last_board}台",
            after={"deputy": name, "token_id": row.id},
            who=who,
        )
        return IssuedToken(_pass(row), token)


def revoke_deputy_token(db: Database, token_id: int, *, who: str = audit.DEFAULT_ARBITER) -> None:
    with db.session() as s:
        row = s.get(DeputyToken, token_id)
        if row is None:
            raise UserError(f"没有编号为 {token_id} 的录入令牌", f"no deputy pass {token_id}")
        if row.revoked_at is not None:
            return
        row.revoked_at = now()
        p = _pass(row)
        audit.record(
            s,
            "revoke_deputy_token",
            entity=f"{p.group} 第{p.round}轮 {p.boards_text}",
            before={"deputy": p.deputy, "token_id": token_id},
            who=who,
        )


def deputy_passes(db: Database, group: str | None = None) -> list[DeputyPass]:
    """Every pass issued (newest first), for the chief's list."""
    with db.session() as s:
        query = select(DeputyToken).join(Round).order_by(DeputyToken.id.desc())
        if group is not None:
            query = query.where(Round.group_id == group_row(s, group).id)
        return [_pass(t) for t in s.scalars(query)]


def _valid_token(s: Session, token: str) -> DeputyToken:
    """The pass behind ``token``, or :class:`TokenRefused` (compared by digest, in constant time)."""
    refused = TokenRefused("录入令牌无效或已失效", "the deputy pass is invalid or has expired")
    if not token or len(token) > 100:
        raise refused
    digest = token_digest(token)
    row = s.scalars(select(DeputyToken).where(DeputyToken.digest == digest)).one_or_none()
    if row is None or not hmac.compare_digest(row.digest, digest):
        raise refused
    if row.revoked_at is not None:
        raise TokenRefused(
            "录入令牌已被裁判长收回，不能再录入", "the chief has revoked this deputy pass: no more entries"
        )
    if row.round.closed_at is not None:
        raise TokenRefused(
            f"第 {row.round.number} 轮已结束，录入令牌随之失效；如有成绩请直接交裁判长",
            f"round {row.round.number} is closed and the deputy pass has expired with it",
        )
    return row


@dataclass(frozen=True, slots=True)
class DeputyBoard:
    """A board on a deputy's page: the players (序号 and name only), what is recorded, what was sent."""

    board: int
    red: str
    black: str
    recorded: GameResult
    sent: GameResult | None  # this deputy's latest entry still waiting for the chief
    game_no: int = 1  # the game being played on the board (a knockout match has several)
    game: str = ""  # what that game is, for a knockout board: "淘汰赛 第2局 快棋（换先）"


@dataclass(frozen=True, slots=True)
class DeputyView:
    deputy_pass: DeputyPass
    boards: tuple[DeputyBoard, ...]


def _latest_games(rnd: Round) -> dict[int, GameRow]:
    latest: dict[int, GameRow] = {}
    for gm in rnd.games:
        if gm.board not in latest or gm.game_no > latest[gm.board].game_no:
            latest[gm.board] = gm
    return latest


def deputy_view(db: Database, token: str) -> DeputyView:
    """What a deputy's page shows; raises :class:`TokenRefused` for a bad token."""
    with db.session() as s:
        t = _valid_token(s, token)
        rnd = t.round
        names = {
            p.id: f"{p.no} {p.name}" for p in s.scalars(select(Player).where(Player.group_id == rnd.group_id))
        }
        sent = {
            e.board: GameResult(e.result)
            for e in s.scalars(
                select(PendingResult)
                .where(PendingResult.token_id == t.id, PendingResult.status == PENDING)
                .order_by(PendingResult.id)
            )
        }
        boards = tuple(
            DeputyBoard(
                b,
                names[gm.red_id],
                names[gm.black_id],
                GameResult(gm.result),
                sent.get(b),
                gm.game_no,
                _knockout_game(gm) if gm.match_id is not None else "",
            )
            for b, gm in sorted(_latest_games(rnd).items())
            if t.first_board <= b <= t.last_board
        )
        return DeputyView(_pass(t), boards)


def _knockout_game(gm: GameRow) -> str:
    """A knockout game as the deputy's page names it: its number and kind (slow, rapid, deciding)."""
    kind = {1: "慢棋", 2: "快棋（换先）"}.get(gm.game_no, "附加赛")
    return f"淘汰赛 第{gm.game_no}局 {kind}"


def _clean_device(device: str) -> str:
    text = "".join(c if c.isprintable() else " " for c in device)
    return " ".join(text.split())[:MAX_DEVICE]


def submit_deputy_result(
    db: Database,
    token: str,
    board: int,
    result: GameResult | str,
    device: str,
    game_no: int | None = None,
) -> int:
    """Store a deputy's result for the chief to confirm; returns the entry's id.

    Refused (nothing stored) for a bad token (:class:`TokenRefused`), a board outside the pass, an
    empty result, or — ``game_no`` given — a knockout board that has moved on to another game since
    the deputy's page showed it (a result typed offline for the slow game never lands on the rapid
    one). The deputy's own earlier entry for the board still waiting is superseded.
    """
    value = result if isinstance(result, GameResult) else GameResult(result)
    if value is GameResult.PENDING:
        raise UserError("请选择结果", "choose a result")
    with db.session() as s:
        t = _valid_token(s, token)
        if not t.first_board <= board <= t.last_board:
            raise TokenRefused(
                f"第 {board} 台不在您的录入范围（第 {t.first_board}–{t.last_board} 台）",
                f"board {board} is outside your boards ({t.first_board}–{t.last_board})",
            )
        game = _latest_games(t.round).get(board)
        if game is None:
            raise UserError(f"本轮没有第 {board} 台", f"the round has no board {board}")
        if game_no is not None and game_no != game.game_no:
            raise UserError(
                f"第 {board} 台已进入第 {game.game_no} 局，这条第 {game_no} 局的成绩没有提交，请重新录入",
                f"board {board} is on game {game.game_no} now; this result for game {game_no} was not sent",
            )
        for earlier in s.scalars(
            select(PendingResult).where(
                PendingResult.token_id == t.id, PendingResult.board == board, PendingResult.status == PENDING
            )
        ):
            earlier.status, earlier.decided_at, earlier.decided_by = SUPERSEDED, now(), t.deputy
        clean = _clean_device(device)
        entry = PendingResult(
            round_id=t.round_id,
            token_id=t.id,
            board=board,
            game_no=game.game_no,
            result=value.value,
            device=clean,
            submitted_at=now(),
            status=PENDING,
            decided_by="",
        )
        s.add(entry)
        s.flush()
        p = _pass(t)
        audit.record(
            s,
            "deputy_submit_result",
            entity=f"{p.group} 第{p.round}轮 第{board}台",
            before=GameResult(game.result).value,
            after=value.value,
            reason=f"待确认；设备：{clean}",
            who=f"副裁判 {t.deputy}",
        )
        return entry.id


# --------------------------------------------------------------------------- the chief's side


@dataclass(frozen=True, slots=True)
class PendingLine:
    """A deputy's result waiting in the rounds view (待确认)."""

    id: int
    board: int
    game_no: int
    result: GameResult
    deputy: str
    device: str
    submitted_at: datetime
    recorded: GameResult  # what the board has now
    conflict: bool  # another waiting entry differs, or a different result is already recorded

    @property
    def agrees(self) -> bool:
        """The board already has exactly this result."""
        return self.recorded is self.result


def pending_results(db: Database, group: str, round_number: int) -> list[PendingLine]:
    """The round's waiting entries by board, oldest first; none for a closed round."""
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, round_number)
        if rnd.closed_at is not None:
            return []
        rows = list(
            s.scalars(
                select(PendingResult)
                .where(PendingResult.round_id == rnd.id, PendingResult.status == PENDING)
                .order_by(PendingResult.board, PendingResult.id)
            )
        )
        if not rows:  # the usual case at the desk, after every result entered: no need to read the games
            return []
        games = _latest_games(rnd)
        by_board: dict[int, set[str]] = {}
        for e in rows:
            by_board.setdefault(e.board, set()).add(e.result)
        lines = []
        for e in rows:
            game = games.get(e.board)
            recorded = GameResult(game.result) if game is not None else GameResult.PENDING
            conflict = len(by_board[e.board]) > 1 or (not recorded.is_pending and recorded.value != e.result)
            lines.append(
                PendingLine(
                    e.id,
                    e.board,
                    e.game_no,
                    GameResult(e.result),
                    e.token.deputy,
                    e.device,
                    e.submitted_at,
                    recorded,
                    conflict,
                )
            )
        return lines


@dataclass(frozen=True, slots=True)
class Confirmation:
    """What confirming changed, so that it can be undone."""

    entry_id: int
    before: GameResult  # the board's result before
    entered: bool  # False when the board already had this result
    rejected: tuple[int, ...]  # the other waiting entries for the board, now rejected


def _entry(s: Session, entry_id: int) -> tuple[PendingResult, Group, Round]:
    e = s.get(PendingResult, entry_id)
    if e is None:
        raise UserError(f"没有编号为 {entry_id} 的待确认成绩", f"no waiting result {entry_id}")
    rnd = s.get(Round, e.round_id)
    assert rnd is not None
    g = s.get(Group, rnd.group_id)
    assert g is not None
    return e, g, rnd


def confirm_pending_result(db: Database, entry_id: int, *, who: str = audit.DEFAULT_ARBITER) -> Confirmation:
    """Enter a waiting result as the chief's own (logged twice: the result, and whose entry it was).

    The other entries waiting for the same board are rejected. A refusal by the result service
    (a closed round, a knockout game already decided…) changes nothing.
    """
    with db.session() as s:
        e, g, rnd = _entry(s, entry_id)
        if e.status != PENDING:
            raise UserError("这条成绩已处理过", "this entry has already been dealt with")
        if rnd.closed_at is not None:
            raise UserError(
                f"{g.name}第 {rnd.number} 轮已结束，副裁判的提交已失效",
                f"{g.name} round {rnd.number} is closed: the deputy's entry has expired",
            )
        group, number, board, game_no = g.name, rnd.number, e.board, e.game_no
        value = GameResult(e.result)
        game = _latest_games(rnd).get(board)
        if game is None or game.game_no != game_no:
            raise UserError(
                f"第 {board} 台已进入下一局，这条成绩已过时",
                f"board {board} has moved on: the entry is out of date",
            )
        current = GameResult(game.result)
    entered = current is not value
    before = enter_result(db, group, number, board, value, who=who, game_no=game_no) if entered else current
    with db.session() as s:
        e, g, rnd = _entry(s, entry_id)
        e.status, e.decided_at, e.decided_by = CONFIRMED, now(), who
        rejected = []
        for other in s.scalars(
            select(PendingResult).where(
                PendingResult.round_id == rnd.id,
                PendingResult.board == board,
                PendingResult.status == PENDING,
                PendingResult.id != entry_id,
            )
        ):
            other.status, other.decided_at, other.decided_by = REJECTED, now(), who
            rejected.append(other.id)
        audit.record(
            s,
            "confirm_deputy_result",
            entity=f"{group} 第{number}轮 第{board}台",
            before=before.value,
            after=value.value,
            reason=f"副裁判 {e.token.deputy} 提交（设备：{e.device}）"
            + (f"；同台其他提交作废：{len(rejected)} 条" if rejected else ""),
            who=who,
        )
    return Confirmation(entry_id, before, entered, tuple(rejected))


def reject_pending_result(db: Database, entry_id: int, *, who: str = audit.DEFAULT_ARBITER) -> None:
    with db.session() as s:
        e, g, rnd = _entry(s, entry_id)
        if e.status != PENDING:
            raise UserError("这条成绩已处理过", "this entry has already been dealt with")
        e.status, e.decided_at, e.decided_by = REJECTED, now(), who
        audit.record(
            s,
            "reject_deputy_result",
            entity=f"{g.name} 第{rnd.number}轮 第{e.board}台",
            after=e.result,
            reason=f"副裁判 {e.token.deputy} 提交（设备：{e.device}）",
            who=who,
        )


def reopen_pending_results(
    db: Database, entry_ids: tuple[int, ...], *, who: str = audit.DEFAULT_ARBITER, reason: str = ""
) -> None:
    """Put decided entries back to waiting (the undo of a confirmation or a rejection)."""
    with db.session() as s:
        for entry_id in entry_ids:
            e, g, rnd = _entry(s, entry_id)
            if e.status == PENDING:
                continue
            before = e.status
            e.status, e.decided_at, e.decided_by = PENDING, None, ""
            audit.record(
                s,
                "reopen_deputy_result",
                entity=f"{g.name} 第{rnd.number}轮 第{e.board}台",
                before=before,
                after=PENDING,
                reason=reason,
                who=who,
            )


def undo_confirmation(db: Database, c: Confirmation, *, who: str = audit.DEFAULT_ARBITER) -> None:
    """Take a confirmation back: the board's result as before, the entries waiting again."""
    with db.session() as s:
        e, g, rnd = _entry(s, c.entry_id)
        group, number, board, game_no = g.name, rnd.number, e.board, e.game_no
    if c.entered:
        enter_result(db, group, number, board, c.before, who=who, game_no=game_no, reason="撤销 (undo)")
    reopen_pending_results(db, (c.entry_id, *c.rejected), who=who, reason="撤销 (undo)")
