"""Team competition commands (团体赛): registered order, team numbers, pairing, line-ups, results by board
with the match score read back, tie-break games, no-shows, the round's matches, standings and board prizes.
"""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.common import BOARD, ROUND, SEED, add_take_over, bounded, open_file, print_json, writing
from app.engine.types import GameResult

MATCH = bounded("场次", "match", 1, 9_999)


def _result(text: str) -> GameResult:
    aliases = {"-+": "red_forfeit", "--": "double_forfeit", "0": "pending", "?": "pending"}
    return GameResult.from_code(aliases.get(text, text))


def _names(text: str) -> list[str]:
    return [x.strip() for x in text.replace("，", ",").replace("、", ",").split(",") if x.strip()]


def cmd_team_roster(args: argparse.Namespace) -> int:
    from app.services.team_events import set_roster

    with writing(args) as db:
        set_roster(db, args.group, args.team, _names(args.order), _names(args.reserves or ""))
    print(f"{args.team} 报名顺序已记录")
    return 0


def cmd_team_details(args: argparse.Namespace) -> int:
    from app.services.team_events import set_team_details

    with writing(args) as db:
        set_team_details(
            db, args.group, args.team, captain=args.captain, leader=args.leader, seed_rank=args.last_season
        )
    print(f"{args.team} 已更新")
    return 0


def cmd_team_numbers(args: argparse.Namespace) -> int:
    from app.services.team_events import draw_team_numbers, teams_of

    with writing(args) as db:
        numbers = draw_team_numbers(db, args.group, seed=args.seed)
        teams = teams_of(db, args.group)
    if args.json:
        print_json({"numbers": numbers, "teams": [_team_json(t) for t in teams]})
        return 0
    for t in teams:
        players = "、".join(f"{p.no}{p.name}{'（替补）' if p.reserve else ''}" for p in t.roster)
        print(f"{t.no:>3}号 {t.name}：{players}")
    return 0


def _team_json(t: Any) -> dict[str, Any]:
    return {
        "no": t.no,
        "name": t.name,
        "captain": t.captain,
        "leader": t.leader,
        "last_season": t.seed_rank,
        "roster": [{"no": p.no, "name": p.name, "order": p.order, "reserve": p.reserve} for p in t.roster],
    }


def cmd_teams_list(args: argparse.Namespace) -> int:
    from app.services.team_events import teams_of

    with open_file(args.file, read_only=True) as db:
        teams = teams_of(db, args.group)
    if args.json:
        print_json([_team_json(t) for t in teams])
        return 0
    for t in teams:
        players = "、".join(f"{p.no or '-'} {p.name}{'（替补）' if p.reserve else ''}" for p in t.roster)
        print(f"{t.label}  队长 {t.captain or '—'}  领队 {t.leader or '—'}：{players}")
    return 0


def cmd_team_pair(args: argparse.Namespace) -> int:
    from app.services.team_events import pair_team_round

    with writing(args) as db:
        outcome = pair_team_round(db, args.group, seed=args.seed)
    if args.json:
        print_json(
            {
                "round": outcome.number,
                "seed": outcome.seed,
                "matches": [{"home": h, "away": a} for h, a in outcome.matches],
                "bye": outcome.bye,
            }
        )
    else:
        print(f"{outcome.group}第 {outcome.number} 轮（种子 {outcome.seed}）")
        for i, (home, away) in enumerate(outcome.matches, start=1):
            print(f"  第 {i} 场  {home}（主）— {away}（客）")
        if outcome.bye:
            print(f"  轮空：{outcome.bye}")
    if outcome.warning:
        print(outcome.warning)
    return 0


def cmd_team_unpair(args: argparse.Namespace) -> int:
    from app.services.team_events import unpair_team_round

    with writing(args) as db:
        unpair_team_round(db, args.group, args.round)
    print(f"第 {args.round} 轮编排已撤销")
    return 0


def cmd_lineup(args: argparse.Namespace) -> int:
    from datetime import datetime

    from app.services.team_events import hand_in_lineup, round_lineup_deadline

    players: list[int | str | None] = [None if p in ("-", "空") else p for p in args.players]
    now = datetime.now().replace(microsecond=0)
    with writing(args) as db:
        nos = hand_in_lineup(
            db,
            args.group,
            args.round,
            args.team,
            players,
            handed_in_by=args.by or "",
            now=now,
            override=args.override,
        )
        deadline = round_lineup_deadline(db, args.group, args.round)
    if args.override.strip() and deadline is not None and deadline.passed(now):
        print(f"迟交排阵经裁判长放行（理由：{args.override}），已记入审计日志")
    print(
        f"{args.team} 第 {args.round} 轮排阵："
        + "  ".join(f"{i}台 {n or '空'}" for i, n in enumerate(nos, 1))
    )
    return 0


def cmd_team_seat(args: argparse.Namespace) -> int:
    from app.services.team_events import seat_team_round

    with writing(args) as db:
        notes = seat_team_round(db, args.group, args.round)
    for note in notes:
        print(note)
    print(f"第 {args.round} 轮对阵单已生成")
    return 0


def cmd_team_result(args: argparse.Namespace) -> int:
    from app.services.team_events import enter_board_result, enter_tie_game

    with writing(args) as db:
        if args.tie:
            score = enter_tie_game(
                db, args.group, args.round, args.match, args.board, _result(args.result), red=args.red
            )
        else:
            score = enter_board_result(
                db, args.group, args.round, args.match, args.board, _result(args.result)
            )
    print(_score_line(args.match, score))
    return 0


def cmd_team_results(args: argparse.Namespace) -> int:
    """Every board of a match at once, board 1 first (the score sheet read across)."""
    from app.services.team_events import enter_board_result

    score = None
    with writing(args) as db:
        for board, code in enumerate(args.results, start=1):
            if code in ("x", "空"):
                continue
            score = enter_board_result(db, args.group, args.round, args.match, board, _result(code))
    if score is not None:
        print(_score_line(args.match, score))
    return 0


def _score_line(match: int, score: Any) -> str:
    """``第 1 场 局分 5:3，场分 2:0（主队胜）`` — the match score read back after an entry."""
    reason = str(score.reason_zh).removeprefix(f"局分 {score.label}，")
    if score.decided:
        mp = f"场分 {score.home_match_points}:{score.away_match_points}"
        return f"第 {match} 场 局分 {score.label}，{mp}（{reason}）"
    return f"第 {match} 场 局分 {score.label}（{reason}）"


def cmd_team_absent(args: argparse.Namespace) -> int:
    from app.engine.team_match import Side
    from app.services.team_events import set_team_absent

    with writing(args) as db:
        score = set_team_absent(
            db, args.group, args.round, args.match, Side(args.side), not args.undo, reason=args.reason or ""
        )
    print(_score_line(args.match, score))
    return 0


def cmd_team_round(args: argparse.Namespace) -> int:
    from datetime import datetime

    from app.services.team_events import round_lineup_deadline, team_round_view

    with open_file(args.file, read_only=True) as db:
        view = team_round_view(db, args.group, args.round)
        deadline = round_lineup_deadline(db, args.group, args.round)
    if args.json:
        out = _round_json(view)
        out["lineup_deadline"] = None if deadline is None else deadline.at.isoformat(" ")
        print_json(out)
        return 0
    print(f"{view.group}第 {view.number} 轮（每场 {view.boards_per_match} 台，{view.tie_rule_zh}）")
    if deadline is not None:
        print(deadline.status_zh(datetime.now()))
    for m in view.matches:
        if m.bye:
            print(f"第 {m.number} 场  {m.home} 轮空")
            continue
        print(f"第 {m.number} 场  {m.home}（主）— {m.away}（客）  {m.score_label}")
        for b in m.boards:
            home = f"{b.home.no or ''} {b.home.name or '空'}"
            away = f"{b.away.no or ''} {b.away.name or '空'}"
            red, black = (home, away) if b.home_red else (away, home)
            pts = "" if b.points is None else f"{b.points[0]}:{b.points[1]}"
            print(f"  {b.table:>3}台（第{b.board}台） 红 {red} — 黑 {black}  {b.result.zh or '待赛'} {pts}")
            for t in b.ties:
                print(
                    f"        加赛{t.number} {t.kind_zh}{t.time_control} 红 {t.red.no} — 黑 {t.black.no} {t.result.zh}"
                )
            if b.due is not None:
                print(f"        待加赛：第{b.due.number}局 {b.due.kind.zh} {b.due.time_control.label}")
    return 0


def _round_json(view: Any) -> dict[str, Any]:
    return {
        "group": view.group,
        "round": view.number,
        "boards_per_match": view.boards_per_match,
        "matches": [
            {
                "match": m.number,
                "home": m.home,
                "away": m.away,
                "bye": m.bye,
                "seated": m.seated,
                "lineups_in": list(m.lineups_in),
                "home_absent": m.home_absent,
                "away_absent": m.away_absent,
                "score": None
                if m.score is None
                else {
                    "game_points": [m.score.home_points, m.score.away_points],
                    "match_points": [m.score.home_match_points, m.score.away_match_points],
                    "decided": m.score.decided,
                    "reason": m.score.reason_zh,
                },
                "boards": [
                    {
                        "table": b.table,
                        "board": b.board,
                        "home": b.home.no,
                        "away": b.away.no,
                        "home_red": b.home_red,
                        "result": b.result.value,
                        "points": None if b.points is None else list(b.points),
                        "tie_games": [
                            {
                                "game": t.number,
                                "kind": t.kind_zh,
                                "red": t.red.no,
                                "black": t.black.no,
                                "result": t.result.value,
                            }
                            for t in b.ties
                        ],
                    }
                    for b in m.boards
                ],
            }
            for m in view.matches
        ],
    }


def cmd_team_close(args: argparse.Namespace) -> int:
    from app.services.team_events import close_team_round

    with writing(args) as db:
        warning = close_team_round(db, args.group, args.round)
    print(f"第 {args.round} 轮已结束")
    if warning:
        print(warning)
    return 0


def cmd_team_playoff(args: argparse.Namespace) -> int:
    from app.services.team_events import set_playoff

    with writing(args) as db:
        set_playoff(db, args.group, args.teams)
    print("加赛名次已记录：" + " > ".join(args.teams))
    return 0


def cmd_team_standings(args: argparse.Namespace) -> int:
    from app.services.team_events import team_standings_view

    with open_file(args.file, read_only=True) as db:
        view = team_standings_view(db, args.group)
    rows = [
        {
            "rank": r.rank,
            "no": r.team,
            "team": view.names[r.team],
            "match_points": r.match_points,
            "game_points": r.game_points,
            "won": r.won,
            "drawn": r.drawn,
            "lost": r.lost,
            "tiebreaks": {t.value: v for t, v in r.values},
            "separated_by": None if r.separated_by is None else r.separated_by.value,
            "by_team_number": r.by_number,
        }
        for r in view.ranking.rows
    ]
    prizes = [
        {
            "board": p.board,
            "rank": p.rank,
            "no": p.player,
            "name": view.player_names.get(p.player, ""),
            "team": view.names.get(p.team, ""),
            "games": p.games,
            "points": p.points,
            "percentage": p.percentage_label,
            "eligible": p.eligible,
        }
        for p in view.board_prizes
    ]
    if args.json:
        print_json(
            {
                "group": view.group,
                "final": view.final,
                "rounds": [view.rounds_played, view.total_rounds],
                "standings": rows,
                "playoff_needed": [[view.names[t] for t in g] for g in view.ranking.playoff_needed],
                "board_prizes": prizes,
                "hard_rule_breaks": list(view.breaks),
            }
        )
        return 0
    print(f"{view.group} 团体名次{'' if view.final else f'（暂列：{view.rounds_played} 轮后）'}")
    chain = "、".join(t.zh for t in view.chain)
    print(f"  依次比较：场分、{chain}")
    for r in rows:
        tb = " ".join(f"{k}={v}" for k, v in r["tiebreaks"].items() if v != "")  # type: ignore[union-attr]
        print(
            f"{r['rank']:>3} {r['no']:>3}号 {r['team']:<8} 场分 {r['match_points']:>3} 局分 {r['game_points']:>4}  "
            f"胜{r['won']} 和{r['drawn']} 负{r['lost']}  {tb}"
        )
    for g in view.ranking.playoff_needed:
        print("须加赛决定名次：" + "、".join(view.names[t] for t in g))
    print(f"台次奖（每台至少 {view.min_games} 局）：")
    for p in prizes:
        if p["rank"] == 1 and p["eligible"]:
            print(
                f"  第 {p['board']} 台：{p['name']}（{p['team']}） {p['points']} 分 / {p['games']} 局 {p['percentage']}"
            )
    return 0


def register(sub: Any) -> None:
    def base(name: str, help_text: str, *, write: bool = True) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = sub.add_parser(name, help=help_text)
        p.add_argument("file", help="the tournament file (.xqt)")
        p.add_argument("--group", required=True, help="the team group (组别)")
        if write:
            add_take_over(p)
        return p

    p = base("team-roster", "a team's registered order, reserves last / 报名顺序")
    p.add_argument("--team", required=True, help="the team (name or number)")
    p.add_argument("--order", required=True, help="the players' names in order, comma-separated")
    p.add_argument("--reserves", default="", help="the reserves' names (替补), comma-separated")
    p.set_defaults(func=cmd_team_roster)

    p = base("team-details", "a team's captain, leader and earlier season's rank / 队长、领队、上届名次")
    p.add_argument("--team", required=True, help="the team (name or number)")
    p.add_argument("--captain", default=None, help="the captain (队长)")
    p.add_argument("--leader", default=None, help="the leader (领队)")
    p.add_argument(
        "--last-season",
        type=bounded("上届名次", "last season's rank", 1, 999),
        default=None,
        help="the team's rank in the earlier season (上届名次: seeds a knockout and a seeded draw)",
    )
    p.set_defaults(func=cmd_team_details)

    p = base("team-numbers", "draw the team numbers (and number the players) / 抽队号")
    p.add_argument("--seed", type=SEED, default=None, help="the lot's seed (default: a new one, recorded)")
    p.add_argument("--json", action="store_true", help="print the teams as JSON")
    p.set_defaults(func=cmd_team_numbers)

    p = base("team-list", "the teams with their registered players / 参赛队", write=False)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_teams_list)

    p = base("team-pair", "pair the next team round / 团体编排")
    p.add_argument("--seed", type=SEED, default=None, help="the pairing's seed (default: a new one)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_team_pair)

    p = base("team-unpair", "delete the last team round before any result / 撤销团体编排")
    p.add_argument("--round", type=ROUND, required=True, help="the round (轮次)")
    p.set_defaults(func=cmd_team_unpair)

    p = base("lineup", "hand in a team's line-up for a round / 排阵")
    p.add_argument("--round", type=ROUND, required=True, help="the round (轮次)")
    p.add_argument("--team", required=True, help="the team (name or number)")
    p.add_argument("--by", default=None, help="who handed it in (default: the captain)")
    p.add_argument(
        "--override",
        default="",
        metavar="REASON",
        help="accept a line-up after the regulation's deadline (排阵截止), with the chief arbiter's reason (logged)",
    )
    p.add_argument("players", nargs="+", help="board 1, 2 …: a player's number or name, - for an empty board")
    p.set_defaults(func=cmd_lineup)

    p = base("team-seat", "set the round's boards (missing line-ups by the rule) / 生成对阵单")
    p.add_argument("--round", type=ROUND, required=True, help="the round (轮次)")
    p.set_defaults(func=cmd_team_seat)

    p = base(
        "team-result", "a board's result (or a tie-break game) with the match score read back / 录入台次成绩"
    )
    p.add_argument("--round", type=ROUND, required=True, help="the round (轮次)")
    p.add_argument("--match", type=MATCH, required=True, help="the match (场次) in the round")
    p.add_argument("--board", type=BOARD, required=True, help="the board in the match (1 …)")
    p.add_argument("--tie", action="store_true", help="the board's next tie-break game (加赛)")
    p.add_argument(
        "--red", type=bounded("执红者", "Red", 1, 999_999), default=None, help="a chosen colour: Red's number"
    )
    p.add_argument("result", help="1-0, 0-1, =, +-, -+, -- (Red's view), or 0 to clear")
    p.set_defaults(func=cmd_team_result)

    p = base("team-results", "every board of a match, board 1 first / 一场各台成绩")
    p.add_argument("--round", type=ROUND, required=True, help="the round (轮次)")
    p.add_argument("--match", type=MATCH, required=True, help="the match (场次) in the round")
    p.add_argument("results", nargs="+", help="one result per board (Red's view); x for an empty board")
    p.set_defaults(func=cmd_team_results)

    p = base("team-absent", "a team that did not appear (every board forfeited) / 未到场")
    p.add_argument("--round", type=ROUND, required=True, help="the round (轮次)")
    p.add_argument("--match", type=MATCH, required=True, help="the match (场次) in the round")
    p.add_argument("--side", choices=["home", "away"], required=True, help="the team that did not appear")
    p.add_argument("--reason", default="", help="why (logged)")
    p.add_argument("--undo", action="store_true", help="take it back")
    p.set_defaults(func=cmd_team_absent)

    p = base("team-round", "a round's matches with the boards under each / 团体对阵", write=False)
    p.add_argument("--round", type=ROUND, required=True, help="the round (轮次)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_team_round)

    p = base("team-close", "close a team round once every match is decided / 结束本轮")
    p.add_argument("--round", type=ROUND, required=True, help="the round (轮次)")
    p.set_defaults(func=cmd_team_close)

    p = base("team-playoff", "the order of a play-off between tied teams / 加赛名次")
    p.add_argument("teams", nargs="+", help="the teams, first to last")
    p.set_defaults(func=cmd_team_playoff)

    p = base("team-standings", "team standings with 场分/局分 and board prizes / 团体名次", write=False)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_team_standings)


__all__ = ["register"]
