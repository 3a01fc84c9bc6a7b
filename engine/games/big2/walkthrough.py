"""Big Two's walkthrough (issue 31): each rule of its rules text shown on a stacked deal, a step at a time.

Most steps are two-player deals (13 cards each, the other 26 set aside), stacked with
:meth:`~engine.games.big2.rules.Big2Game.deck_for`; the pass rules need a third player. Every hand is shown
(:func:`table`), so that a newcomer sees why each play beats the last, or why a player passes. A play's action
text lists its cards lowest first in the suit order in force, as the game lists its legal actions (:func:`_cards`
writes it so).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import Card, parse_cards
from engine.game import Scenario
from engine.games.big2.rules import Big2Game, Big2Options, Big2State, classify
from engine.walkthrough import Check, Move, Step, Walkthrough

__all__ = ["table", "walkthrough"]

_GAME = Big2Game()
_SEED = Big2Options()
_STANDARD = Big2Options(suits="standard")


def _cards(text: str, options: Big2Options = _SEED) -> str:
    """The action text of a play: its cards lowest first in ``options``' suit order (a combination's order)."""
    combo = classify(parse_cards(text), options)
    if combo is None:
        raise ValueError(f"not a Big Two combination: {text}")
    return " ".join(str(card) for card in combo.cards)


def _deck(dealer: int, *hands: str, rest: str = "") -> tuple[Card, ...]:
    """The deck that deals each seat exactly ``hands[seat]`` (13 cards, or 17 with three players), then ``rest``."""
    players = len(hands)
    per_seat = 17 if players == 3 else 13
    cards = [parse_cards(hand) for hand in hands]
    if any(len(hand) != per_seat for hand in cards):
        raise ValueError(f"each hand is {per_seat} cards: {[len(hand) for hand in cards]}")
    named = [card for hand in cards for card in hand] + parse_cards(rest)
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    return _GAME.deck_for(players, dealer, cards, parse_cards(rest))


def _on_table(seat: int, text: str) -> Check:
    """After the move: ``seat``'s play of these cards is the one to beat."""
    wanted = set(parse_cards(text))

    def check(state: Big2State) -> bool:
        combo = state.table
        return combo is not None and state.table_seat == seat and set(combo.cards) == wanted

    return check


def _leads(seat: int) -> Check:
    """After the move: the table is clear and ``seat`` starts the new round."""

    def check(state: Big2State) -> bool:
        return state.table is None and state.to_move == seat

    return check


def _deal_won(winner: int, loser: int, points: int, totals: Sequence[int]) -> Check:
    """After the move: ``winner`` won the deal, ``loser`` lost ``points``, and the totals are ``totals``."""

    def check(state: Big2State) -> bool:
        deal = state.last_deal
        if deal is None or deal.winner != winner:
            return False
        lost = deal.losses[loser]
        return lost is not None and lost.points == points and deal.totals == tuple(totals)

    return check


def _match_won(winner: int, totals: Sequence[int]) -> Check:
    def check(state: Big2State) -> bool:
        result = state.result
        return result is not None and result.winners == (winner,) and list(state.totals) == list(totals)

    return check


def _signed(points: int) -> str:
    """+12, −4, 0 (a real minus sign)."""
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def table(state: Any, names: Sequence[str]) -> list[str]:
    """The position as a player reads it, one line a place: each hand (every card shown in a walkthrough), what is
    on the table and who is to play, the set-aside cards of a two-player deal, and the deal and totals."""
    big2: Big2State = state
    enc = big2.enc
    lines = []
    for seat, hand in enumerate(big2.hands):
        cards = enc.cards(hand)
        count = "1 card" if len(cards) == 1 else f"{len(cards)} cards"
        passed = ", has passed" if big2.passed[seat] else ""
        shown = " ".join(card.pretty() for card in cards) or "none left"
        lines.append(f"{names[seat]} ({count}{passed}): {shown}")
    combo = big2.table
    if combo is not None and big2.table_seat is not None:
        what = combo.describe()
        if combo.kind != "single":
            what += " (" + " ".join(card.pretty() for card in combo.cards) + ")"
        lines.append(f"On the table: {what}, played by {names[big2.table_seat]}")
    elif big2.must_include:
        first = enc.cards(big2.must_include)[0].pretty()
        lines.append(f"On the table: nothing yet; the first play of the deal must include the {first}")
    elif not big2.over:
        lines.append("On the table: nothing; a new round starts with any combination")
    if big2.to_move is not None:
        lines.append(f"To play: {names[big2.to_move]}")
    if big2.players == 2:
        lines.append(f"Set aside, out of this deal: {big2.set_aside.bit_count()} cards")
    totals = ", ".join(f"{names[seat]} {_signed(total)}" for seat, total in enumerate(big2.totals))
    lines.append(f"Deal {big2.deal} of {big2.options.deals}; totals: {totals}")
    return lines


# ---------------------------------------------------------------------------------------------------------------
# The steps, in the order of the rules
# ---------------------------------------------------------------------------------------------------------------
def _the_deal() -> Step:
    return Step(
        "The deal and the first play",
        ("Get rid of all your cards first", "leads first, and that play must include it"),
        "The aim is to be the first to get rid of all your cards. With two players each gets 13 cards and the "
        "other 26 are set aside, out of play for this deal. You hold the 3♦, so you make the first play. (In a "
        "walkthrough you see Ada's cards too.)",
        2,
        Scenario(
            decks=(_deck(1, "3D 3S 5C 6H 7D 8S 9C 10H JD QS KC AH 2D", "4C 4D 5H 6S 7C 8D 9H 10S JC QD KH AS 2C"),),
            dealer=1,
        ),
        (
            Move(
                0,
                _cards("3D 3S"),
                "You led the pair 3♦ 3♠. Whoever holds the 3♦ starts the deal, and that first play must include "
                "it: the 3♦ alone, a pair or a five-card hand with it. You have 11 cards left to get rid of.",
                asked=True,
                ask="Lead with the pair of 3s, which includes the 3♦: choose 3♦ 3♠.",
                shows=("Played",),
                expect=_on_table(0, "3D 3S"),
            ),
        ),
    )


def _card_order() -> Step:
    return Step(
        "Rank first, then suit",
        ("Rank first, then suit",),
        "You led the 3♦ and Ada beat it with the A♠. From low to high the ranks go 3, 4, … 10, J, Q, K, A, 2; "
        "only between cards of the same rank does the suit count: ♠ is highest, then ♥, ♦, and ♣ lowest.",
        2,
        Scenario(
            decks=(_deck(1, "3D 4C 5C 6D 7H 8C 9S 10D JC QH KC 2C 5D", "4S 5S 6H 7S 8H 9C 10H JS QD KS AS 2H 6C"),),
            dealer=1,
        ),
        (
            Move(
                0,
                "2C",
                "Your 2♣ beats the A♠: the rank counts first and 2 is the highest rank, so even a 2 of clubs, the "
                "lowest suit, beats every Ace.",
                asked=True,
                ask="Beat Ada's A♠ with your 2♣: choose 2♣.",
                shows=("Played",),
                expect=_on_table(0, "2C"),
            ),
            Move(
                1,
                "2H",
                "Ada's 2♥ beats your 2♣: both are 2s, so the suit decides, and ♥ is above ♣.",
                shows=("Played",),
                expect=_on_table(1, "2H"),
            ),
        ),
        setup=((0, "3D"), (1, "AS")),
    )


def _same_kind() -> Step:
    return Step(
        "A pair answers a pair",
        ("Play the same kind",),
        "Ada holds the 3♦ and starts. Whatever she leads, you must answer with the same kind of play and the same "
        "number of cards, only higher; or pass.",
        2,
        Scenario(
            decks=(_deck(1, "3S 4D 5C 5S 6C 7H 8S 10D JH QS KD AC 2C", "3D 3H 9H 9S 4C 6D 7C 8D JC QD KH AS 10C"),),
            dealer=1,
        ),
        (
            Move(1, "3D 3H", "Ada leads the pair 3♦ 3♥.", shows=("Played",), expect=_on_table(1, "3D 3H")),
            Move(
                0,
                "5C 5S",
                "Your pair of 5s beats her pair of 3s. A single card would not do, however high: a pair must be "
                "answered with a pair.",
                asked=True,
                ask="Answer her pair with your pair of 5s: choose 5♣ 5♠.",
                shows=("Played",),
                expect=_on_table(0, "5C 5S"),
            ),
            Move(1, "9H 9S", "Ada plays a higher pair, the 9♥ 9♠.", shows=("Played",), expect=_on_table(1, "9H 9S")),
            Move(
                0,
                "pass",
                "You have no pair above 9s, and your single cards do not count against a pair, so you pass. Ada's "
                "9s stand, and she starts the next round.",
                asked=True,
                ask="You cannot beat a pair of 9s: choose pass.",
                shows=("Passed", "RoundWon"),
                expect=_leads(1),
            ),
        ),
    )


def _five_card_order() -> Step:
    return Step(
        "A flush beats a straight",
        ("straight < flush < full house",),
        "Five-card hands rank, from low to high: straight (five ranks in a row), flush (five of one suit), full "
        "house (three of a kind and a pair), four of a kind with any fifth card, and straight flush. Ada holds the "
        "3♦ and leads a straight with it.",
        2,
        Scenario(
            decks=(_deck(1, "4H 8H 10H JH KH QC QD QH QS 5D 6D 7D 2C", "3D 4C 5H 6S 7C 9C 9D 9S JC JD 10C KS AS"),),
            dealer=1,
        ),
        (
            Move(
                1,
                _cards("3D 4C 5H 6S 7C"),
                "Ada leads the straight 3♦ 4♣ 5♥ 6♠ 7♣.",
                shows=("Played",),
                expect=_on_table(1, "3D 4C 5H 6S 7C"),
            ),
            Move(
                0,
                _cards("4H 8H 10H JH KH"),
                "Your five hearts are a flush, and any flush beats any straight, whatever their cards.",
                asked=True,
                ask="Beat her straight with your five hearts: choose 4♥ 8♥ 10♥ J♥ K♥.",
                shows=("Played",),
                expect=_on_table(0, "4H 8H 10H JH KH"),
            ),
            Move(
                1,
                _cards("9C 9D 9S JC JD"),
                "Ada's full house (three 9s and a pair of Jacks) beats your flush: a full house is the next hand up.",
                shows=("Played",),
                expect=_on_table(1, "9C 9D 9S JC JD"),
            ),
            Move(
                0,
                _cards("QC QD QH QS 5D"),
                "Four Queens, with the 5♦ as the fifth card, beat her full house: four of a kind is higher still.",
                asked=True,
                ask="Beat her full house with your four Queens and the 5♦: choose 5♦ Q♣ Q♦ Q♥ Q♠.",
                shows=("Played",),
                expect=_on_table(0, "QC QD QH QS 5D"),
            ),
            Move(
                1,
                "pass",
                "Only a higher four of a kind or a straight flush could beat your four Queens; Ada has neither, so "
                "she passes.",
                shows=("Passed", "RoundWon"),
                expect=_leads(0),
            ),
        ),
    )


def _pairs_by_suit() -> Step:
    return Step(
        "Pairs of the same rank",
        ("Pairs and threes: by rank",),
        "Ada holds the 3♦ and starts; you hold two other 3s, the 3♥ and the 3♠. Pairs (and threes) are ranked by "
        "their rank first; between pairs of the same rank, the one with the highest suit wins.",
        2,
        Scenario(
            decks=(_deck(1, "3H 3S 4D 5D 6H 7S 8H 9S 10S JH QH KS 2S", "3C 3D 4C 5C 6C 7D 8D 9C 10D JC QC KD AC"),),
            dealer=1,
        ),
        (
            Move(1, "3C 3D", "Ada leads the pair 3♣ 3♦.", shows=("Played",), expect=_on_table(1, "3C 3D")),
            Move(
                0,
                "3H 3S",
                "Your pair of 3s beats hers: both are 3s, so each pair's highest suit decides, and your 3♠ is above "
                "her 3♦.",
                asked=True,
                ask="Beat her 3s with your own: choose 3♥ 3♠.",
                shows=("Played",),
                expect=_on_table(0, "3H 3S"),
            ),
        ),
    )


def _straights() -> Step:
    return Step(
        "Straights, low and high",
        ("Straights: A2345 < 23456",),
        "A straight is five ranks in a row. The lowest is A 2 3 4 5, then 2 3 4 5 6, then 3 4 5 6 7 and so on up "
        "to 10 J Q K A; a straight cannot run on past the 2, so J Q K A 2 is not one. Ada holds the 3♦ and leads.",
        2,
        Scenario(
            decks=(_deck(1, "2C 3S 4D 5S 6D 10S JC QH KD AS 7H 8H 9H", "AC 2D 3D 4C 5H 10H JS QD KC AH 7C 8C 9D"),),
            dealer=1,
        ),
        (
            Move(
                1,
                _cards("AC 2D 3D 4C 5H"),
                "Ada leads A♣ 2♦ 3♦ 4♣ 5♥, the lowest straight of all.",
                shows=("Played",),
                expect=_on_table(1, "AC 2D 3D 4C 5H"),
            ),
            Move(
                0,
                _cards("2C 3S 4D 5S 6D"),
                "Your 2 3 4 5 6 is the next straight up, so it beats hers.",
                asked=True,
                ask="Beat her with your 2 3 4 5 6 (the 2♣ is listed last, as the highest card): choose 3♠ 4♦ 5♠ 6♦ 2♣.",
                shows=("Played",),
                expect=_on_table(0, "2C 3S 4D 5S 6D"),
            ),
            Move(
                1,
                _cards("10H JS QD KC AH"),
                "Ada plays 10 J Q K A, the highest straight there is.",
                shows=("Played",),
                expect=_on_table(1, "10H JS QD KC AH"),
            ),
            Move(
                0,
                _cards("10S JC QH KD AS"),
                "Your 10 J Q K A beats hers: between two equal straights the suit of the top card decides, and your "
                "A♠ is above her A♥.",
                asked=True,
                ask="Beat her with your own 10 J Q K A: choose 10♠ J♣ Q♥ K♦ A♠.",
                shows=("Played",),
                expect=_on_table(0, "10S JC QH KD AS"),
            ),
        ),
    )


def _full_house() -> Step:
    return Step(
        "A full house counts its three",
        ("Full house: by its three",),
        "Ada holds the 3♦ and starts. A full house is ranked by its three of a kind only (and four of a kind by its "
        "four); the other cards do not count.",
        2,
        Scenario(
            decks=(_deck(1, "4C 4D 4S 5C 5D 6H 7H 8S 9S 10H JS QH AS", "3C 3D 3H 2H 2S 6C 7C 8D 9D 10C JD QC KD"),),
            dealer=1,
        ),
        (
            Move(
                1,
                _cards("3C 3D 3H 2H 2S"),
                "Ada leads three 3s with the pair 2♥ 2♠.",
                shows=("Played",),
                expect=_on_table(1, "3C 3D 3H 2H 2S"),
            ),
            Move(
                0,
                _cards("4C 4D 4S 5C 5D"),
                "Your three 4s beat her three 3s. Your pair of 5s is lower than her pair of 2s, but the pair does "
                "not count.",
                asked=True,
                ask="Beat her with your full house of three 4s and two 5s: choose 4♣ 4♦ 4♠ 5♣ 5♦.",
                shows=("Played",),
                expect=_on_table(0, "4C 4D 4S 5C 5D"),
            ),
        ),
    )


def _flush() -> Step:
    return Step(
        "A flush counts its highest card",
        ("Flush: by its highest card",),
        "Ada holds the 3♦ and starts. Between two flushes, the one with the highest card wins.",
        2,
        Scenario(
            decks=(_deck(1, "4C 6C 7C 9C AC 3S 4S 5S 8H 10S JC QC KS", "3D 5D 8D 10D KD 4H 6H 7S 9S JH QS 2H 3H"),),
            dealer=1,
        ),
        (
            Move(
                1,
                _cards("3D 5D 8D 10D KD"),
                "Ada leads a flush of diamonds, K♦ high.",
                shows=("Played",),
                expect=_on_table(1, "3D 5D 8D 10D KD"),
            ),
            Move(
                0,
                _cards("4C 6C 7C 9C AC"),
                "Your flush is A♣ high, and the A♣ is above her K♦, so your flush wins, though clubs are the lowest "
                "suit.",
                asked=True,
                ask="Beat her with the clubs 4♣ 6♣ 7♣ 9♣ A♣: choose 4♣ 6♣ 7♣ 9♣ A♣.",
                shows=("Played",),
                expect=_on_table(0, "4C 6C 7C 9C AC"),
            ),
        ),
    )


_DRAGON = "3C 4C 5H 6S 7H 8S 9H 10S JH QS KH AS 2S"


def _dragon() -> Step:
    return Step(
        "The Dragon",
        ("The Dragon (A 2 3",),
        "Your 13 cards hold one card of every rank, from 3 to 2: that is the Dragon, played all at once. Ada holds "
        "the 3♦ and leads.",
        2,
        Scenario(
            decks=(_deck(1, _DRAGON, "3D 4D 5D 6D 7D 8C 9C 10C JC QC KC AC 8H"),),
            dealer=1,
        ),
        (
            Move(
                1,
                _cards("3D 4D 5D 6D 7D"),
                "Ada leads a straight flush, 3♦ to 7♦, the highest five-card hand.",
                shows=("Played",),
                expect=_on_table(1, "3D 4D 5D 6D 7D"),
            ),
            Move(
                0,
                _cards(_DRAGON),
                "The Dragon beats anything, even a straight flush, and nothing can beat it. It is all your cards, so "
                "you are out at once and win the deal: Ada loses a point for each of her 8 cards left.",
                asked=True,
                ask="Play all 13 cards as the Dragon: choose the play of all your cards.",
                shows=("Played", "DealOver"),
                expect=_deal_won(0, 1, 8, (8, -8)),
            ),
        ),
    )


# Three players (17 cards each; Ada, who holds the 3♦, also gets the 52nd card, the 2♠).
_THREE = _deck(
    2,
    "4C 4D 5C 5D 7H 7S 8C 9D 9H JC JD QS KS AC AD 2C 2D",
    "3D 3H 4H 5H 6C 7C 8D 8H 9S 10C 10D JH QC QD KC AH 2H",
    "3C 3S 4S 5S 6D 6H 6S 7D 8S 9C 10H 10S JS QH KD KH AS",
    rest="2S",
)
_THREE_INTRO = (
    "Three players this time. Ada held the 3♦ and led it; Ben beat it with the 6♥. Now it is your turn, and "
    "you could beat the 6♥ with many of your cards, the K♠ among them."
)


def _pass_and_play() -> Step:
    return Step(
        "Pass now, play later",
        ("You may pass even with a play",),
        _THREE_INTRO,
        3,
        Scenario(decks=(_THREE,), dealer=2),
        (
            Move(
                0,
                "pass",
                "You passed, though you could have played: passing is always allowed when there is a play to beat.",
                asked=True,
                ask="Keep your cards for now: choose pass.",
                shows=("Passed",),
            ),
            Move(1, "10C", "Ada beats Ben's 6♥ with her 10♣.", shows=("Played",), expect=_on_table(1, "10C")),
            Move(2, "pass", "Ben passes.", shows=("Passed",)),
            Move(
                0,
                "KS",
                "You passed earlier in this round, but the turn has come back to you and you may still play: your K♠ "
                "beats Ada's 10♣.",
                asked=True,
                ask="Now play your K♠ on her 10♣: choose K♠.",
                shows=("Played",),
                expect=_on_table(0, "KS"),
            ),
        ),
        setup=((1, "3D"), (2, "6H")),
    )


def _new_round() -> Step:
    return Step(
        "A new round",
        ("starts a new round with any combination",),
        "You led the 3♦ and Ada beat it with the 8♣. A round goes on until everyone but the last player to play "
        "has passed.",
        2,
        Scenario(
            decks=(_deck(1, "3D 4D 5C 6H 7S 8D 9C 10C JD QS KC AH 2D", "3H 4C 5D 6C 7D 8C 9D 10H JC QD KD AC 2C"),),
            dealer=1,
        ),
        (
            Move(0, "AH", "You beat her 8♣ with your A♥.", shows=("Played",), expect=_on_table(0, "AH")),
            Move(
                1,
                "pass",
                "Ada passes. Everyone else has now passed on your A♥, so you win the round: the table is cleared "
                "and you start the next round.",
                shows=("Passed", "RoundWon"),
                expect=_leads(0),
            ),
            Move(
                0,
                _cards("4D 5C 6H 7S 8D"),
                "You start the new round with a straight. The last round was single cards, but a new round may "
                "start with any combination, and now Ada must answer with a higher straight or pass.",
                asked=True,
                ask="Start the new round with your straight 4♦ 5♣ 6♥ 7♠ 8♦: choose 4♦ 5♣ 6♥ 7♠ 8♦.",
                shows=("Played",),
                expect=_on_table(0, "4D 5C 6H 7S 8D"),
            ),
        ),
        setup=((0, "3D"), (1, "8C")),
    )


def _out_of_cards() -> Step:
    return Step(
        "Out of cards: the deal is won",
        ("The first player out of cards wins the deal", "The winner gains what the losers lose"),
        "Late in a deal: you have just played a full house, Jacks full, and hold one card, the A♠. Ada has 6 cards "
        "and must beat your full house or pass.",
        2,
        Scenario(
            decks=(_deck(1, "3D 4C 5H 6S 7D 10C 10S JC JH JS 8C 8D AS", "4D 5D 9D QD KD 4H 4S 3S 6H 7C 9C QC KS"),),
            dealer=1,
        ),
        (
            Move(1, "pass", "Ada cannot beat your full house, so she passes.", shows=("Passed", "RoundWon")),
            Move(
                0,
                "AS",
                "You play your last card and are out: the first player out of cards wins the deal. Ada loses a "
                "point for each of her 6 cards left, and you gain the 6 points she loses.",
                asked=True,
                ask="Start the new round with your last card: choose A♠.",
                shows=("Played", "DealOver"),
                expect=_deal_won(0, 1, 6, (6, -6)),
            ),
        ),
        setup=(
            (0, _cards("3D 4C 5H 6S 7D")),
            (1, _cards("4D 5D 9D QD KD")),
            (0, "pass"),
            (1, "4H 4S"),
            (0, "10C 10S"),
            (1, "pass"),
            (0, _cards("JC JH JS 8C 8D")),
        ),
    )


# You go out in three plays (a straight, a flush, three 10s) while Ada passes and keeps all 13 cards, one a 2.
_FAST_OUT = (
    "3D 4C 5H 6S 7D 8H 9H JH QH KH 10C 10D 10S",
    "3C 3H 4D 5C 6D 8S 9D JS QC KD AH AS 2C",
)
_FAST_SETUP = ((0, _cards("3D 4C 5H 6S 7D")), (1, "pass"), (0, _cards("8H 9H JH QH KH")), (1, "pass"))
_FAST_INTRO = (
    "You led a straight and then a flush, and Ada passed on both. You have three 10s left; Ada still has all "
    "13 of her cards, one of them the 2♣."
)


def _doubling() -> Step:
    return Step(
        "Many cards left: doubled",
        ("Each loser loses 1 point a card",),
        _FAST_INTRO,
        2,
        Scenario(decks=(_deck(1, *_FAST_OUT),), dealer=1),
        (
            Move(
                0,
                "10C 10D 10S",
                "You are out, and Ada is caught with 13 cards: 1 point a card is 13, doubled to 26 because she has "
                "more than nine cards, and doubled again to 52 for her 2♣. She loses 52 and you gain 52.",
                asked=True,
                ask="Go out with your three 10s: choose 10♣ 10♦ 10♠.",
                shows=("Played", "DealOver"),
                expect=_deal_won(0, 1, 52, (52, -52)),
            ),
        ),
        setup=_FAST_SETUP,
    )


def _match() -> Step:
    # Deals 1 to 3 end at once, each by a Dragon (the dealer moves on each deal: Ada, you, Ada, you).
    return Step(
        "Four deals make a match",
        ("A match is 4 deals",),
        "This is deal 4 of 4, the last. After three deals you stand at −26 and Ada at +26. You led a straight and "
        "a flush and Ada passed on both; you have three 10s left, and Ada all 13 of her cards, one of them the 2♣.",
        2,
        Scenario(
            decks=(
                _deck(1, "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 3H", "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2D"),
                _deck(0, "3D 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2H", "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 3H"),
                _deck(1, "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 3H", "3D 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C"),
                _deck(0, *_FAST_OUT),
            ),
            dealer=1,
        ),
        (
            Move(
                0,
                "10C 10D 10S",
                "You are out and win the deal: Ada loses 52 (13 cards, doubled for more than nine, doubled again "
                "for her 2♣). That was the fourth deal, so the match is over and the totals decide it: you finish "
                "on +26, Ada on −26, and you win the match.",
                asked=True,
                ask="Go out with your three 10s: choose 10♣ 10♦ 10♠.",
                shows=("DealOver", "MatchOver"),
                expect=_match_won(0, (26, -26)),
            ),
        ),
        setup=(
            (1, _cards("3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2D")),
            (0, _cards("3D 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2H")),
            (1, _cards("3D 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C")),
            *_FAST_SETUP,
        ),
    )


def _standard_suits() -> Step:
    return Step(
        "House rule: standard suits",
        ("Standard suits (standard-suits)",),
        "With this house rule the suits rank ♠ highest, then ♥, then ♣, and ♦ lowest, so the 3♦ is the lowest card "
        "of all. You hold it, so you lead.",
        2,
        Scenario(
            decks=(_deck(1, "3D 4C 5D 6H 7S 8C 9D 10H JS QC KD AH 2S", "3C 4D 5C 6D 7C 8D 9C 10D JC QD KC AD 2C"),),
            dealer=1,
        ),
        (
            Move(
                0,
                "3D",
                "You lead the 3♦, the lowest card there is.",
                asked=True,
                ask="Lead the 3♦ on its own: choose 3♦.",
                shows=("Played",),
                expect=_on_table(0, "3D"),
            ),
            Move(
                1,
                "3C",
                "Ada's 3♣ beats your 3♦: the ranks are the same, and with this house rule ♣ is above ♦.",
                shows=("Played",),
                expect=_on_table(1, "3C"),
            ),
        ),
        variants=("standard-suits",),
    )


def _taiwan() -> Step:
    return Step(
        "House rule: Taiwan",
        ("Taiwan (taiwan)",),
        "With this house rule the holder of the 3♣, the lowest card, starts the deal instead of the holder of the "
        "3♦. Ada holds the 3♦, but you hold the 3♣.",
        2,
        Scenario(
            decks=(_deck(1, "3C 4D 5C 6H 7S 8C 9D 10H JS QC KD AH 2S", "3D 4C 5D 6D 7C 8D 9C 10D JC QD KC AD 2C"),),
            dealer=1,
        ),
        (
            Move(
                0,
                "3C",
                "You lead the 3♣: with this house rule the first play of a deal must include the 3♣.",
                asked=True,
                ask="Lead the 3♣ on its own: choose 3♣.",
                shows=("Played",),
                expect=_on_table(0, "3C"),
            ),
            Move(
                1,
                "3D",
                "Ada's 3♦ beats your 3♣: the suits keep the usual order, ♠, ♥, ♦, ♣.",
                shows=("Played",),
                expect=_on_table(1, "3D"),
            ),
        ),
        variants=("taiwan",),
    )


def _no_play_after_pass() -> Step:
    return Step(
        "House rule: no play after a pass",
        ("No play after a pass (no-play-after-pass)",),
        _THREE_INTRO + " With this house rule, a player who passes sits out the rest of the round.",
        3,
        Scenario(decks=(_THREE,), dealer=2),
        (
            Move(
                0,
                "pass",
                "You passed: with this house rule you now sit out until this round is over.",
                asked=True,
                ask="Pass, to see what it costs: choose pass.",
                shows=("Passed",),
            ),
            Move(1, "10C", "Ada beats Ben's 6♥ with her 10♣.", shows=("Played",), expect=_on_table(1, "10C")),
            Move(
                2,
                "pass",
                "Ben passes. You passed earlier, so you get no turn: Ada's 10♣ wins the round, and she starts the "
                "next one.",
                shows=("Passed", "RoundWon"),
                expect=_leads(1),
            ),
        ),
        setup=((1, "3D"), (2, "6H")),
        variants=("no-play-after-pass",),
    )


def _pagat_scoring() -> Step:
    return Step(
        "House rule: pagat scoring",
        ("pagat scoring (pagat-scoring)",),
        _FAST_INTRO + " With this house rule a loser pays 1 point a card up to 9 cards, twice that with 10 to 12 "
        "cards, and three times with 13; 2s do not count extra.",
        2,
        Scenario(decks=(_deck(1, *_FAST_OUT),), dealer=1),
        (
            Move(
                0,
                "10C 10D 10S",
                "You are out, and Ada is caught with all 13 cards: 13 points, tripled to 39. Her 2♣ does not "
                "double it under this scoring.",
                asked=True,
                ask="Go out with your three 10s: choose 10♣ 10♦ 10♠.",
                shows=("Played", "DealOver"),
                expect=_deal_won(0, 1, 39, (39, -39)),
            ),
        ),
        setup=_FAST_SETUP,
        variants=("pagat-scoring",),
    )


def walkthrough(preset: str | None) -> Walkthrough:
    """Big Two's walkthrough (it has one preset: ``preset`` is not read)."""
    steps = (
        _the_deal(),
        _card_order(),
        _same_kind(),
        _five_card_order(),
        _pairs_by_suit(),
        _straights(),
        _full_house(),
        _flush(),
        _dragon(),
        _pass_and_play(),
        _new_round(),
        _out_of_cards(),
        _doubling(),
        _match(),
        _standard_suits(),
        _taiwan(),
        _no_play_after_pass(),
        _pagat_scoring(),
    )
    return Walkthrough(steps, table)
