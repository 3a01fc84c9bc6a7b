"""Rank ("Ранг", RULES.md §4): get rid of your cards one rank up or down; the last player holding cards loses.

Ranks are cyclic (A 2 3 … 10 J Q K, and the King is next to the Ace) and suits never matter. A *normal play* is a
non-joker card one rank above or below the pile's *effective rank*: the top card's rank, or the rank named for a
Joker lying on top. A player who holds a normal play must make one. Otherwise the player may play an Ace (an
escape: it lies as an Ace), play a Joker (and name its rank, then perhaps add one normal play on it) or draw a card
(played at once if it is a normal play, else kept). Only when none of that is possible does the player pass.

Going out is not final: a player who plays the last card is *pending*, and the next player still holding cards
decides. Any play sends the pending player back in with two cards from the stock; a draw (or a pass) confirms the
exit. The deal ends when one player alone still holds cards (the pending player counts as holding cards): that
player loses the deal and takes a penalty point. A match is ``deals`` deals; the fewest points win.

What is private: each hand (its owner sees it), a drawn card (the drawer sees it) and the two cards a returning
player takes (that player sees them). The stock is hidden from everybody. Played cards are public; the view keeps
only the pile's top card and its size.

How a deal is dealt (what a :class:`~engine.game.Scenario` deck means): the deck is dealt from index 0, one card
at a time, clockwise from the dealer's left, five cards each; the next card is turned up as the starter and the
rest is the stock, its top card first (a joker turned up goes back into the stock at a random place other than
the top, and the next card is turned). :meth:`RankGame.deck_for` builds such an order.

>>> import random
>>> from engine.cards import parse_cards
>>> game = RankGame()
>>> hands = [parse_cards("5S 9D 9H 10C QS"), parse_cards("KH")]
>>> order = game.deck_for(2, dealer=1, hands=hands, rest=parse_cards("6C"))
>>> state = game.new_match(2, game.options(), random.Random(0), Scenario(decks=(order,), dealer=1))
>>> str(state.view(0).top), state.to_move, [str(a) for a in state.legal_actions()]
('6C', 0, ['5S'])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import ClassVar

from engine.cards import Card, Rank, deck, is_card, plain_text, sort_key
from engine.dealing import check_dealer, check_planned_decks, check_totals, first_dealer, lay_out, unseen
from engine.errors import InvalidActionError, OptionError, echo
from engine.events import Event, frozen
from engine.game import (
    Deferred,
    Figures,
    FinishedMatch,
    Game,
    GameEntry,
    GameState,
    MatchResult,
    Preset,
    Scenario,
    Variant,
    copy_rng,
)
from engine.games.rank import LISTING
from engine.match import MatchProgress, MatchRule

__all__ = [
    "DRAW",
    "HAND_SIZE",
    "PASS",
    "RANKS",
    "CameBack",
    "DealOver",
    "DealStarted",
    "Draw",
    "Drew",
    "HandDealt",
    "JokerReturned",
    "Name",
    "Named",
    "OutForGood",
    "Pass",
    "Passed",
    "Play",
    "PlayKind",
    "Played",
    "RankAction",
    "RankFigures",
    "RankGame",
    "RankOptions",
    "RankPhase",
    "RankState",
    "RankView",
    "StarterTurned",
    "StockShuffled",
    "WentOut",
    "deck_of",
    "is_normal",
    "neighbours",
    "parse_action",
    "sample_state",
]

HAND_SIZE = 5
"""Cards dealt to each player."""
RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)
"""The 13 ranks a card (or a named Joker) can have, Ace first."""
COMEBACK = 2
"""Cards a returning player draws."""


def _view_fields(hand: tuple[Card, ...]) -> dict[str, object]:
    """The field of a :class:`RankView` that :meth:`RankState._view` left to be worked out when read."""
    return {"hand": tuple(sorted(hand, key=sort_key))}


@dataclass(frozen=True)
class RankOptions:
    deals: int = 5
    """A match is this many deals (``parlour simulate rank --deals N``)."""

    def __post_init__(self) -> None:
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise OptionError(f"a match needs at least 1 deal, not {echo(self.deals)}")


DEFAULT_OPTIONS = RankOptions()


# ---------------------------------------------------------------------------------------------------------------
# Ranks
# ---------------------------------------------------------------------------------------------------------------
def neighbours(rank: Rank) -> tuple[Rank, Rank]:
    """The ranks one below and one above ``rank``, cyclically (the King and the Ace are neighbours).

    >>> [r.text for r in neighbours(Rank.ACE)], [r.text for r in neighbours(Rank.SIX)]
    (['K', '2'], ['5', '7'])
    """
    if rank is Rank.JOKER:
        raise ValueError("a joker has no rank of its own: name one")
    return _NEIGHBOURS[rank]


_NEIGHBOURS: dict[Rank, tuple[Rank, Rank]] = {r: (Rank((r - 2) % 13 + 1), Rank(r % 13 + 1)) for r in RANKS}
_NORMAL_ON: dict[Rank, frozenset[Rank]] = {r: frozenset(pair) for r, pair in _NEIGHBOURS.items()}
"""Computed once: the test runs in every legal-move listing, and building enum members there was most of a move's
cost in self-play."""
_NO_RANKS: frozenset[Rank] = frozenset()
_ONLY: tuple[frozenset[int], ...] = tuple(frozenset({seat}) for seat in range(10))
"""The audience of a private event, one seat (made once: a draw is every other move of a random deal)."""
_ESCAPES = frozenset({Rank.ACE, Rank.JOKER})
"""What may be played when no normal play is held."""


def is_normal(card: Card, rank: Rank | None) -> bool:
    """Is ``card`` a normal play on the effective rank ``rank`` (one rank up or down; a joker never is)?

    >>> ace, joker = Card.parse("AS"), Card.parse("JK")
    >>> is_normal(ace, Rank.KING), is_normal(ace, Rank.QUEEN), is_normal(joker, Rank.TWO)
    (True, False, False)
    """
    return rank is not None and card.rank in _NORMAL_ON.get(rank, ())


def deck_of(players: int) -> list[Card]:
    """One 52-card deck and two jokers for 2 to 4 players; two of them (108 cards) for 5 to 10."""
    return deck(decks=1, jokers=2) if players <= 4 else deck(decks=2, jokers=4)


# ---------------------------------------------------------------------------------------------------------------
# Phases and actions
# ---------------------------------------------------------------------------------------------------------------
class RankPhase(Enum):
    """What the player to move is asked now."""

    PLAY = "play"
    """Play a card, draw, or (only when nothing else is possible) pass."""
    NAME = "name"
    """Name the rank of the Joker just played."""
    FOLLOW = "follow"
    """Add one normal play on the named rank, or decline (pass)."""
    OVER = "over"


@dataclass(frozen=True)
class Play:
    """Play ``card`` from the hand (a normal play, an Ace, a Joker, or the follow-up after a Joker)."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True)
class Draw:
    """Draw one card from the stock (played at once if it is a normal play)."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True)
class Name:
    """Name the rank the Joker just played counts as."""

    rank: Rank

    def __str__(self) -> str:
        return f"name {self.rank.text}"


@dataclass(frozen=True)
class Pass:
    """Decline the follow-up after a Joker, or pass when nothing at all can be played or drawn."""

    def __str__(self) -> str:
        return "pass"


RankAction = Play | Draw | Name | Pass
_NAME_ACTIONS: tuple[Name, ...] = tuple(Name(r) for r in RANKS)
DRAW, PASS = Draw(), Pass()
MAX_ACTION_TEXT = 40
_RANK_WORDS = {r.text.lower(): r for r in RANKS} | {r.name.lower(): r for r in RANKS} | {"t": Rank.TEN}


def parse_action(text: object) -> RankAction:
    """An action from its text: a card (``5S``, ``JK``), ``draw``, ``pass``, ``name 6`` (or just ``6``, ``Q``,
    ``queen``); InvalidActionError for anything else, whatever object it is.

    >>> parse_action(" 5s "), parse_action("draw"), parse_action("name Q"), parse_action("10")
    (Play(card=Card(rank=<Rank.FIVE: 5>, suit=<Suit.SPADES: 'S'>)), Draw(), Name(rank=<Rank.QUEEN: 12>), \
Name(rank=<Rank.TEN: 10>))
    """
    hint = "a card (5S, JK), draw, pass, or name R (R a rank: A, 2 … 10, J, Q, K)"
    plain = plain_text(text)
    if plain is None or len(plain) > MAX_ACTION_TEXT:
        raise InvalidActionError(f"not a Rank action: {echo(text, 60)} ({hint})")
    words = plain.strip().lower().split()
    if words in (["draw"], ["d"]):
        return DRAW
    if words in (["pass"], ["p"], ["x"]):
        return PASS
    named = len(words) == 2 and words[0] in ("name", "n")
    if named:
        words = words[1:]
    if len(words) == 1 and words[0] in _RANK_WORDS:
        return Name(_RANK_WORDS[words[0]])
    if len(words) == 1 and not named:
        try:
            return Play(Card.parse(words[0]))
        except InvalidActionError:
            pass
    raise InvalidActionError(f"not a Rank action: {echo(text, 60)} ({hint})")


def validate(action: object) -> None:
    """InvalidActionError unless ``action`` is a well-formed Rank action (its fields of the right kind)."""
    if isinstance(action, Play):
        card = action.card
        if not is_card(card):
            raise InvalidActionError(f"play a card, not {echo(card, 60)}")
    elif isinstance(action, Name):
        rank = action.rank
        if not isinstance(rank, Rank) or rank is Rank.JOKER:
            raise InvalidActionError(f"name a rank from Ace to King, not {echo(rank, 60)}")
    elif not isinstance(action, Draw | Pass):
        raise InvalidActionError(f"not a Rank action: {echo(action, 60)}")


# ---------------------------------------------------------------------------------------------------------------
# Events (public unless they say otherwise)
# ---------------------------------------------------------------------------------------------------------------
class PlayKind(Enum):
    """How a card came to be played."""

    NORMAL = "normal"
    """One rank above or below the effective rank (an Ace on a King or a 2 too)."""
    ACE = "ace"
    """An Ace played as an escape (no normal play held): it lies as an Ace."""
    JOKER = "joker"
    """A Joker: its player names its rank next."""
    FOLLOW = "follow"
    """The one card added after a Joker, a normal play on the named rank."""
    DRAWN = "drawn"
    """A drawn card that was a normal play, played at once."""


@dataclass(frozen=True, kw_only=True)
class DealStarted(Event):
    """Follows the match layer's ``RoundStarted``: who deals, who starts, and each seat's count of cards."""

    deal: int
    dealer: int
    first: int
    counts: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class HandDealt(Event):
    """Private to ``seat``: its five cards (the others see None)."""

    seat: int
    cards: tuple[Card, ...] | None

    def redacted(self) -> Event:
        return replace(self, cards=None, audience=None)


@dataclass(frozen=True, kw_only=True)
class StarterTurned(Event):
    """The top card of the stock turned up to start the pile (a joker goes back: :class:`JokerReturned`)."""

    card: Card


@dataclass(frozen=True, kw_only=True)
class JokerReturned(Event):
    """The joker just turned up as the starter went back into the stock, at a random place other than the top."""


@dataclass(frozen=True, kw_only=True)
class Played(Event):
    seat: int
    card: Card
    kind: PlayKind
    left: int
    """Cards the player holds after it."""


@dataclass(frozen=True, kw_only=True)
class Named(Event):
    """The Joker on top counts as ``rank``."""

    seat: int
    rank: Rank


@dataclass(frozen=True, kw_only=True)
class Drew(Event):
    """Private to ``seat``: the card drawn (the others see None). If it is a normal play, :class:`Played` follows."""

    seat: int
    card: Card | None

    def redacted(self) -> Event:
        return replace(self, card=None, audience=None)


@dataclass(frozen=True, kw_only=True)
class Passed(Event):
    """``seat`` declined the follow-up after its Joker, or could neither play nor draw."""

    seat: int


@dataclass(frozen=True, kw_only=True)
class WentOut(Event):
    """``seat`` played its last card and is pending: the next player's answer decides."""

    seat: int


@dataclass(frozen=True, kw_only=True)
class CameBack(Event):
    """The pending ``seat`` was answered by a play and is back in with ``count`` cards from the stock (private:
    the others see None for the cards)."""

    seat: int
    cards: tuple[Card, ...] | None
    count: int

    def redacted(self) -> Event:
        return replace(self, cards=None, audience=None)


@dataclass(frozen=True, kw_only=True)
class OutForGood(Event):
    """The pending ``seat``'s exit was confirmed (a draw or a pass answered it); ``place`` 1 went out first."""

    seat: int
    place: int


@dataclass(frozen=True, kw_only=True)
class StockShuffled(Event):
    """The stock was empty when a card had to be drawn: the pile but its top card became the new stock."""

    cards: int


@dataclass(frozen=True, kw_only=True)
class DealOver(Event):
    """The deal is over: ``loser`` alone still held cards. ``penalties`` are the match's totals after it, ``hands``
    what every seat held (the loser's cards shown). The match layer's ``RoundOver`` (and ``MatchOver``) follows."""

    loser: int
    penalties: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]


# ---------------------------------------------------------------------------------------------------------------
# View
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RankView(Deferred):
    """What one seat may know: its own hand, every count, the pile's top. Never another hand or the stock."""

    seat: int | None
    players: int
    deal: int
    """The deal's number, 1 for the first."""
    deals: int
    dealer: int
    hand: tuple[Card, ...]
    """This seat's cards, sorted for display (empty for a spectator)."""
    counts: tuple[int, ...]
    top: Card | None
    named: Rank | None
    """The rank named for the Joker on top (None while it is still to be named, or when the top is no Joker)."""
    rank: Rank | None
    """The effective rank: what a normal play must be one above or below."""
    pile: int
    stock: int
    to_move: int | None
    phase: RankPhase
    pending: int | None
    """The seat that played its last card and waits on the next player's answer."""
    out: tuple[int, ...]
    """Seats out for good this deal, in the order they went out."""
    penalties: tuple[int, ...]
    winners: tuple[int, ...]
    """The match's winners once it is over."""
    options: RankOptions = DEFAULT_OPTIONS


# ---------------------------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------------------------
def match_rule(options: RankOptions) -> MatchRule:
    """``deals`` deals; the fewest penalty points win (a tie shares the win)."""
    return MatchRule(rounds=options.deals, lower_wins=True)


@dataclass
class RankState(GameState[RankOptions, RankView, RankAction]):
    """One match. ``hands[s]`` is seat s's cards; ``stock`` and ``pile`` keep their top card last."""

    options: RankOptions = field(default_factory=RankOptions)
    rng: random.Random = field(default_factory=random.Random)
    progress: MatchProgress = field(default_factory=lambda: MatchProgress.starting(2, MatchRule(rounds=5)))
    hands: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    pile: list[Card] = field(default_factory=list)
    named: Rank | None = None
    """The rank named for the Joker on top of the pile."""
    phase: RankPhase = RankPhase.PLAY
    turn: int = 0
    """The seat to move (meaningless once the match is over)."""
    first: int = 0
    pending: int | None = None
    out: list[int] = field(default_factory=list)

    action_types: ClassVar[tuple[type, ...]] = (Play, Draw, Name, Pass)

    # -- figures -------------------------------------------------------------------------------------------------
    @property
    def deal(self) -> int:
        return self.progress.round

    @property
    def over(self) -> bool:
        return self.progress.over

    @property
    def rank(self) -> Rank | None:
        """The pile's effective rank: the top card's, or the one named for a Joker on top."""
        if not self.pile:
            return None
        top = self.pile[-1]
        return self.named if top.rank is Rank.JOKER else top.rank

    def holders(self) -> list[int]:
        """The seats still in the deal: holding cards, or pending (a pending exit counts as holding cards)."""
        return [s for s in range(self.players) if self.hands[s] or s == self.pending]

    def next_holder(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that holds cards."""
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if self.hands[other]:
                return other
        return seat

    def can_draw(self) -> bool:
        """Is there a card to draw: the stock, or the pile but its top (reshuffled)?"""
        return bool(self.stock) or len(self.pile) > 1

    # -- dealing -------------------------------------------------------------------------------------------------
    def start_deal(self) -> list[Event]:
        """Deal five cards each from :meth:`next_deck` (see the module docstring), turn the starter, open the
        deal."""
        n = self.players
        cards = self.next_deck(deck_of(n), self.rng)
        dealer = self.progress.dealer
        self.first = (dealer + 1) % n
        order = [(self.first + i) % n for i in range(n)]
        self.hands = [[] for _ in range(n)]
        position = 0
        for _ in range(HAND_SIZE):
            for seat in order:
                self.hands[seat].append(cards[position])
                position += 1
        self.stock = list(reversed(cards[position:]))
        self.pile = []
        self.named = None
        self.phase = RankPhase.PLAY
        self.turn = self.first
        self.pending = None
        self.out = []
        started = self.progress.start_round(seats=tuple(order))
        events: list[Event] = [
            started,
            DealStarted(deal=self.deal, dealer=dealer, first=self.first, counts=tuple(len(h) for h in self.hands)),
        ]
        for seat in order:
            events.append(HandDealt(seat=seat, cards=tuple(self.hands[seat]), audience=_ONLY[seat]))
        while True:
            card = self.stock.pop()
            events.append(StarterTurned(card=card))
            if card.rank is not Rank.JOKER:
                self.pile.append(card)
                return events
            # RULES: a joker turned up goes back into the stock at a random place other than the top.
            self.stock.insert(self.rng.randrange(len(self.stock)), card)
            events.append(JokerReturned())

    # -- what is asked -------------------------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        return None if self.progress.over else self.turn

    @property
    def is_over(self) -> bool:
        return self.progress.over

    def normal_ranks(self) -> frozenset[Rank]:
        """The ranks a normal play may have now: the two neighbours of the effective rank (none without one)."""
        pile = self.pile
        if not pile:
            return _NO_RANKS
        rank = pile[-1].rank
        if rank is Rank.JOKER:
            if self.named is None:
                return _NO_RANKS
            rank = self.named
        return _NORMAL_ON[rank]

    def legal_actions(self) -> list[RankAction]:
        if self.progress.over:
            return []
        if self.phase is RankPhase.NAME:
            return list(_NAME_ACTIONS)
        hand = self.hands[self.turn]
        ok = self.normal_ranks()
        normal = _plays([c for c in hand if c.rank in ok])
        if self.phase is RankPhase.FOLLOW:
            return [*normal, PASS]
        if normal:
            return normal
        actions = _plays([c for c in hand if c.rank in _ESCAPES])
        if self.can_draw():
            actions.append(DRAW)
        return actions or [PASS]

    def allows(self, action: RankAction) -> bool:
        """The same answer as ``action in legal_actions()``, without listing them (a self-play step checks one
        action)."""
        if self.phase is RankPhase.NAME:
            return isinstance(action, Name)
        if isinstance(action, Name):
            return False
        hand = self.hands[self.turn]
        ok = self.normal_ranks()
        if isinstance(action, Play):
            card = action.card
            if card.rank in ok:
                return card in hand
            if self.phase is RankPhase.FOLLOW or card.rank not in _ESCAPES or card not in hand:
                return False
            return not any(c.rank in ok for c in hand)
        if self.phase is RankPhase.FOLLOW:
            return isinstance(action, Pass)
        if any(c.rank in ok for c in hand):
            return False
        if isinstance(action, Draw):
            return self.can_draw()
        return not self.can_draw() and not any(c.rank in _ESCAPES for c in hand)

    def validate_action(self, action: object) -> None:
        validate(action)

    def parse_action(self, text: str) -> RankAction:
        return parse_action(text)

    # -- playing -------------------------------------------------------------------------------------------------
    def _apply(self, action: RankAction) -> list[Event]:
        seat = self.turn
        if isinstance(action, Name):
            self.named = action.rank
            events: list[Event] = [Named(seat=seat, rank=action.rank)]
            rank = self.rank
            if any(is_normal(c, rank) for c in self.hands[seat]):
                self.phase = RankPhase.FOLLOW  # RULES: asked only when the player holds such a card
                return events
            return self._end_turn(seat, events)
        if isinstance(action, Pass):
            events = [Passed(seat=seat)]
            if self.phase is RankPhase.PLAY:
                events += self._confirm_exit(seat)
            return self._end_turn(seat, events)
        if isinstance(action, Draw):
            return self._draw(seat)
        card = action.card
        if self.phase is RankPhase.FOLLOW:
            kind = PlayKind.FOLLOW
        elif is_normal(card, self.rank):
            kind = PlayKind.NORMAL
        else:
            kind = PlayKind.JOKER if card.rank is Rank.JOKER else PlayKind.ACE
        events = self._put(seat, card, kind)
        if kind is not PlayKind.FOLLOW and self.pending is not None:
            events += self._come_back(seat)  # any play answers a pending exit: the player is back in
        if kind is PlayKind.JOKER:
            self.phase = RankPhase.NAME
            return events
        return self._end_turn(seat, events)

    def _put(self, seat: int, card: Card, kind: PlayKind) -> list[Event]:
        """Move ``card`` from ``seat``'s hand to the pile."""
        hand = self.hands[seat]
        hand.remove(card)
        self.pile.append(card)
        self.named = None
        # events.frozen: without the slow frozen __init__ (a play is every other move)
        return [frozen(Played, audience=None, seat=seat, card=card, kind=kind, left=len(hand))]

    def _draw(self, seat: int) -> list[Event]:
        """Draw one card: played at once if it is a normal play, else kept; a pending exit is confirmed."""
        events = self._refill()
        card = self.stock.pop()
        self.hands[seat].append(card)
        events.append(frozen(Drew, audience=_ONLY[seat], seat=seat, card=card))  # a draw is every other move
        if self.pending is not None:
            events += self._confirm_exit(seat)  # RULES: even when the drawn card is then played at once
        if card.rank in self.normal_ranks():
            events += self._put(seat, card, PlayKind.DRAWN)
        return self._end_turn(seat, events)

    def _refill(self) -> list[Event]:
        """RULES: only when a card must be drawn and the stock is empty, the pile but its top becomes the stock."""
        if self.stock or len(self.pile) < 2:
            return []
        top = self.pile.pop()
        self.stock, self.pile = self.pile, [top]
        self.rng.shuffle(self.stock)
        return [StockShuffled(cards=len(self.stock))]

    def _come_back(self, seat: int) -> list[Event]:
        """``seat`` played on a pending exit: the pending player takes two cards (what there is) and is back in."""
        back = self.pending
        if back is None or back == seat:
            return []
        self.pending = None
        events: list[Event] = []
        taken: list[Card] = []
        for _ in range(COMEBACK):
            events += self._refill()
            if not self.stock:
                break
            taken.append(self.stock.pop())
        self.hands[back].extend(taken)
        events.append(CameBack(seat=back, cards=tuple(taken), count=len(taken), audience=_ONLY[back]))
        return events

    def _confirm_exit(self, seat: int) -> list[Event]:
        """``seat`` drew or passed on a pending exit: the pending player is out for good."""
        gone = self.pending
        if gone is None or gone == seat:
            return []
        self.pending = None
        self.out.append(gone)
        return [OutForGood(seat=gone, place=len(self.out))]

    def _end_turn(self, seat: int, events: list[Event]) -> list[Event]:
        """The player who played the last card goes pending; the deal ends, or the next holder moves. Its events
        go after ``events``, which it returns."""
        self.phase = RankPhase.PLAY
        if not self.hands[seat] and self.pending != seat:
            self.pending = seat
            events.append(WentOut(seat=seat))
        pending = self.pending
        holders = 0
        for s, hand in enumerate(self.hands):
            if hand or s == pending:
                holders += 1
                if holders > 1:
                    break
        else:  # one seat or none still holds cards: the deal is over
            events += self._end_deal()
            return events
        self.turn = self.next_holder(seat)
        return events

    def _end_deal(self) -> list[Event]:
        loser = next(s for s in range(self.players) if self.hands[s])
        deltas = [1 if s == loser else 0 for s in range(self.players)]
        totals = tuple(t + d for t, d in zip(self.progress.totals, deltas, strict=True))
        over = DealOver(loser=loser, penalties=totals, hands=tuple(tuple(h) for h in self.hands))
        events: list[Event] = [over, *self.progress.end_round(winners=(), deltas=deltas)]
        if self.progress.over:
            self.phase = RankPhase.OVER
            return events
        return events + self.start_deal()

    # -- views and copies ----------------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> RankView:
        """Deferred (see :class:`~engine.game.Deferred`): the seat's hand is copied now and sorted only if someone
        reads the view."""
        top = self.pile[-1] if self.pile else None
        return RankView.deferred(
            _view_fields,
            tuple(self.hands[seat]) if seat is not None else (),
            seat=seat,
            players=self.players,
            deal=self.deal,
            deals=self.options.deals,
            dealer=self.progress.dealer,
            counts=tuple(len(h) for h in self.hands),
            top=top,
            named=self.named if top is not None and top.rank is Rank.JOKER else None,
            rank=self.rank,
            pile=len(self.pile),
            stock=len(self.stock),
            to_move=self.to_move,
            phase=RankPhase.OVER if self.over else self.phase,
            pending=self.pending,
            out=tuple(self.out),
            penalties=tuple(self.progress.totals),
            winners=self.progress.winners if self.over else (),
            options=self.options,
        )

    def clone(self) -> RankState:
        other = RankState(
            players=self.players,
            options=self.options,
            rng=copy_rng(self.rng),
            progress=self.progress.copy(),
            hands=[list(h) for h in self.hands],
            stock=list(self.stock),
            pile=list(self.pile),
            named=self.named,
            phase=self.phase,
            turn=self.turn,
            first=self.first,
            pending=self.pending,
            out=list(self.out),
        )
        self._copy_base(other)
        return other

    @property
    def result(self) -> MatchResult | None:
        if not self.over:
            return None
        # Higher is better: the fewer penalty points, the better.
        return MatchResult(winners=self.progress.winners, scores=tuple(float(-t) for t in self.progress.totals))

    def zones(self) -> dict[str, Sequence[Card]]:
        places: dict[str, Sequence[Card]] = {"stock": list(self.stock), "pile": list(self.pile)}
        for seat, hand in enumerate(self.hands):
            places[f"hand {seat}"] = list(hand)
        return places

    def full_deck(self) -> list[Card]:
        return deck_of(self.players)


def _plays(cards: list[Card]) -> list[RankAction]:
    """A play of each card, one of each (two decks hold two copies), in display order."""
    if len(cards) < 2:
        return [_PLAY[c] for c in cards]
    return [_PLAY[c] for c in sorted(set(cards), key=sort_key)]


_PLAY: dict[Card, RankAction] = {c: Play(c) for c in deck_of(10)}
"""The play of each card, made once (the actions are frozen): a legal-move listing is made at every move."""


# ---------------------------------------------------------------------------------------------------------------
# Determinization: the hidden cards are the other hands, the pile under its top, and the stock
# ---------------------------------------------------------------------------------------------------------------
def unseen_cards(view: RankView) -> list[Card]:
    """The cards whose place ``view`` does not show: the full deck less its own hand and the pile's top card."""
    seen = [*view.hand, view.top] if view.top is not None else view.hand
    return unseen(deck_of(view.players), seen, sort_key)


def sample_state(view: RankView, rng: random.Random) -> RankState:
    """A full state consistent with ``view``: the unseen cards dealt at random to the other hands (by their
    counts), under the pile's top and to the stock (by their sizes). The view does not list the cards under the
    pile's top, so they are sampled too; the state plays on exactly as the real one would."""
    pool = unseen_cards(view)
    rng.shuffle(pool)
    n = view.players
    hands: list[list[Card]] = []
    for seat in range(n):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append([pool.pop() for _ in range(view.counts[seat])])
    under = [pool.pop() for _ in range(max(view.pile - 1, 0))]
    pile = [*under, view.top] if view.top is not None else under
    progress = MatchProgress.starting(n, match_rule(view.options), view.dealer, view.penalties)
    progress.round = view.deal
    if view.phase is RankPhase.OVER:
        progress.over, progress.winners = True, view.winners
    return RankState(
        players=n,
        options=view.options,
        rng=random.Random(rng.getrandbits(64)),
        progress=progress,
        hands=hands,
        stock=pool,
        pile=pile,
        named=view.named,
        phase=view.phase if view.phase is not RankPhase.OVER else RankPhase.PLAY,
        turn=view.to_move if view.to_move is not None else 0,
        first=(view.dealer + 1) % n,
        pending=view.pending,
        out=list(view.out),
    )


# ---------------------------------------------------------------------------------------------------------------
# simulate's figures
# ---------------------------------------------------------------------------------------------------------------
class RankFigures:
    """``parlour simulate`` figures: deals, and per line-up position the deals lost (``deal_loss_rate``: how often
    that seat loses a deal) and the penalty points taken."""

    column = "deal_loss_rate"

    def __init__(self) -> None:
        self.games = 0
        self.deals = 0
        self.players = 0
        self.lost: dict[int, int] = {}

    def add(self, state: FinishedMatch, position: Sequence[int]) -> None:
        self.games += 1
        self.players = max(self.players, len(position))
        for event in state.history:
            if isinstance(event, DealOver):
                self.deals += 1
                where = position[event.loser]
                self.lost[where] = self.lost.get(where, 0) + 1

    def report(self) -> dict[str, object]:
        return {
            "deals": self.deals,
            "deals_per_game": round(self.deals / self.games, 3) if self.games else 0.0,
            "score": "minus the penalty points (one per deal lost)",
            "seats": [
                {
                    "seat": seat,
                    "deals_lost": self.lost.get(seat, 0),
                    "deal_loss_rate": round(self.lost.get(seat, 0) / self.deals, 4) if self.deals else 0.0,
                    "penalty_points": self.lost.get(seat, 0),
                }
                for seat in range(self.players)
            ],
        }


# ---------------------------------------------------------------------------------------------------------------
# The spec
# ---------------------------------------------------------------------------------------------------------------
class RankGame(Game[RankOptions, RankView, RankAction]):
    """Rank for 2 to 10 players (two decks and four jokers for 5 or more)."""

    key = LISTING.key
    name = "Rank"
    min_players = LISTING.players[0]
    default_players = LISTING.players[1]
    max_players = LISTING.players[2]
    view_type = RankView

    def entries(self) -> tuple[GameEntry, ...]:
        return LISTING.game_entries(self)

    @property
    def presets(self) -> Sequence[Preset]:
        return (Preset("rank", "Rank", "the seed's rules: one rank up or down, Aces and Jokers to escape"),)

    @property
    def variants(self) -> Sequence[Variant]:
        return ()

    def base_options(self, preset: str | None) -> RankOptions:
        if preset not in (None, "rank"):
            raise OptionError(f"unknown preset {echo(preset)} for Rank (it has none besides the default)")
        return DEFAULT_OPTIONS

    def with_variant(self, options: RankOptions, key: str) -> RankOptions:
        raise OptionError(f"unknown variant {echo(key)}: Rank has no house rules")

    def new_match(
        self, players: int, options: RankOptions, rng: random.Random, scenario: Scenario | None = None
    ) -> RankState:
        """A match; ``scenario`` may choose the first decks (see the module docstring), the first dealer (else
        drawn by lot) and the starting penalty points."""
        self.check_players(players)
        if not isinstance(options, RankOptions):
            raise OptionError(f"not Rank options: {echo(options)}")
        scenario = scenario or Scenario()
        planned = check_planned_decks(scenario.decks, deck_of(players))
        dealer = first_dealer(players, scenario.dealer, rng)  # RULES: the first dealer is drawn by lot
        totals = check_totals(players, scenario.totals, "starting penalty points")
        state = RankState(
            players=players,
            options=options,
            rng=rng,
            progress=MatchProgress.starting(players, match_rule(options), dealer, totals),
        )
        state.planned = planned
        state.history.extend(state.start_deal())
        return state

    def deck_for(
        self, players: int, dealer: int, hands: Sequence[Sequence[Card]], rest: Sequence[Card] = ()
    ) -> tuple[Card, ...]:
        """A deck order that deals seat ``s`` the cards ``hands[s]`` (a hand named short is filled with cards not
        named) when ``dealer`` deals, then turns ``rest[0]`` as the starter and puts the rest of ``rest`` on the
        stock, top card first; then every card not named (jokers last, so none turns up unless named).

        >>> from engine.cards import parse_cards
        >>> order = RankGame().deck_for(2, 1, [parse_cards("AS 2S"), parse_cards("3H")], parse_cards("KD 4C"))
        >>> [str(c) for c in order[:4]], [str(c) for c in order[10:12]]
        (['AS', '3H', '2S', '3S'], ['KD', '4C'])
        """
        self.check_players(players)
        check_dealer(players, dealer)
        return lay_out(players, dealer, hands, rest, deck_of(players), [HAND_SIZE] * players)

    def determinize(self, view: RankView, rng: random.Random) -> RankState:
        return sample_state(view, rng)

    def rules_summary(self, options: RankOptions | None = None) -> str:
        return rules_summary(options or DEFAULT_OPTIONS)

    def figures(self) -> Figures:
        return RankFigures()

    def codec_types(self) -> Sequence[type]:
        return (
            RankOptions,
            RankView,
            RankPhase,
            PlayKind,
            Play,
            Draw,
            Name,
            Pass,
            DealStarted,
            HandDealt,
            StarterTurned,
            JokerReturned,
            Played,
            Named,
            Drew,
            Passed,
            WentOut,
            CameBack,
            OutForGood,
            StockShuffled,
            DealOver,
        )


def rules_summary(options: RankOptions) -> str:
    lines = [
        "# Rank",
        "",
        "Get rid of all your cards: the **last player still holding cards loses** the deal.",
        "",
        "## Cards and the deal",
        "- 2–4 players: one deck of 52 and **2 jokers**; 5–10 players: **two such decks** (104 cards, 4 jokers).",
        "- Ranks are **cyclic**: A 2 3 … 10 J Q K, and the **King is next to the Ace**. Suits never matter.",
        "- The first dealer is drawn by lot; the deal then passes clockwise. **5 cards** each, dealt one at a time",
        "  clockwise. The top card of the stock is turned up to start the pile; a joker turned up goes back into",
        "  the stock at a random place (never the top) and another card is turned.",
        "- The player left of the dealer starts; play goes clockwise.",
        "",
        "## A turn",
        "- A **normal play** is one card **one rank above or below** the top card's rank (a 5 or a 7 on a 6; a K",
        "  or a 2 on an Ace). If you hold a normal play you **must** make one (you choose which): no Ace, no Joker,",
        "  no draw then. An Ace on a K or a 2 is simply a normal play.",
        "- With no normal play you may instead:",
        "  - play an **Ace**: it lies as an Ace, so the next player needs a **K or a 2** (or an Ace or a Joker);",
        "  - play a **Joker** and **name any of the 13 ranks**: it counts as that rank. Then you may at once add",
        "    **one card** that is a normal play on the named rank (name 6, play a 5). That card cannot be a Joker;",
        "    you are asked only when you hold one, and you may decline;",
        "  - **draw** one card. If it is a normal play it is played at once; otherwise you keep it (a drawn Ace or",
        "    Joker that is not a normal play is kept) and the turn passes.",
        "- When a card must be drawn and the stock is empty, the pile except its top card is shuffled into a new",
        "  stock (jokers in it lose their named rank). If there is still nothing to draw, you may **pass**, but",
        "  only when no play of any kind is possible: an Ace or a Joker held must then be played.",
        "",
        "## Going out and coming back",
        "- Playing your last card does not put you out yet: your exit is **pending**, and you still count as",
        "  holding cards.",
        "- If the next player still holding cards then makes **any play** (normal, Ace or Joker), you **draw two",
        "  cards** from the stock and are back in (if fewer are left, you take what there is). After a Joker, you",
        "  take them before its follow-up card.",
        "- If that player **draws** instead (even when the drawn card is then played at once), or can only pass,",
        "  you are **out for good**.",
        "",
        "## Scoring",
        "- The deal ends when only one player still holds cards (never while an exit is pending): that player",
        "  **loses the deal and takes a penalty point**.",
        f"- A match is **{options.deals} deals**; the **fewest penalty points win** (a tie shares the win).",
        "- Private: your hand, a card you draw and the cards you take coming back. The stock is hidden from all.",
    ]
    return "\n".join(lines) + "\n"
