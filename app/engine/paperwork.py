"""The paperwork of an event: its officials, the organiser, the seal line and the prize
certificate's editable template — as one immutable value, kept in the tournament file and in the
regulation file (``[paperwork]``) so that next year's event starts from this one.

The certificate template is plain text with placeholders in braces, in the arbiter's words:
``{姓名}`` ``{单位}`` ``{组别}`` ``{奖项}`` ``{名次}`` ``{金额}`` ``{奖品}`` ``{赛事}`` ``{日期}`` ``{地点}``
``{主办单位}``. Only those are known: anything else in braces is refused with its name (a template is
never evaluated, so a hostile template can do nothing but be refused).

>>> fill_template("{姓名}荣获{奖项}{名次}", {"姓名": "王天一", "奖项": "公开组个人", "名次": "第一名"})
'王天一荣获公开组个人第一名'
>>> paperwork_from_dict(paperwork_to_dict(Paperwork())) == Paperwork()
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.engine.privacy import looks_personal
from app.engine.regulations import Regulations, TeamAvoidance, Tiebreak, _from_plain, _to_plain
from app.engine.text import NAME_MAX, clean_text
from app.engine.types import UserError

__all__ = [
    "PLACEHOLDERS",
    "CertificateTemplate",
    "Official",
    "Paperwork",
    "check_template",
    "fill_template",
    "paperwork_from_dict",
    "paperwork_to_dict",
    "place_zh",
    "regulation_summary",
]

PLACEHOLDERS = ("姓名", "单位", "组别", "奖项", "名次", "金额", "奖品", "赛事", "日期", "地点", "主办单位")
MAX_TEXT = 2000  # characters of the certificate's body
ROLE_MAX = 20  # 仲裁委员会副主任 …
ORGANISER_MAX = 200  # several organisers on one line
LINE_MAX = 100  # the seal line, the certificate's title and date line
SIGNATURE_MAX = 200
OFFICIALS_MAX = 50
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class Official:
    """An official of the event: role (裁判长、副裁判长、编排长、仲裁委员会主任 …) and name.

    ``signs``: the official signs the printed lists (a signature line with the name under the table).
    """

    role: str
    name: str = ""
    signs: bool = True


@dataclass(frozen=True, slots=True)
class CertificateTemplate:
    """获奖证书: the title, the body (placeholders allowed everywhere), who awards it, and the date line."""

    title: str = "荣誉证书"
    body: str = "{姓名}：\n在{赛事}中，荣获{奖项}{名次}。\n特发此证，以资鼓励。"
    signature: str = "{主办单位}"
    date: str = "{日期}"


@dataclass(frozen=True, slots=True)
class Paperwork:
    officials: tuple[Official, ...] = ()
    organiser: str = ""  # 主办单位, as printed on certificates and the results book
    seal: str = "竞赛组委会（盖章）"  # the seal line under the lists ("" = none)
    certificate: CertificateTemplate = field(default_factory=CertificateTemplate)

    @property
    def signatories(self) -> tuple[Official, ...]:
        return tuple(o for o in self.officials if o.signs)

    def validate(self) -> None:
        """Raise :class:`UserError` naming the first bad field (empty role, unknown placeholder, a
        control or bidi character, too long)."""
        self.cleaned()

    def cleaned(self) -> Paperwork:
        """The same paperwork with every text checked and normalised as names are (NFC, no control,
        bidi or zero-width characters, white space tidied, within its length); :class:`UserError`
        names the first bad field."""
        if len(self.officials) > OFFICIALS_MAX:
            raise UserError(
                f"裁判人员过多（{len(self.officials)} 位，最多 {OFFICIALS_MAX} 位）",
                f"too many officials ({len(self.officials)}, at most {OFFICIALS_MAX})",
            )
        officials = []
        for i, o in enumerate(self.officials):
            if not isinstance(o.role, str) or not o.role.strip():
                raise UserError(f"第 {i + 1} 位裁判人员没有职务", f"official {i + 1} has no role")
            role = _clean(o.role, f"第 {i + 1} 位裁判人员的职务", f"officials[{i}].role", ROLE_MAX)
            name = _clean(o.name, f"第 {i + 1} 位裁判人员的姓名", f"officials[{i}].name", NAME_MAX)
            officials.append(Official(role, name, o.signs))
        c = self.certificate
        certificate = CertificateTemplate(
            title=_template(c.title, "title", LINE_MAX),
            body=_template(c.body, "body", MAX_TEXT, multiline=True),
            signature=_template(c.signature, "signature", SIGNATURE_MAX, multiline=True),
            date=_template(c.date, "date", LINE_MAX),
        )
        return Paperwork(
            tuple(officials),
            _clean(
                self.organiser, "主办单位", "organiser", ORGANISER_MAX, multiline=True
            ),  # may be two lines
            _clean(self.seal, "盖章栏", "seal", LINE_MAX),
            certificate,
        )


def _clean(text: str, what_zh: str, what_en: str, limit: int, *, multiline: bool = False) -> str:
    cleaned = clean_text(text, what_zh, what_en, limit, multiline=multiline)
    if looks_personal(cleaned):  # printed under public lists and on certificates
        raise UserError(
            f"{what_zh}中像是含有手机号、证件号或文件路径（会印在公开的名单和证书上）",
            f"{what_en} seems to hold a phone or ID number or a path (it is printed publicly)",
        )
    return cleaned


def _template(text: str, name: str, limit: int, *, multiline: bool = False) -> str:
    cleaned = _clean(text, f"证书模板 {name}", f"certificate.{name}", limit, multiline=multiline)
    check_template(cleaned, f"certificate.{name}")
    return cleaned


def check_template(text: str, where: str = "template") -> None:
    """Refuse a placeholder the certificate does not know, or a brace left open, naming it."""
    for m in _PLACEHOLDER.finditer(text):
        if m.group(1) not in PLACEHOLDERS:
            raise UserError(
                f"证书模板 {where} 中的“{m.group(0)}”不是可用的占位符（可用：{'、'.join(PLACEHOLDERS)}）",
                f"certificate template {where}: {m.group(0)!r} is not a known placeholder",
            )
    rest = _PLACEHOLDER.sub("", text)
    if "{" in rest or "}" in rest:
        raise UserError(
            f"证书模板 {where} 中有不成对的花括号", f"certificate template {where} has an unmatched brace"
        )


def fill_template(text: str, values: Mapping[str, str]) -> str:
    """The template with each known placeholder replaced by its value ("" when not given)."""
    check_template(text)
    # {金额} holds its unit ("2,000 元"): a template that writes 元 after it says it once, not 元元
    text = _AMOUNT_THEN_YUAN.sub("{金额}\\1", text)
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), ""), text)


_AMOUNT_THEN_YUAN = re.compile(r"\{金额\}\s*元(整?)")


_PLACES_ZH = "一二三四五六七八九十"


def place_zh(place: int) -> str:
    """第一名 … 第十名, 第十一名 … 第九十九名, then 第100名.

    >>> [place_zh(n) for n in (1, 10, 12, 20, 24, 100)]
    ['第一名', '第十名', '第十二名', '第二十名', '第二十四名', '第100名']
    """
    if place < 1 or place > 99:
        return f"第{place}名"
    tens, ones = divmod(place, 10)
    if tens == 0:
        text = _PLACES_ZH[ones - 1]
    else:
        text = ("" if tens == 1 else _PLACES_ZH[tens - 1]) + "十" + (_PLACES_ZH[ones - 1] if ones else "")
    return f"第{text}名"


def paperwork_to_dict(value: Paperwork) -> dict[str, Any]:
    result = _to_plain(value)
    assert isinstance(result, dict)
    return result


def paperwork_from_dict(data: Any) -> Paperwork:
    """Build and validate; a wrong key or value raises :class:`UserError` naming it."""
    value = _from_plain(Paperwork, data, "paperwork")
    assert isinstance(value, Paperwork)
    return value.cleaned()


def regulation_summary(reg: Regulations) -> tuple[tuple[str, str], ...]:
    """The regulation in the results book's words: (item, text) in the order of a 竞赛规程.

    >>> from app.engine.regulations import preset
    >>> dict(regulation_summary(preset("tianshui-2024")))["计分办法"]
    '胜 2 分，和 1 分，负 0 分；轮空计 2 分；弃权负 0 分'
    """
    dates = f"{reg.start_date:%Y年%m月%d日}至{reg.end_date:%Y年%m月%d日}".replace("年0", "年").replace(
        "月0", "月"
    )
    formats = []
    for g in reg.groups:
        if g.knockout_size:
            formats.append(
                f"{g.name}：共 {g.rounds} 轮，前 {g.swiss_rounds} 轮积分编排，之后前 {g.knockout_size} 名进行淘汰赛，"
                f"其余棋手继续积分编排" + ("；设团体" if g.teams else "；不设团体")
            )
        else:
            formats.append(f"{g.name}：积分编排 {g.rounds} 轮" + ("；设团体" if g.teams else "；不设团体"))
    ko = reg.knockout
    times = (
        f"积分编排每方 {reg.swiss_time_control.minutes} 分钟，每步加 {reg.swiss_time_control.increment_seconds} 秒；"
        f"淘汰赛慢棋 {ko.slow.label}、快棋 {ko.rapid.label}、附加赛 {ko.deciding.label}"
    )
    p = reg.points
    draw = (
        f"和 {p.red_draw} 分"
        if p.red_draw == p.black_draw
        else f"和棋红方 {p.red_draw} 分、黑方 {p.black_draw} 分"
    )
    points = f"胜 {p.win} 分，{draw}，负 {p.loss} 分；轮空计 {p.bye} 分；弃权负 {p.forfeit_loss} 分"
    avoid = {
        TeamAvoidance.NONE: "同队不回避",
        TeamAvoidance.ROUND_ONE: "首轮同队队员回避，其余轮次不回避",
        TeamAvoidance.ALL_ROUNDS: "同队队员每轮回避",
    }[reg.pairing.team_avoidance]
    for rule in reg.pairing.avoidances:
        avoid += f"；{rule.basis.zh}{rule.strength.zh}（{rule.rounds_zh}）"
    chain = "、".join(["积分", *(t.zh for t in reg.tiebreaks.chain if t is not Tiebreak.PREVIOUS_ROUNDS)])
    if Tiebreak.PREVIOUS_ROUNDS in reg.tiebreaks.chain:
        chain += "；如仍相同，比较前一轮成绩，直至区分"
    late = "后报名者所缺轮次不补分"
    per_round = reg.pairing.late_entry_round_points(reg.points)
    if per_round:
        late = f"后报名者所缺轮次每轮补给 {per_round} 分"
    prizes = "；".join(
        f"{t.name}前 {t.places} 名"
        + (f"，奖金共 {t.total:,} 元" if t.total else "")
        + ("（另有奖品）" if any(t.items) else "")
        for t in reg.prizes
    )
    if reg.prizes:
        total = sum(t.total for t in reg.prizes)
        prizes += f"；奖金总额 {total:,} 元，奖金为税前；"
        prizes += "奖项不兼得，就高不就低" if reg.prize_rules.one_per_player else "奖项可兼得"
    team = f"团体成绩按 {reg.team.counted_members} 名队员个人名次之和计算，少者列前；不足 {reg.team.min_members} 名有名次队员的代表队不计团体成绩"
    return (
        ("比赛时间", dates),
        ("比赛地点", reg.venue),
        ("组别与赛制", "；".join(formats)),
        ("比赛用时", times),
        ("计分办法", points),
        ("编排与回避", f"执行电脑积分编排；{avoid}；{late}"),
        ("名次区分", f"所有名次均不并列，依次比较{chain}；最后按序号"),
        ("团体成绩", team),
        ("奖励办法", prizes or "—"),
        (
            "纪律",
            f"迟到 {reg.discipline.late_minutes} 分钟判负；{reg.discipline.no_draw_offer_before_move} 回合之内不准提和；"
            f"自然限着 {reg.discipline.natural_limit_moves} 回合",
        ),
    )
