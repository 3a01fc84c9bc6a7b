"""The walkthrough of Trash's rules (:mod:`engine.walkthrough`): one stacked deal per rule, played a step at a time.

Each deal is stacked with :meth:`~engine.games.trash.rules.TrashGame.deck_for`: the seat after the dealer plays
first, each seat is dealt its whole layout (slot 1 first) and the stock starts with ``rest``, top card first. The
table (:func:`table`) is what every player sees: the face-down cards are shown face down, the owner's too, since
the rules hide them from everyone.

>>> steps = walkthrough(None).steps
>>> len(steps), steps[0].title
(11, 'Your layout and the stock')
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, parse_cards
from engine.game import Scenario
from engine.games.trash.rules import (
    DISCARD,
    STOCK,
    SWAP,
    TrashGame,
    TrashPhase,
    TrashState,
)
from engine.walkthrough import Move, Step, Walkthrough

__all__ = ["table", "walkthrough"]

FACE_DOWN = "▒"
"""A face-down card on the table."""
SOURCE_WORDS = {
    "stock": "from the stock",
    "discard": "from the discard pile",
    "slot": "turned up from the layout",
    "king": "taken back off the layout",
}

GAME = TrashGame()


def slot_label(slot: int) -> str:
    """ "A" for slot 1 (the Ace's), else the number."""
    return "A" if slot == 1 else str(slot)


def table(state: TrashState, names: Sequence[str]) -> list[str]:
    """The position as every player sees it, one line a place: each layout (a face-down card as ▒, for its owner
    too), the card in hand, the discard pile's top and the stock's size.

    >>> import random
    >>> from engine.cards import parse_cards
    >>> deck = GAME.deck_for(2, dealer=1, hands=[parse_cards("2C 3C QD")], rest=parse_cards("AS"))
    >>> state = GAME.new_match(2, GAME.options(), random.Random(0), Scenario(decks=(deck,), dealer=1))
    >>> _ = state.apply(0, "stock")
    >>> for line in table(state, ("You", "Ada")):
    ...     print(line)
    You: A:A♠  2:2♣  3:3♣  4:▒  5:▒ | 6:▒  7:▒  8:▒  9:▒  10:▒ — 7 face down
    Ada (to move): A:▒  2:▒  3:▒  4:▒  5:▒ | 6:▒  7:▒  8:▒  9:▒  10:▒ — 10 face down
    In hand: nothing
    Discard pile: Q♦ on top (1 card)
    Stock: 31 cards
    """
    view = state.view(None)  # a spectator's view: only what is public, so no face-down card is in it
    lines: list[str] = []
    for seat, layout in enumerate(view.layouts):
        cells = [
            f"{slot_label(i + 1)}:{card.pretty() if card is not None else FACE_DOWN}" for i, card in enumerate(layout)
        ]
        rows = "  ".join(cells[:5]) + (" | " + "  ".join(cells[5:]) if len(cells) > 5 else "")
        down = sum(1 for card in layout if card is None)
        mark = " (to move)" if view.to_move == seat else ""
        lines.append(f"{names[seat]}{mark}: {rows} — {down} face down")
    if view.held is None:
        lines.append("In hand: nothing")
    else:
        holder = names[view.to_move] if view.to_move is not None else "?"
        verb = "hold" if holder == "You" else "holds"
        where = SOURCE_WORDS.get(view.held_from or "", "")
        lines.append(f"In hand: {holder} {verb} the {view.held.pretty()} {where}".rstrip())
    if view.discard:
        size = len(view.discard)
        lines.append(f"Discard pile: {view.discard[-1].pretty()} on top ({size} card{'s' if size != 1 else ''})")
    else:
        lines.append("Discard pile: empty")
    lines.append(f"Stock: {view.stock} card{'s' if view.stock != 1 else ''}")
    if view.winners:
        lines.append("Game over: " + " and ".join(names[seat] for seat in view.winners) + " won")
    return lines


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def deal(
    players: int,
    hands: Sequence[Sequence[Card]],
    rest: Sequence[Card] = (),
    *,
    dealer: int | None = None,
    sizes: Sequence[int] | None = None,
) -> tuple[Card, ...]:
    """A deck order: seat ``s`` gets ``hands[s]``, the stock starts with ``rest``; the seat after ``dealer`` (by
    default the last seat, so that you play first) starts."""
    dealer = players - 1 if dealer is None else dealer
    return GAME.deck_for(players, dealer, hands, rest, sizes)


def opening_step() -> Step:
    hands = [cards("5D 9S 2H 10C JD 4S 7H 8D 3C KH")]
    deck = deal(3, hands, cards("7H"))
    return Step(
        "Your layout and the stock",
        ("Each player is dealt", "The very first turn can only take from the stock"),
        "Three players, so two decks are shuffled together (104 cards). Each of you has ten cards face down (▒) in "
        "two rows: slots Ace to 5 on top, 6 to 10 below. Nobody may look at a face-down card, its owner included. "
        "The other 74 cards are the stock; the discard pile is empty.",
        3,
        Scenario(decks=(deck,), dealer=2),
        (
            Move(
                0,
                "stock",
                "On the first turn the discard pile is empty, so the stock was your only choice. You drew the 7♥: it "
                "went face up on its own slot, 7, and you turned up the card that lay there — the other deck's 7♥ "
                "(two decks, two of every card). Slot 7 is face up now, so that 7♥ had nowhere to go: it was "
                "discarded and your turn ended.",
                asked=True,
                ask="Take the top card of the stock: choose 'stock'.",
                shows=("Drew", "Placed", "PickedUp", "Discarded"),
                expect=lambda s: s.face_up[0][6] and [str(c) for c in s.discard] == ["7H"] and len(s.stock) == 73,
            ),
        ),
    )


def chain_step() -> Step:
    you = cards("JC 4D 8S 5D 6D 7D 9D AH 10D 2D")
    deck = deal(2, [you], cards("3D QD 3C"))
    return Step(
        "A chain",
        ("goes face up on its own slot", "The chain ends when a card cannot be placed"),
        "You play first. Your layout is all face down; the top card of the stock is a 3.",
        2,
        Scenario(decks=(deck,), dealer=1),
        (
            Move(
                0,
                "stock",
                "The 3♦ went face up on slot 3, and the card under it, the 8♠, was played the same way: onto slot 8. "
                "Under the 8 was the A♥, which went on slot A. Under the Ace was the J♣: a Jack has no slot, so "
                "the chain ended there and the J♣ was discarded.",
                asked=True,
                ask="Draw from the stock: choose 'stock'.",
                shows=("Placed", "PickedUp", "Discarded"),
                expect=lambda s: s.face_down(0) == [2, 4, 5, 6, 7, 9, 10] and str(s.discard[-1]) == "JC",
            ),
            Move(
                1,
                "stock",
                "Ada drew the Q♦. A Queen has no slot either, so it was discarded at once and her turn ended.",
                shows=("Drew", "Discarded"),
                expect=lambda s: str(s.discard[-1]) == "QD",
            ),
            Move(
                0,
                "stock",
                "You drew the 3♣, but your slot 3 is already face up (the 3♦ is there), so the 3♣ cannot be placed: "
                "it was discarded and your turn ended.",
                asked=True,
                ask="The Q♦ on the discard pile cannot be placed, so draw from the stock: choose 'stock'.",
                shows=("Discarded",),
                expect=lambda s: str(s.discard[-1]) == "3C" and s.face_down(0) == [2, 4, 5, 6, 7, 9, 10],
            ),
        ),
    )


def discard_step() -> Step:
    you = cards("AD QS 3D 4D 5D 2D 7D 8D 9D 10D")
    ada = cards("AC 2C 3C 4C 5C 6H 7C 8C 9C JD")
    deck = deal(2, [you, ada], cards("JS 6C 10C"))
    return Step(
        "Taking the discard",
        ("Take the top card of the stock or of the discard pile", "The top of the discard pile may be taken only"),
        "Ada has just put her 6♣ on slot 6 and discarded the 6♥ she turned up there, since slot 6 was then taken. "
        "Your slot 6 is face down.",
        2,
        Scenario(decks=(deck,), dealer=1),
        (
            Move(
                0,
                "discard",
                "You took the 6♥ from the discard pile. You may, because it can be placed — your slot 6 is face "
                "down — and a card taken from the pile must be placed. It went on slot 6, the 2♦ under it on slot "
                "2, and under that was the Q♠, which has no slot: discarded.",
                asked=True,
                ask="Take Ada's 6♥ from the discard pile: choose 'discard'.",
                shows=("Drew", "Placed", "Discarded"),
                expect=lambda s: s.face_down(0) == [1, 3, 4, 5, 7, 8, 9, 10] and s.legal_actions() == [STOCK],
            ),
            Move(
                1,
                "stock",
                "A Queen can never be placed, so Ada could not take the Q♠: she had to draw from the stock. Her "
                "10♣ went on slot 10, and the J♦ under it was discarded.",
                shows=("Drew", "Placed", "Discarded"),
                expect=lambda s: str(s.discard[-1]) == "JD",
            ),
        ),
        setup=((0, "stock"), (1, "stock")),
    )


def reshuffle_step() -> Step:
    # Ada draws only cards that fit her slots 5-8 or none, you only your slots A-4 or none: no one completes.
    you = cards("AC 2C 3C 4C KD KC 9D 9C 10S 10H")
    ada = cards("KS KH 9S 10D 5C 6C 7C 8C 9H 10C")
    ada_draws = cards("5D QH 6D 7D JH 8D 5H 6H QS 7H 8H JS 5S 6S 7S 8S")
    your_draws = cards("AD 2D JC 3D 4D AH QC 2H 3H 4H JD AS 2S QD 3S 4S")
    rest = [card for pair in zip(ada_draws, your_draws, strict=True) for card in pair]
    deck = deal(2, [you, ada], rest, dealer=0)
    setup = tuple(((turn + 1) % 2, "stock") for turn in range(31))
    return Step(
        "The stock runs out",
        ("When the stock runs out",),
        "Thirty-one turns have been played and the stock is down to its last card; the discard pile holds the "
        "other 31. Your slot 4 is face up, Ada's is face down.",
        2,
        Scenario(decks=(deck,), dealer=0),
        (
            Move(
                0,
                "stock",
                "You drew the last card, the 4♠; your slot 4 is face up, so it was discarded. The stock was then "
                "empty, so before Ada's turn the discard pile, all but its top card (your 4♠), was shuffled into a "
                "new stock of 31 cards.",
                asked=True,
                ask="Draw the stock's last card: choose 'stock'.",
                shows=("StockShuffled",),
                expect=lambda s: len(s.stock) == 31 and [str(c) for c in s.discard] == ["4S"],
            ),
            Move(
                1,
                "discard",
                "Ada could choose between the new stock and the 4♠: she took the 4♠, as her slot 4 is face down. "
                "The 10♦ under it went on slot 10, and the 10♣ under that was discarded (slot 10 is taken).",
                shows=("Drew", "Placed", "Discarded"),
                expect=lambda s: str(s.discard[-1]) == "10C" and len(s.stock) == 31,
            ),
        ),
        setup=setup,
    )


def king_step() -> Step:
    you = cards("2D 3D 5D 9C 6D 7D 8D 10D JH AD")
    deck = deal(2, [you], cards("KS"))
    return Step(
        "A King is wild",
        ("goes on any slot that is still face down",),
        "You play first; the top card of the stock is a King.",
        2,
        Scenario(decks=(deck,), dealer=1),
        (
            Move(
                0,
                "stock",
                "You drew the K♠. A King is wild: it may go on any slot that is still face down, and while you "
                "have one you must put it there (it cannot be discarded). Now you choose the slot.",
                asked=True,
                ask="Draw from the stock: choose 'stock'.",
                shows=("Drew",),
                expect=lambda s: s.phase is TrashPhase.KING and len(s.legal_actions()) == 10,
            ),
            Move(
                0,
                "king 4",
                "The K♠ went face up on slot 4, where it stands in for the 4. The 9♣ you turned up there went on "
                "slot 9, and the J♥ under that has no slot, so it was discarded.",
                asked=True,
                ask="Put the King on slot 4: choose 'king 4'.",
                shows=("KingPlaced", "PickedUp", "Placed", "Discarded"),
                expect=lambda s: str(s.layouts[0][3]) == "KS" and s.face_down(0) == [1, 2, 3, 5, 6, 7, 8, 10],
            ),
        ),
    )


def swap_step() -> Step:
    you = cards("AD 2D 5H 4D QC 6D 8S JD 9D 10D")
    ada = cards("AC QD")
    deck = deal(2, [you, ada], cards("KD KC 3D 2C"))
    return Step(
        "A chain displaces a King",
        ("may replace the King",),
        "Your K♦ stands on slot 5 and Ada's K♣ on her slot 2, each put there on the first turn.",
        2,
        Scenario(decks=(deck,), dealer=1),
        (
            Move(
                0,
                "stock",
                "The 3♦ went on slot 3 and you turned up the 5♥. Its slot, 5, holds your K♦: you may put the 5♥ "
                "there in place of the King, or keep the King and discard the 5♥.",
                asked=True,
                ask="Draw from the stock: choose 'stock'.",
                shows=("Placed", "PickedUp"),
                expect=lambda s: s.phase is TrashPhase.SWAP and str(s.held) == "5H",
            ),
            Move(
                0,
                "swap",
                "The 5♥ took slot 5 and the K♦ is back in your hand, so it must go on another face-down slot.",
                asked=True,
                ask="Replace the King with the 5♥: choose 'swap'.",
                shows=("KingReplaced",),
                expect=lambda s: str(s.layouts[0][4]) == "5H" and str(s.held) == "KD",
            ),
            Move(
                0,
                "king 7",
                "The K♦ went on slot 7 and the chain went on: the 8♠ under it to slot 8, then the J♦, discarded. "
                "The swap won you a slot: 5 holds a real 5 and the King now covers 7.",
                asked=True,
                ask="Put the King on slot 7: choose 'king 7'.",
                shows=("KingPlaced", "Placed", "Discarded"),
                expect=lambda s: str(s.layouts[0][6]) == "KD" and s.face_down(0) == [1, 2, 4, 6, 9, 10],
            ),
            Move(
                1,
                "stock",
                "Ada drew the 2♣, and her slot 2 holds her K♣: she has the same choice to make.",
                shows=("Drew",),
                expect=lambda s: s.phase is TrashPhase.SWAP,
            ),
            Move(
                1,
                "pass",
                "Ada kept her King where it is, so the 2♣ was discarded and her turn ended.",
                shows=("Discarded",),
                expect=lambda s: str(s.layouts[1][1]) == "KC" and str(s.discard[-1]) == "2C",
            ),
        ),
        setup=((0, "stock"), (0, "king 5"), (1, "stock"), (1, "king 2")),
    )


def forced_swap_step() -> Step:
    you = cards("AD QH 3D 4D 5D QS 7D 8D 9D 2H")
    ada = cards("AC 2C 3C 4C 5C 6D")
    deck = deal(2, [you, ada], cards("KH 6C"))
    return Step(
        "A swap you must make",
        ("the swap is compulsory",),
        "Your K♥ stands on slot 6. Ada has just discarded the 6♦.",
        2,
        Scenario(decks=(deck,), dealer=1),
        (
            Move(
                0,
                "discard",
                "The 6♦ fits only on slot 6, where your K♥ is. A card taken from the discard pile must be placed, "
                "so the swap is compulsory: keeping the King is not offered.",
                asked=True,
                ask="Take the 6♦ from the discard pile: choose 'discard'.",
                shows=("Drew",),
                expect=lambda s: s.phase is TrashPhase.SWAP and s.legal_actions() == [SWAP],
            ),
            Move(
                0,
                "swap",
                "The 6♦ replaced the King on slot 6. The K♥ must now move to a face-down slot — a King can be "
                "swapped out only while one is left, and you have nine.",
                asked=True,
                ask="Replace the King: choose 'swap'.",
                shows=("KingReplaced",),
                expect=lambda s: str(s.layouts[0][5]) == "6D" and len(s.legal_actions()) == 9,
            ),
            Move(
                0,
                "king 10",
                "The K♥ went on slot 10; the 2♥ under it went on slot 2, and the Q♥ under that was discarded.",
                shows=("KingPlaced", "Placed", "Discarded"),
                expect=lambda s: str(s.layouts[0][9]) == "KH" and str(s.discard[-1]) == "QH",
            ),
        ),
        setup=((0, "stock"), (0, "king 6"), (1, "stock")),
    )


def public_step() -> Step:
    you = cards("AD 2D 3D 4D 5D 6D JC")
    ada = cards("AC 2C 7S 4C 5C 6C 7D")
    deck = deal(2, [you, ada], cards("JS KC"))
    return Step(
        "What everyone sees",
        ("Hidden from everyone",),
        "Everything face up is public: the cards on the slots, the card in hand, the discard pile. The face-down "
        "cards (▒) and the order of the stock are hidden from everyone — their owner too. It is Ada's turn.",
        2,
        Scenario(decks=(deck,), dealer=1),
        (
            Move(
                1,
                "stock",
                "Everyone sees the card Ada drew, the K♣. Which slot to put it on is her choice, but she cannot "
                "know what lies under any of her face-down cards: nobody can.",
                shows=("Drew",),
                expect=lambda s: s.phase is TrashPhase.KING and s.held is not None and str(s.held) == "KC",
            ),
            Move(
                1,
                "king 3",
                "She chose slot 3 and turned up the 7♠, which went on slot 7; under it was the 7♦, and slot 7 is "
                "now taken, so the 7♦ was discarded — in plain sight.",
                shows=("KingPlaced", "Placed", "Discarded"),
                expect=lambda s: str(s.discard[-1]) == "7D" and DISCARD in s.legal_actions(),
            ),
            Move(
                0,
                "discard",
                "You saw the 7♦ go on the pile, and your slot 7 is face down, so you took it. Under your slot 7 "
                "was the J♣, which you could not know: it has no slot, so it was discarded.",
                asked=True,
                ask="Take the 7♦ from the discard pile: choose 'discard'.",
                shows=("Drew", "Placed", "Discarded"),
                expect=lambda s: str(s.layouts[0][6]) == "7D" and str(s.discard[-1]) == "JC",
            ),
        ),
        setup=((0, "stock"),),
    )


def winning_step() -> Step:
    you = cards("2S 3S 4S 5S KC 7S 8S 9S QC 5D")
    deck = deal(2, [you], cards("AS JD 10H"))
    return Step(
        "Completing the layout",
        ("has completed the layout", "The first to complete wins at once", "A game is one deal"),
        "Nine of your slots are face up — the K♣ on slot 6 counts like any other card. Only slot 10 is face down, "
        "and the top card of the stock is a 10.",
        2,
        Scenario(decks=(deck,), dealer=1),
        (
            Move(
                0,
                "stock",
                "The 10♥ went on slot 10, your last face-down slot: every slot is face up, so your layout is "
                "complete. The 5♦ you turned up there is not played on — it goes to the discard pile — and you win "
                "at once: Ada gets no more turns, and since a game is one deal, the game is over.",
                asked=True,
                ask="Draw from the stock: choose 'stock'.",
                shows=("Completed", "DealOver"),
                expect=lambda s: s.over and s.progress.winners == (0,) and str(s.discard[-1]) == "5D",
            ),
        ),
        setup=((0, "stock"), (0, "king 6"), (1, "stock")),
    )


def match_step() -> Step:
    first = deal(2, [cards("9H AC"), cards("3D 4D 5D 6D")], cards("2C"), sizes=(2, 4))
    second = deal(2, [cards("9H"), cards("AS 2S 3S 4S")], cards("QH AD"), dealer=0, sizes=(1, 4))
    return Step(
        "House rule: Match",
        ("whoever completes a one-card layout wins the match",),
        "With Match, deal follows deal and each deal's winner gets one card fewer. As if some deals had been "
        "played, you have a two-card layout (slots A and 2) and Ada four.",
        2,
        Scenario(decks=(first, second), dealer=1, totals=(2, 4)),
        (
            Move(
                0,
                "stock",
                "The 2♣ went on slot 2 and the A♣ under it on slot A: your layout is complete (the 9♥ turned up "
                "last is discarded) and you win the deal. In the next deal you have one card fewer, only the "
                "Ace's slot, while Ada keeps four.",
                asked=True,
                ask="Draw from the stock: choose 'stock'.",
                shows=("Completed", "DealOver", "DealStarted"),
                expect=lambda s: s.sizes == [1, 4] and s.deal == 2 and not s.over,
            ),
            Move(
                1,
                "stock",
                "A new deal is dealt, and Ada starts it: the first player moves one seat on each deal. Her Q♥ has "
                "no slot, so it was discarded.",
                shows=("Discarded",),
                expect=lambda s: s.to_move == 0,
            ),
            Move(
                0,
                "stock",
                "The A♦ went on your only slot: you completed a one-card layout, so you win the match.",
                asked=True,
                ask="Draw from the stock: choose 'stock'.",
                shows=("Completed", "MatchOver"),
                expect=lambda s: s.over and s.progress.winners == (0,),
            ),
        ),
        variants=("match",),
    )


def last_turn_step() -> Step:
    you = cards("2S 3S 4S 5S 6S 7S 8S 9S QC 7D")
    ada = cards("8D 3H 4H 5H 6H 7H 8H 9H 10H JC")
    deck = deal(2, [you, ada], cards("AS 2H 10D AD"))
    return Step(
        "House rule: Last turn",
        ("everyone who completes shares the win",),
        "With Last turn, completing does not end the game at once. You have only slot 10 face down, Ada only slot A.",
        2,
        Scenario(decks=(deck,), dealer=1),
        (
            Move(
                0,
                "stock",
                "The 10♦ completed your layout (the 7♦ under it was discarded), but with Last turn the game is not "
                "over yet: Ada gets one more turn.",
                asked=True,
                ask="Draw from the stock: choose 'stock'.",
                shows=("Completed", "FinalRound"),
                expect=lambda s: not s.over and s.to_move == 1,
            ),
            Move(
                1,
                "stock",
                "On her last turn Ada drew the A♦, which went on slot A, her last face-down slot: she completed too, "
                "so you share the win.",
                shows=("Completed", "DealOver"),
                expect=lambda s: s.over and s.progress.winners == (0, 1),
            ),
        ),
        setup=((0, "stock"), (1, "stock")),
        variants=("last-turn",),
    )


def walkthrough(preset: str | None) -> Walkthrough:
    """Trash's walkthrough (it has one preset, so ``preset`` changes nothing)."""
    steps = (
        opening_step(),
        chain_step(),
        discard_step(),
        reshuffle_step(),
        king_step(),
        swap_step(),
        forced_swap_step(),
        public_step(),
        winning_step(),
        match_step(),
        last_turn_step(),
    )
    return Walkthrough(steps, table)
