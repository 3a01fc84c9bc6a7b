"""Every game's walkthrough (issue 31, point 3): each rule of ``docs/rules.md`` has its step, and each step's
position and outcome are the engine's (its moves legal where they are made, the events and conditions it names)."""

from __future__ import annotations

import pytest

from engine.game import GameEntry
from engine.registry import ENTRIES, get_entry, walkthrough_of
from engine.rules_doc import entry_section
from engine.walkthrough import RuleUnit, Walk, Walkthrough, WalkthroughError, matching_units, rule_units, uncovered

KEYS = [entry.key for entry in ENTRIES]


def walkthrough(entry: GameEntry) -> Walkthrough:
    made = walkthrough_of(entry)
    assert made is not None, f"{entry.key} has no walkthrough"
    assert made.steps
    return made


def units(entry: GameEntry) -> list[RuleUnit]:
    return rule_units(entry_section(entry))


@pytest.mark.parametrize("key", KEYS)
def test_every_rule_has_its_step(key: str) -> None:
    entry = get_entry(key)
    missing = uncovered(walkthrough(entry), units(entry))
    assert not missing, "no step shows: " + " | ".join(unit.text for unit in missing)


@pytest.mark.parametrize("key", KEYS)
def test_each_fragment_names_one_rule(key: str) -> None:
    entry = get_entry(key)
    rules = units(entry)
    for step in walkthrough(entry).steps:
        assert step.rules, step.title
        for fragment in step.rules:
            found = matching_units(fragment, rules)
            assert len(found) == 1, f"{step.title}: {fragment!r} matches {[unit.text for unit in found]}"


@pytest.mark.parametrize("key", KEYS)
def test_each_step_plays_through_the_engine(key: str) -> None:
    entry = get_entry(key)
    game = entry.game
    for step in walkthrough(entry).steps:
        assert step.title and step.intro and step.moves, step.title
        walk = Walk(game, game.options(entry.preset), step)
        while not walk.done:
            move = walk.next_move
            assert move is not None and move.says, step.title
            assert walk.state.to_move == move.seat, f"{step.title}: {move.action!r} is not {move.seat}'s to make"
            if move.asked:
                assert move.seat == 0 and move.ask, f"{step.title}: only the player is asked, in words"
                assert walk.refusal(move.action) is None
                others = [a for a in walk.state.legal_actions() if walk.refusal(a) is not None]
                for other in others[:3]:
                    before = walk.state.version
                    with pytest.raises(WalkthroughError):
                        walk.make(other)
                    assert walk.state.version == before, "a refused move changed the table"
                walk.make(move.action)
            else:
                walk.make()
        assert walk.done


@pytest.mark.parametrize("key", KEYS)
def test_a_step_asks_the_player_somewhere(key: str) -> None:
    steps = walkthrough(get_entry(key)).steps
    assert any(move.asked for step in steps for move in step.moves)
