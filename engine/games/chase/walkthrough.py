"""The walkthrough of Screw Your Neighbor's and Chase the Ace's rules (issue 31): one stacked deal per rule.

Both presets share most steps (the same deal, the same moves); where their rules differ (a King blocks a trade or
is face up from the deal, the dealer swaps or cuts, a tie is broken by suit or every tied player pays, the life on
honour) a step is made for each preset from the same deal, or is its preset's own. Seat 0 is the player ("You"),
then Ada, Ben and Cal clockwise, so the player to your left is Ada. Each deal is stacked with
:meth:`~engine.games.chase.rules.ChaseGame.deck_for` (see :mod:`engine.games.chase.rules` for how a deck is dealt).

>>> steps = walkthrough("screw").steps
>>> steps[0].title, steps[0].moves[0].action
('One card each', 'stay')
>>> [step.title for step in walkthrough("chase").steps if step.variants]
['High card pays', 'No honour life']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, parse_cards
from engine.game import Scenario
from engine.games.chase.rules import Acted, ChaseGame, ChaseOptions, ChaseState
from engine.walkthrough import Check, Move, Step, Walkthrough, all_of

__all__ = ["table", "walkthrough"]

GAME = ChaseGame()

ACTED_WORDS = {
    Acted.STAYED: "stayed",
    Acted.TRADED: "traded",
    Acted.TRADED_WITH: "was traded with",
    Acted.BLOCKED: "trade blocked",
    Acted.SHOWED_KING: "showed a King",
    Acted.SWAPPED: "swapped with the deck",
    Acted.CUT: "cut the pack",
}
"""What a seat did this hand, as a line of the table says it."""


def deal(players: int, dealer: int, cards: str, rest: str = "") -> tuple[Card, ...]:
    """A deck dealing ``cards`` (one a seat, seat 0 first, ``-`` for a seat that is out) when ``dealer`` deals,
    the next cards of the deck being ``rest``.

    >>> [card.pretty() for card in deal(2, 1, "QD 3C", "2H")[:3]]
    ['Q♦', '3♣', '2♥']
    """
    hands = [[] if token == "-" else parse_cards(token) for token in cards.split()]
    return GAME.deck_for(players, dealer, hands, parse_cards(rest) if rest else ())


def holds(seat: int, card: str) -> Check:
    """The condition that ``seat`` holds ``card`` now."""
    wanted = Card.parse(card)
    return lambda state: state.cards[seat] == wanted


def lives(*totals: int) -> Check:
    """The condition that the seats' lives (the life on honour included) are ``totals``."""
    return lambda state: tuple(state.lives) == totals


@dataclass(frozen=True)
class Words:
    """What differs between the presets, in the words and figures the steps use."""

    chase: bool
    full: int
    """A player's lives at the start, the life on honour included."""
    life: str
    lives: str
    dealer_move: str
    """``swap`` or ``cut``."""

    @classmethod
    def of(cls, options: ChaseOptions) -> Words:
        chase = options.preset == "chase"
        return cls(
            chase=chase,
            full=options.starting_lives,
            life="token" if chase else "life",
            lives="tokens" if chase else "lives",
            dealer_move=str(options.dealer_action),
        )

    def count(self, number: int) -> str:
        return f"{number} {self.life if number == 1 else self.lives}"


def standing(total: int, options: ChaseOptions, words: Words) -> str:
    """A seat's lives as the table says them: "3 lives", "2 tokens + honour", "on honour", "out"."""
    if total <= 0:
        return "out"
    if not options.on_honour:
        return words.count(total)
    if total == 1:
        return "on honour"
    return f"{words.count(total - 1)} + honour"


def table(state: ChaseState, names: Sequence[str]) -> list[str]:
    """The position, one line a place: each player's card (every card shown, as the walkthrough's intro says;
    "face up" marks a card everyone sees), lives and what they did this hand, then the deck, the cards set aside
    and the pot.

    >>> step = walkthrough("screw").steps[0]
    >>> state = GAME.new_match(step.players, GAME.options("screw"), __import__("random").Random(0), step.scenario)
    >>> for line in table(state, step.seat_names()):
    ...     print(line)
    Hand 1: Ben deals
    You: J♥ · 3 lives · to move
    Ada: 6♣ · 3 lives
    Ben: 9♦ · 3 lives · dealer
    Deck: 49 cards, face down
    """
    options = state.options
    words = Words.of(options)
    public = dict(state.view(None).known)
    dealer = "you deal" if state.dealer == 0 else f"{names[state.dealer]} deals"
    lines = [f"Hand {state.hand}: {dealer}"]
    for seat in range(state.players):
        card = state.cards[seat]
        parts: list[str] = []
        if state.lives[seat] <= 0 or card is None:
            parts.append("out")
        else:
            parts.append(card.pretty() + (" (face up)" if public.get(seat) == card else ""))
            parts.append(standing(state.lives[seat], options, words))
            if seat == state.dealer:
                parts.append("dealer")
            acted = state.acted[seat]
            if acted is not None:
                parts.append(ACTED_WORDS[acted])
            if seat == state.to_move:
                parts.append("to move")
        lines.append(f"{names[seat]}: {' · '.join(parts)}")
    lines.append(f"Deck: {len(state.deck)} cards, face down")
    if state.set_aside:
        lines.append("Set aside: " + " ".join(card.pretty() for card in state.set_aside))
    if words.chase:
        lines.append(f"Pot: {words.count(state.pot)}")
    if state.winner is not None:
        lines.append(f"{names[state.winner]} won the match")
    return lines


SEE_ALL = "In this walkthrough you see every card; at the table you see only your own."


def one_card_each(w: Words) -> Step:
    pot = " into the pot" if w.chase else ""
    honour = " (after the last token comes a life on honour, shown later)" if w.chase else ""
    return Step(
        "One card each",
        ("Every player starts with", "The **lowest** card pays 1"),
        f"Three players, each with {w.count(3)} and one card{honour}. Ben deals, so you go first, then Ada, "
        f"then Ben. Ace is low and King is high, so your J♥ is a good card. {SEE_ALL}",
        3,
        Scenario(decks=(deal(3, 2, "JH 6C 9D"),), dealer=2),
        (
            Move(
                0,
                "stay",
                "You keep the J♥.",
                asked=True,
                ask="Only the lowest card pays, and your J♥ is high: keep it. Choose 'stay'.",
                shows=("Stayed",),
                expect=holds(0, "JH"),
            ),
            Move(
                1,
                "stay",
                "Ada keeps her 6♣: she cannot see anyone else's card, and a 6 is often not the lowest.",
                shows=("Stayed",),
            ),
            Move(
                2,
                "stay",
                f"Ben, the dealer, goes last and keeps his 9♦. All the cards are turned up: Ada's 6♣ is the lowest, "
                f"so she pays 1 {w.life}{pot}.",
                shows=("Revealed", "Paid"),
                expect=lives(w.full, w.full - 1, w.full),
            ),
        ),
    )


def stay_or_trade(w: Words) -> Step:
    return Step(
        "Stay or trade",
        ("each player **stays** or **trades**", "Both players in a trade see both cards"),
        "Ben deals, so you go first. Your 3♠ is low; Ada, the player to your left, holds the 10♦.",
        3,
        Scenario(decks=(deal(3, 2, "3S 10D QC"),), dealer=2),
        (
            Move(
                0,
                "trade",
                "You gave Ada your 3♠ and took her 10♦: she had to accept. Only you and Ada saw the two cards; "
                "Ben knows that you traded, not what.",
                asked=True,
                ask="Trade your 3♠ with Ada, on your left: choose 'trade'.",
                shows=("Traded",),
                expect=all_of(holds(0, "10D"), holds(1, "3S")),
            ),
            Move(
                1,
                "trade",
                "Nobody trades back, so Ada cannot give the 3♠ back to you; she trades with Ben, on her left, and "
                "takes his Q♣.",
                shows=("Traded",),
                expect=all_of(holds(1, "QC"), holds(2, "3S")),
            ),
        ),
    )


def king_blocks(w: Words) -> Step:
    """Screw: a trade into a hidden King is blocked, and the King is shown."""
    return Step(
        "A King blocks a trade",
        ("A **King** holder must stay",),
        "Ben deals; you go first with the 5♥. Ada holds the K♣, but only she knows it.",
        3,
        Scenario(decks=(deal(3, 2, "5H KC 8S"),), dealer=2),
        (
            Move(
                0,
                "trade",
                "Ada holds a King, so your trade is blocked: you keep the 5♥, and her K♣ is shown to everyone.",
                asked=True,
                ask="Try to trade your 5♥ with Ada: choose 'trade'.",
                shows=("KingShown",),
                expect=all_of(holds(0, "5H"), holds(1, "KC")),
            ),
            Move(
                1,
                "stay",
                "A King holder must stay (a King is the highest card), so Ada stays with the K♣.",
                shows=("Stayed",),
                expect=holds(1, "KC"),
            ),
        ),
    )


def king_face_up(w: Words) -> Step:
    """Chase: a King is turned face up at the deal, and nobody trades into it."""
    return Step(
        "Kings are face up",
        ("A **King** is turned face up at the deal",),
        "Ben deals; you go first with the 5♥. Ada was dealt the K♣, and it was turned face up for all to see.",
        3,
        Scenario(decks=(deal(3, 2, "5H KC 8S"),), dealer=2),
        (
            Move(
                0,
                "stay",
                "You keep the 5♥: you may not trade into the King face up on your left.",
                asked=True,
                ask="Ada's K♣ is face up on your left, so your only move is to stay: choose 'stay'.",
                shows=("Stayed",),
                expect=all_of(holds(0, "5H"), lambda state: dict(state.view(None).known).get(1) == Card.parse("KC")),
            ),
            Move(
                1,
                "stay",
                "A King holder must stay (a King is the highest card), so Ada stays with the K♣.",
                shows=("Stayed",),
                expect=holds(1, "KC"),
            ),
        ),
    )


def dealer_goes_last(w: Words) -> Step:
    pays = f"she pays 1 {w.life}"
    if w.chase:
        title, rule = "The dealer cuts the pack", "**cut** the pack"
        ask = "The 2♥ is very low. As the dealer you may cut the pack and take the card turned up: choose 'cut'."
        says = (
            f"You cut the pack and turned up the K♠ for all to see: the dealer must take it, even a King. "
            f"With all the cards up, Ada's 7♦ is now the lowest, so {pays}."
        )
        shows: tuple[str, ...] = ("PackCut", "Paid")
    else:
        title, rule = "The dealer swaps with the deck", "**swap** with the top card"
        ask = "The 2♥ is very low. As the dealer you may swap it for the top card of the deck: choose 'swap'."
        says = (
            f"You put the 2♥ aside and took the top card of the deck, the K♠ (only you saw it): the dealer keeps "
            f"whatever comes, even a King. With all the cards up, Ada's 7♦ is now the lowest, so {pays}."
        )
        shows = ("DeckSwapped", "Paid")
    return Step(
        title,
        (rule,),
        "You deal this time, so you go last. Ada stayed with the 7♦, and Ben traded his 2♥ to you for your 9♣.",
        3,
        Scenario(decks=(deal(3, 0, "9C 7D 2H", "KS"),), dealer=0),
        (Move(0, w.dealer_move, says, asked=True, ask=ask, shows=shows, expect=lives(w.full, w.full - 1, w.full)),),
        setup=((1, "stay"), (2, "trade")),
    )


def ties(w: Words) -> Step:
    if w.chase:
        title, rule = "Tied players all pay", "Ties: **every** tied player pays"
        ask = "Stay, to see what a tie for the lowest card costs in Chase the Ace: choose 'stay'."
        says = (
            f"Your 6♥ and Ada's 6♣ tie for the lowest card, and every tied player pays: you and Ada pay "
            f"1 {w.life} each."
        )
        paid = lives(w.full - 1, w.full - 1, w.full)
    else:
        title, rule = "A tie is broken by suit", "Ties are broken by suit"
        ask = "Your 6♥ ties Ada's 6♣, and a ♥ beats a ♣: choose 'stay'."
        says = (
            f"Your 6♥ and Ada's 6♣ tie for the lowest card; the suit breaks the tie (♠, then ♥, then ♣, then ♦), "
            f"so only Ada pays 1 {w.life}."
        )
        paid = lives(w.full, w.full - 1, w.full)
    return Step(
        title,
        (rule,),
        "You deal, and Ada and Ben have stayed. You hold the 6♥ and Ada the 6♣: the same rank.",
        3,
        Scenario(decks=(deal(3, 0, "6H 6C JS"),), dealer=0),
        (Move(0, "stay", says, asked=True, ask=ask, shows=("Revealed", "Paid"), expect=paid),),
        setup=((1, "stay"), (2, "stay")),
    )


def dealt_again(w: Words) -> Step:
    rule = "nobody pays and the hand is dealt again"
    stay = "You keep the 5♦." if w.chase else "You keep the 9♣."
    redealt = all_of(lives(1, 1), lambda state: state.dealer == 1 and state.hand == 1)
    if w.chase:
        return Step(
            "Nobody pays: deal again",
            (rule,),
            "You and Ada are both on honour: whoever pays next is out. Ada deals; you hold the 5♦ and she the 5♠.",
            2,
            Scenario(decks=(deal(2, 1, "5D 5S", "5C"),), dealer=1, totals=(1, 1)),
            (
                Move(
                    0,
                    "stay",
                    stay,
                    asked=True,
                    ask="A trade would only give you Ada's 5♠ for your 5♦: choose 'stay'.",
                    shows=("Stayed",),
                ),
                Move(
                    1,
                    "cut",
                    "Hoping for better, Ada cuts the pack, and must take the card turned up: the 5♣. It ties "
                    "your 5♦ for the lowest, so you would both pay and be out; instead nobody pays and the hand "
                    "is dealt again, Ada dealing once more.",
                    shows=("PackCut", "HandVoid"),
                    expect=redealt,
                ),
            ),
        )
    return Step(
        "Nobody pays: deal again",
        (rule,),
        "In Screw Your Neighbor exactly one player pays, so this can only happen under a house rule: High card "
        "pays is on here (the highest card pays 1, an Ace pays 2). You and Ada have one life each, and Ada deals.",
        2,
        Scenario(decks=(deal(2, 1, "9C AS", "AD"),), dealer=1, totals=(1, 1)),
        (
            Move(
                0,
                "stay",
                stay,
                asked=True,
                ask="Here you want neither an Ace nor the highest card. Your 9♣ is no Ace, and Ada may well "
                "hold a higher card: choose 'stay'.",
                shows=("Stayed",),
            ),
            Move(
                1,
                "swap",
                "Ada swaps her A♠ for the top card of the deck: the A♦, another Ace, which pays 2, while your 9♣ "
                "is now the highest card and pays 1. That would put you both out, so nobody pays and the hand is "
                "dealt again, Ada dealing once more.",
                shows=("DeckSwapped", "HandVoid"),
                expect=redealt,
            ),
        ),
        variants=("high-card-pays",),
    )


def out_and_button(w: Words) -> Step:
    if w.chase:
        rules: tuple[str, ...] = ("The dealer button moves",)
        intro = "You deal. Ada has no tokens left and is on honour; Ben's K♥ is face up."
        ada = Move(
            1,
            "stay",
            "Ada holds the 2♣, but Ben's K♥ is face up on her left and she may not trade into it: she must stay.",
            shows=("Stayed",),
        )
        out = "she was on honour, so she is out"
    else:
        rules = ("A player with no life left is out", "The dealer button moves")
        intro = "You deal. Ada has one life left; Ben holds the K♥, but only he knows it."
        ada = Move(
            1,
            "trade",
            "Ada holds the 2♣ and tries to trade with Ben, but his K♥ blocks the trade: she keeps the 2♣.",
            shows=("KingShown",),
            expect=holds(1, "2C"),
        )
        out = "she pays her last life and is out"
    return Step(
        "Out, and the button moves",
        rules,
        intro,
        3,
        Scenario(decks=(deal(3, 0, "7S 2C KH"),), dealer=0, totals=(w.full, 1, w.full)),
        (
            ada,
            Move(2, "stay", "Ben must stay with his King.", shows=("Stayed",)),
            Move(
                0,
                "stay",
                f"All the cards are up: Ada's 2♣ is the lowest, and {out}. The dealer button moves one seat to the "
                f"left and skips Ada, who is out: Ben deals the next hand.",
                asked=True,
                ask="Your 7♠ is higher than Ada's 2♣: choose 'stay'.",
                shows=("Paid", "Eliminated"),
                expect=lambda state: state.lives[1] == 0 and state.dealer == 2,
            ),
        ),
    )


def last_one_wins(w: Words) -> Step:
    if w.chase:
        rule = "takes the pot"
        before = "Ada paid her last token into the pot, so she is on honour; you have 3 tokens and a life on honour."
        took = "cuts the pack and turns up"
        win = (
            "She must pay again while on honour, so she is out: you are the last player with a token left, so you "
            "win and take the pot (the 1 token Ada paid; a life on honour puts nothing in)."
        )
    else:
        rule = "The last player with a life left wins"
        before = "Ada paid a life, so she has one left; you have 3 lives."
        took = "swaps her 3♣ for the top card of the deck and gets"
        win = "She pays her last life and is out: you are the last player with a life left, so you win."
    return Step(
        "The last player left wins",
        (rule,),
        f"Two players. In the hand before (the log shows it), {before} Now Ada deals, and she holds the 3♣.",
        2,
        Scenario(decks=(deal(2, 0, "10H 4S"), deal(2, 1, "QD 3C", "2H")), dealer=0, totals=(w.full, 2)),
        (
            Move(
                0,
                "stay",
                "You keep the Q♦.",
                asked=True,
                ask="Your Q♦ is high: choose 'stay'.",
                shows=("Stayed",),
            ),
            Move(
                1,
                w.dealer_move,
                f"Ada {took} the 2♥, lower still. {win}",
                shows=("Eliminated", "MatchOver"),
                expect=lambda state: state.winner == 0 and (not w.chase or state.pot == 1),
            ),
        ),
        setup=((1, "stay"), (0, "stay")),
    )


def high_card_pays(w: Words) -> Step:
    if w.chase:
        cal = "Cal deals, and his K♠ is face up."
        ben = Move(
            2,
            "stay",
            "Cal's K♠ is face up on Ben's left, so Ben may not trade into it: he must stay with the A♣.",
            shows=("Stayed",),
        )
    else:
        cal = "Cal deals, and holds the K♠ (only he knows it)."
        ben = Move(
            2,
            "trade",
            "Ben tries to pass the Ace on to Cal, but Cal's K♠ blocks the trade: Ben keeps the A♣.",
            shows=("KingShown",),
            expect=holds(2, "AC"),
        )
    return Step(
        "High card pays",
        ("The highest card pays 1 (a King never pays)",),
        f"House rule High card pays is on: the highest card pays 1 (but a King never pays), and every Ace pays 2. "
        f"{cal} You go first, with the A♣.",
        4,
        Scenario(decks=(deal(4, 3, "AC 8D QH KS"),), dealer=3),
        (
            Move(
                0,
                "trade",
                "You gave Ada the A♣ and took her 8♦.",
                asked=True,
                ask="Here an Ace costs 2: trade your A♣ to Ada. Choose 'trade'.",
                shows=("Traded",),
                expect=holds(0, "8D"),
            ),
            Move(1, "trade", "Ada passes the Ace on to Ben, on her left, and takes his Q♥.", shows=("Traded",)),
            ben,
            Move(
                3,
                "stay",
                f"Cal must stay with his King. All the cards are up: Ben's A♣ pays 2 {w.lives}, and Ada's Q♥, the "
                f"highest card that can pay (a King never does), pays 1.",
                shows=("Paid",),
                expect=lives(w.full, w.full - 1, w.full - 2, w.full),
            ),
        ),
        variants=("high-card-pays",),
    )


def on_honour(w: Words) -> Step:
    if w.chase:
        rule = "plays **on honour**"
        intro = "Ada has 1 token left, then her life on honour; you and Ben have 3 tokens and a life on honour."
        variants: tuple[str, ...] = ()
    else:
        rule = "plays on until they must pay again"
        intro = (
            "House rule On honour is on: after the last life a player plays on, on honour. Ada has 1 life left, "
            "then her life on honour; you and Ben have 3 lives and a life on honour."
        )
        variants = ("on-honour",)
    return Step(
        "On honour",
        (rule,),
        f"{intro} Ben deals, so you go first.",
        3,
        Scenario(
            decks=(deal(3, 2, "10C 5D 2S"), deal(3, 0, "JD 6S 9H")),
            dealer=2,
            totals=(4, 2, 4),
        ),
        (
            Move(
                0,
                "stay",
                "You keep the 10♣.",
                asked=True,
                ask="Your 10♣ is a good card: choose 'stay'.",
                shows=("Stayed",),
            ),
            Move(
                1,
                "trade",
                "Ada trades her 5♦ with Ben, and takes his 2♠: worse luck.",
                shows=("Traded",),
                expect=holds(1, "2S"),
            ),
            Move(
                2,
                "stay",
                f"Ben keeps the 5♦. Ada's 2♠ is the lowest, so she pays her last {w.life}; she is not out, but "
                f"plays the next hand on honour.",
                shows=("Paid",),
                expect=lambda state: state.lives[1] == 1 and state.dealer == 0,
            ),
            Move(1, "stay", "A new hand, and you deal. Ada keeps her 6♠.", shows=("Stayed",)),
            Move(2, "stay", "Ben keeps his 9♥.", shows=("Stayed",)),
            Move(
                0,
                "stay",
                "All the cards are up: Ada's 6♠ is the lowest. She was on honour and must pay again, so she is out.",
                asked=True,
                ask="Your J♦ is higher than Ada's 6♠: choose 'stay'.",
                shows=("Eliminated",),
                expect=lambda state: state.lives[1] == 0,
            ),
        ),
        variants=variants,
    )


def no_honour(w: Words) -> Step:
    """Chase's house rule: no life on honour."""
    return Step(
        "No honour life",
        ("A player is out as soon as the last token is paid",),
        "House rule No honour life is on: there is no life on honour after the last token. Ada has 1 token left. "
        "Ben deals, so you go first.",
        3,
        Scenario(decks=(deal(3, 2, "JC 4D AS"),), dealer=2, totals=(3, 1, 3)),
        (
            Move(
                0,
                "stay",
                "You keep the J♣.",
                asked=True,
                ask="Your J♣ is high: choose 'stay'.",
                shows=("Stayed",),
            ),
            Move(
                1,
                "trade",
                "Ada trades her 4♦ with Ben, and takes his A♠, the lowest card there is.",
                shows=("Traded",),
                expect=holds(1, "AS"),
            ),
            Move(
                2,
                "stay",
                "Ben keeps the 4♦. Ada's A♠ is the lowest, so she pays her last token, and with no life on honour "
                "she is out at once.",
                shows=("Paid", "Eliminated"),
                expect=lambda state: state.lives[1] == 0,
            ),
        ),
        variants=("no-honour",),
    )


def walkthrough(preset: str | None) -> Walkthrough:
    """The steps of the rules of ``preset`` (``screw``, the default, or ``chase``), in the order of its rules."""
    options = GAME.base_options(preset)
    w = Words.of(options)
    steps: tuple[Step, ...]
    if w.chase:
        steps = (
            one_card_each(w),
            stay_or_trade(w),
            king_face_up(w),
            dealer_goes_last(w),
            ties(w),
            dealt_again(w),
            on_honour(w),
            out_and_button(w),
            last_one_wins(w),
            high_card_pays(w),
            no_honour(w),
        )
    else:
        steps = (
            one_card_each(w),
            stay_or_trade(w),
            king_blocks(w),
            dealer_goes_last(w),
            ties(w),
            dealt_again(w),
            out_and_button(w),
            last_one_wins(w),
            high_card_pays(w),
            on_honour(w),
        )
    return Walkthrough(steps, table)
