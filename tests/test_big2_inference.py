"""``benchmarks/big2_inference.py``: the log score of a sampler's deals against the real hands. A sampler that
deals the real hands scores near 0 and puts every card on its holder; uniform deals score below it and put a card
on its holder about as often as there are other seats to hold it; ``hard``'s sampler does better than uniform."""

from __future__ import annotations

import math
import random

from big2_inference import PHASES, positions, score

from engine.games.big2.bots import HardBig2Bot
from engine.games.big2.rules import Big2View, HiddenDeal
from engine.registry import get_entry, make_bot


def test_the_real_deal_scores_best_and_uniform_deals_worse_than_hards() -> None:
    kept = positions(2, seed=7)[::2]
    assert kept
    for view, hands in kept:
        assert view.seat is not None and [h.bit_count() for h in hands] == list(view.counts)
    real = dict((id(view), hands) for view, hands in kept)

    def truth(view: Big2View, hidden: HiddenDeal, count: int, rng: random.Random) -> list[list[int]]:
        return [list(real[id(view)]) for _ in range(count)]

    def uniform(view: Big2View, hidden: HiddenDeal, count: int, rng: random.Random) -> list[list[int]]:
        return [hidden.sample(rng) for _ in range(count)]

    bot = make_bot(get_entry("big2").game, "hard")
    assert isinstance(bot, HardBig2Bot)
    best = score(kept, truth, 20)
    plain = score(kept, uniform, 20)
    hard = score(kept, bot.sample_deals, 20)
    assert best["share"] == 1.0
    assert math.isclose(best["log_score"], math.log(20.5 / 21.5))
    assert 0.25 < plain["share"] < 0.42
    assert plain["log_score"] < hard["log_score"] < best["log_score"]
    assert set(best["by_phase"]) == set(PHASES)
