"""Every registered game through the one conformance harness (tests/engine/conformance.py).

Also: meta-tests that break the engine on purpose (a leaking redaction, a lost card, a rejection that changes the
state or publishes) and check that the harness notices, so a green run means something.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from conformance import (
    PLUGS,
    Case,
    bot_table_transcript,
    card_tokens,
    cases,
    make_table,
    replay,
    self_play,
)

from engine import codec
from engine.events import Event
from engine.game import GameState, Scenario
from engine.registry import GAMES
from engine.table import Table

CASES = cases()


def test_every_game_has_a_plug_and_its_cases() -> None:
    for game in GAMES:
        where = f"PLUG in tests/engine/{game.key}_helpers.py"
        assert game.key in PLUGS, f"{game.key} is registered but has no conformance plug ({where})"
        for entry in game.entries():
            ours = [c for c in CASES if c.key == entry.key]
            assert ours, f"no conformance case for {entry.key}"
            assert {c.players for c in ours} >= {game.min_players, game.max_players}
            for variant in game.useful_variants(entry.preset):
                assert any(variant.key in c.variants for c in ours), f"{entry.key}: {variant.key} never played"


@pytest.mark.parametrize("case", CASES, ids=str)
def test_random_self_play(case: Case) -> None:
    run = self_play(case)
    assert run.actions, "nothing was played"
    assert run.rejections > 20 and run.checked_lines > 0
    replay(run)


def _short_case(game_key: str, **changes: Any) -> Case:
    case = next(c for c in CASES if c.game == game_key and not c.variants)
    return dataclasses.replace(case, **changes)


@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_a_match_is_played_to_its_end(game: str) -> None:
    """Bots (mostly) play a short match to the end, checked throughout; then everything is refused as over."""
    g = next(x for x in GAMES if x.key == game)
    case = _short_case(game, players=g.min_players, bot_every=1, max_actions=600, hard=0, seed=5)
    run = self_play(case, reject_every=25, levels=("easy",))
    assert run.table.state.is_over, f"{case} did not end in 600 actions"
    replay(run)


@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_a_table_of_bots_replays_identically(game: str) -> None:
    case = _short_case(game, hard=0)
    levels = ("easy", "medium")
    first = bot_table_transcript(case, levels, 60, think_twice=False)
    again = bot_table_transcript(case, levels, 60, think_twice=True)
    assert first == again
    # Honest: the transcript depends on the seed (else the comparison above would prove nothing).
    other = bot_table_transcript(dataclasses.replace(case, seed=case.seed + 1), levels, 60, think_twice=False)
    assert other != first


class CountingRandom(random.Random):
    """An injected RNG subclass that counts the calls made on it."""

    calls = 0

    def random(self) -> float:
        CountingRandom.calls += 1
        return super().random()


@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_clone_keeps_the_injected_rng(game: str) -> None:
    """A clone plays on exactly as the original (its chance included), with an RNG of the injected class."""
    g = next(x for x in GAMES if x.key == game)
    state = g.new_match(g.min_players, g.options(variants=PLUGS[game].chance_variants), CountingRandom(3))
    rng = random.Random(4)
    for _ in range(5):  # somewhere into the match
        state.apply(state.to_move, rng.choice(state.legal_actions()))
    twin = state.clone()
    assert twin is not state and twin.history == state.history and twin.history is not state.history
    moves = random.Random(9)
    calls_before = CountingRandom.calls
    for _ in range(150):
        if state.is_over:
            break
        action = moves.choice(state.legal_actions())
        state.apply(state.to_move, action)
        twin.apply(twin.to_move, action)
    assert [codec.dumps(e) for e in twin.history] == [codec.dumps(e) for e in state.history]
    assert CountingRandom.calls > calls_before, "the injected RNG was not used after the clone"


@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_a_scenario_deals_what_it_says(game: str) -> None:
    """The same scenario (deck and dealer) deals the same first round whatever the table's seed."""
    g = next(x for x in GAMES if x.key == game)
    players = g.default_players
    base = g.new_match(players, g.options(), random.Random(0))
    deck = list(base.full_deck())
    random.Random(77).shuffle(deck)
    scenario = Scenario(decks=(tuple(deck),), dealer=1)
    one = g.new_match(players, g.options(), random.Random(1), scenario)
    two = g.new_match(players, g.options(), random.Random(2), scenario)
    for seat in [*range(players), None]:
        assert codec.dumps(one.view(seat)) == codec.dumps(two.view(seat))
    assert [codec.dumps(e) for e in one.history] == [codec.dumps(e) for e in two.history]
    plain = g.new_match(players, g.options(), random.Random(1))
    assert [codec.dumps(e) for e in plain.history] != [codec.dumps(e) for e in one.history]


# ---------------------------------------------------------------------------------------------------------------
# The harness can fail: break things on purpose
# ---------------------------------------------------------------------------------------------------------------
def _tiny(game: str) -> Case:
    return _short_case(game, max_actions=12, hard=0)


@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_harness_sees_a_leak(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    leak = PLUGS[game].leak_in_events
    if leak is not None:
        leak(monkeypatch)  # a game whose events are all public leaks nothing by sending them in full
    else:
        monkeypatch.setattr(Event, "for_seat", lambda self, seat: self)
    with pytest.raises(AssertionError, match="may not see"):
        self_play(_tiny(game))


@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_harness_sees_a_leak_in_a_view(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spectator given seat 0's view (which names seat 0's cards), or the game's own leak."""
    original = GameState.view

    def leaky(self: GameState[Any, Any, Any], seat: int | None) -> Any:
        return original(self, 0 if seat is None else seat)

    leak = PLUGS[game].leak_in_view
    if leak is not None:
        leak(monkeypatch)
    else:
        monkeypatch.setattr(GameState, "view", leaky)
    with pytest.raises(AssertionError, match="may not see"):
        self_play(_tiny(game))


@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_harness_sees_a_lost_card(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = type(make_table(_tiny(game)).state)
    original = cls.zones

    def lossy(self: Any) -> dict[str, Any]:
        zones = dict(original(self))
        name = next(k for k, v in zones.items() if len(v) > 0)
        zones[name] = list(zones[name])[1:]
        return zones

    monkeypatch.setattr(cls, "zones", lossy)
    with pytest.raises(AssertionError, match="not conserved"):
        self_play(_tiny(game))


@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_harness_sees_a_rejection_that_changes_the_state(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = type(make_table(_tiny(game)).state)  # a game may apply its own way (Big Two does)
    original = cls.__dict__.get("apply") or cls.apply  # a method, or (Big Two) a property that gives its core's

    def sloppy(self: GameState[Any, Any, Any], seat: int, action: object) -> list[Event]:
        try:
            return original.__get__(self, cls)(seat, action)  # type: ignore[no-any-return]
        except Exception:
            self.version += 1
            raise

    monkeypatch.setattr(cls, "apply", sloppy)
    with pytest.raises(AssertionError, match="changed the state"):
        self_play(_tiny(game))


@pytest.mark.parametrize("game", [g.key for g in GAMES])
def test_harness_sees_a_rejection_that_publishes(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    original = Table.submit

    def chatty(self: Table, seat: int, action: object) -> list[Event]:
        try:
            return original(self, seat, action)
        except Exception:
            self._publish(self.state.history[-1:])
            raise

    monkeypatch.setattr(Table, "submit", chatty)
    with pytest.raises(AssertionError, match="published"):
        self_play(_tiny(game))


def test_card_tokens_read_the_json_text() -> None:
    assert card_tokens('{"a":"10H","b":["QS","JK"],"c":"10HX","d":"QSS","e":"1H"}') == {"10H", "QS", "JK"}
