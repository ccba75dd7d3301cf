"""Ranking commands: standings, why A is above B, teams, prizes."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.cli.common import PLAYER_NO, ROUND, hosting, open_file, print_json

#: a tiebreak column of the text standings: its width (前轮成绩 has no column: it re-applies the chain)
_COLUMN_WIDTH = {
    "opponent_score": 4,
    "progressive": 4,
    "wins": 2,
    "violations": 1,
    "black_games": 2,
    "black_wins": 2,
}


def cmd_standings(args: argparse.Namespace) -> int:
    from app.services.faststandings import standings_lite

    # read through sqlite3 without SQLAlchemy (half the command at 5,000 players); anything else — an
    # older file, a refusal, run by the file's owner for a client — through the full services
    view = (
        standings_lite(Path(args.file), args.group, args.after_round, final=args.final)
        if hosting() is None
        else None
    )
    if view is None:
        from app.services.standings import final_standings, standings_view

        with open_file(args.file, read_only=True) as db:
            # no option: the final ranking once the group is over, as the hall and the printed 名次表 say
            view = (
                final_standings(db, args.group)
                if args.final
                else standings_view(db, args.group, args.after_round)
            )
    if args.json:
        print_json([line.as_json() for line in view.lines])
        return 0
    print(f"{view.group} {view.title_zh}（{view.chain_zh}）")
    if view.note_zh:
        print(f"注：{view.note_zh}")
    columns = [t for t in view.chain if t.value in _COLUMN_WIDTH]  # the chain's own columns, in its order
    for ln in view.lines:
        values = ln.standing.tiebreak_values()
        shown = " ".join(f"{t.zh}{values.get(t.value, 0):>{_COLUMN_WIDTH[t.value]}}" for t in columns)
        print(
            f"{ln.rank:>3} {ln.no:>4} {ln.name:<6} {ln.unit:<8} {ln.score:>3} {shown}  {ln.separated_by_zh}"
        )
    for no, name in view.disqualified:
        print(f"取消成绩：{no} {name}")
    if view.decided_by_sequence_number:
        print("注：有名次在所有区分办法均相同后按序号排定")
    return 0


def cmd_why_above(args: argparse.Namespace) -> int:
    from app.services.standings import why_above

    with open_file(args.file, read_only=True) as db:
        print(why_above(db, args.group, args.a, args.b, args.after_round, final=args.final))
    return 0


def cmd_teams(args: argparse.Namespace) -> int:
    from app.services.standings import team_standings

    with open_file(args.file, read_only=True) as db:
        view = team_standings(db, args.group)
    rows = [
        {
            "rank": t.rank,
            "team": t.team,
            "members": [
                {
                    "no": no,
                    "name": view.names[no],
                    "place": place,
                    **({"points": pts} if view.by_points else {}),
                }
                for (no, place), pts in zip(t.members, t.member_points or (0,) * len(t.members), strict=True)
            ],
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
        print_json(
            {
                "group": view.group,
                "final": view.final,
                "method": view.rules.method.value,
                "ranked": rows,
                "unranked": unranked,
            }
        )
        return 0
    print(f"{view.group} 团体名次{'' if view.final else '（暂列）'}（{view.rule_zh}）")
    for r in rows:
        members = "、".join(
            f"{m['name']}({m['place']}{'，' + str(m['points']) + '分' if 'points' in m else ''})"  # type: ignore[index]
            for m in r["members"]  # type: ignore[union-attr]
        )
        total = "积分和" if view.by_points else "合计"
        print(f"{r['rank']:>3} {r['team']:<8} {members}  {total} {r['total']}  最好 {r['best_place']}")
    for u in unranked:
        print(f"不计名次：{u['team']}（{u['reason']}）")
    return 0


def cmd_prizes(args: argparse.Namespace) -> int:
    from app.services.standings import prize_list

    with open_file(args.file, read_only=True) as db:
        view = prize_list(db)
    tables: list[dict[str, Any]] = []
    for t in view.prizes.tables:
        basis = view.basis.get(t.table.group)
        final = basis is None or basis.final
        lines: list[dict[str, Any]] = []
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
                "final": final,  # False: 暂列, the group is not over; the winners may still change
                "basis": "最终名次" if basis is None else basis.zh,
                "basis_en": "final ranking" if basis is None else basis.en,
                "prizes": lines,
            }
        )
    if args.json:
        print_json(
            {
                "final": all(t["final"] for t in tables),
                "tables": tables,
                "grand_total": view.prizes.grand_total,
                "grand_awarded": view.prizes.grand_awarded,
            }
        )
        return 0
    for table in tables:
        mark = "" if table["final"] else "（暂列）"
        print(f"{table['table']}{mark}（合计 {table['total']} 元）")
        if not table["final"]:
            print(f"  {table['basis']}，比赛结束前获奖者和奖金都可能变化")
        for p in table["prizes"]:
            who = p["team"] or (f"{p['no']} {p['name']}" if p["no"] is not None else "（空缺）")
            print(f"  第{p['place']:>2}名 {who:<12} {p['amount']:>6} 元")
    print(f"总计 {view.prizes.grand_total} 元")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("standings", help="standings with every tiebreak / 名次")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument(
        "--after-round",
        type=ROUND,
        default=None,
        help="the Swiss standings after this round (default: the final ranking once the group is over, "
        "else after the last round with every result in)",
    )
    p.add_argument(
        "--final",
        action="store_true",
        help="the final ranking (knockout places first; each place explained against the next one)",
    )
    p.add_argument("--json", action="store_true", help="print the lines as JSON")
    p.set_defaults(func=cmd_standings)

    p = sub.add_parser("why-above", help="why player A ranks above player B / 名次说明")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument(
        "--after-round",
        type=ROUND,
        default=None,
        help="compare in the standings after this round (default: the last round with every result in)",
    )
    p.add_argument(
        "--final", action="store_true", help="compare in the final ranking (knockout places first)"
    )
    p.add_argument("a", type=PLAYER_NO, help="player A's sequence number (序号)")
    p.add_argument("b", type=PLAYER_NO, help="player B's sequence number (序号)")
    p.set_defaults(func=cmd_why_above)

    p = sub.add_parser("teams", help="team ranking / 团体名次")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--group", required=True, help="the group (组别)")
    p.add_argument("--json", action="store_true", help="print the ranking as JSON")
    p.set_defaults(func=cmd_teams)

    p = sub.add_parser("prizes", help="every prize with recipient and amount / 奖励")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("--json", action="store_true", help="print the prize tables as JSON")
    p.set_defaults(func=cmd_prizes)
