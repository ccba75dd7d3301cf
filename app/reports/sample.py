"""A synthetic event for tests, benchmarks and ``docs/samples``: 160 players, 11 rounds, fake personal data.

The pairing here is a crude score-order pairing (not the real Swiss engine) and the ranking only knows
score, 对手分, 胜局, 犯规, 后走局数, 后走胜局, 序号 — enough to fill every document realistically.

>>> ev = SampleEvent.generate(players=20, rounds=5, seed=1)
>>> len(ev.pairing_list(1).rows)
10
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from app.engine.types import Colour, GameResult
from app.reports.model import (
    AuditLine,
    Bracket,
    BracketGame,
    BracketMatch,
    CrossCell,
    Crosstable,
    CrosstableRow,
    EntryLine,
    EntryList,
    EventHeader,
    InternalEntryLine,
    InternalEntryList,
    PairingList,
    PairingRow,
    PayoutLine,
    PayoutSheet,
    PlayerLine,
    PrizeLine,
    PrizeList,
    RecordDuty,
    RecordSheets,
    ResultWorkbook,
    StandingRow,
    Standings,
    TableCards,
    TeamRow,
    TeamStandings,
)

EVENT_NAME = "2024年“羲皇故里”天水市象棋公开赛"
GROUP = "公开组"
CHAIN = ("对手分", "胜局", "犯规", "后走局数", "后走胜局")
OPEN_PRIZES = (10000, 5000, 3000, 2000, 1000, 800, 600, 600, 500, 500, 400, 400, *([300] * 6), *([200] * 6))
TEAM_PRIZES = (1000, 500, 400, 300, 200, 200, 200, 200)

_SURNAMES = (
    "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎"
)
_GIVEN = "天一明志强伟军国华建平小龙海涛晓东子豪宇浩然博文俊杰思远嘉怡雨欣梓萱鑫磊超鹏飞振兴"
_LONG_NAMES = ("欧阳明月光", "阿卜杜热合曼·买买提", "司马长风", "诸葛青云", "上官婉儿")
_UNITS = (
    "天水",
    "兰州",
    "甘肃省天水市秦州区青少年象棋协会",
    "麦积区",
    "平凉市象棋协会",
    "西安",
    "宝鸡",
    "陇南市武都区棋牌运动协会",
    "定西",
    "白银",
    "酒泉",
    "张掖",
    "武威市凉州区老年人体育协会象棋分会",
    "庆阳",
    "临夏",
    "甘南",
)
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


def id_check_digit(first17: str) -> str:
    """GB 11643-1999 check character.

    >>> id_check_digit("11010519491231002")
    'X'
    """
    return _ID_CHECK[sum(int(c) * w for c, w in zip(first17, _ID_WEIGHTS, strict=True)) % 11]


@dataclass(frozen=True, slots=True)
class SamplePlayer:
    no: int
    name: str
    unit: str
    gender: str
    team: str
    id_number: str
    phone: str


@dataclass(slots=True)
class _Tally:
    score: int = 0
    wins: int = 0
    violations: int = 0
    black_games: int = 0
    black_wins: int = 0
    opponents: list[int] = field(default_factory=list)


@dataclass(slots=True)
class SampleEvent:
    players: list[SamplePlayer]
    rounds: list[list[tuple[int, int, int, GameResult]]]  # per round: (board, red no, black no, result)
    byes: list[list[int]]
    violations: dict[tuple[int, int], int]  # (no, round) → count
    seed: int

    # ------------------------------------------------------------------ generation
    @classmethod
    def generate(cls, players: int = 160, rounds: int = 11, seed: int = 2024) -> SampleEvent:
        rng = random.Random(seed)
        people: list[SamplePlayer] = []
        for no in range(1, players + 1):
            if no % 37 == 5:
                name = _LONG_NAMES[(no // 37) % len(_LONG_NAMES)]
            else:
                given = "".join(rng.choice(_GIVEN) for _ in range(rng.choice((1, 2, 2))))
                name = rng.choice(_SURNAMES) + given
            unit = _UNITS[no % len(_UNITS)]
            team = f"{unit}队" if no % 3 != 0 else ""
            birth = f"{rng.randint(1960, 2012)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
            first17 = f"620502{birth}{no:03d}"
            people.append(
                SamplePlayer(
                    no=no,
                    name=name,
                    unit=unit,
                    gender="女" if no % 7 == 0 else "男",
                    team=team,
                    id_number=first17 + id_check_digit(first17),
                    phone=f"139{no:04d}{rng.randint(1000, 9999)}",
                )
            )
        event = cls(people, [], [], {}, seed)
        for number in range(1, rounds + 1):
            event._play_round(number, rng)
        return event

    def _play_round(self, number: int, rng: random.Random) -> None:
        tallies = self.tallies(number - 1)
        order = sorted((p.no for p in self.players), key=lambda n: (-tallies[n].score, n))
        byes: list[int] = []
        if len(order) % 2:
            byes.append(order.pop())
        games: list[tuple[int, int, int, GameResult]] = []
        unpaired = order[:]
        board = 0
        while unpaired:
            a = unpaired.pop(0)
            partner = next((b for b in unpaired if b not in tallies[a].opponents), unpaired[0])
            unpaired.remove(partner)
            board += 1
            red, black = (a, partner) if (a + number) % 2 else (partner, a)
            roll = rng.random()
            if roll < 0.02:
                result = GameResult.RED_FORFEIT
            elif roll < 0.03:
                result = GameResult.BLACK_FORFEIT
            elif roll < 0.42:
                result = GameResult.RED_WIN
            elif roll < 0.68:
                result = GameResult.DRAW
            else:
                result = GameResult.BLACK_WIN
            games.append((board, red, black, result))
            if rng.random() < 0.02:
                self.violations[(red, number)] = 1
        self.rounds.append(games)
        self.byes.append(byes)

    # ------------------------------------------------------------------ tallies
    def tallies(self, after_round: int) -> dict[int, _Tally]:
        t = {p.no: _Tally() for p in self.players}
        for rnd in range(after_round):
            for _board, red, black, result in self.rounds[rnd]:
                t[red].opponents.append(black)
                t[black].opponents.append(red)
                pr, pb = (
                    (2, 0)
                    if result.winner() is Colour.RED
                    else (0, 2)
                    if result.winner() is Colour.BLACK
                    else (1, 1)
                    if result is GameResult.DRAW
                    else (0, 0)
                )
                t[red].score += pr
                t[black].score += pb
                t[red].wins += pr == 2
                t[black].wins += pb == 2
                if result.played_over_board:
                    t[black].black_games += 1
                    t[black].black_wins += result is GameResult.BLACK_WIN
            for no in self.byes[rnd]:
                t[no].score += 2
                t[no].wins += 1
        for (no, rnd), count in self.violations.items():
            if rnd <= after_round:
                t[no].violations += count
        return t

    def ranking(self, after_round: int) -> list[tuple[int, tuple[int, ...]]]:
        """(no, key values score+chain) best first."""
        t = self.tallies(after_round)
        keyed: list[tuple[int, tuple[int, ...]]] = []
        for p in self.players:
            x = t[p.no]
            opp = sum(t[o].score for o in x.opponents)
            keyed.append((p.no, (x.score, opp, x.wins, x.violations, x.black_games, x.black_wins)))
        keyed.sort(key=lambda k: (-k[1][0], -k[1][1], -k[1][2], k[1][3], -k[1][4], -k[1][5], k[0]))
        return keyed

    # ------------------------------------------------------------------ read models
    def player(self, no: int) -> SamplePlayer:
        return self.players[no - 1]

    def header(self, round_number: int | None = None) -> EventHeader:
        return EventHeader(
            event_name=EVENT_NAME,
            group=GROUP,
            round=round_number,
            venue="天水市体育馆",
            dates="2024年7月26日—29日",
            time_control="20′+10″",
        )

    def _line(self, no: int, score: int) -> PlayerLine:
        p = self.player(no)
        return PlayerLine(no, p.name, p.unit, score)

    def _rows(self, round_number: int, with_results: bool) -> tuple[PairingRow, ...]:
        t = self.tallies(round_number - 1)
        rows = []
        for board, red, black, result in self.rounds[round_number - 1]:
            marks = ("红方犯规",) if (red, round_number) in self.violations and with_results else ()
            rows.append(
                PairingRow(
                    board,
                    self._line(red, t[red].score),
                    self._line(black, t[black].score),
                    result.zh if with_results else "",
                    marks,
                )
            )
        return tuple(rows)

    def table_cards(self, round_number: int, per_page: int = 2) -> TableCards:
        return TableCards(self.header(round_number), self._rows(round_number, False), per_page)

    def pairing_list(self, round_number: int, with_results: bool = False) -> PairingList:
        t = self.tallies(round_number - 1)
        byes = tuple(self._line(no, t[no].score) for no in self.byes[round_number - 1])
        return PairingList(self.header(round_number), self._rows(round_number, with_results), byes)

    def standings(self, after_round: int | None = None) -> Standings:
        after = len(self.rounds) if after_round is None else after_round
        ranked = self.ranking(after)
        rows = []
        ties = []
        for i, (no, key) in enumerate(ranked):
            p = self.player(no)
            sep = ""
            if i + 1 < len(ranked):
                other = ranked[i + 1][1]
                labels = ("积分", *CHAIN)
                sep = next((labels[j] for j in range(len(key)) if key[j] != other[j]), "序号")
                if sep == "序号":
                    ties.append((no, ranked[i + 1][0]))
            rows.append(
                StandingRow(i + 1, no, p.name, p.unit, key[0], tuple(zip(CHAIN, key[1:], strict=True)), sep)
            )
        return Standings(self.header(after), CHAIN, tuple(rows), tuple(ties))

    def crosstable(self) -> Crosstable:
        places = {no: i + 1 for i, (no, _) in enumerate(self.ranking(len(self.rounds)))}
        t = self.tallies(len(self.rounds))
        cells: dict[int, list[CrossCell]] = {p.no: [] for p in self.players}
        for rnd, games in enumerate(self.rounds):
            for _board, red, black, result in games:
                cells[red].append(CrossCell.from_game(black, Colour.RED, result))
                cells[black].append(CrossCell.from_game(red, Colour.BLACK, result))
            for no in self.byes[rnd]:
                cells[no].append(CrossCell.bye())
        rows = tuple(
            CrosstableRow(p.no, p.name, p.unit, tuple(cells[p.no]), t[p.no].score, places[p.no])
            for p in self.players
        )
        return Crosstable(self.header(None), len(self.rounds), rows)

    def team_standings(self) -> TeamStandings:
        places = {no: i + 1 for i, (no, _) in enumerate(self.ranking(len(self.rounds)))}
        members: dict[str, list[tuple[str, int]]] = {}
        for p in self.players:
            if p.team:
                members.setdefault(p.team, []).append((p.name, places[p.no]))
        ranked = []
        unranked = []
        for team, ms in members.items():
            best4 = sorted(ms, key=lambda m: m[1])[:4]
            if len(best4) < 4:
                unranked.append(TeamRow(None, team, tuple(best4), None, None, "不足四人"))
            else:
                ranked.append((sum(m[1] for m in best4), best4[0][1], team, best4))
        ranked.sort()
        rows = [
            TeamRow(i + 1, team, tuple(b4), total, best) for i, (total, best, team, b4) in enumerate(ranked)
        ]
        return TeamStandings(self.header(None), (*rows, *unranked))

    def _prize_winners(self) -> list[tuple[str, int, SamplePlayer | str, int]]:
        ranked = self.ranking(len(self.rounds))
        out: list[tuple[str, int, SamplePlayer | str, int]] = []
        for i, amount in enumerate(OPEN_PRIZES):
            out.append(("公开组个人", i + 1, self.player(ranked[i][0]), amount))
        teams = [r for r in self.team_standings().rows if r.rank is not None]
        for i, amount in enumerate(TEAM_PRIZES[: len(teams)]):
            out.append(("公开组团体", i + 1, teams[i].team, amount))
        return out

    def prize_list(self) -> PrizeList:
        lines = []
        for table, place, who, amount in self._prize_winners():
            if isinstance(who, str):
                lines.append(PrizeLine(table, place, who, "", amount))
            else:
                lines.append(PrizeLine(table, place, who.name, who.unit, amount))
        return PrizeList(self.header(None), tuple(lines))

    def payout_sheet(self) -> PayoutSheet:
        lines = [
            PayoutLine(table, place, who.name, who.unit, amount, who.id_number, who.phone)
            for table, place, who, amount in self._prize_winners()
            if not isinstance(who, str)
        ]
        return PayoutSheet(self.header(None), tuple(lines))

    def record_sheets(self, round_number: int, boards: int = 10) -> RecordSheets:
        rows = self._rows(round_number, False)[:boards]
        return RecordSheets(
            self.header(round_number), tuple(RecordDuty(r.board, r.red, r.black, "胜方") for r in rows)
        )

    def entry_list(self) -> EntryList:
        ordered = sorted(self.players, key=lambda p: (p.team == "", p.team, p.no))
        return EntryList(
            self.header(None), tuple(EntryLine(p.no, p.name, p.unit, p.gender, p.team) for p in ordered)
        )

    def internal_entry_list(self) -> InternalEntryList:
        ordered = sorted(self.players, key=lambda p: (p.team == "", p.team, p.no))
        return InternalEntryList(
            self.header(None),
            tuple(
                InternalEntryLine(
                    p.no,
                    p.name,
                    p.unit,
                    p.gender,
                    p.team,
                    checked_in=p.no % 11 != 0,
                    fee_paid=p.no % 13 != 0,
                    insurance=p.no % 17 != 0,
                    id_number=p.id_number,
                    phone=p.phone,
                )
                for p in ordered
            ),
        )

    def bracket(self) -> Bracket:
        """A knockout of the top 8 after round 8, with made-up games (seeded, deterministic)."""
        rng = random.Random(self.seed + 8)
        seeds = [no for no, _ in self.ranking(min(8, len(self.rounds)))[:8]]

        def label(no: int) -> str:
            return f"{seeds.index(no) + 1} {self.player(no).name}"

        def play(
            code: str, round_name: str, a: int, b: int, title: str = ""
        ) -> tuple[BracketMatch, int, int]:
            games = []
            kinds = ("慢棋", "快棋", "附加赛")
            red, black = (a, b) if rng.random() < 0.5 else (b, a)
            winner = 0
            for kind in kinds:
                roll = rng.random()
                if kind == "附加赛" and roll > 0.7:
                    games.append(
                        BracketGame(kind, self.player(red).name, self.player(black).name, "和（黑胜）")
                    )
                    winner = black
                    break
                if roll < 0.35:
                    games.append(BracketGame(kind, self.player(red).name, self.player(black).name, "红胜"))
                    winner = red
                    break
                if roll < 0.7:
                    games.append(BracketGame(kind, self.player(red).name, self.player(black).name, "黑胜"))
                    winner = black
                    break
                games.append(BracketGame(kind, self.player(red).name, self.player(black).name, "和"))
                red, black = black, red
            loser = b if winner == a else a
            match = BracketMatch(code, round_name, label(a), label(b), tuple(games), label(winner), title)
            return match, winner, loser

        s = seeds
        qf = [play(f"QF{i + 1}", "1/4决赛", s[x], s[7 - x]) for i, x in enumerate((0, 3, 1, 2))]
        sf1 = play("SF1", "半决赛", qf[0][1], qf[1][1])
        sf2 = play("SF2", "半决赛", qf[2][1], qf[3][1])
        final = play("F", "决赛", sf1[1], sf2[1], "冠亚军决赛")
        third = play("P3", "决赛", sf1[2], sf2[2], "第3名决赛")
        p58a = play("P5A", "排位赛", qf[0][2], qf[1][2], "5—8名排位赛")
        p58b = play("P5B", "排位赛", qf[2][2], qf[3][2], "5—8名排位赛")
        p5 = play("P5", "决赛", p58a[1], p58b[1], "第5名决赛")
        p7 = play("P7", "决赛", p58a[2], p58b[2], "第7名决赛")
        header = EventHeader(EVENT_NAME, GROUP, None, round_label="淘汰赛（第9—11轮）")
        return Bracket(
            header,
            (tuple(m[0] for m in qf), (sf1[0], sf2[0]), (final[0],)),
            (third[0], p58a[0], p58b[0], p5[0], p7[0]),
        )

    def workbook(self) -> ResultWorkbook:
        audit = tuple(
            AuditLine(f"2024-07-26 {8 + r:02d}:00", "裁判长", f"第{r + 1}轮编排发布", "电脑编排")
            for r in range(len(self.rounds))
        )
        return ResultWorkbook(
            event_name=EVENT_NAME,
            entries=(self.entry_list(),),
            rounds=tuple(self.pairing_list(r + 1, with_results=True) for r in range(len(self.rounds))),
            standings=(self.standings(),),
            crosstables=(self.crosstable(),),
            teams=(self.team_standings(),),
            prizes=self.prize_list(),
            audit=audit,
        )
