"""Quality tools: simulate a random event, check a snapshot's pairings."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from app.cli.common import SEED, bounded, fraction, print_json
from app.engine.types import UserError


def _peak_memory_mb() -> float | None:
    """The process's peak resident memory (not traced: tracing would slow the timed rounds)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    scale = 1 if sys.platform == "darwin" else 1024
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale / 2**20, 1)


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.format is not None and args.format.startswith("team-"):
        return _simulate_team_format(args)
    if args.format is not None:
        return _simulate_format(args)
    if args.players is None or args.rounds is None:
        raise UserError(
            "simulate 须给出 --players 和 --rounds（或用 --format 模拟一种完整赛制）",
            "simulate needs --players and --rounds (or --format to play a whole format)",
        )
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
        "missed_due_colours": q.missed_due_colours,
        "order_cost": q.order_cost,
        "largest_order_cost": q.largest_order_cost,
        "long_floats": q.long_floats,
        "rounds_not_proved_optimal": q.unproved_rounds,
        "seconds_per_round": [round(x, 4) for x in seconds],
        "seconds_mean": round(sum(seconds) / len(seconds), 4) if seconds else 0.0,
        "peak_memory_mb": _peak_memory_mb(),
    }
    if args.json:
        print_json(data)
    else:
        for k, v in data.items():
            print(f"{k}: {v}")
    return 0


def _simulate_format(args: argparse.Namespace) -> int:
    from app.engine.format_presets import DEFAULT_SWISS_ROUNDS
    from app.services.format_demo import simulate_format

    if args.rounds is not None and args.format != "swiss":
        raise UserError(
            f"赛制 {args.format} 的轮次由人数决定，不能用 --rounds 指定（只有 swiss 可以）",
            f"the rounds of {args.format} follow from the players: --rounds is for swiss only",
        )
    t0 = time.perf_counter()
    report = simulate_format(
        args.format,
        players=args.players,
        rounds=args.rounds or (DEFAULT_SWISS_ROUNDS if args.format == "swiss" else None),
        seed=args.seed,
        forfeit_rate=args.forfeit_rate,
    )
    report["seconds"] = round(time.perf_counter() - t0, 2)
    if args.json:
        print_json(report)
    else:
        print(
            f"赛制 {report['format']}：{report['players']} 人，{report['rounds']} 轮，种子 {report['seed']}"
        )
        for st in report["stages"]:
            print(
                f"  第{st['stage']}阶段 {st['kind']}：第 {st['rounds'][0]}–{st['rounds'][1]} 轮，{st['entrants']} 人"
            )
        print(f"违反硬性规则：{report['hard_rule_breaks']}")
        for line in report["breaks"]:
            print(f"  {line}")
        print(
            f"轮空 {report['byes']} 次（循环赛轮空 {report['round_robin_rests']} 次），淘汰赛对局 {report['knockout_games']} 局"
        )
        c = report["colours"]
        print(
            f"先后手：最多执红 {c['most_red']} 局，最多执黑 {c['most_black']} 局，红黑之差最大 {c['largest_difference']}"
        )
        print(
            "最终名次：" + "、".join(f"{r['place']}.{r['no']}号{r['name']}" for r in report["final_ranking"])
        )
    return 0 if report["hard_rule_breaks"] == 0 else 1


def _simulate_team_format(args: argparse.Namespace) -> int:
    from app.services.team_demo import simulate_team_format

    if args.rounds is not None and args.format != "team-swiss":
        raise UserError(
            f"团体赛制 {args.format} 的轮次由队数决定，不能用 --rounds 指定（只有 team-swiss 可以）",
            f"the rounds of {args.format} follow from the teams: --rounds is for team-swiss only",
        )
    if args.players is not None:
        raise UserError(
            "团体赛制用 --team-count 指定队数，不用 --players",
            "a team format takes --team-count, not --players",
        )
    t0 = time.perf_counter()
    report = simulate_team_format(
        args.format, teams=args.team_count, rounds=args.rounds, seed=args.seed, absent_rate=args.forfeit_rate
    )
    report["seconds"] = round(time.perf_counter() - t0, 2)
    if args.json:
        print_json(report)
    else:
        print(
            f"团体赛制 {report['format']}：{report['teams']} 队，每场 {report['boards']} 台，{report['rounds']} 轮"
        )
        print(f"违反硬性规则：{report['hard_rule_breaks']}")
        for line in report["breaks"]:
            print(f"  {line}")
        print(
            f"轮空 {report['byes']} 次，第一台加赛决定 {report['matches_decided_by_a_board_ladder']} 场，"
            f"加赛 {report['tie_break_games']} 局"
        )
        print(
            "最终名次："
            + "、".join(
                f"{r['place']}.{r['team']}（场分{r['match_points']}）" for r in report["final_ranking"]
            )
        )
    return 0 if report["hard_rule_breaks"] == 0 else 1


def cmd_check(args: argparse.Namespace) -> int:
    from app.engine.attendance import attendances, with_absences
    from app.engine.pairing.constraints import RoundConstraints
    from app.engine.pairing.history import Entrant
    from app.engine.regulations import regulations_from_dict
    from app.engine.simulation import check_event
    from app.engine.types import Game, GameResult, RoundRecord
    from app.services.pairing_plan import constraints_from_rows
    from app.services.snapshot import checked_snapshot, read_snapshot_file

    data = checked_snapshot(read_snapshot_file(Path(args.snapshot)))
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
        # absences (请假, late entries' points) and avoidances: the snapshot's own keys, read as the
        # file's readers read them (the snapshot was checked whole above)
        excused = [(a["player"], a["round"]) for a in data["absences"] if a["group"] == group]
        late = {p["no"]: p.get("late_entry_round") for p in players}
        records = list(with_absences(records, attendances(late, excused), reg.pairing, reg.points))
        facts = [(p["no"], p.get("unit") or "", p.get("team") or "", p.get("region") or "") for p in players]
        named = [
            (v["first"], v["second"], v["strength"], v["from_round"], v["to_round"], v["reason"])
            for v in data["pair_avoidances"]
            if v["group"] == group
        ]

        def constraints_for(
            number: int, facts: list[Any] = facts, named: list[Any] = named
        ) -> RoundConstraints:
            return constraints_from_rows(reg, number, facts, named)

        annulled = {  # 取消成绩，已赛对局作废: counted as forfeits in every round paired after it
            p["no"]: p.get("status_round") or 1
            for p in players
            if p.get("status") == "disqualified" and p.get("dq_games") == "annul"
        }
        findings = check_event(entrants, records, reg.pairing, seeds, reg.points, constraints_for, annulled)
        findings_total += len(findings)
        print(f"{group}：{len(records)} 轮，{len(findings)} 处差异或违规")
        for f in findings:
            print(f"  第{f.round}轮 {f.kind.value}: {f.zh}")
    return 0 if findings_total == 0 else 1


def register(sub: Any) -> None:
    from app.engine.format_presets import FORMATS
    from app.engine.team_presets import TEAM_FORMATS

    p = sub.add_parser("simulate", help="play a random event and print the pairing quality figures / 模拟")
    p.add_argument(
        "--format",
        choices=sorted(FORMATS) + sorted(TEAM_FORMATS),
        default=None,
        help="play a whole event of this format through the services and check it (hard-rule breaks, byes, "
        "colours, final ranking)",
    )
    p.add_argument(
        "--players",
        type=bounded("人数", "players", 2, 20_000),
        default=None,
        help="number of players (2-20000; with --format a default per format)",
    )
    p.add_argument(
        "--rounds",
        type=bounded("轮数", "rounds", 1, 30),
        default=None,
        help="number of rounds (1-30; with --format only for swiss)",
    )
    p.add_argument("--seed", type=SEED, default=1, help="random seed: the same seed gives the same event")
    p.add_argument("--teams", action="store_true", help="put players in teams (round-1 team avoidance)")
    p.add_argument(
        "--team-count",
        type=bounded("队数", "teams", 2, 128),
        default=None,
        help="with a team format: the number of teams (a default per format); --forfeit-rate is then the "
        "share of matches a team does not appear for",
    )
    p.add_argument(
        "--forfeit-rate",
        type=fraction("弃权比例", "forfeit rate"),
        default=0.0,
        help="share of games forfeited (0–1)",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "check", help="re-pair every round of a snapshot and report differences and hard-rule breaks"
    )
    p.add_argument("snapshot", help="the snapshot JSON file (xqarbiter export)")
    p.set_defaults(func=cmd_check)
