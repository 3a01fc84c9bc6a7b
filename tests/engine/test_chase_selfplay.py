"""Seeded random self-play of Screw Your Neighbor / Chase the Ace, checking invariants after every action.

Four configurations (both presets, each with and without the high-card-pays variant) each play matches for 2..10
players until they have dealt 2,600 hands; together at least 10,400 hands. Most moves are random
legal actions; a few matches give seat 0 a ``medium`` or ``hard`` bot.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from chase_helpers import ALL_ACTIONS, GAME, opts, snapshot
from game_helpers import card_ids, is_one_deck, refuse_out_of_turn

from engine.bots import Bot
from engine.cards import is_conserved, standard_deck
from engine.errors import IllegalActionError, InvalidActionError
from engine.events import Event
from engine.games.chase.rules import ChaseOptions, ChaseState, DeckSwapped, PackCut
from engine.match import MatchOver, RoundOver, RoundStarted
from engine.registry import make_bot

HANDS_PER_CONFIG = 2_600
CONFIGS = [
    pytest.param(opts("screw"), id="screw"),
    pytest.param(opts("chase"), id="chase"),
    pytest.param(opts("screw", "high-card-pays"), id="screw-high-card-pays"),
    pytest.param(opts("chase", "high-card-pays"), id="chase-high-card-pays"),
]
REJECT_EVERY = 50
DECK_IDS = card_ids(standard_deck())
"""The deck's card objects (the game deals these very objects)."""


@dataclass
class Tracker:
    """What the invariants compare against: the previous lives and players in, and deck cards used this hand."""

    lives: list[int]
    alive: int
    deck_taken: int = 0
    hands: int = 1
    steps: int = 0
    rejections: int = 0
    events: list[Event] = field(default_factory=list)

    def feed(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, RoundStarted):
                self.deck_taken = 0
                self.hands += 1
            elif isinstance(event, DeckSwapped | PackCut):
                self.deck_taken += 1


def check_invariants(state: ChaseState, track: Tracker) -> None:
    n = state.players
    alive = [s for s in range(n) if state.lives[s] > 0]
    assert all(life >= 0 for life in state.lives), "lives never negative"
    assert all(now <= was for now, was in zip(state.lives, track.lives, strict=True)), "lives never rise"
    assert len(alive) <= track.alive, "players still in never rise"
    track.lives, track.alive = list(state.lives), len(alive)

    held = [state.cards[s] for s in state.order]
    assert all(c is not None for c in held), "every seat in the hand holds a card"
    assert all(state.cards[s] is None for s in range(n) if s not in state.order)
    everything = [*held, *state.deck]
    assert is_one_deck(everything, DECK_IDS), "no card in two places, and every card one of the deck's"
    assert len(everything) == 52 - track.deck_taken, "held + deck = 52 minus the cards swapped or cut away"
    if track.steps % 10 == 0 or state.is_over:
        # The set checks above hold every step; the zones (a multiset of card objects: the slow part) now and then.
        zones = state.zones()
        assert is_conserved(zones.values(), state.full_deck()), "every card is somewhere exactly once"
        assert len(zones["set aside"]) == track.deck_taken
    watchers = [*range(n), None] if track.steps % REJECT_EVERY == 0 else [state.to_move, None]
    for seat in watchers:
        view = state.view(seat)
        assert view.lives == tuple(state.lives) and view.to_move == state.to_move

    if state.is_over:
        assert len(alive) == 1 and state.winner == alive[0]
        assert state.legal_actions() == [] and state.to_move is None
    else:
        assert state.winner is None and len(alive) >= 2
        assert sorted(state.order) == alive, "every player still in is dealt in"
        assert state.to_move == state.order[state.turn]
        assert state.legal_actions(), "the seat to move has a legal action"
        assert state.lives[state.dealer] > 0, "the dealer is still in"
        assert state.order[-1] == state.dealer, "the dealer acts last"


def try_rejections(state: ChaseState, rng: random.Random) -> int:
    """Random wrong actions: each must raise and change nothing. Returns how many were tried."""
    before = snapshot(state)
    tried = 0
    seat = state.to_move
    if seat is not None:
        wrong = [a for a in ALL_ACTIONS if a not in state.legal_actions()]
        with pytest.raises(IllegalActionError):
            state.apply(seat, rng.choice(wrong))
        tried += 1
    tried += refuse_out_of_turn(state, rng, lambda: rng.choice(ALL_ACTIONS))
    with pytest.raises(InvalidActionError):
        state.parse_action(rng.choice(["fly", "", "stay!", "tr ade", "cutt"]))
    assert snapshot(state) == before, "a rejected action changed the state"
    return tried + 1


def play_match(options: ChaseOptions, players: int, seed: int, bot: Bot | None) -> Tracker:
    rng = random.Random(seed * 7919 + players)
    state = GAME.new_match(players, options, random.Random(seed))
    start = options.lives + (1 if options.on_honour else 0)
    track = Tracker(lives=[start] * players, alive=players)
    check_invariants(state, track)
    while not state.is_over:
        if track.steps % REJECT_EVERY == 0:
            track.rejections += try_rejections(state, rng)
        seat = state.to_move
        assert seat is not None
        legal = state.legal_actions()
        if bot is not None and seat == 0:
            action = bot.choose(state.view(0), legal, random.Random(track.steps))
            assert action in legal
        else:
            action = rng.choice(legal)
        events = state.apply(seat, action)
        track.feed(events)
        track.events.extend(events)
        track.steps += 1
        check_invariants(state, track)
    track.rejections += try_rejections(state, rng)
    overs = [e for e in state.history if isinstance(e, MatchOver)]
    assert len(overs) == 1 and overs[0].winners == (state.winner,), "exactly one winner"
    assert overs[0].totals == tuple(state.lives) and state.history[-1] == overs[0]
    rounds = [e for e in state.history if isinstance(e, RoundOver)]
    assert rounds[-1].last and not any(r.last for r in rounds[:-1])
    assert len(rounds) == track.hands, "every hand dealt is closed by a RoundOver"
    assert state.result is not None and state.result.winners == (state.winner,)
    assert sum(1 for life in state.lives if life > 0) == 1
    assert track.hands == sum(1 for e in state.history if isinstance(e, RoundStarted))
    return track


@pytest.mark.parametrize("options", CONFIGS)
def test_random_selfplay_invariants(options: ChaseOptions) -> None:
    hands = steps = rejections = matches = 0
    seed = 0
    while hands < HANDS_PER_CONFIG:
        for players in range(2, 11):
            seed += 1
            bot: Bot | None = None
            if seed % 25 == 0 and players <= 5:
                bot = make_bot(GAME, "hard")
            elif seed % 5 == 0:
                bot = make_bot(GAME, "medium")
            track = play_match(options, players, seed, bot)
            hands += track.hands
            steps += track.steps
            rejections += track.rejections
            matches += 1
    assert hands >= HANDS_PER_CONFIG and rejections > steps // REJECT_EVERY
    assert matches >= 9 * 5, "every player count played several matches"
