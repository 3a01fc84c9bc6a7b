"""describe_trash(): Trash events in plain words; TrashNarrator joins a placement with the card turned up."""

from __future__ import annotations

import dataclasses

import pytest

from engine.cards import Card
from engine.events import Event
from engine.games.trash.rules import (
    Completed,
    DealOver,
    DealStarted,
    Discarded,
    DiscardReason,
    Drew,
    FinalRound,
    KingPlaced,
    KingReplaced,
    PickedUp,
    Placed,
    StockShuffled,
    TrashGame,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from tui.games.trash.words import TrashNarrator, describe_trash, slot_label

NAMES = ("You", "Ben", "Cleo")
C = Card.parse


def test_drawing() -> None:
    assert describe_trash(Drew(seat=1, source="stock", card=C("7H")), NAMES, 0) == "Ben draws the 7♥ from the stock"
    assert describe_trash(Drew(seat=0, source="discard", card=C("10C")), NAMES, 0) == (
        "You take the 10♣ from the discard pile"
    )
    assert describe_trash(StockShuffled(cards=31), NAMES, 0) == (
        "The stock ran out: the discard pile but its top card is shuffled into a new stock of 31"
    )


def test_placing_and_turning_up() -> None:
    assert describe_trash(Placed(seat=0, slot=7, card=C("7H")), NAMES, 0) == "You put the 7♥ on slot 7"
    assert describe_trash(KingPlaced(seat=1, slot=1, card=C("KS")), NAMES, 0) == "Ben puts the K♠ on slot A"
    assert describe_trash(PickedUp(seat=2, slot=4, card=C("QC")), NAMES, 0) == "Cleo turns up the Q♣ on slot 4"
    assert describe_trash(KingReplaced(seat=0, slot=3, card=C("3D"), king=C("KH")), NAMES, 0) == (
        "You put the 3♦ on slot 3 in place of the K♥, which must move"
    )


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        (DiscardReason.NO_SLOT, "The Q♣ has no slot: discarded"),
        (DiscardReason.TAKEN, "The Q♣'s slot is already face up: discarded"),
        (DiscardReason.DECLINED, "Ben keeps the King: the Q♣ is discarded"),
        (DiscardReason.COMPLETED, "The Q♣ turned up last goes on the discard pile"),
        (DiscardReason.NO_ROOM, "The Q♣ could only replace a King, and no face-down slot is left for it: discarded"),
    ],
)
def test_every_discard_reason(reason: DiscardReason, words: str) -> None:
    assert describe_trash(Discarded(seat=1, card=C("QC"), reason=reason), NAMES, 0) == words


def test_the_end_of_a_deal_and_of_the_match() -> None:
    assert describe_trash(Completed(seat=0, turn=14), NAMES, 0) == "You complete your layout in 14 turns!"
    assert describe_trash(Completed(seat=1, turn=1), NAMES, 0) == "Ben completes their layout in 1 turn!"
    assert describe_trash(FinalRound(seat=1), NAMES, 0) == "Last turn: everyone but Ben plays once more"
    assert describe_trash(FinalRound(seat=0), NAMES, 0) == "Last turn: everyone else plays once more"
    assert describe_trash(DealOver(winners=(1,), sizes=(10, 10, 10), next_sizes=None), NAMES, 0) == (
        "Ben wins the deal"
    )
    over = DealOver(winners=(2, 0), sizes=(10, 10, 10), next_sizes=(9, 10, 9))
    assert describe_trash(over, NAMES, 0) == "You and Cleo win the deal — next deal: you 9, Ben 10, Cleo 9 cards"
    assert describe_trash(MatchOver(winners=(1,), totals=(3, 1, 2)), NAMES, 0) == "Ben wins the match"
    assert describe_trash(MatchOver(winners=(0,), totals=(1, 3, 2)), NAMES, 0) == "You win the match"
    assert (
        describe_trash(RoundOver(round=1, winners=(1,), deltas=(0, 1, 0), totals=(0, 1, 0), last=False), NAMES, 0)
        is None
    )


def test_a_deal_starting() -> None:
    assert describe_trash(RoundStarted(round=1, dealer=2, seats=(0, 1, 2)), NAMES, 0) is None
    assert describe_trash(DealStarted(deal=1, sizes=(10, 10, 10), first=0), NAMES, 0) == "Deal 1 — you start"
    assert describe_trash(DealStarted(deal=3, sizes=(8, 10, 9), first=1), NAMES, 0) == (
        "Deal 3 — Ben starts (layouts: you 8, Ben 10, Cleo 9)"
    )


def test_every_event_kind_has_words() -> None:
    """Every Trash event the game registers gets a line, but the round marker (its DealOver has the words)."""
    samples: dict[type, Event] = {
        DealStarted: DealStarted(deal=1, sizes=(10, 10), first=0),
        StockShuffled: StockShuffled(cards=20),
        Drew: Drew(seat=0, source="stock", card=C("2H")),
        Placed: Placed(seat=0, slot=2, card=C("2H")),
        KingPlaced: KingPlaced(seat=0, slot=2, card=C("KH")),
        KingReplaced: KingReplaced(seat=0, slot=2, card=C("2H"), king=C("KH")),
        PickedUp: PickedUp(seat=0, slot=2, card=C("2H")),
        Discarded: Discarded(seat=0, card=C("JH"), reason=DiscardReason.NO_SLOT),
        Completed: Completed(seat=0, turn=3),
        FinalRound: FinalRound(seat=0),
        DealOver: DealOver(winners=(0,), sizes=(10, 10), next_sizes=None),
    }
    events = [t for t in TrashGame().codec_types() if isinstance(t, type) and issubclass(t, Event)]
    assert events
    for kind in events:
        assert kind in samples, f"no sample for {kind.__name__}"
        line = describe_trash(samples[kind], ("You", "Ben"), 0)
        assert line, kind.__name__


def test_names_are_shown_as_typed() -> None:
    names = ("You", "[bold]Ben[/]", "$accent")
    assert describe_trash(Drew(seat=1, source="stock", card=C("5S")), names, 0) == (
        "[bold]Ben[/] draws the 5♠ from the stock"
    )
    assert describe_trash(DealOver(winners=(2,), sizes=(10, 10, 10), next_sizes=None), names, 0) == (
        "$accent wins the deal"
    )


def test_the_narrator_joins_a_placement_with_its_turn_up() -> None:
    narrator = TrashNarrator(("You", "Ben"), 1)
    assert narrator.feed(Drew(seat=1, source="stock", card=C("7H"))) == ["You draw the 7♥ from the stock"]
    assert narrator.feed(Placed(seat=1, slot=7, card=C("7H"))) == []
    assert narrator.pending
    assert narrator.feed(PickedUp(seat=1, slot=7, card=C("QC"))) == ["You put the 7♥ on slot 7 and turn up the Q♣"]
    assert narrator.feed(Discarded(seat=1, card=C("QC"), reason=DiscardReason.NO_SLOT)) == [
        "The Q♣ has no slot: discarded"
    ]
    # A placement that completes the layout: no turn-up follows, its line comes before the next event's.
    narrator.feed(Placed(seat=1, slot=5, card=C("5C")))
    lines = narrator.feed(Discarded(seat=1, card=C("3D"), reason=DiscardReason.COMPLETED))
    assert lines == ["You put the 5♣ on slot 5", "The 3♦ turned up last goes on the discard pile"]
    narrator.feed(KingPlaced(seat=0, slot=2, card=C("KD")))
    assert narrator.flush() == ["You puts the K♦ on slot 2"]  # seat 0 is another player named "You"
    assert narrator.flush() == []


def test_slot_labels() -> None:
    assert [slot_label(s) for s in (1, 2, 10)] == ["A", "2", "10"]
    assert dataclasses.is_dataclass(Drew)
