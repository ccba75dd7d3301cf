"""Small typed values shared by every rule module.

Everything here is immutable and free of I/O. The names follow the arbiter's language
(see docs/rules.md): a *group* (组别) is paired and ranked on its own, a player carries a
*sequence number* (序号, ``no``), a *game* is played on a *board* (台次) in a *round* (轮).

>>> GameResult.from_code("1-0")
<GameResult.RED_WIN: 'red_win'>
>>> GameResult.RED_FORFEIT.played_over_board
False
"""

from __future__ import annotations

import enum

from app.engine.records import frozen


class UserError(ValueError):
    """An error the arbiter can cause; its message is fit to show (Chinese, then English)."""

    def __init__(self, zh: str, en: str | None = None) -> None:
        self.zh = zh
        self.en = en or zh
        super().__init__(zh if en is None else f"{zh} ({en})")


class Colour(enum.Enum):
    RED = "red"  # 红方, moves first (先走)
    BLACK = "black"  # 黑方 (后走)

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.RED else Colour.RED

    @property
    def zh(self) -> str:
        return "红" if self is Colour.RED else "黑"


class GameResult(enum.Enum):
    """The result of one game, with the snapshot's codes as values."""

    RED_WIN = "red_win"
    DRAW = "draw"
    BLACK_WIN = "black_win"
    RED_FORFEIT = "red_forfeit"  # 红方弃权 / 判负 before play: Black gets the win
    BLACK_FORFEIT = "black_forfeit"
    DOUBLE_FORFEIT = "double_forfeit"  # 双方弃权, incl. agreed result without play
    PENDING = "pending"

    @classmethod
    def from_code(cls, code: str) -> GameResult:
        """Parse a result as the arbiter types it (``1-0 0-1 = +- -+ --``) or a snapshot code."""
        text = code.strip().lower()
        if text in _SHORT_CODES:
            return _SHORT_CODES[text]
        try:
            return cls(text)
        except ValueError:
            raise UserError(
                f"无法识别的结果代码“{code}”，应为 1-0、0-1、=、+-、-+、-- 之一",
                f"unknown result code {code!r}; expected one of 1-0, 0-1, =, +-, -+, --",
            ) from None

    @property
    def short(self) -> str:
        return _SHORT_BY_RESULT[self]

    @property
    def is_pending(self) -> bool:
        return self is GameResult.PENDING

    @property
    def played_over_board(self) -> bool:
        """Whether the game was really played (counts for colour history, 后走局数)."""
        return self in (GameResult.RED_WIN, GameResult.DRAW, GameResult.BLACK_WIN)

    @property
    def is_forfeit(self) -> bool:
        return self in (GameResult.RED_FORFEIT, GameResult.BLACK_FORFEIT, GameResult.DOUBLE_FORFEIT)

    def winner(self) -> Colour | None:
        if self in (GameResult.RED_WIN, GameResult.BLACK_FORFEIT):
            return Colour.RED
        if self in (GameResult.BLACK_WIN, GameResult.RED_FORFEIT):
            return Colour.BLACK
        return None

    @property
    def zh(self) -> str:
        return _ZH_BY_RESULT[self]


_SHORT_CODES: dict[str, GameResult] = {
    "1-0": GameResult.RED_WIN,
    "0-1": GameResult.BLACK_WIN,
    "=": GameResult.DRAW,
    "1/2": GameResult.DRAW,
    "+-": GameResult.BLACK_FORFEIT,
    "-+": GameResult.RED_FORFEIT,
    "--": GameResult.DOUBLE_FORFEIT,
}
_SHORT_BY_RESULT: dict[GameResult, str] = {
    GameResult.RED_WIN: "1-0",
    GameResult.BLACK_WIN: "0-1",
    GameResult.DRAW: "=",
    GameResult.BLACK_FORFEIT: "+-",
    GameResult.RED_FORFEIT: "-+",
    GameResult.DOUBLE_FORFEIT: "--",
    GameResult.PENDING: "",
}
_ZH_BY_RESULT: dict[GameResult, str] = {
    GameResult.RED_WIN: "红胜",
    GameResult.BLACK_WIN: "黑胜",
    GameResult.DRAW: "和",
    GameResult.BLACK_FORFEIT: "黑弃权",
    GameResult.RED_FORFEIT: "红弃权",
    GameResult.DOUBLE_FORFEIT: "双弃权",
    GameResult.PENDING: "",
}


class PlayerStatus(enum.Enum):
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"  # 退赛: not paired again, results stand
    DISQUALIFIED = "disqualified"  # 取消成绩: not paired, not ranked, no prize


class IdDocument(enum.Enum):
    """Identity documents accepted at registration (报名不限地域、身份)."""

    RESIDENT_ID = "resident_id"  # 居民身份证, GB 11643-1999, checksummed
    PASSPORT = "passport"  # 护照
    HK_MACAU_PERMIT = "hk_macau_permit"  # 港澳居民来往内地通行证
    TAIWAN_PERMIT = "taiwan_permit"  # 台湾居民来往大陆通行证

    @property
    def zh(self) -> str:
        return {
            IdDocument.RESIDENT_ID: "居民身份证",
            IdDocument.PASSPORT: "护照",
            IdDocument.HK_MACAU_PERMIT: "港澳居民来往内地通行证",
            IdDocument.TAIWAN_PERMIT: "台湾居民来往大陆通行证",
        }[self]


class Gender(enum.Enum):
    MALE = "male"
    FEMALE = "female"

    @property
    def zh(self) -> str:
        return "男" if self is Gender.MALE else "女"


class RoundStage(enum.Enum):
    """What a round is, by its main stage: a knockout round, a round-robin round, or a Swiss round."""

    SWISS = "swiss"
    KNOCKOUT = "knockout"
    ROUND_ROBIN = "round_robin"
    TEAM = "team"  # a round of a team competition (团体赛): matches of teams on several boards


@frozen
class Game:
    """One game of a round as the rules see it: sequence numbers, colours, result."""

    board: int
    red: int
    black: int
    result: GameResult = GameResult.PENDING


class AbsenceKind(enum.Enum):
    """Why a player has no game in a round although they are in the event (docs/rules.md §2, README)."""

    EXCUSED = "excused"  # 请假: excused by the arbiter for this round; 0 points, no forfeit
    LATE_ENTRY = "late_entry"  # 后报名: the round was paired before the player entered

    @property
    def zh(self) -> str:
        return "请假" if self is AbsenceKind.EXCUSED else "未报名"


@frozen
class Absence:
    """Player ``no`` had no game in the round for ``kind``; ``points`` are what the round gave them
    (0 for an excused absence; a late entry's compensation where the regulation gives one)."""

    no: int
    kind: AbsenceKind
    points: int = 0


@frozen
class RoundRecord:
    """A finished or running Swiss round of a group: games, byes and absences by sequence number.

    ``absent`` lists players of the event who were not paired in the round for a reason that the
    ranking must know: an excused absence (请假, 0 points) or a round played before a late entry
    (the regulation's compensation points). Absences are neither games nor byes: no opponent, no
    colour, no win, and no bye for H4.
    """

    number: int
    games: tuple[Game, ...]
    byes: tuple[int, ...] = ()
    absent: tuple[Absence, ...] = ()


def mask_phone(phone: str) -> str:
    """Mask a phone number as public documents show one: the first three and the last four digits.

    >>> mask_phone("13900000526"), mask_phone("")
    ('139****0526', '')
    """
    text = phone.strip()
    if len(text) > 7:
        return text[:3] + "*" * (len(text) - 7) + text[-4:]
    return "*" * len(text)


def mask_id_number(id_number: str) -> str:
    """Mask an ID number for public documents (docs/rules.md §11).

    >>> mask_id_number("620502199001011234")
    '620502********1234'
    """
    text = id_number.strip()
    if len(text) > 10:
        return text[:6] + "*" * (len(text) - 10) + text[-4:]
    if len(text) > 4:
        return text[:2] + "*" * (len(text) - 4) + text[-2:]
    return "*" * len(text)


class ViolationKind(enum.Enum):
    """The kinds of violation (犯规) and discipline action an arbiter records (docs/rules.md §8).

    Shared by the record-duty checks (:mod:`app.engine.record_duty`) and the discipline code.

    >>> ViolationKind.REFUSED_RECORD.zh
    '拒不录谱'
    """

    REFUSED_RECORD = "refused_record"  # 拒不录谱
    SHORT_DRAW_RECORD = "short_draw_record"  # 和棋录谱不足 25 回合
    PHONE = "phone"  # 手机带入赛场
    LATE = "late"  # 迟到
    LEFT_TABLE = "left_table"  # 擅自离席
    AGREED_RESULT = "agreed_result"  # 未经实际对弈的协商比赛结果
    CHEATING = "cheating"  # 作弊
    OTHER = "other"  # any other violation the arbiter enters with a reason

    @property
    def zh(self) -> str:
        return _ZH_BY_VIOLATION[self]

    @property
    def counts_in_tiebreak(self) -> bool:
        """Whether it is a 犯规 counted in the ranking chain (docs/rules.md §6.4, §8).

        Phone, lateness, leaving the table and agreed results are punished through the game's result
        (判负 / 弃权), and cheating through disqualification; they are recorded, but not counted again.
        """
        return self in (ViolationKind.REFUSED_RECORD, ViolationKind.SHORT_DRAW_RECORD, ViolationKind.OTHER)


_ZH_BY_VIOLATION: dict[ViolationKind, str] = {
    ViolationKind.REFUSED_RECORD: "拒不录谱",
    ViolationKind.SHORT_DRAW_RECORD: "和棋录谱不足回合",
    ViolationKind.PHONE: "手机带入赛场",
    ViolationKind.LATE: "迟到",
    ViolationKind.LEFT_TABLE: "擅自离席",
    ViolationKind.AGREED_RESULT: "协商比赛结果",
    ViolationKind.CHEATING: "作弊",
    ViolationKind.OTHER: "其他犯规",
}
