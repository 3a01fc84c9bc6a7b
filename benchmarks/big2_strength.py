"""How strong a Big Two bot level is against another, and how long it thinks, on this machine.

Run: ``.venv/bin/python benchmarks/big2_strength.py [--level hard] [--against medium] [--games 600]
[--players 4] [--seed 1] [--json] [--set NAME=VALUE ...] [--jobs N] [--record FILE] [--first-deal N]``, or
``... big2_strength.py --join FILE FILE ... [--json]``

Plays one-deal games of one bot (``--level``: ``easy``, ``medium``, ``hard`` or ``reference``, the outside-style
heuristic of ``benchmarks/big2_reference.py``; ``hard`` unless told) against bots of another level (``--against``,
``medium`` unless told) in every other seat. Each deal is played once with the measured bot in every seat (a
*duplicate* deal: the same cards, the measured bot holding each hand in turn), so neither the seat nor the luck of
the cards favours it; the number of games is rounded up to whole deals, and the deals are the same for every pair
of levels. Prints the measured bot's share of wins with a 95% interval, its mean score, and the time of each of
its decisions that had a choice (median, 95th percentile, slowest), on the clock and in CPU time.

The interval is computed over deals (the mean of each deal's ``players`` games), not over games: the games of one
deal share its cards, so they are not independent draws. An equal player wins ``1 / players`` of the games.

``--first-deal N`` numbers the deals from ``N``, so a long run can be played in parts (``--games 200`` twice, the
second from deal 50); ``--join A.json B.json`` prints the figures of the parts' records as of one run (the same
games as one run over all the deals).

Everything is seeded: the same ``--seed`` gives the same games and the same wins (the bots count their budget in
playouts, not seconds); only the times change with the machine's load. So two variants of a bot (``--set
playouts=600``...) are best compared on the same seed, deal by deal: ``--record`` writes each game's outcome, in
the order played, beside the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Iterator
from typing import Any

from big2_reference import REFERENCE, make_level, seat_table

LEVELS = ("easy", "medium", "hard", REFERENCE)
"""The levels this script pits against each other: Parlour's three and the reference opponent."""


def play_deal(
    deal: int,
    players: int,
    seed: int,
    settings: dict[str, float],
    level: str = "hard",
    against: str = "medium",
) -> list[tuple[float, float, list[tuple[float, float]]]]:
    """Play one deal ``players`` times, ``level`` in each seat in turn and ``against`` in the others: for each game,
    the measured bot's share of the win, its score and, for each of its decisions that had a choice, the seconds it
    took on the clock and in this process's CPU time."""
    games = []
    for seat in range(players):
        bots = [against] * players
        bots[seat] = level
        table = seat_table(bots, seed=seed * 1_000_003 + deal)
        measured = table.seats[seat].bot
        assert measured is not None
        for name, value in settings.items():
            setattr(measured, name, type(getattr(measured, name))(value))
        state = table.state
        times = []
        while not state.is_over:
            timed = state.to_move == seat and len(state.legal_actions()) > 1
            start, start_cpu = time.perf_counter(), time.process_time()
            table.step_bot()
            if timed:
                times.append((time.perf_counter() - start, time.process_time() - start_cpu))
        result = state.result
        assert result is not None
        share = 1 / len(result.winners) if seat in result.winners else 0.0
        games.append((share, float(result.scores[seat]), times))
    return games


def play(
    games: int,
    players: int,
    seed: int,
    progress: bool = False,
    settings: dict[str, float] | None = None,
    jobs: int = 1,
    level: str = "hard",
    against: str = "medium",
    first_deal: int = 0,
) -> dict[str, Any]:
    """Play the games and return the figures (see the module docstring). ``settings`` overrides attributes of the
    measured bot (``playouts``, ``max_candidates``... of ``hard``), to compare variants on the same deals. ``jobs``
    processes share the deals; the games and wins are the same for any number (the times are not, on a busy
    machine). The deals are numbered from ``first_deal``: two runs of the same levels over the deals ``0..k-1`` and
    ``k..`` play exactly the games of one run over both, and :func:`join` makes their figures one."""
    deals = math.ceil(games / players)
    per_deal: list[float] = []
    scores: list[float] = []
    times: list[float] = []
    cpu_times: list[float] = []
    outcomes: list[float] = []
    started = time.perf_counter()
    work = functools.partial(
        play_deal, players=players, seed=seed, settings=settings or {}, level=level, against=against
    )
    numbers = range(first_deal, first_deal + deals)
    with contextlib.ExitStack() as stack:
        if jobs > 1:
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(jobs))
            results: Iterator[list[tuple[float, float, list[tuple[float, float]]]]] = pool.imap(work, numbers)
        else:
            results = map(work, numbers)
        for deal_games in results:
            for share, score, deal_times in deal_games:
                outcomes.append(share)
                scores.append(score)
                times.extend(wall for wall, _ in deal_times)
                cpu_times.extend(cpu for _, cpu in deal_times)
            per_deal.append(sum(share for share, _, _ in deal_games) / players)
            if progress:
                print(
                    f"\r{len(per_deal) * players} games, {level} won {statistics.mean(per_deal):.1%}",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
    if progress:
        print(file=sys.stderr)
    record = {
        "players": players,
        "seed": seed,
        "level": level,
        "against": against,
        "first_deal": first_deal,
        "seconds": round(time.perf_counter() - started, 1),
        "jobs": jobs,
        "settings": settings or {},
        "per_deal": per_deal,
        "scores": scores,
        "times": times,
        "cpu_times": cpu_times,
        "outcomes": outcomes,
    }
    return {**summary(record), **record}


def summary(record: dict[str, Any]) -> dict[str, Any]:
    """The figures of a run's record: the win rate with its 95% interval (over deals), the mean score, the times."""
    per_deal: list[float] = record["per_deal"]
    players: int = record["players"]
    deals = len(per_deal)
    rate = statistics.mean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(deals) if deals > 1 else float("nan")
    times = sorted(record["times"])
    cpu = sorted(record.get("cpu_times", []))
    return {
        "games": deals * players,
        "deals": deals,
        "win_rate": round(rate, 4),
        "interval": [round(rate - half, 4), round(rate + half, 4)],
        "equal_share": round(1 / players, 4),
        "mean_score": round(statistics.mean(record["scores"]), 2),
        "decisions": len(times),
        "median_ms": round(statistics.median(times) * 1000, 1) if times else None,
        "p95_ms": round(times[min(len(times) - 1, int(0.95 * len(times)))] * 1000, 1) if times else None,
        "slowest_ms": round(times[-1] * 1000, 1) if times else None,
        "cpu_median_ms": round(statistics.median(cpu) * 1000, 1) if cpu else None,
        "cpu_p95_ms": round(cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))] * 1000, 1) if cpu else None,
    }


JOINED = ("players", "seed", "level", "against", "settings")
"""What the runs that :func:`join` joins must share: then they are parts of one run."""


def join(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one run made of several records (``--record``) of the same levels, seed and settings over
    consecutive deals (``--first-deal``), as if those deals had been played in one run."""
    records = sorted(records, key=lambda record: record["first_deal"])
    first = records[0]
    expected = first["first_deal"]
    for record in records:
        if any(record[key] != first[key] for key in JOINED):
            raise ValueError(f"the records differ in one of: {', '.join(JOINED)}")
        if record["first_deal"] != expected:
            raise ValueError(f"the records' deals do not follow on: deal {expected} is not where one starts")
        expected += len(record["per_deal"])
    record = {key: first[key] for key in JOINED}
    record["first_deal"] = first["first_deal"]
    record["seconds"] = round(sum(part["seconds"] for part in records), 1)
    record["jobs"] = max(part["jobs"] for part in records)
    for key in ("per_deal", "scores", "times", "outcomes"):
        record[key] = [value for part in records for value in part[key]]
    if all("cpu_times" in part for part in records):
        record["cpu_times"] = [value for part in records for value in part["cpu_times"]]
    return {**summary(record), **record}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="hard", choices=LEVELS, help="the bot measured (hard unless told)")
    parser.add_argument(
        "--against", default="medium", choices=LEVELS, help="the level in every other seat (medium unless told)"
    )
    parser.add_argument("--games", type=int, default=600, help="games to play, rounded up to whole deals")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override an attribute of the measured bot (repeatable), e.g. --set playouts=400",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes sharing the deals (same games and wins; busier times)"
    )
    parser.add_argument("--record", metavar="FILE", help="also write the figures, with each game's outcome, as JSON")
    parser.add_argument(
        "--first-deal", type=int, default=0, metavar="N", help="number the deals from N (0 unless told)"
    )
    parser.add_argument(
        "--join",
        nargs="+",
        metavar="FILE",
        help="play nothing: the figures of the records (--record) of runs over consecutive deals, as one run",
    )
    args = parser.parse_args()
    if args.join:
        records = []
        for path in args.join:
            with open(path, encoding="utf-8") as file:
                records.append(json.load(file))
        try:
            figures = join(records)
        except (KeyError, ValueError) as error:
            parser.error(f"--join: {error}")
        report(figures, args.json)
        return
    settings: dict[str, float] = {}
    for item in args.set:
        name, _, value = item.partition("=")
        if not hasattr(make_level(args.level), name) or not value:
            parser.error(f"--set {item}: expected NAME=VALUE with NAME an attribute of the {args.level} bot")
        try:
            settings[name] = float(value)
        except ValueError:
            parser.error(f"--set {item}: the value must be a number")
    if args.games < 2 * args.players:
        parser.error(f"--games must be at least {2 * args.players} (two deals) for an interval")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.first_deal < 0:
        parser.error("--first-deal must be at least 0")
    figures = play(
        args.games,
        args.players,
        args.seed,
        progress=not args.json,
        settings=settings,
        jobs=args.jobs,
        level=args.level,
        against=args.against,
        first_deal=args.first_deal,
    )
    if args.record:
        with open(args.record, "w", encoding="utf-8") as file:
            json.dump(figures, file)
    report(figures, args.json)


def report(figures: dict[str, Any], as_json: bool) -> None:
    """Print the figures: as JSON (without the games one by one), or in two sentences."""
    if as_json:
        print(
            json.dumps(
                {k: v for k, v in figures.items() if k not in ("outcomes", "per_deal", "scores", "times", "cpu_times")}
            )
        )
        return
    low, high = figures["interval"]
    players = figures["players"]
    jobs = figures["jobs"]
    deals = figures["deals"]
    first = figures["first_deal"]
    print(
        f"{figures['level']} against {players - 1} {figures['against']}, {figures['games']} one-deal games "
        f"({deals} deals{f' from deal {first}' if first else ''}, seed {figures['seed']}): "
        f"won {figures['win_rate']:.1%} (95% interval {low:.1%} to {high:.1%}; an equal player wins "
        f"{figures['equal_share']:.1%}), mean score {figures['mean_score']:+.2f}"
    )
    if figures["decisions"]:
        print(
            f"{figures['level']} decisions with a choice: {figures['decisions']}; median "
            f"{figures['median_ms']:.1f} ms, 95th percentile {figures['p95_ms']:.1f} ms, slowest "
            f"{figures['slowest_ms']:.1f} ms ({figures['seconds']:.0f} s in all, {jobs} job{'s' if jobs > 1 else ''})"
        )
    if figures["cpu_median_ms"] is not None:
        print(
            f"the same in this process's CPU time (what the machine's load does not change): median "
            f"{figures['cpu_median_ms']:.1f} ms, 95th percentile {figures['cpu_p95_ms']:.1f} ms"
        )


if __name__ == "__main__":
    main()
