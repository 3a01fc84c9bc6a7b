"""How well the Big Two ``hard`` bot guesses the hands it cannot see, on this machine.

Run: ``.venv/bin/python benchmarks/big2_inference.py [--deals 30] [--seed 7] [--every 2] [--deals-sampled 170]
[--set NAME=VALUE ...]``

Plays one-deal games of four ``medium`` bots, each deal once from each seat's point of view, and keeps every
position where that seat had a choice, with the real hands. At each kept position (one in ``--every``) the
``hard`` bot's sampler (:meth:`~engine.games.big2.bots.HardBig2Bot.sample_deals`, with its attributes changed by
``--set``, e.g. ``--set chains=1``) draws ``--deals-sampled`` deals of the unseen cards, and the same number are
dealt uniformly. For every unseen card, the share of the deals that give it to the seat that really holds it is
that sampler's probability for the truth (with half a deal added to each seat, so no share is 0).

Printed for both: the mean log of that probability per unseen card (the log score: higher is better; a sampler
that puts the cards where the real deal has them scores 0, and an overconfident one that is wrong scores far
below the uniform deals), the mean share itself, the same log score early, midway and late in the deal (by the
entries in the log so far), and the CPU seconds the sampling took. The others are ``medium`` bots, as the sampler
models them, so the real deal explains every choice they made.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from big2_reference import seat_table

from engine.games.big2.bots import HardBig2Bot
from engine.games.big2.rules import Big2View, HiddenDeal
from engine.registry import get_entry, make_bot

PHASES = ("early", "midway", "late")
"""The parts of a deal the log score is also given for: fewer than 12 entries in the log, fewer than 30, the rest."""

Sampler = Callable[[Big2View, HiddenDeal, int, random.Random], list[list[int]]]


def positions(deals: int, seed: int) -> list[tuple[Big2View, list[int]]]:
    """Every position of ``deals`` one-deal games of four ``medium`` bots where the seat to move had a choice: its
    view and the real hands (bitmasks)."""
    out = []
    for deal in range(deals):
        for me in range(4):
            table = seat_table(["medium"] * 4, seed=seed * 1_000_003 + deal)
            state = table.state
            while not state.is_over:
                if state.to_move == me and len(state.legal_actions()) > 1:
                    out.append((state.view(me), list(state.hands)))
                table.step_bot()
    return out


def phase(view: Big2View) -> str:
    entries = len(view.log)
    return PHASES[0] if entries < 12 else PHASES[1] if entries < 30 else PHASES[2]


def score(kept: Sequence[tuple[Big2View, list[int]]], sampler: Sampler, count: int) -> dict[str, Any]:
    """The figures of the module docstring for one sampler over the positions ``kept``."""
    logs = 0.0
    shares = 0.0
    cards = 0
    by_phase = {name: [0.0, 0] for name in PHASES}
    seconds = 0.0
    for index, (view, hands) in enumerate(kept):
        hidden = HiddenDeal(view)
        if not hidden.unseen:
            continue
        started = time.process_time()
        deals = sampler(view, hidden, count, random.Random(index))
        seconds += time.process_time() - started
        others = [s for s in range(view.players) if s != view.seat]
        here = 0.0
        for card in hidden.unseen:
            holder = next(s for s in others if hands[s] >> card & 1)
            given = sum(1 for deal in deals if deal[holder] >> card & 1)
            here += math.log((given + 0.5) / (len(deals) + 0.5 * len(others)))
            shares += given / len(deals)
        logs += here
        cards += len(hidden.unseen)
        part = by_phase[phase(view)]
        part[0] += here
        part[1] += len(hidden.unseen)
    return {
        "log_score": logs / cards,
        "share": shares / cards,
        "by_phase": {name: total / n if n else None for name, (total, n) in by_phase.items()},
        "cpu_seconds": seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--every", type=int, default=2, help="score one kept position in this many")
    parser.add_argument("--deals-sampled", type=int, default=170, help="deals drawn at each position")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="change the bot's sampler")
    args = parser.parse_args()
    bot = make_bot(get_entry("big2").game, "hard")
    assert isinstance(bot, HardBig2Bot)
    for item in args.set:
        name, _, value = item.partition("=")
        if not hasattr(bot, name):
            sys.exit(f"big2_inference: hard has no attribute {name!r}")
        setattr(bot, name, type(getattr(bot, name))(value))
    kept = positions(args.deals, args.seed)[:: args.every]

    def uniform(view: Big2View, hidden: HiddenDeal, count: int, rng: random.Random) -> list[list[int]]:
        return [hidden.sample(rng) for _ in range(count)]

    print(f"{len(kept)} positions, {args.deals_sampled} deals drawn at each")
    for name, sampler in (("hard's sampler", bot.sample_deals), ("uniform deals", uniform)):
        figures = score(kept, sampler, args.deals_sampled)
        parts = ", ".join(f"{p} {v:.3f}" for p, v in figures["by_phase"].items() if v is not None)
        print(
            f"{name}: log score {figures['log_score']:.3f} ({parts}), share on the real holder "
            f"{figures['share']:.1%}, {figures['cpu_seconds']:.1f} s CPU"
        )


if __name__ == "__main__":
    main()
