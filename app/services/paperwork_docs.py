"""The paperwork documents: the officials' sign-off under the lists, the check-in sheet (报到表)
with paid / owed totals, lists in the order asked (number, name, rating), the results book (成绩册) and the
prize certificates (获奖证书) from the editable template.

Built from the services below the exports (no circle): the exports service gathers the parts of the
results book it already makes (every round, standings, teams, bracket, prizes) and hands them here.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Literal

from app.db.session import Database
from app.engine.paperwork import Paperwork, fill_template, place_zh, regulation_summary
from app.engine.privacy import mask_personal
from app.engine.types import UserError, mask_id_number
from app.reports import model
from app.reports.names import pinyin_key
from app.services.paperwork import load_paperwork
from app.services.registration import PlayerView
from app.services.standings import prize_list
from app.services.tournaments import TournamentInfo, tournament_info

ListOrder = Literal["", "team", "no", "name", "rating"]
ORDERS: tuple[str, ...] = ("team", "no", "name", "rating")
ORDER_LABELS = {
    "team": "按代表队、序号排列",
    "no": "按序号排列",
    "name": "按姓名拼音排列",
    "rating": "按等级分排列",
}
_GENDER_ZH = {"male": "男", "female": "女"}


def signoff(db: Database, paperwork: Paperwork | None = None) -> model.SignOff:
    """The sign-off under a list: the signing officials (a blank 裁判长 line until some are entered), the seal."""
    pw = paperwork or load_paperwork(db)
    signers = tuple((o.role, o.name) for o in pw.signatories) or (("裁判长", ""),)
    return model.SignOff(signers=signers, seal=pw.seal)


def check_order(order: str) -> str:
    if order and order not in ORDERS:
        raise UserError(
            f"未知的排列方式“{order}”，可选：{'、'.join(ORDERS)}",
            f"unknown order {order!r}; choose one of {', '.join(ORDERS)}",
        )
    return order


def ordered(players: Sequence[PlayerView], order: str) -> list[PlayerView]:
    """Players in the list order asked: by team then number (the default), number, name (pinyin), rating.

    By rating: rated players first, highest first; unrated after them; ties by number. By name: the
    pinyin of the name, then number (同名 players keep a stable order).
    """
    check_order(order)

    def number(p: PlayerView) -> tuple[bool, int]:
        return (p.no is None, p.no or 0)

    if order == "no":
        return sorted(players, key=lambda p: (*number(p), p.id))
    if order == "name":
        return sorted(players, key=lambda p: (pinyin_key(p.name), p.name, *number(p)))
    if order == "rating":
        return sorted(players, key=lambda p: (p.rating is None, -(p.rating or 0), *number(p)))
    return sorted(players, key=lambda p: (p.team == "", p.team, *number(p), p.name))


def check_in_sheet(
    header: model.EventHeader, players: Sequence[PlayerView], fee_yuan: int, order: str, sign: model.SignOff
) -> model.CheckInSheet:
    """报到表 (内部): every registered player with insurance, pledge, fee and check-in; ID numbers masked."""
    lines = tuple(
        model.CheckInLine(
            no=p.no,
            name=p.name,
            gender=_GENDER_ZH.get(p.gender, ""),
            unit=p.team or p.unit,
            id_masked=mask_id_number(p.id_number),
            rating=p.rating,
            insurance=p.insurance,
            pledge=p.pledge,
            fee_paid=p.fee_paid,
            checked_in=p.checked_in,
        )
        for p in ordered(players, order or "no")
    )
    return model.CheckInSheet(header, lines, fee_yuan, ORDER_LABELS[order or "no"], sign)


def results_book(
    db: Database,
    header: model.EventHeader,
    groups: Sequence[model.BookGroup],
    prizes: model.PrizeList | None,
    provisional: bool,
) -> model.ResultsBook:
    """成绩册 from its parts (built by the exports service) with the regulation summary and the officials."""
    info = tournament_info(db)
    pw = load_paperwork(db)
    summary = tuple(  # public: a number that reached a stored text is masked (docs/rules.md §11)
        (label, mask_personal(value))
        for label, value in (("赛事名称", info.name), *regulation_summary(info.regulations))
    )
    if pw.organiser:
        summary = (*summary[:1], ("主办单位", pw.organiser), *summary[1:])
    return model.ResultsBook(
        header=header,
        summary=summary,
        officials=tuple((o.role, o.name) for o in pw.officials),
        organiser=pw.organiser,
        groups=tuple(groups),
        prizes=prizes,
        signoff=signoff(db, pw),
        provisional=provisional,
    )


def certificates(db: Database, header: model.EventHeader, groups: Collection[str]) -> model.Certificates:
    """获奖证书: one certificate for every prize awarded (individual and team) in ``groups``, from the template.

    Placeholders: 姓名 (the winner, or the team), 单位, 组别, 奖项 (the prize table), 名次 (第一名 …),
    金额 (e.g. 10,000 元, "" for a non-cash prize), 奖品, 赛事, 日期 (the last day of play), 地点, 主办单位.
    """
    info = tournament_info(db)
    pw = load_paperwork(db)
    view = prize_list(db)
    out: list[model.Certificate] = []
    for t in view.prizes.tables:
        if t.table.group not in groups:
            continue
        for line in t.lines:
            if not line.awarded:
                continue
            if line.no is not None:
                name, unit = view.names[(t.table.group, line.no)], view.units[(t.table.group, line.no)]
            else:
                name, unit = line.team or "", ""
            values = _values(
                info, pw, name, unit, t.table.group, t.table.name, line.place, line.amount, line.item
            )
            template = pw.certificate
            out.append(
                model.Certificate(
                    fill_template(template.title, values),
                    fill_template(template.body, values),
                    fill_template(template.signature, values),
                    fill_template(template.date, values),
                )
            )
    if not out:
        raise UserError("还没有可颁发证书的奖项", "there are no prizes to print certificates for yet")
    return model.Certificates(header, tuple(out))


def _values(
    info: TournamentInfo,
    pw: Paperwork,
    name: str,
    unit: str,
    group: str,
    table: str,
    place: int,
    amount: int,
    item: str,
) -> dict[str, str]:
    end = info.regulations.end_date
    return {
        "姓名": name,
        "单位": unit,
        "组别": group,
        "奖项": table,
        "名次": place_zh(place),
        "金额": f"{amount:,} 元" if amount else "",
        "奖品": item,
        "赛事": mask_personal(info.name),
        "日期": f"{end.year}年{end.month}月{end.day}日",
        "地点": mask_personal(info.regulations.venue),
        "主办单位": pw.organiser,
    }


def certificate_preview(db: Database, template_values: Paperwork) -> model.Certificate:
    """The certificate of the first prize of the first table as ``template_values`` would print it
    (the window's template editor shows it live); a sample winner when no prize is awarded yet."""
    info = tournament_info(db)
    table = next(iter(info.regulations.prizes), None)
    values = _values(
        info,
        template_values,
        "王天一",
        "杭州",
        table.group if table else "",
        table.name if table else "公开组个人",
        1,
        table.amount(1) if table else 10000,
        table.item(1) if table else "",
    )
    t = template_values.certificate
    return model.Certificate(
        fill_template(t.title, values),
        fill_template(t.body, values),
        fill_template(t.signature, values),
        fill_template(t.date, values),
    )
