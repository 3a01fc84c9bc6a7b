"""Seeded random self-play of Big Two, checking invariants after every action.

A game here is one deal (``deals=1``). For each player count (2, 3, 4) 700 games cycle through the seed rules and
every variant (and two combinations); moves are random legal actions that pass a quarter of the time when they
may (like ``easy``). Another 300 games give seats ``medium`` bots. Every 50th step, random wrong actions (a wrong
seat, cards not held, a non-combination or a play that does not beat the table, passing when leading) must be
rejected and change nothing.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

import pytest
from big2_helpers import GAME, snapshot
from game_helpers import refuse_out_of_turn

from engine.bots import Bot
from engine.cards import Card, is_conserved
from engine.errors import IllegalActionError, InvalidActionError
from engine.events import Event
from engine.games.big2.rules import (
    PASS,
    Big2Options,
    Big2State,
    DealOver,
    DealStarted,
    Play,
    Played,
    RoundWon,
    bits,
    classify_mask,
)
from engine.match import MatchOver, RoundOver
from engine.registry import make_bot

pytestmark = pytest.mark.slow_selfplay

GAMES_PER_PLAYER_COUNT = 700
MEDIUM_GAMES = 300
REJECT_EVERY = 50
ALL = (1 << 52) - 1
VARIANT_SETS: list[tuple[str, ...]] = [
    (),
    ("standard-suits",),
    ("taiwan",),
    ("no-play-after-pass",),
    ("pagat-scoring",),
    ("standard-suits", "no-play-after-pass", "pagat-scoring"),
    ("taiwan", "no-play-after-pass"),
]


def one_deal(variants: tuple[str, ...]) -> Big2Options:
    return dataclasses.replace(GAME.options(variants=variants), deals=1)


@dataclass
class Tracker:
    set_aside: int = 0
    lead_card: Card | None = None
    first_play_done: bool = False
    last_play: Played | None = None
    steps: int = 0
    rejections: int = 0
    plays: int = 0
    passes: int = 0
    rounds: int = 0
    events: list[Event] = field(default_factory=list)

    def feed(self, state: Big2State, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, DealStarted):
                union = 0
                for h in state.hands:
                    union |= h
                self.set_aside = ALL & ~union
                self.lead_card = event.lead_card
                self.first_play_done = False
                self.last_play = None
            elif isinstance(event, Played):
                if not self.first_play_done:
                    assert self.lead_card in event.cards, "the first play of a deal includes the lead card"
                    self.first_play_done = True
                self.last_play = event
                self.plays += 1
            elif isinstance(event, RoundWon):
                self.last_play = None
                self.rounds += 1
            else:
                self.passes += type(event).__name__ == "Passed"


def check_invariants(state: Big2State, track: Tracker, events: list[Event]) -> None:
    n = state.players
    union = 0
    for h in state.hands:
        assert h & union == 0, "a card in two hands"
        union |= h
    assert union & state.played == 0 and union & track.set_aside == 0 and state.played & track.set_aside == 0
    assert union | state.played | track.set_aside == ALL, "every card is in exactly one place"
    assert track.set_aside.bit_count() == (26 if n == 2 else 0)
    if track.steps % 25 == 0 or any(isinstance(e, DealOver) for e in events):
        # The masks above already account for every card at every step; the zones (built from card objects,
        # counted as a multiset: the slow part of a step) are checked now and then and at the end.
        zones = state.zones()
        assert is_conserved(zones.values(), state.full_deck()), "the zones hold every card once"
        assert (n == 2) == ("set aside" in zones)
    counts = tuple(h.bit_count() for h in state.hands)
    spectator = state.view(None)
    assert spectator.counts == counts and spectator.hand == ()
    assert len(spectator.played) == state.played.bit_count()

    overs = [e for e in events if isinstance(e, DealOver)]
    if overs:
        (over,) = overs
        assert counts[over.winner] == 0, "the deal ends when a hand is empty"
        assert sum(1 for c in counts if c == 0) == 1
        assert sum(over.deltas) == 0, "the winner gains what the losers lose"
        assert list(over.totals) == state.totals == list(over.deltas), "totals are the sums of deltas"
        for seat, lost in enumerate(over.losses):
            assert (lost is None) == (seat == over.winner)
            if lost is not None:
                assert over.deltas[seat] == -lost.points and lost.cards == counts[seat]
        assert state.is_over and state.to_move is None and state.legal_actions() == []
        (round_over,) = [e for e in events if isinstance(e, RoundOver)]
        assert (round_over.winners, round_over.deltas, round_over.totals) == ((over.winner,), over.deltas, over.totals)
        assert round_over.last and events.index(round_over) == events.index(over) + 1
        (match,) = [e for e in events if isinstance(e, MatchOver)]
        best = max(state.totals)
        assert match.winners == tuple(s for s in range(n) if state.totals[s] == best)
        return
    assert all(counts), "no hand is empty while the deal goes on"
    assert not state.is_over
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    assert view.counts == counts and view.hand == state.enc.cards(state.hands[seat]), "the hand, lowest first"
    legal = state.legal_actions()
    assert legal, "the seat to move has a legal action"
    plays = state.legal_plays()
    if state.table is None:
        assert PASS not in legal, "the leader may not pass"
        assert track.last_play is None or state.must_include == 0
    else:
        assert PASS in legal
        last = track.last_play
        assert last is not None and last.seat == state.table_seat, "the table play was made by table_seat"
        assert set(last.cards) == set(state.table.cards)
        assert classify_mask(state.table.mask, state.options) == state.table
        assert all(p.beats(state.table) for p in plays), "only a play that beats the table is legal"
        assert seat != state.table_seat
        if state.options.no_play_after_pass:
            assert not state.passed[seat], "a player who passed sits out the round"
    if state.must_include:
        assert state.must_include & state.hands[seat] and all(p.mask & state.must_include for p in plays)


def try_rejections(state: Big2State, rng: random.Random) -> int:
    """Random wrong actions: each must raise and change nothing. Returns how many were tried."""
    before = snapshot(state)
    tried = refuse_out_of_turn(state, rng, lambda: PASS)
    seat = state.to_move
    if seat is not None:
        legal_masks = {p.mask for p in state.legal_plays()}
        hand = bits(state.hands[seat])
        for _ in range(3):
            chosen = rng.sample(hand, min(len(hand), rng.choice([1, 2, 3, 5])))
            m = sum(1 << v for v in chosen)
            if m not in legal_masks:
                with pytest.raises(IllegalActionError):
                    state.apply(seat, Play(state.enc.cards(m)))
                tried += 1
        not_held = [v for v in range(52) if not state.hands[seat] >> v & 1]
        with pytest.raises(IllegalActionError):
            state.apply(seat, Play(state.enc.cards(1 << rng.choice(not_held))))
        if state.table is None:
            with pytest.raises(IllegalActionError):
                state.apply(seat, PASS)
            tried += 1
        tried += 1
    with pytest.raises(InvalidActionError):
        state.parse_action(rng.choice(["", "3X", "play 11H", "passs", "3D 4"]))
    garbage: list[object] = [Play(None), Play(5), Play(("3D",)), Play((Card.parse("3D"), None)), None, b"pass", 5]  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        state.apply(state.to_move if state.to_move is not None else 0, rng.choice(garbage))
    tried += 1
    assert snapshot(state) == before, "a rejected action changed the state"
    return tried + 1


def play_game(options: Big2Options, players: int, seed: int, bots: dict[int, Bot]) -> Tracker:
    rng = random.Random(seed * 7919 + players)
    state = GAME.new_match(players, options, random.Random(seed))
    track = Tracker()
    track.feed(state, state.history)
    check_invariants(state, track, state.history)
    while not state.is_over:
        if track.steps % REJECT_EVERY == 0:
            track.rejections += try_rejections(state, rng)
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        bot = bots.get(seat)
        if bot is not None:
            action = bot.choose(state.view(seat), legal, rng)
            assert action in legal
        elif PASS in legal and rng.random() < 0.25:
            action = PASS
        else:
            plays = [a for a in legal if a != PASS]
            action = rng.choice(plays) if plays else PASS
        events = state.apply(seat, action)
        track.feed(state, events)
        track.steps += 1
        check_invariants(state, track, events)
        assert track.steps < 2000, "a deal that does not end"
    track.rejections += try_rejections(state, rng)
    assert sum(1 for e in state.history if isinstance(e, DealOver)) == 1
    return track


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_selfplay_invariants(players: int) -> None:
    totals = Tracker()
    for game in range(GAMES_PER_PLAYER_COUNT):
        variants = VARIANT_SETS[game % len(VARIANT_SETS)]
        track = play_game(one_deal(variants), players, seed=game, bots={})
        totals.steps += track.steps
        totals.rejections += track.rejections
        totals.plays += track.plays
        totals.passes += track.passes
        totals.rounds += track.rounds
    assert totals.rejections > totals.steps // REJECT_EVERY
    assert totals.passes > 0 and totals.rounds > GAMES_PER_PLAYER_COUNT, "passing and new rounds come up"


def test_medium_selfplay_invariants() -> None:
    for game in range(MEDIUM_GAMES):
        players = 2 + game % 3
        variants = VARIANT_SETS[game % len(VARIANT_SETS)]
        seats = range(players) if game % 2 else [game % players]
        bots = {s: make_bot(GAME, "medium") for s in seats}
        play_game(one_deal(variants), players, seed=10_000 + game, bots=bots)
