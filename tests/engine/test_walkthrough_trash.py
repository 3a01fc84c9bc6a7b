"""Trash's walkthrough (engine/games/trash/walkthrough.py): its table hides every face-down card, the owner's too,
and its steps show what their titles promise (the generic checks are in tests/engine/test_walkthroughs.py)."""

from __future__ import annotations

from collections.abc import Iterator

from engine.games.trash.rules import KingReplaced, PickedUp, StockShuffled, TrashGame, TrashState
from engine.games.trash.walkthrough import FACE_DOWN, slot_label, table, walkthrough
from engine.walkthrough import Step, Walk

GAME = TrashGame()


def positions() -> Iterator[tuple[Step, TrashState]]:
    """Every position of every step: after its setup, then after each of its moves."""
    for step in walkthrough(None).steps:
        walk = Walk(GAME, GAME.options(), step)
        assert isinstance(walk.state, TrashState)
        yield step, walk.state
        while not walk.done:
            walk.make()
            yield step, walk.state


def step_named(title: str) -> Step:
    [step] = [step for step in walkthrough(None).steps if step.title == title]
    return step


def test_the_table_shows_face_down_cards_face_down_and_face_up_cards_as_they_are() -> None:
    seen = 0
    for step, state in positions():
        names = step.seat_names()
        lines = table(state, names)
        for seat in range(state.players):
            line = lines[seat]
            assert line.startswith(names[seat]), (step.title, line)
            cells = line.split(": ", 1)[1].rsplit(" — ", 1)[0].replace(" | ", "  ").split("  ")
            assert len(cells) == state.sizes[seat], (step.title, line)
            for slot, cell in enumerate(cells, start=1):
                card = state.layouts[seat][slot - 1]
                shown = card.pretty() if state.face_up[seat][slot - 1] else FACE_DOWN
                assert cell == f"{slot_label(slot)}:{shown}", (step.title, line)
                seen += not state.face_up[seat][slot - 1]
            assert line.endswith(f"— {len(state.face_down(seat))} face down"), (step.title, line)
    assert seen > 100  # plenty of face-down cards were checked


def test_the_table_shows_the_held_card_the_discard_top_and_the_stock() -> None:
    walk = Walk(GAME, GAME.options(), step_named("A King is wild"))
    walk.make()
    lines = table(walk.state, walk.step.seat_names())
    assert lines[2:] == ["In hand: You hold the K♠ from the stock", "Discard pile: empty", "Stock: 31 cards"]
    walk.make()
    lines = table(walk.state, walk.step.seat_names())
    assert lines[2:] == ["In hand: nothing", "Discard pile: J♥ on top (1 card)", "Stock: 31 cards"]


def test_a_chain_displaces_a_king() -> None:
    walk = Walk(GAME, GAME.options(), step_named("A chain displaces a King"))
    picked = [event for event in walk.make() if isinstance(event, PickedUp)]
    assert [str(event.card) for event in picked] == ["5H"]  # turned up in the chain, not drawn
    [replaced] = [event for event in walk.make() if isinstance(event, KingReplaced)]
    assert (replaced.slot, str(replaced.card), str(replaced.king)) == (5, "5H", "KD")


def test_the_stock_runs_out_on_the_stepped_move_and_not_before() -> None:
    walk = Walk(GAME, GAME.options(), step_named("The stock runs out"))
    state = walk.state
    assert isinstance(state, TrashState)
    assert len(state.stock) == 1 and len(state.discard) == 31
    assert not any(isinstance(event, StockShuffled) for event in state.history)
    assert not state.completed and not state.over
    assert any(isinstance(event, StockShuffled) for event in walk.make())
