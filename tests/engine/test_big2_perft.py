"""Move generation of Big Two checked like perft in chess: fixed hands with counts of legal plays worked out by
combinatorics (in the comments), then ``HandCombos`` compared with trying every subset of random hands.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import pytest
from big2_helpers import SEED, combo, mask, opts

from engine.cards import standard_deck
from engine.games.big2.rules import (
    Big2Options,
    Combo,
    ComboCache,
    HandCombos,
    bits,
    classify_mask,
    encoding,
    legal_plays,
)

SPADES = "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S"
QUADS = "3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6S"
RAINBOW = "3C 4D 5H 6S 7C 8D 9H 10S JC QD KH AS 2C"  # one card of each rank, suits cycling C D H S
NINES_AND_TWOS = "7C 7S 8H 8S 9C 9D 9H 9S 2C 2D 2H 2S 3C"

PERFT = [
    # 13 singles + 10 straight flushes (every sequence A2345 .. 10JQKA in spades) + (C(13,5) - 10 = 1277) flushes
    # + 1 Dragon = 1301. No pairs, triples, full houses or fours (one card a rank); every straight is suited.
    pytest.param(SPADES, None, 13 + 10 + (comb(13, 5) - 10) + 1, id="13-spades/lead=1301"),
    # Beating the 9D: 9S (spade over diamond) and 10S JS QS KS AS 2S = 7 singles; + the Dragon = 8.
    pytest.param(SPADES, "9D", 7 + 1, id="13-spades/on-single-9D=8"),
    # Beating the 2H: only the 2S; + the Dragon = 2.
    pytest.param(SPADES, "2H", 1 + 1, id="13-spades/on-single-2H=2"),
    # A pair: no pairs in the hand; the Dragon still beats it = 1.
    pytest.param(SPADES, "7D 7H", 1, id="13-spades/on-pair=dragon-only"),
    # On a straight: every straight flush (10) and flush (1277) outranks a plain straight; + Dragon = 1288.
    pytest.param(SPADES, "3D 4C 5H 6S 7D", 10 + 1277 + 1, id="13-spades/on-straight=1288"),
    # On a heart flush 2H high: a spade flush must have its highest card over the 2H, i.e. hold the 2S:
    # C(12,4) = 495 five-card sets with the 2S, minus the 2 straight flushes with a 2 (A2345, 23456) = 493;
    # + all 10 straight flushes + Dragon = 504.
    pytest.param(SPADES, "3H 5H 7H 9H 2H", comb(12, 4) - 2 + 10 + 1, id="13-spades/on-flush-2H-high=504"),
    # On a heart flush K high: highest card KS (C(10,4) = 210 sets below it), AS (C(11,4) = 330) or 2S
    # (C(12,4) = 495) = 1035, minus the straight flushes among them (9-K, 10-A, A2345, 23456: the 2 is the
    # highest card) = 1031; + 10 straight flushes + Dragon = 1042.
    pytest.param(
        SPADES,
        "3H 5H 7H 9H KH",
        comb(10, 4) + comb(11, 4) + comb(12, 4) - 4 + 10 + 1,
        id="13-spades/on-flush-KH-high=1042",
    ),
    # On the heart straight flush 9H..KH: same sequence in spades (spade top card) and 10S..AS = 2; + Dragon = 3.
    pytest.param(SPADES, "9H 10H JH QH KH", 2 + 1, id="13-spades/on-straight-flush-9-K-hearts=3"),
    # Four 3s, four 4s, four 5s and the 6S: singles 13; pairs 3 * C(4,2) = 18; triples 3 * C(4,3) = 12;
    # full houses 3 ranks * 4 triples * 2 other ranks * 6 pairs = 144; four + single 3 * (13 - 4) = 27;
    # no straight (only ranks 3-6), no flush (at most 4 of a suit), no Dragon. 13+18+12+144+27 = 214.
    pytest.param(QUADS, None, 13 + 18 + 12 + 144 + 27, id="quads/lead=214"),
    # Everything here is lower than a pair of 7s: no play (pass only).
    pytest.param(QUADS, "7C 7D", 0, id="quads/on-pair-of-7s=0"),
    # Singles over the 5H: 5S and 6S = 2.
    pytest.param(QUADS, "5H", 2, id="quads/on-single-5H=2"),
    # Full houses of 3s lose to a full house of 4s (by the three); of 5s: 4 triples * 2 other ranks * 6 = 48 beat
    # it, and every four + single (27) beats any full house: 75.
    pytest.param(QUADS, "4C 4D 4H 9C 9D", 48 + 27, id="quads/on-full-house-of-4s=75"),
    # One card of each rank: singles 13; straights: one for each of the 10 sequences (one card a rank), none of
    # them a flush (the suits cycle, no 5 alike); no flush (at most 4 clubs); Dragon 1. = 24.
    pytest.param(RAINBOW, None, 13 + 10 + 1, id="rainbow/lead=24"),
    # On the 9D: 9H (heart over diamond) and 10S JC QD KH AS 2C = 7; + Dragon = 8.
    pytest.param(RAINBOW, "9D", 7 + 1, id="rainbow/on-single-9D=8"),
    # On the straight 5-9 with top 9D: the 5 higher sequences (6-10 .. 10-A) and the hand's own 5-9 (top 9H over
    # 9D) = 6; + Dragon = 7.
    pytest.param(RAINBOW, "5C 6D 7H 8S 9D", 5 + 1 + 1, id="rainbow/on-straight-to-9D=7"),
    # On a pair: no pairs; only the Dragon.
    pytest.param(RAINBOW, "3D 3H", 1, id="rainbow/on-pair=dragon-only"),
    # 7C 7S, 8H 8S, four 9s, four 2s, 3C: singles 13; pairs 1 + 1 + 6 + 6 = 14; triples 4 + 4 = 8; no straight
    # (ranks 3,7,8,9,2), no flush (4 clubs, 4 spades at most); full houses: three 9s (4) * pairs of 7s/8s/2s
    # (1 + 1 + 6) = 32, three 2s (4) * (1 + 1 + 6) = 32; four + single: 2 fours * 9 kickers = 18. = 117.
    pytest.param(NINES_AND_TWOS, None, 13 + 14 + 8 + 64 + 18, id="nines-and-twos/lead=117"),
    # On 7D 7H (highest the 7H): 7C 7S (7S over 7H) + 8H 8S + six pairs of 9s + six pairs of 2s = 14.
    pytest.param(NINES_AND_TWOS, "7D 7H", 1 + 1 + 6 + 6, id="nines-and-twos/on-pair-of-7s=14"),
    # On three 8s: 4 triples of 9s + 4 of 2s = 8.
    pytest.param(NINES_AND_TWOS, "8C 8D 8H", 8, id="nines-and-twos/on-triple-8s=8"),
    # On a straight: every full house (64) and four (18) outranks it = 82.
    pytest.param(NINES_AND_TWOS, "3D 4D 5H 6S 7H", 64 + 18, id="nines-and-twos/on-straight=82"),
    # On four 5s + 3D: only fours of a higher rank: 9s and 2s, each with 9 kickers = 18.
    pytest.param(NINES_AND_TWOS, "5C 5D 5H 5S 3D", 18, id="nines-and-twos/on-four-5s=18"),
    # On a straight flush: no straight flush in the hand = 0.
    pytest.param(NINES_AND_TWOS, "3H 4H 5H 6H 7H", 0, id="nines-and-twos/on-straight-flush=0"),
]


@pytest.mark.parametrize(("hand", "table", "expected"), PERFT)
def test_perft(hand: str, table: str | None, expected: int) -> None:
    on = combo(table) if table else None
    plays = legal_plays(mask(hand), on, SEED, cache=ComboCache())
    assert len(plays) == expected
    check_plays(plays, mask(hand), on, SEED)


def test_perft_kinds_of_the_13_spades() -> None:
    plays = legal_plays(mask(SPADES), None, SEED, cache=ComboCache())
    kinds: dict[str, int] = {}
    for play in plays:
        kinds[play.kind] = kinds.get(play.kind, 0) + 1
    assert kinds == {"single": 13, "straight_flush": 10, "flush": comb(13, 5) - 10, "dragon": 1}


def test_perft_kinds_of_the_quads() -> None:
    plays = legal_plays(mask(QUADS), None, SEED, cache=ComboCache())
    kinds: dict[str, int] = {}
    for play in plays:
        kinds[play.kind] = kinds.get(play.kind, 0) + 1
    assert kinds == {"single": 13, "pair": 18, "triple": 12, "full_house": 144, "four": 27}


def test_first_lead_must_include() -> None:
    # The quads with the 3D to include: singles 1; pairs with the 3D: 3; triples: C(3,2) = 3; full houses of 3s
    # with it: 3 triples * 2 ranks * 6 pairs = 36, of 4s or 5s with a pair of 3s holding it: 2 * 4 * 3 = 24;
    # four 3s with a kicker: 9, fours of 4s or 5s with the 3D as kicker: 2. = 1+3+3+36+24+9+2 = 78.
    plays = legal_plays(mask(QUADS), None, SEED, mask("3D"), cache=ComboCache())
    assert len(plays) == 1 + 3 + 3 + 36 + 24 + 9 + 2
    assert all(p.mask & mask("3D") for p in plays)


def check_plays(plays: list[Combo], hand: int, table: Combo | None, options: Big2Options) -> None:
    """No duplicate; each play is in the hand, classifies to itself and beats the table."""
    masks = [p.mask for p in plays]
    assert len(set(masks)) == len(masks), "a play listed twice"
    for play in plays:
        assert play.mask & ~hand == 0
        assert classify_mask(play.mask, options) == play
        assert table is None or play.beats(table)


def brute_force(hand: int, options: Big2Options) -> dict[int, Combo]:
    """Every subset of the hand of 1, 2, 3, 5 or 13 cards that is a combination (the oracle)."""
    values = bits(hand)
    found: dict[int, Combo] = {}
    for size in (1, 2, 3, 5, 13):
        for chosen in combinations(values, size):
            m = 0
            for v in chosen:
                m |= 1 << v
            c = classify_mask(m, options)
            if c is not None:
                found[m] = c
    return found


def random_hands(count: int, seed: int) -> list[tuple[int, Big2Options]]:
    """``count`` random hands: mostly 13 cards, some of 17 and 18 (three players); all suit orders."""
    rng = random.Random(seed)
    options = [SEED, opts("standard-suits"), opts("taiwan")]
    out = []
    for i in range(count):
        deck = standard_deck()
        rng.shuffle(deck)
        size = 13 if i % 6 else rng.choice([17, 18])
        chosen = options[i % 3]
        out.append((encoding(chosen).mask(deck[:size]), chosen))
    # hands rich in combinations: two or three suits only, and many of a rank
    for suits in ("SH", "CDH"):
        deck = [c for c in standard_deck() if c.suit.value in suits]  # type: ignore[union-attr]
        rng.shuffle(deck)
        out.append((encoding(SEED).mask(deck[:13]), SEED))
    return out


HANDS = random_hands(32, seed=2024)


@pytest.mark.parametrize(("hand", "options"), HANDS, ids=[f"hand{i}-{h.bit_count()}" for i, (h, _) in enumerate(HANDS)])
def test_hand_combos_match_every_subset(hand: int, options: Big2Options) -> None:
    oracle = brute_force(hand, options)
    generated = HandCombos(hand, options).all()
    assert len({c.mask for c in generated}) == len(generated), "no duplicate"
    assert {c.mask: c for c in generated} == oracle
    # And the plays that beat a table, for a few tables of each size made from cards of the hand.
    rng = random.Random(hand)
    tables = rng.sample(sorted(oracle.values(), key=lambda c: c.mask), min(12, len(oracle)))
    hands = HandCombos(hand, options)
    for table in tables:
        expected = {m for m, c in oracle.items() if c.beats(table)}
        plays = legal_plays(hand, table, options, cache=ComboCache())
        assert {p.mask for p in plays} == expected
        assert {p.mask for p in hands.beating(table)} == expected
        check_plays(plays, hand, table, options)
