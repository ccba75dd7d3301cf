"""xqarbiter commands for running the event: pairing, standings, knockout, discipline, simulation.

Registered in :mod:`app.cli`; every command goes through the services.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from app.cli import _open, _print_json
from app.engine.types import Colour, UserError


def _group(db: Any, given: str | None) -> str:
    """The --group given, or the only group with players; an error names the groups otherwise."""
    from app.services.tournaments import tournament_info

    if given:
        return given
    groups = [g.name for g in tournament_info(db).groups if g.players]
    if len(groups) == 1:
        return groups[0]
    raise UserError(
        f"请用 --group 指定组别：{'、'.join(groups)}", f"give --group, one of: {', '.join(groups)}"
    )


# --------------------------------------------------------------------------- pairing


def cmd_pair(args: argparse.Namespace) -> int:
    from app.services.rounds import pair_next_round

    with _open(args.file) as db:
        out = pair_next_round(db, args.group, seed=args.seed)
    bye = f"，{out.bye} 号轮空" if out.bye is not None else ""
    print(f"{out.group} 第 {out.number} 轮已编排：{out.boards} 台{bye}，随机种子 {out.seed}")
    for no in out.withdrawn:
        print(f"{no} 号连续弃权，已退出编排")
    if out.backup_warning:
        print(out.backup_warning, file=sys.stderr)
    return 0


def cmd_unpair(args: argparse.Namespace) -> int:
    from app.services.rounds import unpair_round

    with _open(args.file) as db:
        unpair_round(db, args.group, args.round)
    print(f"{args.group} 第 {args.round} 轮的编排已撤销")
    return 0


def cmd_why(args: argparse.Namespace) -> int:
    from app.services.rounds import pairing_explanation

    with _open(args.file, read_only=True) as db:
        print(pairing_explanation(db, args.group, args.round, args.player))
    return 0


# --------------------------------------------------------------------------- standings


def cmd_standings(args: argparse.Namespace) -> int:
    from app.services.standings import final_standings, group_standings

    with _open(args.file, read_only=True) as db:
        view = (
            final_standings(db, args.group)
            if args.final
            else group_standings(db, args.group, args.after_round)
        )
    if args.json:
        _print_json([line.as_json() for line in view.lines])
        return 0
    title = "最终名次" if view.final else f"第 {view.after_round} 轮后名次"
    print(f"{view.group} {title}（{view.chain_zh}）")
    for ln in view.lines:
        print(
            f"{ln.rank:>3} {ln.no:>4} {ln.name:<6} {ln.unit:<8} {ln.score:>3} 对手分{ln.opponent_score:>4} "
            f"胜{ln.wins:>2} 犯规{ln.violations} 后走{ln.black_games}/{ln.black_wins}  {ln.separated_by_zh}"
        )
    for no, name in view.disqualified:
        print(f"取消成绩：{no} {name}")
    if view.decided_by_sequence_number:
        print("注：有名次在所有区分办法均相同后按序号排定")
    return 0


def cmd_why_above(args: argparse.Namespace) -> int:
    from app.services.standings import why_above

    with _open(args.file, read_only=True) as db:
        print(why_above(db, args.group, args.a, args.b, args.after_round))
    return 0


def cmd_teams(args: argparse.Namespace) -> int:
    from app.services.standings import team_standings

    with _open(args.file, read_only=True) as db:
        view = team_standings(db, args.group)
    rows = [
        {
            "rank": t.rank,
            "team": t.team,
            "members": [{"no": no, "name": view.names[no], "place": place} for no, place in t.members],
            "total": t.total,
            "best_place": t.best_place,
            "separated_by": t.separated_by,
        }
        for t in view.ranking.rows
    ]
    unranked = [
        {"team": u.team, "ranked_members": u.ranked_members, "reason": u.reason_zh}
        for u in view.ranking.unranked
    ]
    if args.json:
        _print_json({"group": view.group, "final": view.final, "ranked": rows, "unranked": unranked})
        return 0
    print(f"{view.group} 团体名次{'' if view.final else '（暂列）'}")
    for r in rows:
        members = "、".join(f"{m['name']}({m['place']})" for m in r["members"])  # type: ignore[index]
        print(f"{r['rank']:>3} {r['team']:<8} {members}  合计 {r['total']}  最好 {r['best_place']}")
    for u in unranked:
        print(f"不计名次：{u['team']}（{u['reason']}）")
    return 0


def cmd_prizes(args: argparse.Namespace) -> int:
    from app.services.standings import prize_list

    with _open(args.file, read_only=True) as db:
        view = prize_list(db)
    tables = []
    for t in view.prizes.tables:
        lines = []
        for line in t.lines:
            key = (t.table.group, line.no) if line.no is not None else None
            lines.append(
                {
                    "place": line.place,
                    "amount": line.amount,
                    "no": line.no,
                    "name": view.names.get(key) if key else None,
                    "team": line.team,
                }
            )
        tables.append(
            {
                "table": t.table.name,
                "group": t.table.group,
                "kind": t.table.kind.value,
                "total": t.total,
                "awarded": t.awarded,
                "prizes": lines,
            }
        )
    if args.json:
        _print_json(
            {
                "tables": tables,
                "grand_total": view.prizes.grand_total,
                "grand_awarded": view.prizes.grand_awarded,
            }
        )
        return 0
    for t in tables:
        print(f"{t['table']}（合计 {t['total']} 元）")
        for p in t["prizes"]:  # type: ignore[attr-defined]
            who = p["team"] or (f"{p['no']} {p['name']}" if p["no"] is not None else "（空缺）")
            print(f"  第{p['place']:>2}名 {who:<12} {p['amount']:>6} 元")
    print(f"总计 {view.prizes.grand_total} 元")
    return 0


# --------------------------------------------------------------------------- knockout


def cmd_knockout(args: argparse.Namespace) -> int:
    from app.services.knockout import create_knockout

    with _open(args.file) as db:
        bracket = create_knockout(db, args.group)
    print(f"{args.group}淘汰赛对阵已产生，种子：{'、'.join(map(str, bracket.seeds))}")
    return 0


def cmd_draw_colours(args: argparse.Namespace) -> int:
    from app.services.knockout import draw_round_colours

    manual: dict[str, int] = {}
    for item in args.manual or []:
        code, _, red = item.partition("=")
        if not red.isdigit():
            raise UserError(
                f"--manual 的格式应为 场次=红方序号，而不是“{item}”",
                f"--manual takes MATCH=red_no, not {item!r}",
            )
        manual[code.strip().upper()] = int(red)
    with _open(args.file) as db:
        bracket = draw_round_colours(db, args.group, args.round, seed=args.seed, manual=manual or None)
    for m in bracket.matches_in_round(args.round):
        lot = f"抽签种子 {m.colour_seed}" if m.colour_seed is not None else "现场抽签"
        print(f"{m.code}: {m.first_red} 号执红（{lot}）")
    return 0


def _bracket_json(bracket: Any) -> dict[str, Any]:
    from app.engine.knockout import match_result

    out = []
    for plan, m in zip(bracket.plans, bracket.matches, strict=True):
        res = match_result(m, bracket.rules)
        out.append(
            {
                "code": m.code,
                "round": m.round_number,
                "board": plan.board,
                "title": plan.title_zh,
                "high": m.high,
                "low": m.low,
                "first_red": m.first_red,
                "colour_seed": m.colour_seed,
                "games": [
                    {
                        "game": g.number,
                        "kind": g.kind.value,
                        "red": g.red,
                        "black": g.black,
                        "result": g.result.value,
                    }
                    for g in m.games
                ],
                "winner": None if res is None else res.winner,
                "decided": None if res is None else res.reason_zh,
            }
        )
    return {"seeds": list(bracket.seeds), "split_round": bracket.split_round, "matches": out}


def cmd_bracket(args: argparse.Namespace) -> int:
    from app.services.knockout import bracket_of

    with _open(args.file, read_only=True) as db:
        bracket = bracket_of(db, args.group)
    if bracket is None:
        raise UserError(f"{args.group}尚未产生淘汰赛对阵", f"{args.group} has no knockout bracket yet")
    data = _bracket_json(bracket)
    if args.json:
        _print_json(data)
        return 0
    for m in data["matches"]:
        games = "，".join(f"第{g['game']}局 {g['red']}红-{g['black']}黑 {g['result']}" for g in m["games"])
        print(
            f"第{m['round']}轮 {m['code']:<6} {m['title']}: {m['high']} vs {m['low']}  {games}  "
            f"{'胜者 ' + str(m['winner']) if m['winner'] else ''}"
        )
    return 0


def cmd_choose_colour(args: argparse.Namespace) -> int:
    from app.services.knockout import choose_deciding_colour

    with _open(args.file) as db:
        choose_deciding_colour(db, args.group, args.match.upper(), Colour(args.colour))
    print(f"{args.match} 附加赛：排名靠前者选择{'红' if args.colour == 'red' else '黑'}方")
    return 0


# --------------------------------------------------------------------------- discipline


def _player_id(db: Any, group: str, no: int) -> int:
    from app.services.registration import list_players

    for p in list_players(db, group):
        if p.no == no:
            return p.id
    raise UserError(f"{group}没有 {no} 号棋手", f"{group} has no player number {no}")


def cmd_violation(args: argparse.Namespace) -> int:
    from app.services.discipline import record_violation

    with _open(args.file) as db:
        group = _group(db, args.group)
        record_violation(db, group, args.player, args.round, args.kind, args.reason)
    print(f"已记录 {args.player} 号第 {args.round} 轮犯规：{args.reason}")
    return 0


def cmd_forfeit(args: argparse.Namespace) -> int:
    from app.services.discipline import agreed_result, forfeit

    with _open(args.file) as db:
        group = _group(db, args.group)
        if args.kind == "agreed":
            if args.board is None:
                raise UserError("协商结果须用 --board 指定台次", "an agreed result needs --board")
            agreed_result(db, group, args.round, args.board, args.reason)
            print(f"第 {args.round} 轮第 {args.board} 台按双方弃权处理")
            return 0
        if args.player is None:
            raise UserError("请用 --player 指定棋手序号", "give --player")
        result = forfeit(db, group, args.round, args.player, args.kind, args.reason)
    print(f"{args.player} 号第 {args.round} 轮：{result.zh}")
    return 0


def cmd_withdraw(args: argparse.Namespace) -> int:
    from app.services.registration import withdraw_player

    with _open(args.file) as db:
        group = _group(db, args.group)
        withdraw_player(db, _player_id(db, group, args.player), reason=args.reason)
    print(f"{args.player} 号已退赛（已赛成绩有效）")
    return 0


def cmd_disqualify(args: argparse.Namespace) -> int:
    from app.services.discipline import disqualify

    with _open(args.file) as db:
        group = _group(db, args.group)
        disqualify(db, group, args.player, args.games, args.reason)
    how = "已赛对局有效" if args.games == "stand" else "已赛对局作废（对手按弃权胜计）"
    print(f"{args.player} 号已取消成绩，{how}")
    return 0


def cmd_hand_in(args: argparse.Namespace) -> int:
    from app.services.records import designate_records, hand_in_record

    with _open(args.file) as db:
        if args.designate:
            designate_records(db, args.group, args.round, args.designate)
            print(f"第 {args.round} 轮指定录谱：第 {'、'.join(map(str, args.designate))} 台")
        if args.board is not None:
            if args.moves is None:
                raise UserError("请用 --moves 给出棋谱的回合数", "give the record's move count with --moves")
            found = hand_in_record(db, args.group, args.round, args.board, args.moves)
            print(f"第 {args.round} 轮第 {args.board} 台棋谱已交（{args.moves} 回合）")
            for v in found:
                print(f"犯规：{v.player_no} 号 {v.reason}")
    return 0


def cmd_records_due(args: argparse.Namespace) -> int:
    from app.services.records import record_duty_list

    with _open(args.file, read_only=True) as db:
        lines = record_duty_list(db, args.group, args.round)
    for ln in lines:
        print(
            f"第{ln.board:>2}台 {ln.recorder_no:>4} {ln.recorder_name:<6} {'已交' if ln.received else '未交'}  {ln.reason}"
        )
    return 0


# --------------------------------------------------------------------------- simulation and checking


def _peak_memory_mb() -> float | None:
    """The process's peak resident memory (not traced: tracing would slow the timed rounds)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    scale = 1 if sys.platform == "darwin" else 1024
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20, 1)


def cmd_simulate(args: argparse.Namespace) -> int:
    from app.engine.simulation import SimulatedEvent

    event = SimulatedEvent(args.players, args.seed, teams=args.teams, forfeit_rate=args.forfeit_rate)
    seconds = []
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        event.play_round()
        seconds.append(time.perf_counter() - t0)
    q = event.quality()
    data = {
        "players": args.players,
        "rounds": args.rounds,
        "seed": args.seed,
        "rematches": q.rematches,
        "h3_breaks": q.h3_breaks,
        "double_byes": q.double_byes,
        "paired_outside_score_group": q.paired_outside_group,
        "score_difference_sum": q.score_difference_sum,
        "unbalanced_finishers": q.unbalanced_finishers,
        "seconds_per_round": [round(x, 4) for x in seconds],
        "seconds_mean": round(sum(seconds) / len(seconds), 4) if seconds else 0.0,
        "peak_memory_mb": _peak_memory_mb(),
    }
    if args.json:
        _print_json(data)
    else:
        for k, v in data.items():
            print(f"{k}: {v}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from app.engine.pairing.history import Entrant
    from app.engine.regulations import regulations_from_dict
    from app.engine.simulation import check_event
    from app.engine.types import Game, GameResult, RoundRecord
    from app.services.snapshot import read_snapshot_file

    data = read_snapshot_file(Path(args.snapshot))
    try:
        reg = regulations_from_dict(data["tournament"]["settings"])
        groups = [g["name"] for g in data["groups"]]
    except (KeyError, TypeError):
        raise UserError("快照缺少赛事设置或组别", "the snapshot lacks settings or groups") from None
    findings_total = 0
    for group in groups:
        players = [p for p in data.get("players", []) if p.get("group") == group and p.get("no") is not None]
        rounds = sorted(
            (r for r in data.get("rounds", []) if r.get("group") == group), key=lambda r: r["round"]
        )
        records, seeds = [], []
        for r in rounds:
            games = tuple(
                Game(g["board"], g["red"], g["black"], GameResult(g["result"]))
                for g in r.get("games", [])
                if g.get("kind", "swiss") == "swiss"
            )
            if not games and not r.get("byes"):
                continue
            records.append(RoundRecord(r["round"], games, tuple(r.get("byes", []))))
            seeds.append(r.get("seed"))
        entrants = [Entrant(p["no"], p.get("team"), p.get("rating")) for p in players]
        findings = check_event(entrants, records, reg.pairing, seeds, reg.points)
        findings_total += len(findings)
        print(f"{group}：{len(records)} 轮，{len(findings)} 处差异或违规")
        for f in findings:
            print(f"  第{f.round}轮 {f.kind.value}: {f.zh}")
    return 0 if findings_total == 0 else 1


def add_event_commands(sub: Any) -> None:
    p = sub.add_parser("pair", help="pair the group's next Swiss round / 编排下一轮")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--seed", type=int, default=None)
    p.set_defaults(func=cmd_pair)

    p = sub.add_parser("unpair", help="delete a round's pairing (before any result)")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--round", type=int, required=True)
    p.set_defaults(func=cmd_unpair)

    p = sub.add_parser("why", help="why a player got this opponent and colour")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--player", type=int, required=True)
    p.set_defaults(func=cmd_why)

    p = sub.add_parser("standings", help="standings / 名次")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--after-round", type=int, default=None)
    p.add_argument("--final", action="store_true", help="the final ranking (knockout places first)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_standings)

    p = sub.add_parser("why-above", help="why player A ranks above player B")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--after-round", type=int, default=None)
    p.add_argument("a", type=int)
    p.add_argument("b", type=int)
    p.set_defaults(func=cmd_why_above)

    p = sub.add_parser("teams", help="team ranking / 团体名次")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_teams)

    p = sub.add_parser("prizes", help="every prize with recipient and amount / 奖励")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_prizes)

    p = sub.add_parser("knockout", help="create the knockout bracket after the split round")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.set_defaults(func=cmd_knockout)

    p = sub.add_parser("draw-colours", help="colour lot of a knockout round (or a physical draw)")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--manual", nargs="*", metavar="MATCH=red_no")
    p.set_defaults(func=cmd_draw_colours)

    p = sub.add_parser("choose-colour", help="the higher seed's colour for the deciding game")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--match", required=True)
    p.add_argument("colour", choices=["red", "black"])
    p.set_defaults(func=cmd_choose_colour)

    p = sub.add_parser("bracket", help="the knockout bracket / 淘汰赛对阵")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bracket)

    p = sub.add_parser("violation", help="record a violation (犯规) with a reason")
    p.add_argument("file")
    p.add_argument("--group", default=None)
    p.add_argument("--player", type=int, required=True)
    p.add_argument("--round", type=int, required=True)
    p.add_argument(
        "--kind",
        default="other",
        help="refused_record, short_draw_record, other (also phone, late, left_table: see forfeit)",
    )
    p.add_argument("--reason", required=True)
    p.set_defaults(func=cmd_violation)

    p = sub.add_parser("forfeit", help="late / left the table / phone (判负), or an agreed result")
    p.add_argument("file")
    p.add_argument("--group", default=None)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--player", type=int, default=None)
    p.add_argument("--board", type=int, default=None)
    p.add_argument("--kind", choices=["late", "left_table", "phone", "agreed"], required=True)
    p.add_argument("--reason", default="")
    p.set_defaults(func=cmd_forfeit)

    p = sub.add_parser("withdraw", help="withdraw a player (退赛): results stand")
    p.add_argument("file")
    p.add_argument("--group", default=None)
    p.add_argument("--player", type=int, required=True)
    p.add_argument("--reason", required=True)
    p.set_defaults(func=cmd_withdraw)

    p = sub.add_parser("disqualify", help="disqualify (取消成绩): games stand or are annulled")
    p.add_argument("file")
    p.add_argument("--group", default=None)
    p.add_argument("--player", type=int, required=True)
    p.add_argument("--games", choices=["stand", "annul"], required=True)
    p.add_argument("--reason", required=True)
    p.set_defaults(func=cmd_disqualify)

    p = sub.add_parser("hand-in", help="a paper record handed in (with its move count), or designate boards")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--round", type=int, required=True)
    p.add_argument("--board", type=int, default=None)
    p.add_argument("--moves", type=int, default=None, help="回合 (full moves) of the record")
    p.add_argument("--designate", type=int, nargs="*", default=None, help="boards whose winners must record")
    p.set_defaults(func=cmd_hand_in)

    p = sub.add_parser("records-due", help="who owes which game record (录谱) in a round")
    p.add_argument("file")
    p.add_argument("--group", required=True)
    p.add_argument("--round", type=int, required=True)
    p.set_defaults(func=cmd_records_due)

    p = sub.add_parser("simulate", help="play a random event and print the pairing quality figures")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--rounds", type=int, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--teams", action="store_true")
    p.add_argument("--forfeit-rate", type=float, default=0.0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "check", help="re-pair every round of a snapshot and report differences and hard-rule breaks"
    )
    p.add_argument("snapshot")
    p.set_defaults(func=cmd_check)
