"""The one schema of each document the program reads from outside: the snapshot and the bulk results.

A document is checked whole before anything is written: first its shape (pydantic models: types are
strict — ``"1"`` is not a number, ``"false"`` is not a boolean, ``1.0`` is not a board —, numbers within
what SQLite and the rules hold, codes from the engine's enums, text without control or bidi characters
and within the lengths the printed lists and TRF hold), then its references (every player a game, bye,
violation or record names exists in its group; no number, round, board, match or ID number twice; no
player paired with himself or twice in a round). Every problem is reported with its JSON path.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetPydanticSchema,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
)
from pydantic import ValidationError as ValidationError

from app.db.lite import regulations_of_text
from app.engine import paperwork as pw
from app.engine.eligibility import RATING_RANK_MAX
from app.engine.knockout import ColourMethod, GameKind
from app.engine.privacy import looks_personal
from app.engine.regulations import AvoidanceStrength, Regulations
from app.engine.text import (
    EVENT_NAME_MAX,
    GROUP_NAME_MAX,
    LEADER_MAX,
    NAME_MAX,
    NOTES_MAX,
    REASON_MAX,
    REGION_MAX,
    TEAM_MAX,
    TRF_NAME_MAX,
    UNIT_MAX,
    clean_text,
    text_problem,
)
from app.engine.types import (
    GameResult,
    Gender,
    IdDocument,
    PlayerStatus,
    RoundStage,
    UserError,
    ViolationKind,
)

INT64_MAX = 2**63 - 1
MAX_ITEMS = 200_000
PGN_MAX = 1_000_000


def _one_of(enum: type[Enum], *extra: str) -> GetPydanticSchema:
    """Field metadata for a ``str``: one of the enum's values or ``extra``, checked as ``Literal[...]`` of
    them would be (the values are the engine's, so they are listed once, there)."""
    values = (*[m.value for m in enum], *extra)

    def schema(_source: Any, handler: GetCoreSchemaHandler) -> Any:
        return handler(Literal[values])

    return GetPydanticSchema(schema)


Int64 = Annotated[StrictInt, Field(ge=-(2**63), le=INT64_MAX)]
Seed = Annotated[StrictInt, Field(ge=0, le=INT64_MAX)]
RoundNo = Annotated[StrictInt, Field(ge=1, le=999)]
BoardNo = Annotated[StrictInt, Field(ge=1, le=99_999)]
PlayerNo = Annotated[StrictInt, Field(ge=1, le=999_999)]
GameNo = Annotated[StrictInt, Field(ge=1, le=99)]


def _clean(max_len: int, *, required: bool = False, multiline: bool = False) -> AfterValidator:
    """Field metadata for a ``StrictStr``: clean text (app.engine.text) of at most ``max_len`` characters."""

    def check(text: str) -> str:
        return clean_text(text, "文字", "the text", max_len, required=required, multiline=multiline)

    return AfterValidator(check)


def _plain_text(text: str) -> str:
    if text_problem(text, multiline=True) is not None:
        raise ValueError("含有控制字符或不可见字符 (a control or invisible character)")
    return text


def _not_personal(text: str) -> str:
    if looks_personal(text):
        raise ValueError(
            "像是含有手机号、证件号或文件路径（会印在公开的名单和证书上）"
            " (seems to hold a phone or ID number or a path; it is printed publicly)"
        )
    return text


#: After the length: stored as given (the audit log's own words), only refused when it holds a control
#: or bidi character.
_PLAIN = AfterValidator(_plain_text)
#: After :func:`_clean`: text printed on public lists and certificates holds no personal number or path.
_PUBLIC = AfterValidator(_not_personal)


def _iso_text(value: Any) -> Any:
    if not isinstance(value, str):
        raise ValueError('应为 ISO 格式的日期文字，如 "2024-07-26" (an ISO date string)')
    return value


def _naive(value: datetime) -> datetime:
    if value.tzinfo is not None:
        raise ValueError("不应带时区 (no time zone)")
    return value


IsoDate = Annotated[date, BeforeValidator(_iso_text), Field(strict=False)]
IsoDateTime = Annotated[datetime, BeforeValidator(_iso_text), AfterValidator(_naive), Field(strict=False)]

EventName = Annotated[StrictStr, _clean(EVENT_NAME_MAX, required=True)]
GroupName = Annotated[StrictStr, _clean(GROUP_NAME_MAX, required=True), _PUBLIC]
PlayerName = Annotated[StrictStr, _clean(TRF_NAME_MAX, required=True)]
TeamName = Annotated[StrictStr, _clean(TEAM_MAX, required=True), _PUBLIC]
Unit = Annotated[StrictStr, _clean(UNIT_MAX), _PUBLIC]
Region = Annotated[StrictStr, _clean(REGION_MAX), _PUBLIC]
Notes = Annotated[StrictStr, _clean(NOTES_MAX, multiline=True)]
Reason = Annotated[StrictStr, _clean(REASON_MAX, multiline=True)]
Leader = Annotated[StrictStr, _clean(LEADER_MAX), _PUBLIC]
Code = Annotated[StrictStr, Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_]+$")]
IdNumber = Annotated[StrictStr, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9\-]+$")]
Phone = Annotated[StrictStr, Field(max_length=20, pattern=r"^[0-9+\- ]*$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _json_blob(value: dict[str, Any]) -> dict[str, Any]:
    """A stored JSON value kept as given (a pairing's explanation): every text in it, keys included, is
    free of control and invisible characters and every whole number fits SQLite, as everywhere else."""

    def walk(item: object, path: str) -> None:
        if isinstance(item, str):
            if text_problem(item, multiline=True) is not None:
                raise ValueError(f"{path}：含有控制字符或不可见字符 (a control or invisible character)")
        elif isinstance(item, bool) or item is None or isinstance(item, float):
            return
        elif isinstance(item, int):
            if not -(2**63) <= item <= INT64_MAX:
                raise ValueError(f"{path}：数值超出范围 (a number out of range)")
        elif isinstance(item, dict):
            for key, inner in item.items():
                walk(key, path)
                walk(inner, f"{path}.{key}")
        elif isinstance(item, list):
            for i, inner in enumerate(item):
                walk(inner, f"{path}[{i}]")

    walk(value, "explanation")
    return value


def _settings(value: dict[str, Any]) -> dict[str, Any]:
    from app.engine.regulations import check_public_texts

    check_public_texts(_regulations(value))  # a UserError names the setting
    return value


def _regulations(value: dict[str, Any]) -> Regulations:
    """The snapshot's regulation, parsed and validated once per text: the schema and the references
    both read it, and a test suite imports the same few snapshots again and again (~20 ms a parse).
    A value JSON does not give back as it is (a key that is not text) is parsed as given."""
    from app.engine.regulations import regulations_from_dict

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return regulations_from_dict(value)
    if json.loads(text) != value:
        return regulations_from_dict(value)
    return regulations_of_text(text)  # decoded once per text, as the fast path decodes a stored one


class TournamentDoc(_Strict):
    name: Annotated[StrictStr, _clean(EVENT_NAME_MAX, required=True), _PUBLIC]
    preset: Annotated[StrictStr, Field(max_length=64)] = ""
    start_date: IsoDate
    created_at: IsoDateTime | None = None
    settings: Annotated[dict[str, Any], AfterValidator(_settings)]


class GroupDoc(_Strict):
    name: GroupName
    teams: StrictBool
    numbers_method: Literal["", "lot", "rating", "manual"] = ""
    numbers_seed: Seed | None = None


class TeamDoc(_Strict):
    name: TeamName
    group: GroupName
    leader: Leader = ""
    # team competitions: team number, captain, the earlier season's rank, a play-off place, withdrawal
    no: Annotated[StrictInt, Field(ge=1, le=9_999)] | None = None
    captain: Leader | None = None
    seed_rank: Annotated[StrictInt, Field(ge=1, le=999)] | None = None
    playoff_place: Annotated[StrictInt, Field(ge=1, le=9_999)] | None = None
    withdrawn_round: RoundNo | None = None


class PlayerDoc(_Strict):
    no: PlayerNo | None
    name: PlayerName
    group: GroupName
    team: TeamName | None = None
    id_type: Annotated[str, _one_of(IdDocument, "fide")] = "resident_id"
    id_number: IdNumber
    birth_date: IsoDate | None = None
    gender: Annotated[str, _one_of(Gender, "")] = ""
    phone: Phone
    rating: Annotated[StrictInt, Field(ge=1, le=4000)] | None = None
    rating_rank: Annotated[StrictInt, Field(ge=1, le=RATING_RANK_MAX)] | None = None  # 等级分排名
    unit: Unit = ""
    notes: Notes = ""
    fee_paid: StrictBool
    insurance: StrictBool = False
    pledge: StrictBool = False
    checked_in: StrictBool
    status: Annotated[str, _one_of(PlayerStatus)]
    status_round: RoundNo | None = None
    dq_games: Literal["", "stand", "annul"] = ""
    registered_at: IsoDateTime | None = None
    late_entry_round: RoundNo | None = None
    region: Region = ""  # 地区, for the region avoidances and the local prizes
    reentry_round: RoundNo | None = None  # re-entry: paired again from this round after a withdrawal
    ranked: StrictBool = True  # False: 计成绩不计名次 (results count, no place)
    eligibility_override: Reason = ""  # why accepted outside the group's conditions of entry
    team_order: Annotated[StrictInt, Field(ge=1, le=99)] | None = None  # registered order in the team
    reserve: StrictBool = False  # 替补


class GameDoc(_Strict):
    board: BoardNo
    red: PlayerNo
    black: PlayerNo
    result: Annotated[str, _one_of(GameResult)]
    game_no: GameNo = 1
    kind: Annotated[str, _one_of(GameKind, "swiss", "board")] = "swiss"
    match: Code | None = None
    team_match: Annotated[StrictInt, Field(ge=1, le=9_999)] | None = None  # the team match a board belongs to


class RoundDoc(_Strict):
    group: GroupName
    round: RoundNo
    stage: Annotated[str, _one_of(RoundStage)] = "swiss"
    seed: Seed | None = None
    paired_at: IsoDateTime | None = None
    closed_at: IsoDateTime | None = None
    games: Annotated[list[GameDoc], Field(max_length=MAX_ITEMS)]
    byes: Annotated[list[PlayerNo], Field(max_length=MAX_ITEMS)] = []
    explanation: Annotated[dict[str, Any], AfterValidator(_json_blob)] | None = None


class MatchDoc(_Strict):
    group: GroupName
    code: Code
    round: RoundNo
    high: PlayerNo | None = None
    low: PlayerNo | None = None
    colour_method: Annotated[str, _one_of(ColourMethod, "")] = ""
    colour_seed: Seed | None = None
    first_red: PlayerNo | None = None
    deciding_red: PlayerNo | None = None
    winner: PlayerNo | None = None
    colour_choices: dict[
        Annotated[StrictStr, Field(pattern=r"^[0-9]{1,2}$")], PlayerNo
    ] = {}  # ladder step → Red


class StageEntryDoc(_Strict):
    player: PlayerNo
    pool: Annotated[StrictInt, Field(ge=0, le=99)] = 0
    number: Annotated[StrictInt, Field(ge=1, le=MAX_ITEMS)]
    lot: Annotated[StrictInt, Field(ge=0, le=MAX_ITEMS)] = 0


class StageDoc(_Strict):
    """A begun stage of a group (formats): its kind as played, its lot's seed, its entrants."""

    group: GroupName
    stage: Annotated[StrictInt, Field(ge=0, le=7)]
    kind: Literal["swiss", "round_robin", "knockout"]
    seed: Seed | None = None
    started_at: IsoDateTime | None = None
    entrants: Annotated[list[StageEntryDoc], Field(max_length=MAX_ITEMS)]


class ViolationDoc(_Strict):
    player: PlayerNo
    group: GroupName | None = None
    round: RoundNo
    kind: Annotated[str, _one_of(ViolationKind)]
    reason: Reason = ""
    source: Literal["arbiter", "auto"] = "arbiter"
    board: BoardNo | None = None
    created_at: IsoDateTime | None = None


class RecordDoc(_Strict):
    group: GroupName
    round: RoundNo
    board: BoardNo
    game_no: GameNo = 1
    recorder: PlayerNo | None = None
    designated: StrictBool = False
    received: StrictBool = False
    moves: Annotated[StrictInt, Field(ge=0, le=9_999)] | None = None
    pgn: Annotated[StrictStr, Field(max_length=PGN_MAX)] = ""
    received_at: IsoDateTime | None = None


class TeamMatchDoc(_Strict):
    group: GroupName
    round: RoundNo
    number: Annotated[StrictInt, Field(ge=1, le=9_999)]
    home: TeamName
    away: TeamName | None = None
    home_absent: StrictBool = False
    away_absent: StrictBool = False
    code: Annotated[StrictStr, Field(max_length=16, pattern=r"^[A-Za-z0-9_]*$")] = ""
    colour_choices: dict[
        Annotated[StrictStr, Field(pattern=r"^[0-9]{1,2}$")],
        dict[Annotated[StrictStr, Field(pattern=r"^[0-9]{1,2}$")], PlayerNo],
    ] = {}
    explanation: dict[str, Any] | None = None


class LineupDoc(_Strict):
    group: GroupName
    round: RoundNo
    team: TeamName
    boards: Annotated[list[PlayerNo | None], Field(min_length=1, max_length=10)]
    method: Literal["captain", "registered", "lot"] = "captain"
    seed: Seed | None = None
    handed_in_by: Leader = ""
    handed_in_at: IsoDateTime | None = None


class AuditDoc(_Strict):
    at: IsoDateTime | None = None
    who: Annotated[StrictStr, Field(max_length=64), _PLAIN] = ""
    action: Annotated[StrictStr, Field(max_length=64), _PLAIN] = ""
    entity: Annotated[StrictStr, Field(max_length=200), _PLAIN] = ""
    before: Annotated[StrictStr, Field(max_length=1_000_000), _PLAIN] = ""
    after: Annotated[StrictStr, Field(max_length=1_000_000), _PLAIN] = ""
    reason: Annotated[StrictStr, Field(max_length=REASON_MAX * 4), _PLAIN] = ""


# absence and re-entry, named pair avoidances, the paperwork


class AbsenceDoc(_Strict):
    group: GroupName
    player: PlayerNo
    round: RoundNo
    reason: Reason = ""
    created_at: IsoDateTime | None = None


class PairAvoidanceDoc(_Strict):
    group: GroupName
    first: PlayerNo
    second: PlayerNo
    strength: Annotated[str, _one_of(AvoidanceStrength)] = "absolute"
    from_round: RoundNo = 1
    to_round: Annotated[StrictInt, Field(ge=0, le=999)] = 0  # 0 = to the last round
    reason: Reason = ""
    created_at: IsoDateTime | None = None


def _template_text(text: str) -> str:
    try:
        pw.check_template(text)
    except UserError as exc:
        raise ValueError(f"{exc.zh} ({exc.en})") from None
    return text


#: After :func:`_clean` and ``_PUBLIC``: a certificate's line whose placeholders the paperwork knows.
_TEMPLATE = AfterValidator(_template_text)


_CERTIFICATE = pw.CertificateTemplate()


class OfficialDoc(_Strict):
    role: Annotated[StrictStr, _clean(pw.ROLE_MAX, required=True), _PUBLIC]
    name: Annotated[StrictStr, _clean(NAME_MAX), _PUBLIC] = ""
    signs: StrictBool = True


class CertificateDoc(_Strict):
    title: Annotated[StrictStr, _clean(pw.LINE_MAX), _PUBLIC, _TEMPLATE] = _CERTIFICATE.title
    body: Annotated[StrictStr, _clean(pw.MAX_TEXT, multiline=True), _PUBLIC, _TEMPLATE] = _CERTIFICATE.body
    signature: Annotated[StrictStr, _clean(pw.SIGNATURE_MAX, multiline=True), _PUBLIC, _TEMPLATE] = (
        _CERTIFICATE.signature
    )
    date: Annotated[StrictStr, _clean(pw.LINE_MAX), _PUBLIC, _TEMPLATE] = _CERTIFICATE.date


class PaperworkDoc(_Strict):
    officials: Annotated[list[OfficialDoc], Field(max_length=pw.OFFICIALS_MAX)] = []
    organiser: Annotated[StrictStr, _clean(pw.ORGANISER_MAX, multiline=True), _PUBLIC] = ""
    seal: Annotated[StrictStr, _clean(pw.LINE_MAX), _PUBLIC] = pw.Paperwork().seal
    certificate: CertificateDoc = CertificateDoc()


class SnapshotDoc(_Strict):
    format: Literal["xqarbiter-snapshot"]
    version: Literal[1]
    tournament: TournamentDoc
    groups: Annotated[list[GroupDoc], Field(min_length=1, max_length=20)]
    teams: Annotated[list[TeamDoc], Field(max_length=MAX_ITEMS)] = []
    players: Annotated[list[PlayerDoc], Field(max_length=MAX_ITEMS)]
    rounds: Annotated[list[RoundDoc], Field(max_length=MAX_ITEMS)]
    knockout: Annotated[list[MatchDoc], Field(max_length=MAX_ITEMS)] = []
    violations: Annotated[list[ViolationDoc], Field(max_length=MAX_ITEMS)] = []
    records: Annotated[list[RecordDoc], Field(max_length=MAX_ITEMS)] = []
    absences: Annotated[list[AbsenceDoc], Field(max_length=MAX_ITEMS)] = []
    pair_avoidances: Annotated[list[PairAvoidanceDoc], Field(max_length=MAX_ITEMS)] = []
    stages: Annotated[list[StageDoc], Field(max_length=200)] = []  # formats: the begun stages
    paperwork: PaperworkDoc | None = None
    team_matches: Annotated[list[TeamMatchDoc], Field(max_length=MAX_ITEMS)] = []
    lineups: Annotated[list[LineupDoc], Field(max_length=MAX_ITEMS)] = []
    audit: Annotated[list[AuditDoc], Field(max_length=MAX_ITEMS * 10)] = []


# --------------------------------------------------------------------------- references


class Problem:
    """One reference problem: its JSON path and what is wrong, in both languages."""

    __slots__ = ("en", "path", "zh")

    def __init__(self, path: str, zh: str, en: str) -> None:
        self.path, self.zh, self.en = path, zh, en


class _References:
    """The reference checks of one snapshot, part by part; each part adds what it finds to ``out``.

    The parts run in the document's order (groups, teams, players, knockout, team matches, rounds, violations,
    records, absences, avoidances, stages): a later part looks players, games and matches up in what the
    earlier ones collected.
    """

    def __init__(self, doc: SnapshotDoc) -> None:
        self.doc = doc
        self.out: list[Problem] = []
        reg = _regulations(doc.tournament.settings)
        self.formats = {g.name: g for g in reg.groups}
        self.groups: dict[str, GroupDoc] = {}
        self.numbers: set[tuple[str, int]] = set()
        self.matches: set[tuple[str, str]] = set()
        self.games: set[tuple[str, int, int, int]] = set()
        self.teams: set[tuple[str, str]] = set()
        self.seen: set[tuple[str, str, int, int]] = set()
        self.team_matches: set[tuple[str, int, int | None]] = set()

    # -- helpers

    def bad(self, path: str, zh: str, en: str) -> None:
        self.out.append(Problem(path, zh, en))

    def known_group(self, name: str, path: str) -> bool:
        if name not in self.groups:
            self.bad(path, f"组别“{name}”不存在", f"unknown group {name!r}")
            return False
        return True

    def known_player(self, group: str, no: int | None, path: str) -> None:
        if no is not None and (group, no) not in self.numbers:
            self.bad(path, f"{group}没有 {no} 号棋手", f"{group} has no player number {no}")

    def within_rounds(self, group: str, number: int, path: str) -> None:
        fmt = self.formats.get(group)
        if fmt is not None and number > fmt.rounds:
            self.bad(
                path,
                f"{group}只有 {fmt.rounds} 轮，没有第 {number} 轮",
                f"{group} has {fmt.rounds} rounds, not {number}",
            )

    def once(self, kind: str, group: str, a: int, b: int, path: str, zh: str, en: str) -> None:
        if (kind, group, a, b) in self.seen:
            self.bad(path, zh, en)
        self.seen.add((kind, group, a, b))

    # -- the parts

    def check_groups(self) -> None:
        for i, g in enumerate(self.doc.groups):
            if g.name in self.groups:
                self.bad(f"groups[{i}].name", f"组别“{g.name}”重复", f"group {g.name!r} appears twice")
            elif g.name not in self.formats:
                self.bad(
                    f"groups[{i}].name",
                    f"组别“{g.name}”不在赛事设置中",
                    f"group {g.name!r} is not in the settings",
                )
            self.groups[g.name] = g

    def check_teams(self) -> None:
        teams = self.teams
        for i, t in enumerate(self.doc.teams):
            if self.known_group(t.group, f"teams[{i}].group"):
                if (t.group, t.name) in teams:
                    self.bad(
                        f"teams[{i}].name",
                        f"{t.group}的代表队“{t.name}”重复",
                        f"team {t.name!r} appears twice",
                    )
                teams.add((t.group, t.name))

    def check_players(self) -> None:
        id_numbers: dict[str, int] = {}
        for i, p in enumerate(self.doc.players):
            where = f"players[{i}]"
            if not self.known_group(p.group, f"{where}.group"):
                continue
            if p.no is not None:
                if (p.group, p.no) in self.numbers:
                    self.bad(
                        f"{where}.no", f"{p.group}序号 {p.no} 重复", f"{p.group} number {p.no} appears twice"
                    )
                self.numbers.add((p.group, p.no))
            key = p.id_number.upper()
            if key in id_numbers:
                self.bad(
                    f"{where}.id_number",
                    f"证件号码与 players[{id_numbers[key]}] 重复",
                    f"the ID number repeats players[{id_numbers[key]}]",
                )
            id_numbers.setdefault(key, i)
            fmt = self.formats.get(p.group)
            for key in ("late_entry_round", "reentry_round"):
                value = getattr(p, key)
                if fmt is not None and value is not None and value > fmt.rounds:
                    self.bad(
                        f"{where}.{key}",
                        f"{p.group}只有 {fmt.rounds} 轮，没有第 {value} 轮",
                        f"{p.group} has {fmt.rounds} rounds, not {value}",
                    )
            if p.birth_date is None and p.id_type != "fide" and not _birth_in_id(p.id_type, p.id_number):
                self.bad(
                    f"{where}.birth_date",
                    "缺少出生日期（证件号码中也读不出）",
                    "the birth date is missing (and the ID number does not hold one)",
                )
            self.check_identity(p, where)
            if p.team is not None and (p.group, p.team) not in self.teams:
                self.bad(
                    f"{where}.team",
                    f"{p.group}没有代表队“{p.team}”（teams 中没有列出）",
                    f"{p.group} has no team {p.team!r} (it is not listed under teams)",
                )
            elif p.team is not None and not self.groups[p.group].teams:
                self.bad(
                    f"{where}.team",
                    f"{p.group}不设团体，不能有代表队“{p.team}”",
                    f"{p.group} has no teams; the team {p.team!r} is not allowed",
                )

    def check_identity(self, p: PlayerDoc, where: str) -> None:
        """The ID number by the rules of its document (a resident ID's check character …), and a
        birth date that is in the past and after 1900 — as the registration checks them."""
        from app.engine.registration import normalise_document_number

        if p.id_type in {d.value for d in IdDocument}:
            try:
                normalise_document_number(IdDocument(p.id_type), p.id_number)
            except UserError as exc:
                self.bad(f"{where}.id_number", exc.zh, exc.en)
        birth = p.birth_date
        if birth is None and _birth_in_id(p.id_type, p.id_number):
            birth = date(int(p.id_number[6:10]), int(p.id_number[10:12]), int(p.id_number[12:14]))
        if birth is not None and (birth > date.today() or birth.year < 1900):
            self.bad(
                f"{where}.birth_date",
                f"出生日期 {birth.isoformat()} 不合理（在今天之后或早于 1900 年）",
                f"the birth date {birth.isoformat()} is not plausible (after today or before 1900)",
            )

    def check_knockout(self) -> None:
        for i, m in enumerate(self.doc.knockout):
            where = f"knockout[{i}]"
            if not self.known_group(m.group, f"{where}.group"):
                continue
            if (m.group, m.code) in self.matches:
                self.bad(f"{where}.code", f"淘汰赛场次 {m.code} 重复", f"match {m.code} appears twice")
            self.matches.add((m.group, m.code))
            for key in ("high", "low", "first_red", "deciding_red", "winner"):
                self.known_player(m.group, getattr(m, key), f"{where}.{key}")
            if m.high is not None and m.high == m.low:
                self.bad(f"{where}.low", "淘汰赛一场的双方是同一人", "both sides of the match are one player")

    def check_rounds(self) -> None:
        rounds: set[tuple[str, int]] = set()
        for i, r in enumerate(self.doc.rounds):
            where = f"rounds[{i}]"
            if not self.known_group(r.group, f"{where}.group"):
                continue
            if (r.group, r.round) in rounds:
                self.bad(
                    f"{where}.round",
                    f"{r.group}第 {r.round} 轮重复",
                    f"{r.group} round {r.round} appears twice",
                )
            rounds.add((r.group, r.round))
            self.within_rounds(r.group, r.round, f"{where}.round")
            self.check_round_games(r, where)
            pending = [g.board for g in r.games if g.result == GameResult.PENDING.value]
            if r.closed_at is not None and pending:
                boards = "、".join(map(str, pending[:10]))
                self.bad(
                    f"{where}.closed_at",
                    f"{r.group}第 {r.round} 轮已结束，但第 {boards} 台未录入成绩",
                    f"{r.group} round {r.round} is closed but board(s) {boards} have no result",
                )

    def check_team_matches(self) -> None:
        """The team matches (团体赛) and the line-ups handed in: their groups, teams and players."""
        for i, tm in enumerate(self.doc.team_matches):
            where = f"team_matches[{i}]"
            if not self.known_group(tm.group, f"{where}.group"):
                continue
            if (tm.group, tm.round, tm.number) in self.team_matches:
                self.bad(
                    f"{where}.number",
                    f"第 {tm.round} 轮第 {tm.number} 场重复",
                    f"round {tm.round} match {tm.number} twice",
                )
            self.team_matches.add((tm.group, tm.round, tm.number))
            for key in ("home", "away"):
                name = getattr(tm, key)
                if name is not None and (tm.group, name) not in self.teams:
                    self.bad(
                        f"{where}.{key}", f"{tm.group}没有代表队“{name}”", f"{tm.group} has no team {name!r}"
                    )
            for board, steps in tm.colour_choices.items():
                for no in steps.values():
                    self.known_player(tm.group, no, f"{where}.colour_choices.{board}")
        paired = {(r.group, r.round) for r in self.doc.rounds}
        for i, lu in enumerate(self.doc.lineups):
            where = f"lineups[{i}]"
            if not self.known_group(lu.group, f"{where}.group"):
                continue
            if (lu.group, lu.team) not in self.teams:
                self.bad(
                    f"{where}.team", f"{lu.group}没有代表队“{lu.team}”", f"{lu.group} has no team {lu.team!r}"
                )
            if (lu.group, lu.round) not in paired:
                self.bad(
                    f"{where}.round",
                    f"{lu.group}第 {lu.round} 轮不存在",
                    f"{lu.group} has no round {lu.round}",
                )
            for j, on_board in enumerate(lu.boards):  # None: a board left empty
                self.known_player(lu.group, on_board, f"{where}.boards[{j}]")

    def check_round_games(self, r: RoundDoc, where: str) -> None:
        seated: dict[int, str] = {}

        def seat(no: int, path: str) -> None:
            if no in seated:
                self.bad(
                    path,
                    f"{no} 号在第 {r.round} 轮出现两次（另见 {seated[no]}）",
                    f"player {no} appears twice in round {r.round} (see {seated[no]})",
                )
            seated[no] = path

        boards: set[tuple[int, int]] = set()
        match_of_board: dict[int, str | None] = {}

        def seat_team(g: GameDoc, gw: str, seat: Any = seat) -> None:
            if g.game_no == 1:
                seat(g.red, f"{gw}.red")
                seat(g.black, f"{gw}.black")

        for j, g in enumerate(r.games):
            gw = f"{where}.games[{j}]"
            if (g.board, g.game_no) in boards:
                self.bad(f"{gw}.board", f"第 {g.board} 台重复", f"board {g.board} appears twice")
            boards.add((g.board, g.game_no))
            self.games.add((r.group, r.round, g.board, g.game_no))
            self.known_player(r.group, g.red, f"{gw}.red")
            self.known_player(r.group, g.black, f"{gw}.black")
            if g.red == g.black:
                self.bad(f"{gw}.black", f"{g.red} 号不能与自己对局", f"player {g.red} cannot play himself")
            if g.kind == "board" or g.team_match is not None:
                if (r.group, r.round, g.team_match) not in self.team_matches or g.match is not None:
                    self.bad(
                        f"{gw}.team_match",
                        f"团体赛对局须属于本轮的一场团体比赛（第 {g.team_match} 场不存在）",
                        f"a team board game needs a team match of its round ({g.team_match} does not exist)",
                    )
                seat_team(g, gw)
                continue
            if (g.kind == "swiss") != (g.match is None):
                self.bad(
                    f"{gw}.match",
                    "积分编排对局不属于淘汰赛场次，淘汰赛对局必须属于一场",
                    "a Swiss game has no match; a knockout game has one",
                )
            if g.match is not None and (r.group, g.match) not in self.matches:
                self.bad(f"{gw}.match", f"淘汰赛场次 {g.match} 不存在", f"unknown match {g.match}")
            if g.board in match_of_board and match_of_board[g.board] != g.match:
                self.bad(f"{gw}.board", f"第 {g.board} 台属于两场对局", f"board {g.board} holds two pairings")
            match_of_board[g.board] = g.match
            if g.game_no == 1 or g.match is None:
                seat(g.red, f"{gw}.red")
                seat(g.black, f"{gw}.black")
        for j, no in enumerate(r.byes):
            self.known_player(r.group, no, f"{where}.byes[{j}]")
            seat(no, f"{where}.byes[{j}]")

    def check_violations(self) -> None:
        single_group = next(iter(self.groups)) if len(self.groups) == 1 else None
        for i, v in enumerate(self.doc.violations):
            where = f"violations[{i}]"
            group = v.group or single_group
            if group is None:
                self.bad(
                    f"{where}.group", "有多个组别时须写明组别", "the group is required when there are several"
                )
                continue
            if self.known_group(group, f"{where}.group"):
                self.known_player(group, v.player, f"{where}.player")
                if v.board is not None and (group, v.round, v.board, 1) not in self.games:
                    self.bad(
                        f"{where}.board",
                        f"第 {v.round} 轮没有第 {v.board} 台",
                        f"round {v.round} has no board {v.board}",
                    )

    def check_records(self) -> None:
        records: set[tuple[str, int, int, int]] = set()
        for i, rec in enumerate(self.doc.records):
            where = f"records[{i}]"
            key = (rec.group, rec.round, rec.board, rec.game_no)
            if key not in self.games:
                self.bad(
                    where,
                    f"{rec.group}第 {rec.round} 轮第 {rec.board} 台没有这局棋",
                    "the record's game does not exist",
                )
            elif key in records:
                self.bad(where, "同一局棋有两份棋谱", "two records for one game")
            records.add(key)
            if rec.group in self.groups:
                self.known_player(rec.group, rec.recorder, f"{where}.recorder")

    def check_absences(self) -> None:
        for i, a in enumerate(self.doc.absences):
            where = f"absences[{i}]"
            if not self.known_group(a.group, f"{where}.group"):
                continue
            self.known_player(a.group, a.player, f"{where}.player")
            self.within_rounds(a.group, a.round, f"{where}.round")
            self.once(
                "absence",
                a.group,
                a.player,
                a.round,
                where,
                f"{a.player} 号第 {a.round} 轮的请假重复",
                f"player {a.player}'s absence in round {a.round} appears twice",
            )

    def check_avoidances(self) -> None:
        for i, v in enumerate(self.doc.pair_avoidances):
            where = f"pair_avoidances[{i}]"
            if not self.known_group(v.group, f"{where}.group"):
                continue
            self.known_player(v.group, v.first, f"{where}.first")
            self.known_player(v.group, v.second, f"{where}.second")
            if v.first == v.second:
                self.bad(
                    f"{where}.second", "回避须是两名不同的棋手", "an avoidance needs two different players"
                )
            self.within_rounds(v.group, v.from_round, f"{where}.from_round")
            self.within_rounds(v.group, v.to_round, f"{where}.to_round")
            if v.to_round and v.to_round < v.from_round:
                self.bad(
                    f"{where}.to_round",
                    f"回避轮次第 {v.from_round} 轮至第 {v.to_round} 轮无效",
                    f"rounds {v.from_round}-{v.to_round} are not a range",
                )
            first, second = min(v.first, v.second), max(v.first, v.second)
            self.once(
                "avoidance",
                v.group,
                first,
                second,
                where,
                f"{first} 号与 {second} 号的回避重复",
                f"the avoidance of {first} and {second} appears twice",
            )

    def check_stages(self) -> None:
        """A begun stage names players of its group, once each, each number of a pool once."""
        for i, st in enumerate(self.doc.stages):
            where = f"stages[{i}]"
            if not self.known_group(st.group, f"{where}.group"):
                continue
            self.once(
                "stage",
                st.group,
                st.stage,
                0,
                where,
                f"第{st.stage + 1}阶段重复",
                f"stage {st.stage + 1} appears twice",
            )
            places: set[tuple[int, int]] = set()
            for j, e in enumerate(st.entrants):
                self.known_player(st.group, e.player, f"{where}.entrants[{j}].player")
                self.once(
                    f"stage{st.stage}",
                    st.group,
                    e.player,
                    0,
                    f"{where}.entrants[{j}]",
                    f"{e.player} 号在第{st.stage + 1}阶段出现两次",
                    f"player {e.player} is in stage {st.stage + 1} twice",
                )
                if (e.pool, e.number) in places:
                    self.bad(
                        f"{where}.entrants[{j}].number",
                        f"第{st.stage + 1}阶段第 {e.pool + 1} 组的 {e.number} 号重复",
                        f"stage {st.stage + 1}: number {e.number} of pool {e.pool + 1} appears twice",
                    )
                places.add((e.pool, e.number))


def snapshot_problems(doc: SnapshotDoc) -> list[Problem]:
    """Everything wrong between the parts of a well-formed snapshot (see the module docstring)."""
    refs = _References(doc)
    refs.check_groups()
    refs.check_teams()
    refs.check_players()
    refs.check_knockout()
    refs.check_team_matches()
    refs.check_rounds()
    refs.check_violations()
    refs.check_records()
    refs.check_absences()
    refs.check_avoidances()
    refs.check_stages()
    return refs.out


def _birth_in_id(id_type: str, number: str) -> bool:
    if id_type != IdDocument.RESIDENT_ID.value or len(number) != 18 or not number[6:14].isdigit():
        return False
    try:
        date(int(number[6:10]), int(number[10:12]), int(number[12:14]))
    except ValueError:
        return False
    return True


def validate_snapshot(data: Any) -> dict[str, Any]:
    """The snapshot checked whole (shape, then references); its normalised plain form (JSON types).

    Raises :class:`app.services.documents.DocumentError` listing every problem with its JSON path.
    """
    from app.services.documents import MAX_DEPTH, DocumentError, depth_of, schema_error

    if not isinstance(data, dict) or data.get("format") != "xqarbiter-snapshot":
        raise DocumentError(
            "这不是象棋赛事快照（format 字段不对）", "not an xqarbiter snapshot (wrong format field)"
        )
    if data.get("version") != 1:
        raise DocumentError(
            f"快照版本 {str(data.get('version'))[:20]} 不受支持（本程序支持 1）",
            f"snapshot version {str(data.get('version'))[:20]} is not supported (this program reads 1)",
        )
    if depth_of(data) > MAX_DEPTH:
        raise DocumentError(
            f"快照嵌套层次过深（超过 {MAX_DEPTH} 层）", f"the snapshot nests over {MAX_DEPTH} levels"
        )
    try:
        doc = SnapshotDoc.model_validate(data)
    except ValidationError as exc:
        raise schema_error(exc, "快照", "the snapshot") from None
    except UserError as exc:  # pragma: no cover - pydantic wraps validator errors
        raise DocumentError(exc.zh, exc.en) from None
    problems = snapshot_problems(doc)
    if problems:
        shown = problems[:10]
        more = len(problems) - len(shown)
        raise DocumentError(
            f"快照有 {len(problems)} 处错误，未做任何修改：\n"
            + "\n".join(f"{p.path}：{p.zh}" for p in shown)
            + (f"\n……另有 {more} 处错误" if more > 0 else ""),
            f"the snapshot has {len(problems)} error(s); nothing was changed:\n"
            + "\n".join(f"{p.path}: {p.en}" for p in shown),
        )
    plain = doc.model_dump(mode="json")
    plain["tournament"]["settings"] = data["tournament"]["settings"]
    if len(plain["groups"]) == 1:  # a violation without its group, in a file of one group: that group
        for v in plain["violations"]:
            v["group"] = v["group"] or plain["groups"][0]["name"]
    return plain


# --------------------------------------------------------------------------- bulk results


class ResultItem(_Strict):
    board: BoardNo
    result: Annotated[StrictStr, Field(max_length=20)]


def _result_code(text: str) -> str:
    return GameResult.from_code(text).value  # a UserError names the codes


class ResultItemChecked(ResultItem):
    result: Annotated[StrictStr, Field(max_length=20), AfterValidator(_result_code)]


_RESULTS = TypeAdapter(Annotated[list[ResultItemChecked], Field(max_length=10_000)])


def validate_results(data: Any) -> list[tuple[int, GameResult]]:
    """The bulk-entry document ``[{"board": int, "result": code}, …]`` checked whole."""
    from app.services.documents import DocumentError, schema_error

    if not isinstance(data, list):
        raise DocumentError(
            '成绩文件应为列表 [{"board":…, "result":…}]',
            'the results file must be a JSON list [{"board":…, "result":…}]',
        )
    try:
        parsed = _RESULTS.validate_python(data)
    except ValidationError as exc:
        raise schema_error(exc, "成绩文件", "the results file") from None
    return [(item.board, GameResult(item.result)) for item in parsed]


__all__ = [
    "ResultItem",
    "SnapshotDoc",
    "ValidationError",
    "snapshot_problems",
    "validate_results",
    "validate_snapshot",
]
