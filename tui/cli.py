"""The ``parlour`` command. Bad arguments print a usage message and exit with status 2; no traceback ever."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from engine import __version__
from engine.bots import DIFFICULTIES
from engine.errors import ParlourError
from engine.games import ENTRIES, get_entry
from engine.simulate import simulate

GAMES_HELP = ", ".join(f"{e.key} ({e.title})" for e in ENTRIES)


class _Parser(argparse.ArgumentParser):
    """argparse, but every error ends in a usage message and status 2 (argparse's own convention)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _variants(values: Sequence[str] | None) -> tuple[str, ...]:
    out: list[str] = []
    for value in values or ():
        out.extend(v for v in value.split(",") if v)
    return tuple(out)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="parlour",
        description="Card games in the terminal. With no command, opens the main menu.",
    )
    parser.add_argument("--version", action="version", version=f"parlour {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = sub.add_parser("play", help="play a game against computer opponents")
    play.add_argument("game", metavar="GAME", help=f"one of: {GAMES_HELP}")
    play.add_argument("--players", type=int, help="number of players, you included")
    play.add_argument("--seed", type=int, help="seed for the deal (same seed, same cards)")
    play.add_argument("--preset", help="house rules preset (screw or chase)")
    play.add_argument("--variant", action="append", metavar="V", help="a variant key; repeat for several")
    play.add_argument("--difficulty", default="medium", choices=DIFFICULTIES, help="the computer players' level")
    play.add_argument("--name", default="You", help="your name at the table")

    rules = sub.add_parser("rules", help="print the rules summary of a game")
    rules.add_argument("game", metavar="GAME", nargs="?", help=f"one of: {GAMES_HELP} (default: all)")
    rules.add_argument("--preset", help="house rules preset")
    rules.add_argument("--variant", action="append", metavar="V", help="a variant key; repeat for several")

    sim = sub.add_parser("simulate", help="let bots play each other headless and print the figures")
    sim.add_argument("game", metavar="GAME", help=f"one of: {GAMES_HELP}")
    sim.add_argument("--players", type=int, required=True, help="number of players")
    sim.add_argument("--games", type=int, required=True, help="number of matches to play")
    sim.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    sim.add_argument("--bots", default="medium", help="difficulty per seat, comma-separated (one name: every seat)")
    sim.add_argument("--preset", help="house rules preset")
    sim.add_argument("--variant", action="append", metavar="V", help="a variant key; repeat for several")
    sim.add_argument("--deals", type=int, help="deals per match, for games played in deals (Big Two)")
    sim.add_argument("--rotate", action="store_true", help="turn the line-up one seat round the table each match")
    sim.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "rules":
            return _rules(args)
        if args.command == "simulate":
            return _simulate(args)
        return _play(args)
    except ParlourError as err:
        parser.print_usage(sys.stderr)
        print(f"parlour: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # the last line of defence: a user never sees a traceback
        if os.environ.get("PARLOUR_DEBUG"):
            raise
        print(f"parlour: unexpected error: {err!r} (set PARLOUR_DEBUG=1 to see the details)", file=sys.stderr)
        return 1


def _rules(args: argparse.Namespace) -> int:
    entries = [get_entry(args.game)] if args.game else list(ENTRIES)
    texts = []
    for entry in entries:
        options = entry.game.options(args.preset or entry.preset, _variants(args.variant))
        texts.append(entry.game.rules_summary(options))
    print("\n".join(texts), end="")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    report = simulate(
        args.game,
        players=args.players,
        games=args.games,
        seed=args.seed,
        bots=args.bots.split(","),
        preset=args.preset,
        variants=_variants(args.variant),
        deals=args.deals,
        rotate=args.rotate,
    )
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return 0
    print(f"{report['game']}: {report['games']} games, {report['players']} players, seed {report['seed']}")
    print(f"{report['seconds']:.2f} s, {report['games_per_second']} games/s")
    stats = {s["seat"]: s for s in report["stats"].get("seats", [])}
    extra = "pays_per_hand" if report["game"] in ("screw", "chase") else "deal_win_rate"
    header = f"{'seat':>4}  {'bot':<8}{'wins':>8}{'win %':>8}{'mean score':>12}{extra.replace('_', ' '):>15}"
    print(header)
    for seat in report["seats"]:
        line = f"{seat['seat']:>4}  {seat['bot']:<8}{seat['wins']:>8g}{100 * seat['win_rate']:>7.1f}%"
        line += f"{seat['mean_score']:>12.3f}{stats[seat['seat']][extra]:>15.3f}"
        print(line)
    return 0


def _play(args: argparse.Namespace) -> int:
    if args.command is None:
        from tui.app import ParlourApp

        ParlourApp().run()
        return 0
    entry = get_entry(args.game)
    players = args.players if args.players is not None else entry.game.default_players
    entry.game.check_players(players)
    variants = _variants(args.variant)
    entry.game.options(args.preset or entry.preset, variants)  # fail here, before the screen is taken over
    from tui.app import ParlourApp, PlayConfig

    config = PlayConfig(
        game=entry.key,
        players=players,
        seed=args.seed,
        preset=args.preset,
        variants=variants,
        difficulty=args.difficulty,
        name=args.name,
    )
    ParlourApp(start=config).run()
    return 0


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
