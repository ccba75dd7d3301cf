"""Discipline (docs/rules.md §8): violations, forfeits, withdrawals and disqualifications.

Each action writes its rows and an audit line in one transaction. Actions that decide a game
(phone found, late, left the table, agreed result) set the game's result and are kept as a
violation row of their kind for the record; only the kinds that are 犯规 count in the ranking
(:attr:`ViolationKind.counts_in_tiebreak`).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import GameRow, Group, Player, Round, Violation
from app.db.session import Database
from app.engine.regulations import DisqualifiedGames
from app.engine.types import Colour, GameResult, PlayerStatus, UserError, ViolationKind
from app.services import audit
from app.services.results import round_row
from app.services.tournaments import group_row


def player_row(session: Session, group: Group, no: int) -> Player:
    row = session.scalars(select(Player).where(Player.group_id == group.id, Player.no == no)).one_or_none()
    if row is None:
        raise UserError(f"{group.name}没有 {no} 号棋手", f"{group.name} has no player number {no}")
    return row


def _game_of(session: Session, rnd: Round, player: Player) -> GameRow:
    games = [g for g in rnd.games if player.id in (g.red_id, g.black_id)]
    if not games:
        raise UserError(
            f"{player.no} 号 {player.name} 在第 {rnd.number} 轮没有对局（轮空或未编排）",
            f"player {player.no} {player.name} has no game in round {rnd.number}",
        )
    return max(games, key=lambda g: g.game_no)


def _now() -> datetime:
    return datetime.now().replace(microsecond=0)


def _require_reason(reason: str) -> str:
    if not reason.strip():
        raise UserError("请填写理由", "a reason is required")
    return reason.strip()


def record_violation(
    db: Database,
    group: str,
    no: int,
    round_number: int,
    kind: ViolationKind | str,
    reason: str,
    *,
    source: str = "arbiter",
    who: str = audit.DEFAULT_ARBITER,
) -> int:
    """Enter a violation (犯规) with its reason; returns its id (for :func:`remove_violation`)."""
    value = kind if isinstance(kind, ViolationKind) else _kind(kind)
    reason = _require_reason(reason)
    with db.session() as s:
        g = group_row(s, group)
        p = player_row(s, g, no)
        rnd = s.scalars(
            select(Round).where(Round.group_id == g.id, Round.number == round_number)
        ).one_or_none()
        if rnd is None:
            raise UserError(f"第 {round_number} 轮尚未编排", f"round {round_number} has not been paired")
        game = next((gm for gm in rnd.games if p.id in (gm.red_id, gm.black_id)), None)
        row = Violation(
            player_id=p.id,
            round_number=round_number,
            game_id=None if game is None else game.id,
            kind=value.value,
            reason=reason,
            source=source,
            created_at=_now(),
        )
        s.add(row)
        audit.record(
            s,
            "violation",
            entity=f"{group} {no}号 {p.name} 第{round_number}轮",
            after=value.value,
            reason=reason,
            who=who,
        )
        s.flush()
        return row.id


def remove_violation(
    db: Database, violation_id: int, reason: str, *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Take back a violation entered by mistake (logged with what it was and why it was removed)."""
    reason = _require_reason(reason)
    with db.session() as s:
        row = s.get(Violation, violation_id)
        if row is None:
            raise UserError(
                "该犯规记录不存在（可能已删除）", "that violation does not exist (removed already?)"
            )
        before = {"player": row.player.no, "round": row.round_number, "kind": row.kind, "reason": row.reason}
        entity = f"{row.player.group.name} {row.player.no}号 {row.player.name} 第{row.round_number}轮"
        s.delete(row)
        audit.record(s, "remove_violation", entity=entity, before=before, reason=reason, who=who)


def lift_disqualification(
    db: Database, group: str, no: int, reason: str, *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """Undo a disqualification entered by mistake: active again, the cheating record removed (logged)."""
    reason = _require_reason(reason)
    with db.session() as s:
        g = group_row(s, group)
        p = player_row(s, g, no)
        if p.status != PlayerStatus.DISQUALIFIED.value:
            raise UserError(f"{no} 号 {p.name} 未被取消成绩", f"player {no} is not disqualified")
        before = {"status": p.status, "status_round": p.status_round, "games": p.dq_games}
        p.status, p.status_round, p.dq_games = PlayerStatus.ACTIVE.value, None, ""
        for v in s.scalars(
            select(Violation).where(
                Violation.player_id == p.id, Violation.kind == ViolationKind.CHEATING.value
            )
        ):
            s.delete(v)
        audit.record(
            s,
            "lift_disqualification",
            entity=f"{group} {no}号 {p.name}",
            before=before,
            after="active",
            reason=reason,
            who=who,
        )


def _kind(text: str) -> ViolationKind:
    try:
        return ViolationKind(text)
    except ValueError:
        kinds = ", ".join(k.value for k in ViolationKind)
        raise UserError(
            f"未知的犯规类型“{text}”（可选：{kinds}）", f"unknown violation kind {text!r} ({kinds})"
        ) from None


FORFEIT_KINDS = (ViolationKind.LATE, ViolationKind.LEFT_TABLE, ViolationKind.PHONE)


def forfeit(
    db: Database,
    group: str,
    round_number: int,
    no: int,
    kind: ViolationKind | str,
    reason: str = "",
    *,
    who: str = audit.DEFAULT_ARBITER,
) -> GameResult:
    """The player loses this round's game for lateness, leaving the table, or a phone in the hall.

    Late and left-the-table are forfeits (弃权: not played over the board); a phone found is a loss
    after play started (判负: the game counts as played). Returns the game's new result.
    """
    value = kind if isinstance(kind, ViolationKind) else _kind(kind)
    if value not in FORFEIT_KINDS:
        raise UserError(
            f"“{value.zh}”不是判负或弃权的理由", f"{value.value} is not a reason for a forfeit or loss"
        )
    with db.session() as s:
        g = group_row(s, group)
        p = player_row(s, g, no)
        rnd = round_row(s, g, round_number)
        game = _game_of(s, rnd, p)
        is_red = game.red_id == p.id
        if value is ViolationKind.PHONE:
            result = GameResult.BLACK_WIN if is_red else GameResult.RED_WIN
        else:
            result = GameResult.RED_FORFEIT if is_red else GameResult.BLACK_FORFEIT
        before = game.result
        mine = Colour.RED if is_red else Colour.BLACK
        earlier = GameResult(before)
        if value is not ViolationKind.PHONE and earlier.is_forfeit and earlier.winner() is mine:
            result = GameResult.DOUBLE_FORFEIT  # the opponent had already forfeited: both did
        game.result = result.value
        s.add(
            Violation(
                player_id=p.id,
                round_number=round_number,
                game_id=game.id,
                kind=value.value,
                reason=reason or value.zh,
                source="arbiter",
                created_at=_now(),
            )
        )
        audit.record(
            s,
            "forfeit",
            entity=f"{group} 第{round_number}轮 第{game.board}台 {no}号 {p.name}",
            before=before,
            after=result.value,
            reason=reason or value.zh,
            who=who,
        )
        return result


def agreed_result(
    db: Database, group: str, round_number: int, board: int, reason: str, *, who: str = audit.DEFAULT_ARBITER
) -> None:
    """A result agreed without real play: both sides are treated as forfeiting (双方弃权)."""
    reason = _require_reason(reason)
    with db.session() as s:
        g = group_row(s, group)
        rnd = round_row(s, g, round_number)
        games = [gm for gm in rnd.games if gm.board == board]
        if not games:
            raise UserError(
                f"第 {round_number} 轮没有第 {board} 台", f"round {round_number} has no board {board}"
            )
        game = max(games, key=lambda gm: gm.game_no)
        before = game.result
        game.result = GameResult.DOUBLE_FORFEIT.value
        for pid in (game.red_id, game.black_id):
            s.add(
                Violation(
                    player_id=pid,
                    round_number=round_number,
                    game_id=game.id,
                    kind=ViolationKind.AGREED_RESULT.value,
                    reason=reason,
                    created_at=_now(),
                )
            )
        audit.record(
            s,
            "agreed_result",
            entity=f"{group} 第{round_number}轮 第{board}台",
            before=before,
            after=game.result,
            reason=reason,
            who=who,
        )


def _last_round(session: Session, group: Group) -> int:
    return max(session.scalars(select(Round.number).where(Round.group_id == group.id)), default=0)


def disqualify(
    db: Database,
    group: str,
    no: int,
    games: DisqualifiedGames | str,
    reason: str,
    *,
    who: str = audit.DEFAULT_ARBITER,
) -> None:
    """取消成绩 (e.g. cheating): not paired again, removed from ranking, team result and prizes.

    ``games`` is the arbiter's choice, logged: the games already played stand for the opponents, or
    they are annulled (the opponents' results become forfeit wins when standings are computed).
    """
    choice = games if isinstance(games, DisqualifiedGames) else DisqualifiedGames(games)
    reason = _require_reason(reason)
    with db.session() as s:
        g = group_row(s, group)
        p = player_row(s, g, no)
        if p.status == PlayerStatus.DISQUALIFIED.value:
            raise UserError(f"{no} 号 {p.name} 已被取消成绩", f"player {no} is already disqualified")
        before = p.status
        last = _last_round(s, g)
        # status_round: the first round the player is no longer paired in (as for a withdrawal)
        p.status, p.status_round, p.dq_games = PlayerStatus.DISQUALIFIED.value, last + 1, choice.value
        s.add(
            Violation(
                player_id=p.id,
                round_number=max(last, 1),
                game_id=None,
                kind=ViolationKind.CHEATING.value,
                reason=reason,
                created_at=_now(),
            )
        )
        audit.record(
            s,
            "disqualify",
            entity=f"{group} {no}号 {p.name}",
            before=before,
            after={"status": "disqualified", "games": choice.value},
            reason=reason,
            who=who,
        )
