"""ORM models of the tournament file (one SQLite file per tournament, ``.xqt``).

The schema is owned by the Alembic migrations in ``app/db/migrations``; these models must match
the newest migration (a test compares them). Rows are mapped to engine values in
``app/db/mapping.py``; nothing outside ``app/db`` and ``app/services`` sees these classes.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Setting(Base):
    """Key/value settings of the file that are not part of the regulation (draw seed, …)."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Tournament(Base):
    """The tournament (one row). ``regulations`` holds ``regulations_to_dict`` of the engine."""

    __tablename__ = "tournament"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    preset: Mapped[str] = mapped_column(String(64), default="")
    start_date: Mapped[date] = mapped_column(Date)
    regulations: Mapped[dict[str, object]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class Group(Base):
    __tablename__ = "groups"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    teams: Mapped[bool] = mapped_column(Boolean, default=True)
    position: Mapped[int] = mapped_column(Integer, default=0)
    # how sequence numbers were given: "" (not yet), "lot", "manual", "rating"; and the lot's seed
    numbers_method: Mapped[str] = mapped_column(String(16), default="")
    numbers_seed: Mapped[int | None] = mapped_column(Integer, nullable=True)

    players: Mapped[list[Player]] = relationship(back_populates="group", foreign_keys="Player.group_id")
    teams_: Mapped[list[Team]] = relationship(back_populates="group")


class Team(Base):
    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("group_id", "name"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(100))
    leader: Mapped[str] = mapped_column(String(64), default="")  # 领队 (may be a member)
    # team competitions (团体赛): team number (队号), captain, the earlier season's rank, a play-off place
    no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    captain: Mapped[str] = mapped_column(String(64), default="")  # 队长
    seed_rank: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 上届名次
    playoff_place: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 加赛名次 (entered)
    withdrawn_round: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 退赛: not paired from

    group: Mapped[Group] = relationship(back_populates="teams_")
    members: Mapped[list[Player]] = relationship(back_populates="team")


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("group_id", "no"), UniqueConstraint("id_number"))
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="RESTRICT"), index=True)
    team_id: Mapped[int | None] = mapped_column(ForeignKey("teams.id", ondelete="SET NULL"), nullable=True)
    no: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 序号 within the group
    name: Mapped[str] = mapped_column(String(64))
    gender: Mapped[str] = mapped_column(String(8), default="")  # "", "male", "female"
    id_type: Mapped[str] = mapped_column(String(24), default="resident_id")
    id_number: Mapped[str] = mapped_column(String(32))
    birth_date: Mapped[date | None] = mapped_column(Date, nullable=True)  # None: unknown (a TRF without one)
    phone: Mapped[str] = mapped_column(String(20))
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating_rank: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 等级分排名; None: not ranked
    unit: Mapped[str] = mapped_column(String(100), default="")  # 单位 when not in a team
    notes: Mapped[str] = mapped_column(Text, default="")
    fee_paid: Mapped[bool] = mapped_column(Boolean, default=False)
    insurance: Mapped[bool] = mapped_column(Boolean, default=False)  # 意外保险证明
    pledge: Mapped[bool] = mapped_column(Boolean, default=False)  # 承诺书
    checked_in: Mapped[bool] = mapped_column(Boolean, default=False)  # 报到
    status: Mapped[str] = mapped_column(String(16), default="active")
    status_round: Mapped[int | None] = mapped_column(Integer, nullable=True)  # round of withdrawal / DQ
    dq_games: Mapped[str] = mapped_column(String(8), default="")  # "stand" / "annul" when disqualified
    registered_at: Mapped[datetime] = mapped_column(DateTime)
    late_entry_round: Mapped[int | None] = mapped_column(Integer, nullable=True)  # entered after round 1
    region: Mapped[str] = mapped_column(String(64), default="")  # 地区 (pairing avoidance, local prizes)
    reentry_round: Mapped[int | None] = mapped_column(Integer, nullable=True)  # paired again from (re-entry)
    ranked: Mapped[bool] = mapped_column(Boolean, default=True)  # False: 计成绩不计名次 (plays, no place)
    eligibility_override: Mapped[str] = mapped_column(
        Text, default=""
    )  # why admitted outside the group's rule
    team_order: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 报名顺序 in the team (1 = first)
    reserve: Mapped[bool] = mapped_column(Boolean, default=False)  # 替补

    group: Mapped[Group] = relationship(back_populates="players", foreign_keys=[group_id])
    team: Mapped[Team | None] = relationship(back_populates="members")


class Round(Base):
    __tablename__ = "rounds"
    __table_args__ = (UniqueConstraint("group_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(16), default="swiss")  # swiss / knockout
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)  # colour lot of round 1 etc.
    paired_at: Mapped[datetime] = mapped_column(DateTime)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    explanation: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)

    games: Mapped[list[GameRow]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="GameRow.board"
    )
    byes: Mapped[list[Bye]] = relationship(back_populates="round", cascade="all, delete-orphan")


class GameRow(Base):
    """A game: a Swiss pairing, or one game (slow / rapid / deciding) of a knockout match."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("round_id", "board", "game_no"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    board: Mapped[int] = mapped_column(Integer)
    game_no: Mapped[int] = mapped_column(Integer, default=1)  # game within a knockout match
    red_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"), index=True)
    black_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"), index=True)
    result: Mapped[str] = mapped_column(String(16), default="pending")
    match_id: Mapped[int | None] = mapped_column(
        ForeignKey("knockout_matches.id", ondelete="CASCADE"), nullable=True
    )
    kind: Mapped[str] = mapped_column(String(16), default="swiss")  # swiss / slow / rapid / deciding / board
    team_match_id: Mapped[int | None] = mapped_column(
        ForeignKey("team_matches.id", ondelete="CASCADE"), nullable=True, index=True
    )  # a board (kind "board") or a tie-break game of a team match

    round: Mapped[Round] = relationship(back_populates="games")
    match: Mapped[KnockoutMatch | None] = relationship()
    red: Mapped[Player] = relationship(foreign_keys=[red_id])
    black: Mapped[Player] = relationship(foreign_keys=[black_id])


class Bye(Base):
    __tablename__ = "byes"
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"), primary_key=True)

    round: Mapped[Round] = relationship(back_populates="byes")
    player: Mapped[Player] = relationship()


class KnockoutMatch(Base):
    """A knockout match (淘汰赛): two players, a sequence of games, a winner."""

    __tablename__ = "knockout_matches"
    __table_args__ = (UniqueConstraint("group_id", "code"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    code: Mapped[str] = mapped_column(String(16))  # QF1…, SF1, F, 3RD, P5SF1, P5, P7 …
    round_number: Mapped[int] = mapped_column(Integer)
    high_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)  # higher seed
    low_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    colour_method: Mapped[str] = mapped_column(String(8), default="")  # lot / manual
    colour_seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    first_red_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    deciding_red_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id"), nullable=True
    )  # before 0007
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    # Red of the first game of each later ladder step whose colours were drawn or chosen: {"step": player id}
    colour_choices: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)


class GroupStage(Base):
    """A stage of a group once it has begun: its entrants are fixed (``stage_entries``) and the lots
    it drew are recorded (pools, table numbers or seeds, the tiebreak lot)."""

    __tablename__ = "group_stages"
    __table_args__ = (UniqueConstraint("group_id", "stage"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"))
    stage: Mapped[int] = mapped_column(Integer)  # index into the group's stages (0 = the first)
    kind: Mapped[str] = mapped_column(String(16))  # as played: swiss / round_robin / knockout
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the lot of pools / numbers / seeds
    started_at: Mapped[datetime] = mapped_column(DateTime)


class StageEntry(Base):
    """A player in a begun stage: the pool (分组, 0-based), the number in it (table number or seed), the
    tiebreak lot (抽签, 1 = first)."""

    __tablename__ = "stage_entries"
    __table_args__ = (UniqueConstraint("stage_id", "player_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    stage_id: Mapped[int] = mapped_column(ForeignKey("group_stages.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    pool: Mapped[int] = mapped_column(Integer, default=0)
    number: Mapped[int] = mapped_column(Integer)
    lot: Mapped[int] = mapped_column(Integer, default=0)


class TeamMatch(Base):
    """A match of two teams in a round of a team competition (团体赛), or a team's bye (``away_team_id``
    empty). Its boards are games (``games.team_match_id``); ``code`` places it in a team knockout;
    ``colour_choices`` holds the Red of tie-break ladder steps drawn or chosen: {"board": {"step": player id}}."""

    __tablename__ = "team_matches"
    __table_args__ = (UniqueConstraint("round_id", "number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 场次 within the round (1 …)
    home_team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="RESTRICT"))
    away_team_id: Mapped[int | None] = mapped_column(
        ForeignKey("teams.id", ondelete="RESTRICT"), nullable=True
    )
    home_absent: Mapped[bool] = mapped_column(Boolean, default=False)  # 不到场
    away_absent: Mapped[bool] = mapped_column(Boolean, default=False)
    code: Mapped[str] = mapped_column(String(16), default="")  # knockout bracket code (QF1, SF2, F …)
    colour_choices: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)
    explanation: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)  # why (zh, en)

    round: Mapped[Round] = relationship()
    home: Mapped[Team] = relationship(foreign_keys=[home_team_id])
    away: Mapped[Team | None] = relationship(foreign_keys=[away_team_id])


class TeamLineup(Base):
    """A team's line-up (排阵) for a round: who sits on which board, who handed it in and when, and how it
    was made (``captain``: handed in; ``registered`` / ``lot``: by the rule for a missing line-up)."""

    __tablename__ = "team_lineups"
    __table_args__ = (UniqueConstraint("round_id", "team_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id", ondelete="CASCADE"))
    method: Mapped[str] = mapped_column(String(16), default="captain")
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    handed_in_by: Mapped[str] = mapped_column(String(64), default="")
    handed_in_at: Mapped[datetime] = mapped_column(DateTime)

    boards: Mapped[list[TeamLineupBoard]] = relationship(
        back_populates="lineup", cascade="all, delete-orphan", order_by="TeamLineupBoard.board"
    )


class TeamLineupBoard(Base):
    """A board of a line-up: the player (None: an empty board, forfeited)."""

    __tablename__ = "team_lineup_boards"
    lineup_id: Mapped[int] = mapped_column(
        ForeignKey("team_lineups.id", ondelete="CASCADE"), primary_key=True
    )
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", ondelete="RESTRICT"), nullable=True
    )

    lineup: Mapped[TeamLineup] = relationship(back_populates="boards")


class Violation(Base):
    """A violation (犯规) or a discipline action, each counted in the tiebreak where it applies."""

    __tablename__ = "violations"
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    round_number: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), nullable=True)
    kind: Mapped[str] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(Text, default="")
    source: Mapped[str] = mapped_column(String(16), default="arbiter")  # arbiter / auto
    created_at: Mapped[datetime] = mapped_column(DateTime)

    player: Mapped[Player] = relationship()


class GameRecord(Base):
    """The record duty (录谱) of a game and the record itself once handed in."""

    __tablename__ = "game_records"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    recorder_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    designated: Mapped[bool] = mapped_column(Boolean, default=False)  # chosen by the arbiter
    received: Mapped[bool] = mapped_column(Boolean, default=False)
    moves: Mapped[int | None] = mapped_column(Integer, nullable=True)  # 回合
    pgn: Mapped[str] = mapped_column(Text, default="")
    received_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class Absence(Base):
    """An excused absence (请假): the player is not paired in that round, scores 0, and it is no forfeit."""

    __tablename__ = "absences"
    __table_args__ = (UniqueConstraint("player_id", "round_number"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    round_number: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime)

    player: Mapped[Player] = relationship()


class PairAvoidance(Base):
    """A named pair who must not (absolute) or should not (weak) meet in a range of rounds (家属回避 …)."""

    __tablename__ = "pair_avoidances"
    __table_args__ = (UniqueConstraint("first_id", "second_id"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    first_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    second_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    strength: Mapped[str] = mapped_column(String(16), default="absolute")  # absolute / weak
    from_round: Mapped[int] = mapped_column(Integer, default=1)
    to_round: Mapped[int] = mapped_column(Integer, default=0)  # 0 = to the last round
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime)

    first: Mapped[Player] = relationship(foreign_keys=[first_id])
    second: Mapped[Player] = relationship(foreign_keys=[second_id])


class AuditEntry(Base):
    """Every change: who, when, what, before → after, reason."""

    __tablename__ = "audit_log"
    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime)
    who: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(64))
    entity: Mapped[str] = mapped_column(String(200), default="")
    before: Mapped[str] = mapped_column(Text, default="")
    after: Mapped[str] = mapped_column(Text, default="")
    reason: Mapped[str] = mapped_column(Text, default="")


class DeputyToken(Base):
    """A deputy arbiter's pass for the hall network: a range of boards of one round of one group.

    Only a SHA-256 digest of the token is kept; the token itself is shown once, as a link and a QR code.
    It is valid while the round is open and the token is not revoked.
    """

    __tablename__ = "deputy_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    deputy: Mapped[str] = mapped_column(String(64))  # the deputy's name, as the chief typed it
    first_board: Mapped[int] = mapped_column(Integer)
    last_board: Mapped[int] = mapped_column(Integer)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    issued_at: Mapped[datetime] = mapped_column(DateTime)
    issued_by: Mapped[str] = mapped_column(String(64))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    round: Mapped[Round] = relationship()


class PendingResult(Base):
    """A result sent by a deputy from a phone, waiting for the chief arbiter (待确认).

    ``status``: pending → confirmed / rejected, or superseded by the same deputy's later entry.
    """

    __tablename__ = "pending_results"
    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id", ondelete="CASCADE"), index=True)
    token_id: Mapped[int] = mapped_column(ForeignKey("deputy_tokens.id", ondelete="CASCADE"), index=True)
    board: Mapped[int] = mapped_column(Integer)
    game_no: Mapped[int] = mapped_column(Integer, default=1)
    result: Mapped[str] = mapped_column(String(16))
    device: Mapped[str] = mapped_column(String(200), default="")
    submitted_at: Mapped[datetime] = mapped_column(DateTime)
    status: Mapped[str] = mapped_column(String(16), default="pending")
    decided_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    decided_by: Mapped[str] = mapped_column(String(64), default="")

    token: Mapped[DeputyToken] = relationship()
