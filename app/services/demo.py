"""The demo event: a realistic, seeded field for trying the program and for tests.

160 players (the cap) by default: about 120 in 公开组 — most of them in about 20 works teams of
4 (a few of 3 and 5) — and about 40 in 天水本地组 (no teams). Plausible Chinese names, ID numbers
with valid checksums and birth dates for ages 12–65 on the first day of play, mobile numbers.
Numbers drawn by lot; everybody paid and checked in unless ``absent`` asks for a few who are not.
The same seed always gives the same event.
"""

from __future__ import annotations

import dataclasses
import random
import shutil
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from pathlib import Path

from app.db.integrity import backups_folder
from app.db.models import Group, Player, Team
from app.db.session import Database
from app.engine.registration import age_on, resident_id_check_char
from app.engine.regulations import Regulations, RoundTime, preset, regulations_to_dict
from app.engine.types import UserError
from app.services import audit
from app.services.registration import draw_numbers
from app.services.tournaments import (
    create_tournament,
    discard_on_failure,
    group_row,
    regulations_of,
    tournament_row,
)

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史黎贺顾毛郝龚邵万钱覃武戴孔汤庞樊兰殷施陶洪翟安颜倪严牛温芦季俞章鲁葛伍申尤毕聂焦向柳邢岳齐"
GIVEN_CHARS = "伟刚勇毅俊峰强军平保东文辉力明永健世广志义兴良海山仁波宁贵福生龙元全国胜学祥才发武新利清飞彬富顺信子杰涛昌成康星光天达安岩中茂进林有坚和彪博诚先敬震振壮会思群豪心邦承乐绍功松善厚庆磊民友裕河哲江超浩亮政谦亨奇固之轮翰朗伯宏言若鸣朋斌梁栋维启克伦翔旭鹏泽晨辰士以建家致树炎德行时泰盛雄琛钧冠策腾楠榕风航弘秀娟英华慧巧美娜静淑惠珠翠雅芝玉萍红娥玲芬芳燕彩春菊兰凤洁梅琳素云莲真环雪荣爱妹霞香月莺媛艳瑞凡佳嘉琼勤珍贞莉桂娣叶璧璐娅琦晶妍茜秋珊莎锦黛青倩婷姣婉娴瑾颖露瑶怡婵雁蓓纨仪荷丹蓉眉君琴蕊薇菁梦岚苑婕馨瑗琰韵融园艺咏卿聪澜纯毓悦昭冰爽琬茗羽希宁欣飘育滢馥筠柔竹霭凝晓欢霄枫芸菲寒伊亚宜可姬舒影荔枝思丽"
FEMALE_CHARS = set(
    "秀娟英华慧巧美娜静淑惠珠翠雅芝玉萍红娥玲芬芳燕彩春菊兰凤洁梅琳素云莲真环雪荣爱妹霞香月莺媛艳"
)
TEAM_NAMES = (
    "兰州石化",
    "天水铁路",
    "甘肃电力",
    "白银有色",
    "金川集团",
    "酒钢集团",
    "天水华天",
    "长城电工",
    "天水星火",
    "麦积邮政",
    "秦州供电",
    "兰州银行",
    "甘肃交建",
    "天水烟草",
    "西北永新",
    "庆阳石化",
    "玉门油田",
    "靖远煤电",
    "平凉电厂",
    "陇南移动",
    "定西水务",
    "武威农商",
    "张掖供电",
    "天水锻压",
)
OPEN_REGIONS = (
    "620102",
    "620103",
    "620402",
    "620302",
    "620902",
    "621002",
    "620802",
    "110105",
    "610103",
    "640104",
    "510107",
    "410105",
    "630104",
    "620502",
    "620503",
)
LOCAL_REGIONS = ("620502", "620503", "620521", "620522", "620523", "620524", "620525")
LOCAL_UNITS = ("秦州区", "麦积区", "清水县", "秦安县", "甘谷县", "武山县", "张家川县")


@dataclass(frozen=True, slots=True)
class DemoPlayer:
    name: str
    gender: str
    id_number: str
    birth_date: date
    phone: str
    group: str
    team: str | None
    unit: str
    rating: int | None
    fee_paid: bool
    checked_in: bool
    registered_at: datetime


def demo_field(seed: int = 2024, players: int = 160, *, absent: int = 0) -> list[DemoPlayer]:
    """Generate the field (pure: the same seed gives the same field)."""
    rng = random.Random(seed)
    reg = preset("tianshui-2024")
    first_day = reg.registration.first_day_of_play
    open_group, local_group = reg.groups[0].name, reg.groups[1].name
    n_local = round(players / 4)
    n_open = players - n_local

    # Team sizes: mostly 4, a few of 5 and 3, the rest of the open group plays as individuals.
    sizes: list[int] = []
    budget = round(n_open * 0.72)
    for size in (5, 3, 5, 3):
        if budget - size >= 0 and n_open >= 40:
            sizes.append(size)
            budget -= size
    while budget >= 4:
        sizes.append(4)
        budget -= 4
    rng.shuffle(sizes)
    team_names = list(TEAM_NAMES[: len(sizes)])
    memberships: list[tuple[str | None, str]] = []
    for name, size in zip(team_names, sizes, strict=False):
        memberships += [(name, name)] * size
    memberships += [(None, "个人")] * (n_open - len(memberships))

    used_ids: set[str] = set()
    used_names: set[str] = set()
    field: list[DemoPlayer] = []
    deadline = reg.registration.deadline

    def person(group: str, team: str | None, unit: str, regions: tuple[str, ...]) -> DemoPlayer:
        while True:
            surname = rng.choice(SURNAMES)
            given = "".join(rng.choice(GIVEN_CHARS) for _ in range(rng.choice((1, 2, 2, 2))))
            if surname + given not in used_names:
                break
        female = any(c in FEMALE_CHARS for c in given) and rng.random() < 0.8
        age = rng.choice((rng.randint(12, 65), rng.randint(25, 60), rng.randint(30, 55)))
        born = date(first_day.year - age, 1, 1) + timedelta(days=rng.randint(0, 364))
        if age_on(born, first_day) != age:  # keep the age inside 12–65 exactly
            born = date(first_day.year - age - 1, first_day.month, first_day.day) + timedelta(days=1)
        while True:
            serial = rng.randint(0, 99) * 10 + rng.choice((0, 2, 4, 6, 8) if female else (1, 3, 5, 7, 9))
            first17 = f"{rng.choice(regions)}{born:%Y%m%d}{serial:03d}"
            id_number = first17 + resident_id_check_char(first17)
            if id_number not in used_ids:
                break
        used_ids.add(id_number)
        used_names.add(surname + given)
        phone = (
            rng.choice(("13", "15", "17", "18", "19"))
            + rng.choice("0123456789")
            + f"{rng.randint(0, 99_999_999):08d}"
        )
        rated = rng.random() < 0.45
        return DemoPlayer(
            name=surname + given,
            gender="female" if female else "male",
            id_number=id_number,
            birth_date=born,
            phone=phone,
            group=group,
            team=team,
            unit=unit,
            rating=rng.randint(1700, 2450) if rated else None,
            fee_paid=True,
            checked_in=True,
            registered_at=deadline - timedelta(days=rng.randint(1, 20), minutes=rng.randint(0, 600)),
        )

    for team, unit in memberships:
        field.append(person(open_group, team, unit, OPEN_REGIONS))
    for i in range(n_local):
        field.append(person(local_group, None, LOCAL_UNITS[i % len(LOCAL_UNITS)], LOCAL_REGIONS))
    rng.shuffle(field)
    if absent:
        picked = rng.sample(range(len(field)), min(absent * 2, len(field)))
        for k, i in enumerate(picked):
            p = field[i]
            field[i] = replace(p, fee_paid=k % 2 == 1, checked_in=k % 2 == 0)
    return field


PLAYED_TO_END = "end"


def create_demo(
    path: Path | str,
    *,
    seed: int = 2024,
    players: int = 160,
    absent: int = 0,
    played_to: int | str | None = None,
    who: str = audit.DEFAULT_ARBITER,
) -> Database:
    """Create the demo tournament file: the field registered, numbers drawn by lot (seed recorded),
    and with ``played_to`` the event played through the services to round N of every group, or to
    its end (``"end"``: the knockout decided, the final ranking and the prizes there to print).

    Nothing is left behind when it cannot be made (too few players, a full disk …)."""
    check_demo_size(players, absent)
    last_round = check_played_to(played_to)
    db = create_tournament(path, "tianshui-2024", who=who)  # refuses a path that cannot be a file
    backups = backups_folder(Path(path))
    had_backups = backups.exists()
    try:
        with discard_on_failure(db):
            _fill_demo(db, path, seed, players, absent, who)
            if played_to is not None:
                _play(db, last_round, seed, players)
    except BaseException:
        if not had_backups:  # the automatic backups of the rounds played before it failed
            shutil.rmtree(backups, ignore_errors=True)
        raise
    return db


def check_played_to(played_to: int | str | None) -> int | None:
    """The last round to play (None: to the end); a round the event does not have is refused."""
    if played_to is None or played_to == PLAYED_TO_END:
        return None
    rounds = max(g.rounds for g in preset("tianshui-2024").groups)
    if not isinstance(played_to, int) or not 1 <= played_to <= rounds:
        raise UserError(
            f"--played-to 应为 1–{rounds} 的轮次或 end（现为 {played_to}）；演示赛事共 {rounds} 轮",
            f"--played-to must be a round 1-{rounds} or end, not {played_to}; the demo event has {rounds} rounds",
        )
    return played_to


def _play(db: Database, last_round: int | None, seed: int, players: int) -> None:
    from app.services.simulation import play_demo_to

    try:
        play_demo_to(db, last_round, seed=seed)
    except UserError as exc:
        target_zh = "赛完" if last_round is None else f"编排到第 {last_round} 轮"
        target_en = "to the end" if last_round is None else f"to round {last_round}"
        raise UserError(
            f"{players} 名棋手的演示赛事无法{target_zh}：{exc.zh}（请增加人数，例如 --players 160）",
            f"the demo event of {players} players cannot be played {target_en}: {exc.en} "
            "(use more players, e.g. --players 160)",
        ) from None


#: the demo needs two players per group to draw numbers; more than the preset's capacity is refused
DEMO_MIN_PLAYERS = 4


def check_demo_size(players: int, absent: int) -> None:
    capacity = preset("tianshui-2024").registration.capacity
    if not DEMO_MIN_PLAYERS <= players <= capacity:
        raise UserError(
            f"演示赛事的人数应在 {DEMO_MIN_PLAYERS}–{capacity} 之间（现为 {players}）",
            f"the demo event needs {DEMO_MIN_PLAYERS}-{capacity} players, not {players}",
        )
    if not 0 <= absent <= players // 4:
        raise UserError(
            f"--absent 应在 0–{players // 4} 之间（现为 {absent}）",
            f"--absent must be 0-{players // 4}, not {absent}",
        )


def _fill_demo(db: Database, path: Path | str, seed: int, players: int, absent: int, who: str) -> None:
    field = demo_field(seed, players, absent=absent)
    with db.session() as s:
        reg = regulations_of(s)
        groups = {g.name: group_row(s, g.name) for g in reg.groups}
        teams: dict[str, Team] = {}
        for p in field:
            if p.team is not None and p.team not in teams:
                teams[p.team] = Team(group_id=groups[p.group].id, name=p.team, leader="")
                s.add(teams[p.team])
        s.flush()
        rows: dict[str, list[Player]] = {name: [] for name in groups}
        for p in field:
            row = Player(
                group_id=groups[p.group].id,
                team_id=teams[p.team].id if p.team else None,
                name=p.name,
                gender=p.gender,
                id_type="resident_id",
                id_number=p.id_number,
                birth_date=p.birth_date,
                phone=p.phone,
                rating=p.rating,
                unit=p.unit,
                notes="",
                fee_paid=p.fee_paid,
                insurance=True,
                pledge=True,
                checked_in=p.checked_in,
                status="active",
                registered_at=p.registered_at,
            )
            rows[p.group].append(row)
            s.add(row)
        for team in teams.values():
            members = [r for r in rows[groups_name(groups, team.group_id)] if r.team_id == team.id]
            team.leader = members[0].name if members else ""
        audit.record(
            s, "create_demo", entity=Path(path).name, after={"seed": seed, "players": players}, who=who
        )
        tournament_row(s).regulations = regulations_to_dict(demo_schedule(reg))
    _draw_demo_numbers(db, seed)


#: the demo's rounds start at these times, four rounds a day
_DEMO_TIMES = ((9, 0), (10, 30), (14, 30), (16, 0))


def demo_schedule(reg: Regulations) -> Regulations:
    """The regulation with a schedule like the 2024 event's days: four rounds a day from the first day."""
    most = max(g.rounds for g in reg.groups)
    slots = []
    for n in range(1, most + 1):
        day = reg.start_date + timedelta(days=(n - 1) // len(_DEMO_TIMES))
        hour, minute = _DEMO_TIMES[(n - 1) % len(_DEMO_TIMES)]
        slots.append(RoundTime(n, datetime(day.year, day.month, day.day, hour, minute)))
    return dataclasses.replace(reg, schedule=tuple(slots))


def groups_name(groups: dict[str, Group], group_id: int) -> str:
    return next(name for name, g in groups.items() if g.id == group_id)


def _draw_demo_numbers(db: Database, seed: int) -> None:
    for group in ("公开组", "天水本地组"):
        draw_numbers(db, group, method="lot", seed=seed)
