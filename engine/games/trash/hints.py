"""The hint for Trash: ``hard``'s choice, and why, from the cards it has counted.

``hard`` (:class:`~engine.games.trash.bots.HardTrashBot`) takes a placeable discard, always swaps a King off its
slot, and puts a King where the card of that slot is least likely to come: the reason names the card and the slot,
or, for a King, how many cards of that slot are still unseen (the ones in sight: face up on the table, in the
discard pile or held). Everything in Trash that anyone may know is public, and the view has nothing else.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots import Bot
from engine.games.trash.bots import HardTrashBot, copies_of, seen_of
from engine.games.trash.rules import DISCARD, KEEP, STOCK, SWAP, PlaceKing, TrashAction, TrashView, is_king, slot_of
from engine.hints import Hint


def slot_word(slot: int, plural: bool = False) -> str:
    """A slot's card in words: "Ace" (slot 1), "7"; plural "Aces", "7s"."""
    word = "Ace" if slot == 1 else str(slot)
    return f"{word}s" if plural else word


def hint(bot: Bot, view: TrashView, legal: Sequence[TrashAction], rng: random.Random) -> Hint:
    """``bot``'s choice for the seat to move in ``view``, with the reason ``hard`` has for it."""
    action = bot.choose(view, legal, rng)
    seat = view.to_move
    if seat is None or not isinstance(bot, HardTrashBot) or not isinstance(action, TrashAction):
        return Hint(action, "")
    return Hint(action, reason(bot, view, seat, action, legal))


def reason(bot: HardTrashBot, view: TrashView, seat: int, action: TrashAction, legal: Sequence[TrashAction]) -> str:
    layout = view.layouts[seat]
    if action == SWAP:
        held = view.held
        assert held is not None
        slot = slot_of(held)
        forced = "a card taken from the discard pile must be placed, so " if KEEP not in legal else ""
        return (
            f"Swap: {forced}your {held.pretty()} takes slot {slot} back from the King, and the King goes on to a "
            "face-down slot, turning one more card up"
        )
    if isinstance(action, PlaceKing):
        return _king(bot, view, action.slot, [a.slot for a in legal if isinstance(a, PlaceKing)])
    if action == DISCARD:
        top = view.discard[-1]
        if is_king(top):
            return f"Take the discard: the {top.pretty()} is wild and turns up one of your face-down slots"
        slot = slot_of(top)
        assert slot is not None
        if layout[slot - 1] is not None:
            return (
                f"Take the discard: the {top.pretty()} takes slot {slot} back from your King, which then turns up "
                "another face-down slot"
            )
        return f"Take the discard: the {top.pretty()} fills slot {slot}, a sure step where the stock is a blind draw"
    if action == STOCK:
        return f"Draw from the stock: {_why_not_discard(view, seat)}"
    return "Leave the King where it is: the held card is discarded"


def _why_not_discard(view: TrashView, seat: int) -> str:
    if not view.discard:
        return "the discard pile is empty"
    top = view.discard[-1]
    slot = slot_of(top)
    card = top.pretty()
    if slot is None:
        return f"the {card} on the discard pile has no slot (only Kings are wild), so it cannot be taken"
    if slot > len(view.layouts[seat]):
        return f"your layout has no slot {slot}, so the {card} on the discard pile cannot be taken"
    return f"your slot {slot} is already face up, so the {card} on the discard pile has nowhere to go"


def _king(bot: HardTrashBot, view: TrashView, slot: int, slots: Sequence[int]) -> str:
    if len(slots) == 1:
        return f"Put the King on slot {slot}: it is your last face-down slot"
    unseen = copies_of(view, slot) - seen_of(view)[slot]
    chance = bot.chance_to_come(view, slot)
    others = [s for s in slots if s != slot]
    best_other = min(others, key=lambda s: (bot.chance_to_come(view, s), s))
    other_unseen = copies_of(view, best_other) - seen_of(view)[best_other]
    only = "only " if unseen < copies_of(view, slot) else ""
    text = (
        f"Put the King on slot {slot}: {only}{unseen} {slot_word(slot, unseen != 1)} "
        f"{'is' if unseen == 1 else 'are'} still to come"
    )
    if chance < unseen:
        text += f" and another player needs {slot_word(slot, True)} too"
    if chance == bot.chance_to_come(view, best_other):
        return text + ", no more than for any other face-down slot, so the King takes the lowest of them"
    return text + f" (against {other_unseen} for slot {best_other}), so that slot is the least likely to fill itself"
