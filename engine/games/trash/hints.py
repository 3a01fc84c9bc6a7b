"""The hint for Trash: ``hard``'s choice, and why, from the cards it has counted.

``hard`` (:class:`~engine.games.trash.bots.HardTrashBot`) takes a placeable discard, always swaps a King off its
slot, and puts a King where the card of that slot is least likely to come: the reason names the card and the slot,
or, for a King, how many cards of that slot are still unseen (the ones in sight: face up on the table, in the
discard pile or held). Everything in Trash that anyone may know is public, and the view has nothing else.

:func:`review` judges a move already made (:mod:`engine.review`): a move other than ``hard``'s costs the cards it
turns face up fewer, by the same count of the cards still to come.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots import Bot
from engine.games.trash.bots import HardTrashBot, copies_of, seen_of
from engine.games.trash.rules import (
    DISCARD,
    KEEP,
    STOCK,
    SWAP,
    PlaceKing,
    TrashAction,
    TrashView,
    is_king,
    slot_of,
    unseen_cards,
)
from engine.hints import Hint, Judgement, Reviewer, times_in


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


def review(
    bot: Bot, view: TrashView, legal: Sequence[TrashAction], chosen: TrashAction, rng: random.Random
) -> Judgement | None:
    """What ``hard`` makes of the move ``chosen`` (None: it would have made it too, or its count rates both moves
    alike, as two slots for a King with as many cards still to come): its hint, and the cards the move
    is expected to turn face up fewer than the hint's, by ``hard``'s own count of the cards still to come. Leaving a
    King on its slot turns one card fewer up (the King would have turned up a face-down slot); the stock rather than
    a placeable discard gives up a sure card for one that fits as often as the unseen cards say; a King on another
    slot leaves open a slot that fewer of the cards still to come fill (counted per card drawn)."""
    made = hint(bot, view, legal, rng)
    seat = view.to_move
    if made.action == chosen:
        return None
    move = doing_words(view, chosen)
    if seat is None or not isinstance(bot, HardTrashBot):
        return Judgement(made, 0.0, move)
    if made.action == SWAP and chosen == KEEP:
        return Judgement(made, 1.0, move, "leaving the King there turns one card fewer face up")
    if made.action == DISCARD and chosen == STOCK:
        fits = stock_fits(view, seat)
        return Judgement(
            made,
            1.0 - fits,
            move,
            f"a card from the stock fits one of your slots only {times_in(fits)}, the discard for sure"
            if fits < 0.95
            else "the discard was a sure card",
        )
    if isinstance(made.action, PlaceKing) and isinstance(chosen, PlaceKing):
        best, other = made.action.slot, chosen.slot
        unseen = max(1, len(unseen_cards(view)))
        cost = max(0.0, bot.chance_to_come(view, other) - bot.chance_to_come(view, best)) / unseen
        if cost == 0.0:
            return None  # as likely to fill itself as hard's slot: hard only takes the lowest of such slots
        mine = copies_of(view, other) - seen_of(view)[other]
        some = f"the one {slot_word(other)}" if mine == 1 else f"one of the {mine} {slot_word(other, True)}"
        return Judgement(
            made, cost, move, f"slot {other}, where you put it, could still have been filled by {some} still to come"
        )
    return Judgement(made, 0.0, move)


def stock_fits(view: TrashView, seat: int) -> float:
    """How often a card from the stock fits one of ``seat``'s slots, by the cards no one has seen: a pip card whose
    slot is face down or holds a King, or a King while a slot is face down."""
    layout = view.layouts[seat]
    open_slots = {i + 1 for i, card in enumerate(layout) if card is None or is_king(card)}
    face_down = any(card is None for card in layout)
    unseen = unseen_cards(view)
    if not unseen:
        return 0.0
    fitting = sum(1 for card in unseen if (is_king(card) and face_down) or slot_of(card) in open_slots)
    return fitting / len(unseen)


def doing_words(view: TrashView, action: TrashAction) -> str:
    """A move as the review names it: "drawing from the stock", "putting the King on slot 4"."""
    if action == STOCK:
        return "drawing from the stock"
    if action == DISCARD:
        return f"taking the {view.discard[-1].pretty()} from the discard pile" if view.discard else "taking the discard"
    if isinstance(action, PlaceKing):
        return f"putting the King on slot {action.slot}"
    held = view.held
    slot = None if held is None else slot_of(held)
    if action == KEEP:
        return f"leaving the King on slot {slot}" if slot is not None else "leaving the King where it is"
    return f"swapping the {held.pretty()} for the King on slot {slot}" if held is not None else "swapping"


REVIEWER = Reviewer(review, round_word="deal", unit="cards turned face up")
"""The review of a finished match's moves (:mod:`engine.review`)."""
