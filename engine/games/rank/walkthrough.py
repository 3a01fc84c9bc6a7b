"""Rank's walkthrough (issue 31): each rule of its rules text shown on a stacked deal, a step at a time.

Most steps are two-player deals stacked with :meth:`~engine.games.rank.rules.RankGame.deck_for` (every hand named
in full, then the starter and the top of the stock); the deal, the pending exit that a draw confirms and the empty
stock need three, four or five players. Every hand is shown (:func:`table`), so that a newcomer sees why a card
may or may not be played; the stock stays face down. A step that needs a later position reaches it through its
``setup``: the empty stock after 33 draws, the last deal of a match after four quick deals (:func:`_quick_deal`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import Card, Rank, parse_cards, sort_key
from engine.events import Event
from engine.game import Scenario
from engine.games.rank.rules import (
    DealStarted,
    Drew,
    JokerReturned,
    Played,
    PlayKind,
    RankGame,
    RankPhase,
    RankState,
    StarterTurned,
)
from engine.walkthrough import Check, Move, Step, Walkthrough, all_of

__all__ = ["table", "walkthrough"]

_GAME = RankGame()


def _deck(dealer: int, *hands: str, rest: str = "") -> tuple[Card, ...]:
    """The deck that deals each seat exactly ``hands[seat]`` (five cards) when ``dealer`` deals, then turns up the
    first card of ``rest`` and stacks the others on the stock, the first of them on top."""
    cards = [parse_cards(hand) for hand in hands]
    if any(len(hand) != 5 for hand in cards):
        raise ValueError(f"each hand is 5 cards: {[len(hand) for hand in cards]}")
    return _GAME.deck_for(len(hands), dealer, cards, parse_cards(rest))


def _last(state: RankState, kind: type[Event]) -> Any:
    """The latest event of ``kind`` in the match's history (None if there is none)."""
    return next((event for event in reversed(state.history) if isinstance(event, kind)), None)


def _top(text: str, *, kind: PlayKind | None = None, named: Rank | None = None, to_move: int | None = None) -> Check:
    """After the move: the pile's top card is ``text`` (played as ``kind``; a Joker named ``named``), and
    ``to_move`` moves next."""
    card = Card.parse(text)

    def check(state: RankState) -> bool:
        if not state.pile or state.pile[-1] != card:
            return False
        played = _last(state, Played)
        if kind is not None and (played is None or played.card != card or played.kind is not kind):
            return False
        if named is not None and state.named is not named:
            return False
        return to_move is None or state.to_move == to_move

    return check


def _holds(seat: int, text: str, count: int | None = None) -> Check:
    """After the move: ``seat`` holds the cards ``text`` (and ``count`` cards in all)."""
    wanted = parse_cards(text)

    def check(state: RankState) -> bool:
        hand = state.hands[seat]
        return all(card in hand for card in wanted) and (count is None or len(hand) == count)

    return check


def _phase(phase: RankPhase, to_move: int) -> Check:
    def check(state: RankState) -> bool:
        return state.phase is phase and state.to_move == to_move

    return check


def _dealt_by(dealer: int, starter: str) -> Check:
    """The deal: ``dealer`` dealt five cards each, and the first card turned up, a joker, went back into the stock
    before ``starter`` was turned up instead."""
    card = Card.parse(starter)

    def check(state: RankState) -> bool:
        started = _last(state, DealStarted)
        turned = [event.card for event in state.history if isinstance(event, StarterTurned)]
        returned = any(isinstance(event, JokerReturned) for event in state.history)
        return (
            started is not None
            and started.dealer == dealer
            and set(started.counts) == {5}
            and turned == [Card.parse("JK"), card]
            and returned
            and state.pile[0] == card
        )

    return check


def _pending(seat: int) -> Check:
    """After the move: ``seat`` has no card left, its exit pending, and the deal goes on."""

    def check(state: RankState) -> bool:
        return state.pending == seat and not state.hands[seat] and state.deal == 1 and not state.out

    return check


def _back(seat: int, count: int) -> Check:
    """After the move: ``seat`` is back in with ``count`` cards, no exit pending."""

    def check(state: RankState) -> bool:
        return state.pending is None and len(state.hands[seat]) == count and seat not in state.out

    return check


def _out(seat: int) -> Check:
    def check(state: RankState) -> bool:
        return state.out == [seat] and state.pending is None and state.deal == 1

    return check


def _lost(totals: Sequence[int], dealer: int) -> Check:
    """After the move: the deal is over with these penalty points, and the next deal is dealt by ``dealer``."""

    def check(state: RankState) -> bool:
        return state.deal == 2 and list(state.progress.totals) == list(totals) and state.progress.dealer == dealer

    return check


def _won(winners: tuple[int, ...], totals: Sequence[int]) -> Check:
    def check(state: RankState) -> bool:
        result = state.result
        return result is not None and result.winners == winners and list(state.progress.totals) == list(totals)

    return check


def _private(seat: int) -> Check:
    """After the move: the card just drawn is told to ``seat`` alone."""

    def check(state: RankState) -> bool:
        drew = _last(state, Drew)
        return drew is not None and drew.seat == seat and drew.audience == frozenset({seat})

    return check


# ---------------------------------------------------------------------------------------------------------------
# The position as a player reads it
# ---------------------------------------------------------------------------------------------------------------
def _ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def _count(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _rank_word(rank: Rank) -> str:
    return rank.name.capitalize() if rank is Rank.ACE or rank > Rank.TEN else str(int(rank))


def table(state: Any, names: Sequence[str]) -> list[str]:
    """The position, one line a place: the deal and the penalty points, the pile's top card, the stock (face
    down), each hand (every card shown in a walkthrough) and who is to move."""
    rank: RankState = state
    points = ", ".join(f"{names[seat]} {total}" for seat, total in enumerate(rank.progress.totals))
    lines = [
        f"Deal {rank.deal} of {rank.options.deals} ({names[rank.progress.dealer]} dealt); penalty points: {points}"
    ]
    if rank.pile:
        top = rank.pile[-1]
        if top.rank is not Rank.JOKER:
            shown = top.pretty()
        elif rank.named is not None:
            shown = f"Joker (named {_rank_word(rank.named)})"
        else:
            shown = "Joker, its rank not named yet"
        lines.append(f"Pile: {shown} on top ({_count(len(rank.pile))})")
    lines.append(f"Stock: {_count(len(rank.stock))}, face down" if rank.stock else "Stock: empty")
    for seat, hand in enumerate(rank.hands):
        if seat in rank.out:
            lines.append(f"{names[seat]}: out ({_ordinal(rank.out.index(seat) + 1)})")
        elif seat == rank.pending:
            lines.append(f"{names[seat]}: no cards, exit pending")
        else:
            cards = " ".join(card.pretty() for card in sorted(hand, key=sort_key))
            lines.append(f"{names[seat]} ({_count(len(hand))}): {cards}")
    mover = rank.to_move
    if mover is None:
        lines.append("The match is over")
    elif rank.phase is RankPhase.NAME:
        lines.append(f"To play: {names[mover]}, naming the Joker's rank")
    elif rank.phase is RankPhase.FOLLOW:
        lines.append(f"To play: {names[mover]}, who may add one card on the Joker")
    else:
        lines.append(f"To play: {names[mover]}")
    return lines


# ---------------------------------------------------------------------------------------------------------------
# The steps, in the order of the rules
# ---------------------------------------------------------------------------------------------------------------
_LOT_SEED = 5
"""A seed whose lot for the first dealer of three players falls on Ben (seat 2)."""


def _the_deal() -> Step:
    return Step(
        "The deal",
        ("2–4 players: one deck of 52", "The first dealer is drawn by lot", "The player left of the dealer starts"),
        "Three players, so one deck of 52 cards and 2 jokers. The first dealer was drawn by lot: Ben. He dealt 5 "
        "cards each, one at a time, clockwise from his left (you). The first card turned up was a Joker: it went "
        "back into the stock (never on top) and the 6♣ was turned up instead to start the pile. In this "
        "walkthrough you see every hand; in a game you see only your own.",
        3,
        Scenario(
            decks=(_deck(2, "7D 9S JC KH 3S", "8C 10D QH 2S 4H", "7S 10C QD AH 5D", rest="JK 6C"),),
        ),
        (
            Move(
                0,
                "7D",
                "You sit on the dealer's left, so you started. Your 7♦ is one rank above the 6♣: a normal play, "
                "as the next steps explain.",
                asked=True,
                ask="Start the deal with your 7♦: choose 7♦.",
                shows=("Played",),
                expect=all_of(_top("7D", kind=PlayKind.NORMAL, to_move=1), _dealt_by(2, "6C")),
            ),
            Move(1, "8C", "Play goes clockwise: Ada is next and plays the 8♣, one above your 7♦.", shows=("Played",)),
            Move(2, "7S", "Then Ben, with the 7♠, one below the 8♣; then you again.", shows=("Played",)),
        ),
        seed=_LOT_SEED,
    )


def _two_decks() -> Step:
    return Step(
        "Five or more: two decks",
        ("5–10 players: two such decks",),
        "With five players the deck is two decks of 52 and 4 jokers, 108 cards: every card is there twice. Ben "
        "dealt, so Cal, on his left, starts on the 6♣.",
        5,
        Scenario(
            decks=(
                _deck(
                    2,
                    "7H 9S JC KH 3S",
                    "9D JD KD 3D 10C",
                    "10S QS 2S 4S 5C",
                    "7H 10H QH 2H 4C",
                    "8S JS KS AD 3C",
                    rest="6C",
                ),
            ),
            dealer=2,
        ),
        (
            Move(3, "7H", "Cal plays the 7♥, one above the 6♣.", shows=("Played",)),
            Move(4, "8S", "Dee plays the 8♠, one above the 7♥.", shows=("Played",)),
            Move(
                0,
                "7H",
                "Your 7♥ is the second 7♥ of the deal: with two decks a card may turn up twice.",
                asked=True,
                ask="Play your 7♥, the same card Cal played: choose 7♥.",
                shows=("Played",),
                expect=all_of(
                    _top("7H", kind=PlayKind.NORMAL),
                    lambda s: s.pile.count(Card.parse("7H")) == 2 and len(s.full_deck()) == 108,
                ),
            ),
        ),
    )


def _cyclic() -> Step:
    return Step(
        "The King is next to the Ace",
        ("Ranks are cyclic", "An Ace on a K or a 2 is simply a normal play"),
        "The ranks go round: A 2 3 … 10 J Q K, and after the King comes the Ace again. The pile shows the K♠.",
        2,
        Scenario(decks=(_deck(1, "AH 4C 6D 8S 10H", "2C 5H 7S 9D JC", rest="KS"),), dealer=1),
        (
            Move(
                0,
                "AH",
                "Your A♥ is one rank above the K♠, since the King is next to the Ace: a normal play like any other. "
                "Suits never matter: a heart on a spade is fine.",
                asked=True,
                ask="Play the A♥ on the K♠: choose A♥.",
                shows=("Played",),
                expect=_top("AH", kind=PlayKind.NORMAL, to_move=1),
            ),
            Move(
                1,
                "2C",
                "On the Ace Ada needs a King or a 2: she plays the 2♣, one above the Ace.",
                shows=("Played",),
                expect=_top("2C", kind=PlayKind.NORMAL, to_move=0),
            ),
        ),
    )


def _must_play() -> Step:
    return Step(
        "A normal play is a must",
        ("A normal play is one card",),
        "A normal play is a card one rank above or below the top card: on the 6♣, a 5 or a 7. You hold the 5♠ and "
        "the 7♦, and also an Ace and a Joker.",
        2,
        Scenario(decks=(_deck(1, "5S 7D AC JK 10H", "8H 6D KC QD 2S", rest="6C"),), dealer=1),
        (
            Move(
                0,
                "7D",
                "The 7♦ is one above the 6♣. Which normal play you make is your choice (the 5♠ would do too), but "
                "while you hold one you must make one: you were not offered the Ace, the Joker or a draw.",
                asked=True,
                ask="Play one of your normal plays, the 7♦: choose 7♦.",
                shows=("Played",),
                expect=_top("7D", kind=PlayKind.NORMAL, to_move=1),
            ),
            Move(
                1,
                "8H",
                "Ada now needs a 6 or an 8 and holds both: she must play one, and plays the 8♥.",
                shows=("Played",),
                expect=_top("8H", kind=PlayKind.NORMAL, to_move=0),
            ),
        ),
    )


def _ace() -> Step:
    return Step(
        "No normal play: an Ace",
        ("With no normal play you may instead", "play an Ace: it lies as an Ace"),
        "The pile shows the 6♣ and you hold no 5 and no 7: no normal play. Then you may play an Ace, play a Joker "
        "or draw a card.",
        2,
        Scenario(decks=(_deck(1, "AS 9H KD JC 2C", "2D 8C 10S QH 4H", rest="6C"),), dealer=1),
        (
            Move(
                0,
                "AS",
                "You escaped with the A♠. It lies as an Ace, not as a 6: the next player now needs a King or a 2.",
                asked=True,
                ask="Play your Ace as an escape: choose A♠.",
                shows=("Played",),
                expect=_top("AS", kind=PlayKind.ACE, to_move=1),
            ),
            Move(
                1,
                "2D",
                "Ada plays the 2♦, one above the Ace.",
                shows=("Played",),
                expect=_top("2D", kind=PlayKind.NORMAL, to_move=0),
            ),
        ),
    )


def _joker() -> Step:
    return Step(
        "A Joker names a rank",
        ("With no normal play you may instead", "play a Joker and name any of the 13 ranks"),
        "The pile shows the 2♦ and you hold no Ace and no 3: no normal play. You hold a Joker, and the 5♥.",
        2,
        Scenario(decks=(_deck(1, "JK 5H 9S JC QS", "4C 7D 8S 10H KH", rest="2D"),), dealer=1),
        (
            Move(
                0,
                "JK",
                "You played the Joker. Now you name the rank it counts as: any of the 13.",
                asked=True,
                ask="Play your Joker: choose Joker.",
                shows=("Played",),
                expect=all_of(_top("JK", kind=PlayKind.JOKER), _phase(RankPhase.NAME, 0)),
            ),
            Move(
                0,
                "name 6",
                "The Joker counts as a 6. You hold the 5♥, a normal play on a 6, so you may add it at once.",
                asked=True,
                ask="Name 6, one above your 5♥: choose name 6.",
                shows=("Named",),
                expect=all_of(lambda s: s.named is Rank.SIX, _phase(RankPhase.FOLLOW, 0)),
            ),
            Move(
                0,
                "5H",
                "You got rid of two cards in one turn. The 5♥ is on top: Ada needs a 4 or a 6.",
                asked=True,
                ask="Add the 5♥ on the Joker: choose 5♥.",
                shows=("Played",),
                expect=_top("5H", kind=PlayKind.FOLLOW, to_move=1),
            ),
        ),
    )


def _joker_declined() -> Step:
    return Step(
        "A Joker, and no card added",
        ("you are asked only when you hold one",),
        "You dealt, so Ada starts, on the 2♦. She holds no Ace and no 3, but a Joker; so do you.",
        2,
        Scenario(decks=(_deck(0, "JK 4S 5D KC 7H", "JK 5C 6D 7S 8H", rest="2D"),), dealer=0),
        (
            Move(1, "JK", "Ada has no normal play and plays her Joker.", shows=("Played",)),
            Move(
                1,
                "name 10",
                "Ada names 10. She holds no 9 and no Jack to add, so she is not asked for one: your turn.",
                shows=("Named",),
                expect=all_of(lambda s: s.named is Rank.TEN, _phase(RankPhase.PLAY, 0)),
            ),
            Move(
                0,
                "JK",
                "You had no 9 or Jack either, so you played your own Joker on hers.",
                asked=True,
                ask="Play your Joker: choose Joker.",
                shows=("Played",),
                expect=_phase(RankPhase.NAME, 0),
            ),
            Move(
                0,
                "name 6",
                "Your Joker counts as a 6. You hold the 5♦ and the 7♥, either of which you may now add.",
                asked=True,
                ask="Name 6: choose name 6.",
                shows=("Named",),
                expect=_phase(RankPhase.FOLLOW, 0),
            ),
            Move(
                0,
                "pass",
                "You kept both cards: adding one is never a must. The Joker stays on top as a 6, so Ada needs a 5 "
                "or a 7.",
                asked=True,
                ask="Add no card: choose pass.",
                shows=("Passed",),
                expect=all_of(_top("JK", named=Rank.SIX, to_move=1), _holds(0, "5D 7H", 4)),
            ),
        ),
    )


def _draw() -> Step:
    return Step(
        "Drawing a card",
        ("draw one card. If it is a normal play",),
        "The pile shows the 6♣. You hold no 5 or 7, no Ace and no Joker: all you can do is draw.",
        2,
        Scenario(decks=(_deck(1, "9H KD JC 2C 10S", "2D 3S 4H 10D QC", rest="6C 7H AC"),), dealer=1),
        (
            Move(
                0,
                "draw",
                "You drew the 7♥: a normal play on the 6♣, so it was played at once.",
                asked=True,
                ask="Draw a card: choose draw.",
                shows=("Drew", "Played"),
                expect=all_of(_top("7H", kind=PlayKind.DRAWN, to_move=1), _holds(0, "", 5)),
            ),
            Move(
                1,
                "draw",
                "Ada had no 6 or 8 for your 7♥ and drew the A♣. It is not a normal play on a 7, so she keeps it "
                "(a drawn Ace or Joker is not played as an escape) and the turn passes to you.",
                shows=("Drew",),
                expect=all_of(_holds(1, "AC", 6), _top("7H", to_move=0)),
            ),
        ),
    )


# The empty stock: four players draw all 33 cards of the stock. The first 15 draws are normal plays, played at
# once, that bury every 9 and every Jack in the pile under the 10♠; then no 9 or Jack is left to play on it, and
# the last 18 cards are kept.
_BURIED = "QS JH QH JD QD JC 10C 9S 10H 9H 10D 9D 8S 9C 10S"
_KEPT = {  # each seat's cards of the last 18 draws (Ben and Cal draw five, you and Ada four)
    0: "7S 8H KS QC",
    1: "7H 8D KH AS",
    2: "7D 8C KD AH JK",
    3: "7C KC AD AC JK",
}
_STOCK_PLAYERS, _STOCK_DEALER = 4, 2
_STOCK_DRAWS = 33
_RESHUFFLE_SEED = 0


def _stock_rest() -> str:
    kept = {seat: parse_cards(text) for seat, text in _KEPT.items()}
    buried = len(parse_cards(_BURIED))
    order: list[str] = []
    for index in range(buried, _STOCK_DRAWS):
        seat = (_STOCK_DEALER + 1 + index) % _STOCK_PLAYERS
        order.append(str(kept[seat].pop(0)))
    return " ".join(["JS", _BURIED, *order])


def _empty_stock() -> Step:
    first = (_STOCK_DEALER + 1) % _STOCK_PLAYERS
    return Step(
        "The stock runs out",
        ("the pile except its top card is shuffled into a new stock",),
        "The four of you have drawn card after card: the stock is empty. The pile holds 16 cards, the 10♠ on "
        "top, and there is no 9 or Jack in any hand. You have no Ace or Joker either, so you must draw.",
        _STOCK_PLAYERS,
        Scenario(
            decks=(
                _deck(
                    _STOCK_DEALER,
                    "2C 3D 4H 5S 6C",
                    "2D 3H 4S 5C 6D",
                    "2H 3S 4C 5D 6H",
                    "2S 3C 4D 5H 6S",
                    rest=_stock_rest(),
                ),
            ),
            dealer=_STOCK_DEALER,
        ),
        (
            Move(
                0,
                "draw",
                "The pile except its top card, 15 cards, was shuffled into a new stock (a Joker among them would "
                "lose its named rank), and you drew the 8♠ from it and kept it. Had the pile held only its top card, "
                "there would be nothing to draw: then you could pass, but only with no Ace or Joker in your hand "
                "(those you would have to play).",
                asked=True,
                ask="Draw a card: choose draw.",
                shows=("StockShuffled", "Drew"),
                expect=all_of(_holds(0, "8S", 10), lambda s: len(s.stock) == 14 and s.pile == [Card.parse("10S")]),
            ),
        ),
        setup=tuple(((first + index) % _STOCK_PLAYERS, "draw") for index in range(_STOCK_DRAWS)),
        seed=_RESHUFFLE_SEED,
    )


# Going out: you start on the 6♣ and play your five cards down to the Ace while Ada, holding none of their
# neighbours, draws a card each time.
_RUN = "5S 4D 3C 2H AH"
_RUN_SETUP = ((0, "5S"), (1, "draw"), (0, "4D"), (1, "draw"), (0, "3C"), (1, "draw"), (0, "2H"), (1, "draw"))


def _pending_exit() -> Step:
    return Step(
        "Going out is not final",
        ("your exit is pending", "you draw two cards from the stock and are back in"),
        "The pile shows the 2♥ and your last card is the A♥, one below it.",
        2,
        Scenario(decks=(_deck(1, _RUN, "KS 9S 10D JH QD", rest="6C 8C 10H JC QC 7D 9H"),), dealer=1),
        (
            Move(
                0,
                "AH",
                "That was your last card, but you are not out yet: your exit is pending, and you still count as "
                "holding cards (else Ada would be the last player holding cards, and the deal would be over). Ada's "
                "answer decides.",
                asked=True,
                ask="Play your last card, the A♥: choose A♥.",
                shows=("Played", "WentOut"),
                expect=_pending(0),
            ),
            Move(
                1,
                "KS",
                "Ada answered with a play, the K♠ on your Ace, so you drew two cards from the stock, the 7♦ and the "
                "9♥, and you are back in the deal. (Had fewer been left, you would take what there was.)",
                shows=("Played", "CameBack"),
                expect=all_of(_back(0, 2), _holds(0, "7D 9H")),
            ),
        ),
        setup=_RUN_SETUP,
    )


def _joker_answer() -> Step:
    return Step(
        "A Joker answers too",
        ("After a Joker, you take them before its follow-up card",),
        "The pile shows the 2♥ and your last card is the A♥. Ada holds no King and no 2, but a Joker.",
        2,
        Scenario(decks=(_deck(1, _RUN, "JK 9C 10D JH QD", rest="6C 8C 10H JC QC 7D 9H"),), dealer=1),
        (
            Move(
                0,
                "AH",
                "Your last card: your exit is pending.",
                asked=True,
                ask="Play your last card, the A♥: choose A♥.",
                shows=("WentOut",),
                expect=_pending(0),
            ),
            Move(
                1,
                "JK",
                "Ada had no normal play and answered with her Joker. A Joker is a play too, so you drew two cards "
                "(the 7♦ and the 9♥) and are back in, before she names its rank.",
                shows=("Played", "CameBack"),
                expect=all_of(_back(0, 2), _phase(RankPhase.NAME, 1)),
            ),
            Move(1, "name 8", "Ada names 8 for her Joker.", shows=("Named",), expect=_phase(RankPhase.FOLLOW, 1)),
            Move(
                1,
                "9C",
                "She adds the 9♣, one above the 8. You took your two cards before this card was added.",
                shows=("Played",),
                expect=_top("9C", kind=PlayKind.FOLLOW, to_move=0),
            ),
        ),
        setup=_RUN_SETUP,
    )


def _out_for_good() -> Step:
    return Step(
        "Out for good",
        ("If that player draws instead",),
        "Three players. The pile shows the 2♥ and your last card is the A♥. Ada, next after you, holds no King, "
        "no 2, no Ace and no Joker.",
        3,
        Scenario(
            decks=(
                _deck(
                    2,
                    _RUN,
                    "7S 8S 9S 10S QS",
                    "7H 8H 9H 10H QH",
                    rest="6C 8C 8D 9C 9D 10C 10D JC JD KD",
                ),
            ),
            dealer=2,
        ),
        (
            Move(
                0,
                "AH",
                "Your last card: your exit is pending, and Ada's answer decides.",
                asked=True,
                ask="Play your last card, the A♥: choose A♥.",
                shows=("WentOut",),
                expect=_pending(0),
            ),
            Move(
                1,
                "draw",
                "Ada had nothing to play, so she drew: that confirms your exit, and you are out for good, the first "
                "out. It holds even though her card, the K♦, was a normal play on your Ace and was played at once. "
                "(Had she been able only to pass, you would be out for good as well.) Ada and Ben play on.",
                shows=("Drew", "OutForGood", "Played"),
                expect=all_of(_out(0), _top("KD", kind=PlayKind.DRAWN, to_move=2)),
            ),
        ),
        setup=(
            (0, "5S"),
            (1, "draw"),
            (2, "draw"),
            (0, "4D"),
            (1, "draw"),
            (2, "draw"),
            (0, "3C"),
            (1, "draw"),
            (2, "draw"),
            (0, "2H"),
            (1, "draw"),
            (2, "draw"),
        ),
    )


def _last_holder() -> Step:
    return Step(
        "The last player holding cards loses",
        ("Get rid of all your cards", "The deal ends when only one player still holds cards", "the deal then passes"),
        "You dealt, so Ada started, and she has one card left, the A♥, on the 2♥. You hold no King and no 2, "
        "no Ace and no Joker.",
        2,
        Scenario(decks=(_deck(0, "8S 9S 10D JH QD", _RUN, rest="6C 8C 10H JC QC 7D"),), dealer=0),
        (
            Move(
                1,
                "AH",
                "Ada played her last card. Her exit is pending, so the deal is not over yet: your answer decides.",
                shows=("WentOut",),
                expect=_pending(1),
            ),
            Move(
                0,
                "draw",
                "You could only draw (the 7♦, kept), so Ada is out for good and you alone still hold cards: you "
                "lose the deal and take a penalty point. The next deal is dealt by Ada: the deal passes clockwise.",
                asked=True,
                ask="You have no King or 2 for the Ace: choose draw.",
                shows=("Drew", "OutForGood", "DealOver"),
                expect=_lost((1, 0), 1),
            ),
        ),
        setup=((1, "5S"), (0, "draw"), (1, "4D"), (0, "draw"), (1, "3C"), (0, "draw"), (1, "2H"), (0, "draw")),
    )


def _quick_deal(starter: int) -> tuple[tuple[Card, ...], tuple[tuple[int, str], ...]]:
    """A two-player deal that ``starter`` plays out: the deck (the other seat deals) and its ten moves. The starter
    plays 5 4 3 2 A down from the 6♣; the other, holding none of their neighbours, draws each time, and loses."""
    other = 1 - starter
    hands = {starter: _RUN, other: "7S 8S 9S 10S QS"}
    deck = _deck(other, hands[0], hands[1], rest="6C 8C 9C 10C JC QC")
    moves: list[tuple[int, str]] = []
    for card in parse_cards(_RUN):
        moves += [(starter, str(card)), (other, "draw")]
    return deck, tuple(moves)


def _match() -> Step:
    deals = [_quick_deal(starter) for starter in (0, 1, 0, 1, 0)]
    setup = tuple(move for _, moves in deals[:4] for move in moves) + deals[4][1][:8]
    return Step(
        "Five deals make a match",
        ("A match is",),
        "Four deals have been played: you lost two and Ada two, so you have 2 penalty points each. This is the "
        "fifth and last deal, and your last card is the A♥, on the 2♥.",
        2,
        Scenario(decks=tuple(deck for deck, _ in deals), dealer=1),
        (
            Move(
                0,
                "AH",
                "Your last card: your exit is pending.",
                asked=True,
                ask="Play your last card, the A♥: choose A♥.",
                shows=("WentOut",),
                expect=lambda s: s.deal == 5 and s.pending == 0,
            ),
            Move(
                1,
                "draw",
                "Ada had to draw, so you are out for good and she loses the fifth deal: 3 penalty points to your 2. "
                "After five deals the fewest penalty points win: you win the match. (Had you been level, you would "
                "share the win.)",
                shows=("OutForGood", "DealOver", "MatchOver"),
                expect=_won((0,), (2, 3)),
            ),
        ),
        setup=setup,
    )


def _private_cards() -> Step:
    return Step(
        "What the others see",
        ("Private: your hand",),
        "Your hand is yours alone: in a game the others see only how many cards you hold (this walkthrough shows "
        "every hand). The stock is face down for everyone. You have no 5 or 7 for the 6♣.",
        2,
        Scenario(decks=(_deck(1, "9H KD JC 2C 10S", "2D 3S 4H 10D QC", rest="6C QH 3C"),), dealer=1),
        (
            Move(
                0,
                "draw",
                "You drew the Q♥ and kept it. Only you see which card you drew: Ada is told only that you drew a "
                "card. The same goes for the cards you take when you come back after going out.",
                asked=True,
                ask="Draw a card: choose draw.",
                shows=("Drew",),
                expect=all_of(_private(0), _holds(0, "QH", 6)),
            ),
            Move(
                1,
                "draw",
                "Ada drew too: you see that she now holds six cards, not which card she drew.",
                shows=("Drew",),
                expect=_private(1),
            ),
        ),
    )


def walkthrough(preset: str | None) -> Walkthrough:
    """Rank's walkthrough (it has one preset and no house rules, so ``preset`` changes nothing)."""
    _GAME.base_options(preset)
    return Walkthrough(
        (
            _the_deal(),
            _two_decks(),
            _cyclic(),
            _must_play(),
            _ace(),
            _joker(),
            _joker_declined(),
            _draw(),
            _empty_stock(),
            _pending_exit(),
            _joker_answer(),
            _out_for_good(),
            _last_holder(),
            _match(),
            _private_cards(),
        ),
        table,
    )
