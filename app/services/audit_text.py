"""The audit log in sentences, for the arbiter's audit viewer.

The stored log keeps machine values (``enter_result``, ``red_win``, JSON before/after, ``player:12``);
here every line becomes: when, who, what was done (a verb), to what (a player by group, number and
name), the change in words (``未录入 → 红胜``, ``缴费：否 → 是``), and the reason — in Chinese and in
English. Personal numbers quoted by a line are masked (docs/rules.md §11); the stored values stay as they
are (the CSV export and the snapshot keep them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from app.db.models import Group, Player
from app.db.session import Database
from app.engine.paperwork import Paperwork, paperwork_to_dict
from app.engine.text import count_en
from app.engine.types import GameResult, ViolationKind, mask_id_number
from app.services.audit import REDO_MARK, UNDO_MARK, audit_log

#: action → (Chinese verb, English verb)
ACTIONS: dict[str, tuple[str, str]] = {
    "create_tournament": ("新建赛事", "tournament created"),
    "create_demo": ("创建演示赛事", "demo event created"),
    "update_regulations": ("修改规程", "regulation changed"),
    "add_player": ("报名", "player registered"),
    "import_player": ("导入报名", "player imported"),
    "import_players": ("导入报名表", "registration form imported"),
    "edit_player": ("修改报名信息", "player edited"),
    "remove_player": ("删除报名", "player removed"),
    "deadline_override": ("逾期报名（裁判长批准）", "late entry allowed"),
    "set_fee_paid": ("缴费", "fee"),
    "set_checked_in": ("报到", "check-in"),
    "set_insurance": ("保险证明", "insurance proof"),
    "set_pledge": ("承诺书", "safety pledge"),
    "create_team": ("新建代表队", "team created"),
    "set_team": ("调整代表队", "team changed"),
    "set_team_leader": ("指定领队", "team leader set"),
    "draw_numbers": ("抽签定序号", "sequence numbers drawn"),
    "pair_round": ("编排", "round paired"),
    "unpair_round": ("撤销编排", "pairing deleted"),
    "override_pairing": ("调整编排", "pairing changed by hand"),
    "close_round": ("结束本轮", "round closed"),
    "enter_result": ("录入成绩", "result entered"),
    "correct_result": ("更正成绩", "result corrected"),
    "enter_knockout_result": ("录入淘汰赛成绩", "knockout result entered"),
    "correct_knockout_result": ("更正淘汰赛成绩", "knockout result corrected"),
    "forfeit": ("判负", "forfeit"),
    "agreed_result": ("协商结果判双方弃权", "agreed result: double forfeit"),
    "violation": ("记犯规", "violation recorded"),
    "remove_violation": ("撤销犯规", "violation removed"),
    "withdraw_player": ("退赛", "withdrawn"),
    "withdraw_consecutive_forfeits": ("连续弃权退赛", "withdrawn after consecutive forfeits"),
    "reinstate_player": ("恢复参赛", "reinstated"),
    "disqualify": ("取消成绩", "disqualified"),
    "lift_disqualification": ("恢复成绩", "disqualification lifted"),
    "create_knockout": ("产生淘汰赛对阵", "knockout bracket created"),
    "eligibility_override": ("破例接受不符合参赛资格的报名", "entry accepted outside the group's conditions"),
    "set_unranked": ("设为计成绩不计名次", "set to play unranked (计成绩不计名次)"),
    "begin_stage": (
        "阶段开始（确定参赛者、分组与抽签号）",
        "stage begun (entrants, pools and numbers drawn)",
    ),
    "draw_colours": ("淘汰赛先后手抽签", "knockout colours drawn"),
    "choose_deciding_colour": ("附加赛选择先后手", "deciding game colour chosen"),
    "designate_records": ("指定录谱台次", "boards to record designated"),
    "hand_in_record": ("交棋谱", "game record handed in"),
    "refused_records": ("拒不录谱记犯规", "refusals to record"),
    "take_over_lock": ("接管上次未正常关闭留下的锁", "stale lock taken over"),
    "restore_backup": ("从备份恢复", "restored from a backup"),
    # the hall network
    "issue_deputy_token": ("发放副裁判录入权限", "deputy access issued"),
    "revoke_deputy_token": ("收回副裁判录入权限", "deputy access revoked"),
    "deputy_submit_result": ("副裁判报送成绩", "result sent by a deputy"),
    "confirm_deputy_result": ("确认副裁判报送的成绩", "deputy's result confirmed"),
    "reject_deputy_result": ("退回副裁判报送的成绩", "deputy's result sent back"),
    "reopen_deputy_result": ("重新处理副裁判报送的成绩", "deputy's result reopened"),
    "set_hall_address": ("设置赛场网络地址", "hall address set"),
    # absence and re-entry, pairing constraints, the paperwork
    "excuse_absence": ("请假", "excused from a round"),
    "cancel_absence": ("取消请假", "absence cancelled"),
    "reenter_player": ("退赛后恢复参赛", "re-entered after withdrawal"),
    "undo_reenter_player": ("撤销恢复参赛", "re-entry undone"),
    "add_pair_avoidance": ("设定回避", "pair kept apart"),
    "remove_pair_avoidance": ("取消回避", "pair avoidance removed"),
    "update_paperwork": ("修改裁判人员与证书", "officials and certificate changed"),
    # team competitions (团体赛)
    "set_team_details": ("修改队长、领队或上届名次", "captain, leader or last season's rank changed"),
    "set_team_roster": ("确定报名顺序", "registered order set"),
    "team_roster_add": ("增加队员", "player added to a team"),
    "team_roster_remove": ("移出队员", "player taken out of a team"),
    "team_roster_move": ("调整报名顺序", "registered order changed"),
    "team_roster_reserve": ("标记替补", "reserve marked"),
    "rename_team": ("修改队名", "team renamed"),
    "set_team_number": ("指定队号", "team number set by hand"),
    "restore_team_rosters": ("恢复队伍名单", "team rosters put back"),
    "draw_team_numbers": ("抽队号", "team numbers drawn"),
    "pair_team_round": ("团体编排", "team round paired"),
    "unpair_team_round": ("撤销团体编排", "team pairing deleted"),
    "hand_in_lineup": ("交排阵", "line-up handed in"),
    "restore_lineup": ("恢复排阵", "line-up restored"),
    "seat_team_round": ("生成对阵单（未交排阵者按规程）", "boards set (missing line-ups by the rule)"),
    "enter_board_result": ("录入台次成绩", "board result entered"),
    "enter_tie_game": ("录入加赛成绩", "tie-break game entered"),
    "remove_tie_game": ("删除加赛对局", "tie-break game removed"),
    "team_absent": ("记团体未到场", "team no-show"),
    "set_playoff": ("录入加赛名次", "play-off order entered"),
}

_STRENGTH = {"absolute": ("绝对回避", "absolute"), "weak": ("尽量回避", "weak")}
_PAPERWORK_PARTS = {
    "officials": ("裁判人员", "officials"),
    "organiser": ("主办单位", "organiser"),
    "seal": ("盖章栏", "seal line"),
    "certificate": ("证书模板", "certificate template"),
}

_RESULT_EN = {
    GameResult.RED_WIN: "red wins",
    GameResult.DRAW: "draw",
    GameResult.BLACK_WIN: "black wins",
    GameResult.RED_FORFEIT: "red forfeits",
    GameResult.BLACK_FORFEIT: "black forfeits",
    GameResult.DOUBLE_FORFEIT: "both forfeit",
    GameResult.PENDING: "no result",
}
_PLAYER = re.compile(r"player:(\d+)")
_ID_LIKE = re.compile(r"\d{17}[\dXx]|\d{15}")
_PHONE_LIKE = re.compile(r"(?<!\d)1\d{10}(?!\d)")
_FIELDS = {  # edit_player: the fields worth naming (never the ID number or the phone in full)
    "name": ("姓名", "name"),
    "group": ("组别", "group"),
    "team": ("代表队", "team"),
    "unit": ("单位", "unit"),
    "gender": ("性别", "gender"),
    "id_number": ("证件号码", "ID number"),
    "phone": ("手机号", "phone"),
    "birth_date": ("出生日期", "birth date"),
    "rating": ("等级分", "rating"),
    "rating_rank": ("等级分排名", "rating-list rank"),
    "notes": ("备注", "notes"),
    "fee_paid": ("缴费", "fee"),
    "insurance": ("保险", "insurance"),
    "pledge": ("承诺书", "pledge"),
    "checked_in": ("报到", "check-in"),
    "status": ("状态", "status"),
    "no": ("序号", "number"),
}


@dataclass(frozen=True, slots=True)
class AuditSentence:
    at: str
    who: str
    action_zh: str
    action_en: str
    entity: str  # the thing acted on, readable ("公开组 12号 张三")
    change_zh: str
    change_en: str
    reason: str
    raw: str  # the stored values, for the expert (tooltip)


def _mask(text: str) -> str:
    text = _ID_LIKE.sub(lambda m: mask_id_number(m.group(0)), text)
    return _PHONE_LIKE.sub(lambda m: m.group(0)[:3] + "****" + m.group(0)[-4:], text)


def _value(text: str) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def _result(code: Any) -> tuple[str, str]:
    try:
        r = GameResult(str(code))
    except ValueError:
        return str(code), str(code)
    return (r.zh or "未录入"), _RESULT_EN[r]


def _count(n: Any, noun: str) -> str:
    return count_en(n, noun) if isinstance(n, int) else f"{n} {noun}s"


def _yes_no(value: Any) -> tuple[str, str]:
    yes = value is True or str(value).lower() in ("true", "1")
    return ("是", "yes") if yes else ("否", "no")


Change = tuple[str, str]
#: a describer gets (action, before, after) and returns the change in words, or None when it has
#: nothing to say about this line (the generic fallback then applies)
Describer = Callable[[str, Any, Any], Change | None]


def _describe_result(action: str, before: Any, after: Any) -> Change | None:
    a_zh, a_en = _result(after)
    if before in (None, "", GameResult.PENDING.value):
        return a_zh, a_en
    b_zh, b_en = _result(before)
    return f"{b_zh} → {a_zh}", f"{b_en} → {a_en}"


def _describe_sent_result(action: str, before: Any, after: Any) -> Change | None:
    return _result(after)


def _describe_flag(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, bool | str):
        return None
    (b_zh, b_en), (a_zh, a_en) = _yes_no(before), _yes_no(after)
    return f"{b_zh} → {a_zh}", f"{b_en} → {a_en}"


def _describe_pairing(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    bye = f"，{after['bye']} 号轮空" if after.get("bye") is not None else ""
    bye_en = f", bye for no. {after['bye']}" if after.get("bye") is not None else ""
    return (
        f"积分编排 {after.get('boards')} 台{bye}，随机种子 {after.get('seed')}",
        f"{_count(after.get('boards'), 'Swiss board')}{bye_en}, seed {after.get('seed')}",
    )


def _describe_colour_draw(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    if after.get("manual"):
        return "现场抽签结果录入", "a physical draw entered"
    return f"随机种子 {after.get('seed')}", f"seed {after.get('seed')}"


def _describe_deciding_colour(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    red = after.get("colour") == "red"
    return (
        f"{after.get('chooser')}号选择{'红' if red else '黑'}方",
        f"no. {after.get('chooser')} chose {'Red' if red else 'Black'}",
    )


def _describe_number_draw(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    how = "按等级分" if after.get("method") == "rating" else "抽签"
    how_en = "by rating" if after.get("method") == "rating" else "by lot"
    return f"{how}，随机种子 {after.get('seed')}", f"{how_en}, seed {after.get('seed')}"


def _describe_violation(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, str):
        return None
    try:
        kind = ViolationKind(after)
    except ValueError:
        return after, after
    return kind.zh, kind.value.replace("_", " ")


def _describe_import(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    skipped = after.get("skipped") or []
    return (
        f"{after.get('added')} 名" + (f"，跳过 {len(skipped)} 行" if skipped else ""),
        _count(after.get("added"), "player") + (f", {len(skipped)} rows skipped" if skipped else ""),
    )


def _describe_disqualification(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    annul = after.get("games") == "annul"
    return (
        "已赛对局作废" if annul else "已赛对局成绩有效",
        "games played annulled" if annul else "games played stand",
    )


def _describe_withdrawal(action: str, before: Any, after: Any) -> Change | None:
    if not (isinstance(after, dict) and after.get("status_round")):
        return None
    return f"自第 {after['status_round']} 轮起不再编排", f"not paired from round {after['status_round']}"


def _describe_record(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    return f"{after.get('moves')} 回合", _count(after.get("moves"), "move")


def _describe_eligibility(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    rules = "；".join(map(str, after.get("rules", [])))
    return f"{after.get('group', '')}：{rules}", f"{after.get('group', '')}: {rules}"


def _describe_stage(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    pools = after.get("pools") or []
    if pools:
        text = "；".join(f"{chr(65 + i)}组 " + "、".join(map(str, p)) for i, p in enumerate(pools))
        return f"分组：{text}；抽签种子 {after.get('seed')}", f"pools: {text}; lot seed {after.get('seed')}"
    entrants = "、".join(map(str, after.get("entrants", [])))
    return f"参赛者（按号次）：{entrants}", f"entrants (by number): {entrants}"


def _describe_bracket(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    seeds = "、".join(map(str, after.get("seeds", [])))
    return f"种子：{seeds}", f"seeds: {seeds}"


def _describe_edit(action: str, before: Any, after: Any) -> Change | None:
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return None
    zh, en = [], []
    for key, (f_zh, f_en) in _FIELDS.items():
        if key in before and before.get(key) != after.get(key):
            b, a = _mask(str(before.get(key) or "")), _mask(str(after.get(key) or ""))
            zh.append(f"{f_zh} {b or '（空）'} → {a or '（空）'}")
            en.append(f"{f_en} {b or '(empty)'} → {a or '(empty)'}")
    return "；".join(zh), "; ".join(en)


def _describe_regulations(action: str, before: Any, after: Any) -> Change | None:
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return None
    keys = [k for k in after if before.get(k) != after.get(k)]
    zh, en = "、".join(keys), ", ".join(keys)
    for name, old_minutes, new_minutes in _deadline_changes(before, after):
        zh += f"；{name}排阵截止：{_deadline_zh(old_minutes)} → {_deadline_zh(new_minutes)}"
        en += f"; {name} line-up deadline: {old_minutes} → {new_minutes} min before the round"
    for name, swap in _swap_changes(before, after):
        zh += f"；{name}第一循环最后两轮互换：{'否 → 是' if swap else '是 → 否'}"
        en += f"; {name} first cycle's last two rounds swapped: {'no → yes' if swap else 'yes → no'}"
    return zh, en


def _swap_changes(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, bool]]:
    """The team groups whose ``team_event.swap_last_rounds`` changed, with the new value."""

    def swaps(reg: dict[str, Any]) -> dict[str, bool]:
        return {
            str(g.get("name")): bool(g["team_event"].get("swap_last_rounds", False))
            for g in reg.get("groups") or []
            if isinstance(g, dict) and isinstance(g.get("team_event"), dict)
        }

    old, new = swaps(before), swaps(after)
    return [(name, swap) for name, swap in new.items() if name in old and old[name] != swap]


def _deadline_zh(minutes: int) -> str:
    return f"赛前 {minutes} 分钟" if minutes else "不设"


def _deadline_changes(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, int, int]]:
    """The team groups whose line-up deadline (``team_event.match.lineup_deadline``) changed."""

    def deadlines(reg: dict[str, Any]) -> dict[str, int]:
        out: dict[str, int] = {}
        for g in reg.get("groups") or []:
            if isinstance(g, dict) and isinstance(g.get("team_event"), dict):
                match = g["team_event"].get("match")
                minutes = match.get("lineup_deadline", 0) if isinstance(match, dict) else 0
                out[str(g.get("name"))] = int(minutes or 0)
        return out

    old, new = deadlines(before), deadlines(after)
    return [
        (name, old[name], minutes) for name, minutes in new.items() if name in old and old[name] != minutes
    ]


def _describe_absence(action: str, before: Any, after: Any) -> Change | None:
    value = after if action == "excuse_absence" else before
    if isinstance(value, dict) and value.get("round"):
        return f"第 {value['round']} 轮", f"round {value['round']}"
    return None


def _describe_reentry(action: str, before: Any, after: Any) -> Change | None:
    if not (isinstance(after, dict) and after.get("reentry_round")):
        return None
    first = after["reentry_round"]
    return f"退赛 → 自第 {first} 轮起恢复编排", f"withdrawn → paired again from round {first}"


def _describe_avoidance(action: str, before: Any, after: Any) -> Change | None:
    value = after if action == "add_pair_avoidance" else before
    if not isinstance(value, dict):
        return None
    zh, en = _STRENGTH.get(str(value.get("strength")), ("回避", "avoidance"))
    start, end = value.get("from_round", 1), value.get("to_round", 0)
    rounds_zh = f"第{start}轮起" if not end else f"第{start}—{end}轮"
    rounds_en = f"from round {start}" if not end else f"rounds {start}-{end}"
    return f"{zh}，{rounds_zh}", f"{en}, {rounds_en}"


def _describe_paperwork(action: str, before: Any, after: Any) -> Change | None:
    if not isinstance(after, dict):
        return None
    old = before if isinstance(before, dict) else paperwork_to_dict(Paperwork())  # never set: defaults
    parts = [names for key, names in _PAPERWORK_PARTS.items() if old.get(key) != after.get(key)]
    signers = [o for o in after.get("officials", []) if isinstance(o, dict) and o.get("signs")]
    zh = "、".join(p[0] for p in parts)
    en = ", ".join(p[1] for p in parts)
    if any(p[0] == "裁判人员" for p in parts) and signers:
        names = "、".join(f"{o.get('role')} {o.get('name') or '（未填）'}" for o in signers)
        zh += f"（签字：{names}）"
        en += f" (signing: {', '.join(str(o.get('role')) for o in signers)})"
    return zh, en


def _describe_team(action: str, before: Any, after: Any) -> Change | None:
    return f"{before or '（无）'} → {after or '（无）'}", f"{before or '(none)'} → {after or '(none)'}"


def _describe_restore(action: str, before: Any, after: Any) -> Change | None:
    return (
        f"恢复为备份 {after}；恢复前的状态另存为 {before}",
        f"restored {after}; the state before kept as {before}",
    )


#: action → the describer of its change; an action not listed (or whose describer has nothing to
#: say) falls back to its plain new value, masked
DESCRIBERS: dict[str, Describer] = {
    **dict.fromkeys(
        (
            "enter_result",
            "correct_result",
            "enter_knockout_result",
            "correct_knockout_result",
            "forfeit",
            "agreed_result",
            "confirm_deputy_result",
        ),
        _describe_result,
    ),
    # what the deputy sent (nothing changed)
    **dict.fromkeys(("deputy_submit_result", "reject_deputy_result"), _describe_sent_result),
    **{f"set_{field}": _describe_flag for field in ("fee_paid", "insurance", "pledge", "checked_in")},
    **dict.fromkeys(
        (
            "set_team",
            "team_roster_add",
            "team_roster_remove",
            "team_roster_move",
            "team_roster_reserve",
            "rename_team",
            "set_team_number",
        ),
        _describe_team,
    ),
    "restore_backup": _describe_restore,
    "pair_round": _describe_pairing,
    "draw_colours": _describe_colour_draw,
    "choose_deciding_colour": _describe_deciding_colour,
    "draw_numbers": _describe_number_draw,
    "violation": _describe_violation,
    "import_players": _describe_import,
    "disqualify": _describe_disqualification,
    "withdraw_player": _describe_withdrawal,
    "hand_in_record": _describe_record,
    "create_knockout": _describe_bracket,
    "eligibility_override": _describe_eligibility,
    "begin_stage": _describe_stage,
    "edit_player": _describe_edit,
    "update_regulations": _describe_regulations,
    "excuse_absence": _describe_absence,
    "cancel_absence": _describe_absence,
    "reenter_player": _describe_reentry,
    "add_pair_avoidance": _describe_avoidance,
    "remove_pair_avoidance": _describe_avoidance,
    "update_paperwork": _describe_paperwork,
}


def _change(action: str, before: Any, after: Any) -> Change:
    """The change of one line in words (zh, en); empty when the verb says it all."""
    describer = DESCRIBERS.get(action)
    described = describer(action, before, after) if describer is not None else None
    if described is not None:
        return described
    if isinstance(after, str | int) and not isinstance(after, bool) and after != "":
        return _mask(str(after)), _mask(str(after))
    return "", ""


def audit_sentences(db: Database) -> list[AuditSentence]:
    """Every audit line as a sentence, oldest first."""
    with db.session() as s:
        groups = {g.id: g.name for g in s.scalars(select(Group))}
        who_is = {
            p.id: f"{groups.get(p.group_id, '')} {p.no}号 {p.name}"
            if p.no
            else f"{groups.get(p.group_id, '')} {p.name}"
            for p in s.scalars(select(Player))
        }
    out = []
    for line in audit_log(db):
        before, after = _value(line.before), _value(line.after)
        verb_zh, verb_en = ACTIONS.get(line.action, (line.action, line.action.replace("_", " ")))
        if line.reason.startswith(UNDO_MARK):  # an undo or a redo says so beside the verb
            verb_zh, verb_en = f"{verb_zh}（撤销）", f"{verb_en} (undo)"
        elif line.reason.startswith(REDO_MARK):
            verb_zh, verb_en = f"{verb_zh}（重做）", f"{verb_en} (redo)"
        entity = _PLAYER.sub(lambda m: who_is.get(int(m.group(1)), f"已删除的棋手 {m.group(1)}"), line.entity)
        if (
            line.entity.startswith("player:")
            and isinstance(after, dict)
            and int(line.entity[7:]) not in who_is
        ):
            entity = str(after.get("name") or entity)
        change_zh, change_en = _change(line.action, before, after)
        raw = " → ".join(part for part in (line.before, line.after) if part)
        out.append(
            AuditSentence(
                f"{line.at:%Y-%m-%d %H:%M:%S}",
                line.who,
                verb_zh,
                verb_en,
                _mask(entity),
                change_zh,
                change_en,
                line.reason,
                _mask(raw),
            )
        )
    return out
