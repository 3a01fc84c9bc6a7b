"""Screw Your Neighbor and Chase the Ace: one game, two presets (RULES.md §1).

Seats are numbered clockwise: the player to the *left* of seat ``s`` is the next seat still in after ``s``.

How a hand is dealt (what a :class:`~engine.game.Scenario` deck means): the card at index 0 of the deck is dealt
first, one card to each seat still in, starting left of the dealer and going clockwise, the dealer last. The rest
of the deck stays in that order: the dealer's swap (Screw) takes the next card, and a cut (Chase) turns up the next
card too. A shuffled deck is in random order, so that is a card at random; in a planned deal it is the card right
after the dealt ones (``rest`` in :meth:`ChaseGame.deck_for`). A hand dealt again after a void hand takes the next
planned deck, if any.

The match layer (:mod:`engine.match`) keeps the lives (its totals, the life on honour included), moves the dealer
and ends the match; each hand opens with :class:`~engine.match.RoundStarted` and closes with
:class:`~engine.match.RoundOver`, and the match ends with :class:`~engine.match.MatchOver`.

>>> import random
>>> from engine.cards import parse_cards
>>> game = ChaseGame()
>>> order = game.deck_for(3, dealer=2, hands=[parse_cards("3H"), parse_cards("9C"), parse_cards("QD")])
>>> state = game.new_match(3, game.options("screw"), random.Random(7), Scenario(decks=(order,), dealer=2))
>>> state.to_move, [str(a) for a in state.legal_actions()], [str(c) for c in state.zones()["hand 0"]]
(0, ['stay', 'trade'], ['3H'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, ClassVar

from engine.cards import Card, Rank, Suit, plain_text, sort_key, standard_deck
from engine.dealing import check_planned_decks, check_totals, first_dealer, take_named
from engine.errors import InvalidActionError, OptionError, echo
from engine.events import Event
from engine.game import (
    Deferred,
    Game,
    GameEntry,
    GameState,
    MatchResult,
    Preset,
    Scenario,
    Variant,
    copy_rng,
)
from engine.games.chase import LISTING
from engine.match import MatchProgress, MatchRule, RoundStarted

if TYPE_CHECKING:
    from engine.game import Figures, FinishedMatch

__all__ = [
    "Acted",
    "CardDealt",
    "ChaseAction",
    "ChaseFigures",
    "ChaseGame",
    "ChaseOptions",
    "ChaseState",
    "ChaseView",
    "DeckSwapped",
    "Eliminated",
    "HandVoid",
    "KingShown",
    "PackCut",
    "Paid",
    "PayReason",
    "Revealed",
    "Stayed",
    "Traded",
]

# Screw Your Neighbor breaks ties by suit: Spades > Hearts > Clubs > Diamonds.
SUIT_ORDER = {Suit.DIAMONDS: 0, Suit.CLUBS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}
MATCH_RULE = MatchRule(last_standing=True)
"""A match of lives: the last seat with a life left wins."""


class ChaseAction(StrEnum):
    STAY = "stay"
    TRADE = "trade"
    SWAP = "swap"  # Screw Your Neighbor: the dealer swaps with the top card of the deck
    CUT = "cut"  # Chase the Ace: the dealer cuts the pack and must use the card turned up

    def __str__(self) -> str:
        return self.value


class Acted(Enum):
    """What a seat did this hand (the words for it are in ``tui/games/chase/words.py``)."""

    STAYED = "stayed"
    TRADED = "traded"
    TRADED_WITH = "traded_with"
    """Another player traded with this seat before it acted."""
    BLOCKED = "blocked"
    """Its trade was blocked by a King (Screw)."""
    SHOWED_KING = "showed_king"
    """Its King blocked a trade and was shown (Screw)."""
    SWAPPED = "swapped"
    """The dealer swapped with the top card of the deck (Screw)."""
    CUT = "cut"
    """The dealer cut the pack (Chase)."""


class PayReason(Enum):
    """Why a seat pays at the end of a hand."""

    LOWEST = "lowest"
    """The lowest card pays 1."""
    HIGHEST = "highest"
    """High card pays: the highest card (a King never) pays 1."""
    ACE = "ace"
    """High card pays: every Ace pays 2."""


@dataclass(frozen=True)
class ChaseOptions:
    preset: str = "screw"
    lives: int = 3
    on_honour: bool = False
    """After the last token a player plays on, until they must pay again."""
    ties_all_pay: bool = False
    """Chase the Ace: every player tied for the paying card pays. Screw: the suit breaks the tie."""
    kings_face_up: bool = False
    """Chase the Ace: Kings are turned up at the deal. Screw: a King is shown when it blocks a trade."""
    dealer_cuts: bool = False
    """Chase the Ace: the dealer cuts the pack. Screw: the dealer may swap with the top card of the deck."""
    high_card_pays: bool = False

    @property
    def dealer_action(self) -> ChaseAction:
        return ChaseAction.CUT if self.dealer_cuts else ChaseAction.SWAP

    @property
    def starting_lives(self) -> int:
        """Lives at the start, the life on honour included."""
        return self.lives + (1 if self.on_honour else 0)


PRESET_OPTIONS = {
    "screw": ChaseOptions(preset="screw"),
    "chase": ChaseOptions(preset="chase", on_honour=True, ties_all_pay=True, kings_face_up=True, dealer_cuts=True),
}

PRESETS = (
    Preset("screw", "Screw Your Neighbor", "3 lives; ties broken by suit; a King blocks a trade; dealer may swap"),
    Preset("chase", "Chase the Ace", "3 tokens + a life on honour; tied players all pay; Kings face up; dealer cuts"),
)
VARIANTS = (
    Variant("high-card-pays", "High card pays", "The highest card pays 1 (a King never pays); every Ace pays 2."),
    Variant(
        "on-honour",
        "On honour",
        "After the last life a player plays on until they must pay again.",
        excludes=("no-honour",),
        presets=("screw",),
    ),
    Variant(
        "no-honour",
        "No honour life",
        "A player is out as soon as the last token is paid.",
        excludes=("on-honour",),
        presets=("chase",),
    ),
)


def card_strength(card: Card, options: ChaseOptions) -> int:
    """Higher is better for the holder when the lowest card pays. The suit counts only where it breaks ties."""
    if options.ties_all_pay:
        return int(card.rank)
    assert card.suit is not None
    return int(card.rank) * 4 + SUIT_ORDER[card.suit]


def payments(cards: Mapping[int, Card], options: ChaseOptions) -> dict[int, int]:
    """Who pays how many lives at the end of a hand, from the cards the players still in hold.

    >>> from engine.cards import parse_cards
    >>> a, b, c = parse_cards("5S 5D KH")
    >>> payments({0: a, 1: b, 2: c}, PRESET_OPTIONS["screw"])
    {1: 1}
    >>> payments({0: a, 1: b, 2: c}, PRESET_OPTIONS["chase"])
    {0: 1, 1: 1}
    """
    if not cards:
        return {}
    owed: dict[int, int] = {}
    # Each card's strength worked out once (the hard bot asks this for every sampled hand).
    if options.high_card_pays:
        candidates = {s: card_strength(c, options) for s, c in cards.items() if c.rank is not Rank.KING}
        if candidates:
            top = max(candidates.values())
            for seat, strength in candidates.items():
                if strength == top:
                    owed[seat] = 1
        for seat, card in cards.items():
            if card.rank is Rank.ACE:
                owed[seat] = 2  # an Ace pays 2 in all, even when it is also the highest card that pays
    else:
        strengths = {s: card_strength(c, options) for s, c in cards.items()}
        low = min(strengths.values())
        for seat, strength in strengths.items():
            if strength == low:
                owed[seat] = 1
    return dict(sorted(owed.items()))


def pay_reason(card: Card, options: ChaseOptions) -> PayReason:
    """Why the holder of ``card`` pays (it is known to pay)."""
    if options.high_card_pays:
        return PayReason.ACE if card.rank is Rank.ACE else PayReason.HIGHEST
    return PayReason.LOWEST


# ---------------------------------------------------------------------------------------------------------------
# Events (a hand opens with match.RoundStarted and closes with match.RoundOver)
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class CardDealt(Event):
    """``seat`` was dealt ``card``; only that seat sees the card (the others get ``card=None``)."""

    seat: int
    card: Card | None

    def redacted(self) -> Event:
        return replace(self, card=None, audience=None)


@dataclass(frozen=True, kw_only=True)
class KingShown(Event):
    seat: int
    card: Card
    blocked: int | None = None
    """The seat whose trade this King blocked (Screw), or ``None`` when Kings are turned up at the deal."""


@dataclass(frozen=True, kw_only=True)
class Stayed(Event):
    seat: int


@dataclass(frozen=True, kw_only=True)
class Traded(Event):
    """``seat`` traded with ``target``: it gave ``gave`` and got ``got``. Only the two of them see the cards."""

    seat: int
    target: int
    gave: Card | None
    got: Card | None

    def redacted(self) -> Event:
        return replace(self, gave=None, got=None, audience=None)


@dataclass(frozen=True, kw_only=True)
class DeckSwapped(Event):
    """The dealer swapped with the top card of the deck (Screw); only the dealer sees the cards."""

    seat: int
    gave: Card | None
    got: Card | None

    def redacted(self) -> Event:
        return replace(self, gave=None, got=None, audience=None)


@dataclass(frozen=True, kw_only=True)
class PackCut(Event):
    """The dealer cut the pack (Chase); the card turned up is seen by all and is now the dealer's."""

    seat: int
    got: Card


@dataclass(frozen=True, kw_only=True)
class Revealed(Event):
    """The end of a hand: every card still in play turned up, in turn order."""

    cards: tuple[tuple[int, Card], ...]


@dataclass(frozen=True, kw_only=True)
class Paid(Event):
    seat: int
    amount: int
    card: Card
    reason: PayReason
    lives_left: int
    """Lives left after paying, the life on honour included."""


@dataclass(frozen=True, kw_only=True)
class HandVoid(Event):
    """Every player still in would be out: nobody pays and the hand is dealt again (a RoundOver with
    ``replay=True`` follows, then the same round starts again with the same dealer)."""

    would_pay: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class Eliminated(Event):
    seat: int


# ---------------------------------------------------------------------------------------------------------------
# What a seat knows
# ---------------------------------------------------------------------------------------------------------------
@dataclass
class Knowledge:
    """What one seat knows about the cards in play this hand (it follows the cards through public trades)."""

    known: dict[int, Card] = field(default_factory=dict)
    """Seat -> the card that seat holds now."""
    not_king: set[int] = field(default_factory=set)
    """Seats known to hold no King."""
    gone: list[Card] = field(default_factory=list)
    """Cards known to be out of play this hand (a dealer's swapped or cut-away card)."""

    def copy(self) -> Knowledge:
        return Knowledge(dict(self.known), set(self.not_king), list(self.gone))


@dataclass(frozen=True)
class ChaseView(Deferred):
    """Everything one seat may know. Built by :meth:`ChaseState.view`; holds no card the seat may not see."""

    seat: int | None
    players: int
    options: ChaseOptions
    hand: int
    """The round number of the hand being played (a hand dealt again keeps its number)."""
    dealer: int
    lives: tuple[int, ...]
    """Lives left per seat, the life on honour included (0: out)."""
    pot: int
    """Tokens paid so far (the life on honour puts nothing in); the winner takes them in Chase the Ace."""
    order: tuple[int, ...]
    """The seats dealt in this hand, in turn order (left of the dealer first, the dealer last)."""
    turn: int
    """The index in ``order`` of the seat to move."""
    to_move: int | None
    acted: tuple[Acted | None, ...]
    """What each seat did this hand, or None."""
    known: tuple[tuple[int, Card], ...]
    """Cards this seat knows the holder of now, by seat: its own, Kings shown, cards it traded or followed."""
    not_king: frozenset[int]
    """Seats known to hold no King."""
    gone: tuple[Card, ...]
    """Cards this seat knows are out of play this hand (swapped or cut away), sorted."""
    legal: tuple[ChaseAction, ...]
    """What this seat may do now (empty unless it is to move)."""
    winner: int | None

    @property
    def my_card(self) -> Card | None:
        return dict(self.known).get(self.seat) if self.seat is not None else None

    def tokens(self, seat: int) -> int:
        """Tokens (or lives) shown for a seat; the life on honour is not a token."""
        return max(0, self.lives[seat] - (1 if self.options.on_honour else 0))

    def on_honour(self, seat: int) -> bool:
        return self.options.on_honour and self.lives[seat] == 1

    def alive(self, seat: int) -> bool:
        return self.lives[seat] > 0

    def left_of(self, seat: int) -> int:
        return left_of(seat, self.lives)


def left_of(seat: int, lives: Sequence[int]) -> int:
    """The next seat clockwise that is still in."""
    n = len(lives)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if lives[other] > 0:
            return other
    return seat


# ---------------------------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------------------------
def _no_progress() -> MatchProgress:
    return MatchProgress.starting(0, MATCH_RULE)


@dataclass
class ChaseState(GameState[ChaseOptions, ChaseView, ChaseAction]):
    options: ChaseOptions = field(default_factory=ChaseOptions)
    rng: random.Random = field(default_factory=random.Random)
    progress: MatchProgress = field(default_factory=_no_progress)
    """Lives (the totals), the dealer, the hand number and the match's end."""
    pot: int = 0
    cards: list[Card | None] = field(default_factory=list)
    """The card each seat holds (None: not dealt in)."""
    deck: list[Card] = field(default_factory=list)
    """The rest of the deck, the next card at index 0."""
    set_aside: list[Card] = field(default_factory=list)
    """Cards swapped or cut away this hand."""
    order: tuple[int, ...] = ()
    turn: int = 0
    acted: list[Acted | None] = field(default_factory=list)
    knowledge: list[Knowledge] = field(default_factory=list)
    """One per seat, and a last one for a spectator (who only ever learns what is public)."""
    out_order: list[int | None] = field(default_factory=list)
    """The hand in which each seat went out (0: out from the start; None while in); decides placings."""

    action_types: ClassVar[tuple[type, ...]] = (ChaseAction,)

    # -- the match layer's figures ---------------------------------------------------------------------------
    @property
    def lives(self) -> list[int]:
        """Lives left per seat, the life on honour included (0: out)."""
        return self.progress.totals

    @property
    def dealer(self) -> int:
        return self.progress.dealer

    @property
    def hand(self) -> int:
        return self.progress.round

    @property
    def winner(self) -> int | None:
        if self.progress.over and self.progress.winners:
            return self.progress.winners[0]
        return None

    # -- the match -------------------------------------------------------------------------------------------
    def start_hand(self, *, again: bool = False) -> list[Event]:
        """Deal one card to each seat still in from the dealer's left, show Kings where the rules say."""
        seats = [s for s in range(self.players) if self.lives[s] > 0]
        first = self.progress.next_seat(self.dealer)
        start = seats.index(first)
        self.order = tuple(seats[start:] + seats[:start])
        self.turn = 0
        deck = self.next_deck(standard_deck(), self.rng)
        self.cards = [None] * self.players
        for index, seat in enumerate(self.order):
            self.cards[seat] = deck[index]
        self.deck = deck[len(self.order) :]
        self.set_aside = []
        self.acted = [None] * self.players
        events: list[Event] = [self.progress.start_round(self.order, again=again)]
        self.knowledge = [Knowledge() for _ in range(self.players + 1)]
        for seat in self.order:
            card = self._card(seat)
            self.knowledge[seat].known[seat] = card
            events.append(CardDealt(seat=seat, card=card, audience=frozenset({seat})))
        if self.options.kings_face_up:
            for seat in self.order:
                card = self._card(seat)
                if card.rank is Rank.KING:
                    events.append(KingShown(seat=seat, card=card))
                    for k in self.knowledge:
                        k.known[seat] = card
            for k in self.knowledge:
                k.not_king.update(s for s in self.order if self._card(s).rank is not Rank.KING)
        return events

    def _card(self, seat: int) -> Card:
        card = self.cards[seat]
        assert card is not None, f"seat {seat} holds no card"
        return card

    @property
    def to_move(self) -> int | None:
        if self.progress.over or not self.order:
            return None
        return self.order[self.turn]

    def legal_actions(self) -> list[ChaseAction]:
        seat = self.to_move
        if seat is None:
            return []
        return _legal(seat, self.dealer, self._card(seat), self.options, self._shown_king_left(seat))

    def _shown_king_left(self, seat: int) -> bool:
        left = left_of(seat, self.lives)
        card = self.knowledge[seat].known.get(left)
        return self.options.kings_face_up and card is not None and card.rank is Rank.KING

    def parse_action(self, text: str) -> ChaseAction:
        return parse_action(text)

    def coerce_action(self, action: object) -> ChaseAction:
        """A member of :class:`ChaseAction` (what the legal actions list, and bots play) is taken as it is; text,
        another ``str`` or anything else is read as ever."""
        if type(action) is ChaseAction:
            return action
        return super().coerce_action(action)

    def _apply(self, action: ChaseAction) -> list[Event]:
        action = ChaseAction(action)
        seat = self.order[self.turn]
        events: list[Event]
        if action is ChaseAction.STAY:
            self.acted[seat] = Acted.STAYED
            events = [Stayed(seat=seat)]
        elif action is ChaseAction.TRADE:
            events = self._trade(seat)
        else:
            events = self._deck_card(seat, action)
        self.turn += 1
        if self.turn == len(self.order):
            events.extend(self._end_hand())
        return events

    def _trade(self, seat: int) -> list[Event]:
        target = left_of(seat, self.lives)
        mine, theirs = self._card(seat), self._card(target)
        if theirs.rank is Rank.KING:
            # Only in Screw Your Neighbor can this happen: the King was hidden until it blocked the trade.
            self.acted[seat] = Acted.BLOCKED
            self.acted[target] = Acted.SHOWED_KING
            for k in self.knowledge:
                k.known[target] = theirs
            return [KingShown(seat=target, card=theirs, blocked=seat)]
        self.cards[seat], self.cards[target] = theirs, mine
        self.acted[seat] = Acted.TRADED
        if self.acted[target] is None:
            self.acted[target] = Acted.TRADED_WITH
        for observer, k in enumerate(self.knowledge):
            if observer in (seat, target):
                k.known[seat], k.known[target] = theirs, mine
            else:
                a, b = k.known.pop(seat, None), k.known.pop(target, None)
                if a is not None:
                    k.known[target] = a
                if b is not None:
                    k.known[seat] = b
            # The trader held no King (a King holder must stay) and the target's card did not block: neither
            # card that changed hands is a King.
            k.not_king.update((seat, target))
        return [Traded(seat=seat, target=target, gave=mine, got=theirs, audience=frozenset({seat, target}))]

    def _deck_card(self, seat: int, action: ChaseAction) -> list[Event]:
        old = self._card(seat)
        new = self.deck.pop(0)  # the top card for a swap; for a cut, the card turned up (see the module docstring)
        self.cards[seat] = new
        self.set_aside.append(old)
        for observer, k in enumerate(self.knowledge):
            if k.known.get(seat) == old:
                k.gone.append(old)
            if observer == seat or action is ChaseAction.CUT:
                k.known[seat] = new
                if new.rank is Rank.KING:
                    k.not_king.discard(seat)
                else:
                    k.not_king.add(seat)
            else:
                k.known.pop(seat, None)
                k.not_king.discard(seat)
        if action is ChaseAction.CUT:
            self.acted[seat] = Acted.CUT
            return [PackCut(seat=seat, got=new)]
        self.acted[seat] = Acted.SWAPPED
        return [DeckSwapped(seat=seat, gave=old, got=new, audience=frozenset({seat}))]

    def _end_hand(self) -> list[Event]:
        held = {s: self._card(s) for s in self.order}
        events: list[Event] = [Revealed(cards=tuple(held.items()))]
        owed = payments(held, self.options)
        lives = list(self.lives)
        if owed and all(lives[s] - owed.get(s, 0) <= 0 for s in self.order):
            events.append(HandVoid(would_pay=tuple(owed)))
            events.extend(self.progress.end_round(winners=(), deltas=[0] * self.players, replay=True))
            events.extend(self.start_hand(again=True))
            return events
        honour = 1 if self.options.on_honour else 0
        deltas = [0] * self.players
        for seat, amount in owed.items():
            paid = min(amount, lives[seat])
            # Only tokens go into the pot: a player on honour has none left to pay with.
            self.pot += min(paid, max(0, lives[seat] - honour))
            deltas[seat] = -paid
            events.append(
                Paid(
                    seat=seat,
                    amount=paid,
                    card=held[seat],
                    reason=pay_reason(held[seat], self.options),
                    lives_left=lives[seat] - paid,
                )
            )
        for seat in owed:
            if lives[seat] + deltas[seat] <= 0:
                self.out_order[seat] = self.hand
                events.append(Eliminated(seat=seat))
        events.extend(self.progress.end_round(winners=(), deltas=deltas))
        if not self.progress.over:
            events.extend(self.start_hand())
        return events

    # -- views -----------------------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> ChaseView:
        """Deferred (see :class:`~engine.game.Deferred`): a snapshot of plain values now, only what the seat knows
        (its own card among them), sorted and worked out only if someone reads the view."""
        k = self.knowledge[self.players if seat is None else seat] if self.knowledge else Knowledge()
        to_move = self.to_move
        return ChaseView.deferred(
            _view_fields,
            seat,
            self.players,
            self.options,
            self.hand,
            self.dealer,
            tuple(self.lives),
            self.pot,
            self.order,
            self.turn,
            to_move,
            tuple(self.acted),
            tuple(k.known.items()),
            frozenset(k.not_king),
            tuple(k.gone),
            self.winner,
        )

    def determinize(self, seat: int, rng: random.Random) -> ChaseState:
        """A state consistent with what ``seat`` knows (see :func:`sample_state`)."""
        return sample_state(self.view(seat), rng)

    def clone(self) -> ChaseState:
        other = ChaseState(
            players=self.players,
            options=self.options,
            rng=copy_rng(self.rng),
            progress=self.progress.copy(),
            pot=self.pot,
            cards=list(self.cards),
            deck=list(self.deck),
            set_aside=list(self.set_aside),
            order=self.order,
            turn=self.turn,
            acted=list(self.acted),
            knowledge=[k.copy() for k in self.knowledge],
            out_order=list(self.out_order),
        )
        self._copy_base(other)
        return other

    def zones(self) -> dict[str, Sequence[Card]]:
        places: dict[str, Sequence[Card]] = {
            f"hand {seat}": [card] for seat, card in enumerate(self.cards) if card is not None
        }
        places["deck"] = list(self.deck)
        places["set aside"] = list(self.set_aside)
        return places

    def full_deck(self) -> list[Card]:
        return standard_deck()

    @property
    def result(self) -> MatchResult | None:
        if not self.progress.over:
            return None
        # Score: how many opponents a seat outlasted (players out in the same hand share a place).
        went_out = [self.hand + 1 if hand is None else hand for hand in self.out_order]
        scores = [float(sum(1 for other in went_out if other < mine)) for mine in went_out]
        return MatchResult(winners=self.progress.winners, scores=tuple(scores))


def _legal(seat: int, dealer: int, card: Card, options: ChaseOptions, king_shown_left: bool) -> list[ChaseAction]:
    if card.rank is Rank.KING:
        return [ChaseAction.STAY]
    if seat == dealer:
        return [ChaseAction.STAY, options.dealer_action]
    if king_shown_left:
        return [ChaseAction.STAY]
    return [ChaseAction.STAY, ChaseAction.TRADE]


def _view_fields(
    seat: int | None,
    players: int,
    options: ChaseOptions,
    hand: int,
    dealer: int,
    lives: tuple[int, ...],
    pot: int,
    order: tuple[int, ...],
    turn: int,
    to_move: int | None,
    acted: tuple[Acted | None, ...],
    known: tuple[tuple[int, Card], ...],
    not_king: frozenset[int],
    gone: tuple[Card, ...],
    winner: int | None,
) -> dict[str, object]:
    """A :class:`ChaseView`'s fields from the snapshot :meth:`ChaseState._view` took (the seat's legal actions
    follow from its own card, which it knows, when it is to move)."""
    legal: tuple[ChaseAction, ...] = ()
    holders = dict(known)
    card = holders.get(seat) if seat is not None and seat == to_move else None
    if seat is not None and card is not None:  # ChaseState.legal_actions, on the snapshot
        shown = holders.get(left_of(seat, lives))
        king_left = options.kings_face_up and shown is not None and shown.rank is Rank.KING
        legal = tuple(_legal(seat, dealer, card, options, king_left))
    return {
        "seat": seat,
        "players": players,
        "options": options,
        "hand": hand,
        "dealer": dealer,
        "lives": lives,
        "pot": pot,
        "order": order,
        "turn": turn,
        "to_move": to_move,
        "acted": acted,
        "known": tuple(sorted(known)),
        "not_king": not_king,
        "gone": tuple(sorted(gone, key=sort_key)),
        "legal": legal,
        "winner": winner,
    }


ACTION_WORDS = {"s": "stay", "t": "trade", "keep": "stay", "pass": "stay", "exchange": "trade", "deck": "swap"}


def parse_action(text: object) -> ChaseAction:
    """An action from its text (``stay``, ``trade``, ``swap``, ``cut``, or ``s``/``t``); InvalidActionError for
    anything else, whatever object it is.

    >>> parse_action(" Trade "), parse_action("s")
    (<ChaseAction.TRADE: 'trade'>, <ChaseAction.STAY: 'stay'>)
    """
    plain = plain_text(text)
    if plain is None:
        raise InvalidActionError(f"not an action: {echo(text)} (stay, trade, swap or cut)")
    word = plain.strip().lower()
    try:
        return ChaseAction(ACTION_WORDS.get(word, word))
    except ValueError:
        raise InvalidActionError(f"not an action: {echo(text)} (stay, trade, swap or cut)") from None


def sample_state(view: ChaseView, rng: random.Random) -> ChaseState:
    """A full state consistent with ``view``: every card the view does not show is dealt at random from the cards
    the seat has not seen, Kings kept away from seats known to hold none."""
    if view.seat is None:
        raise ValueError("a spectator's view cannot be determinized")
    known = dict(view.known)
    seen = set(known.values()) | set(view.gone)
    pool = [c for c in standard_deck() if c not in seen]
    rng.shuffle(pool)
    cards: list[Card | None] = [None] * view.players
    cards_known = dict(known)
    hidden = [s for s in view.order if s not in known]
    # Seats known to hold no King first, from the non-Kings, then the rest.
    hidden.sort(key=lambda s: s not in view.not_king)
    for seat in hidden:
        if seat in view.not_king:
            index = next(i for i, c in enumerate(pool) if c.rank is not Rank.KING)
        else:
            index = 0
        cards_known[seat] = pool.pop(index)
    for seat in view.order:
        cards[seat] = cards_known[seat]
    progress = MatchProgress.starting(view.players, MATCH_RULE, dealer=view.dealer, totals=view.lives)
    progress.round = view.hand
    if view.winner is not None:
        progress.over, progress.winners = True, (view.winner,)
    state = ChaseState(
        players=view.players,
        options=view.options,
        rng=random.Random(rng.getrandbits(64)),
        progress=progress,
        pot=view.pot,
        cards=cards,
        deck=pool,
        set_aside=list(view.gone),
        order=view.order,
        turn=view.turn,
        acted=list(view.acted),
        out_order=[None if life > 0 else 0 for life in view.lives],
    )
    # In the sample every seat knows what the viewer knows, plus its own card.
    for seat in range(view.players + 1):
        k = Knowledge(known=dict(known), not_king=set(view.not_king), gone=list(view.gone))
        own = cards[seat] if seat < view.players else None
        if own is not None:
            k.known[seat] = own
        state.knowledge.append(k)
    return state


# ---------------------------------------------------------------------------------------------------------------
# simulate's figures
# ---------------------------------------------------------------------------------------------------------------
class ChaseFigures:
    """``parlour simulate`` figures: hands dealt, and per line-up position how often it paid and how much."""

    column = "pays_per_hand"

    def __init__(self) -> None:
        self.games = 0
        self.hands = 0
        self.hands_in: list[int] = []
        self.pays: list[int] = []
        self.lives_paid: list[int] = []

    def add(self, state: FinishedMatch, position: Sequence[int]) -> None:
        if not self.hands_in:
            self.hands_in = [0] * state.players
            self.pays = [0] * state.players
            self.lives_paid = [0] * state.players
        self.games += 1
        for event in state.history:
            if isinstance(event, RoundStarted):
                self.hands += 1
                for seat in event.seats:
                    self.hands_in[position[seat]] += 1
            elif isinstance(event, Paid):
                self.pays[position[event.seat]] += 1
                self.lives_paid[position[event.seat]] += event.amount

    def report(self) -> dict[str, object]:
        return {
            "hands": self.hands,
            "hands_per_game": round(self.hands / self.games, 3) if self.games else 0.0,
            "score": "opponents outlasted",
            "seats": [
                {
                    "seat": seat,
                    "hands_played": self.hands_in[seat],
                    "paid": self.pays[seat],
                    "pays_per_hand": round(self.pays[seat] / self.hands_in[seat], 4) if self.hands_in[seat] else 0.0,
                    "lives_paid": self.lives_paid[seat],
                }
                for seat in range(len(self.hands_in))
            ],
        }


# ---------------------------------------------------------------------------------------------------------------
# The spec
# ---------------------------------------------------------------------------------------------------------------
class ChaseGame(Game[ChaseOptions, ChaseView, ChaseAction]):
    key = LISTING.key
    name = "Screw Your Neighbor / Chase the Ace"
    min_players = LISTING.players[0]
    default_players = LISTING.players[1]
    max_players = LISTING.players[2]
    view_type = ChaseView

    @property
    def presets(self) -> Sequence[Preset]:
        return PRESETS

    @property
    def variants(self) -> Sequence[Variant]:
        return VARIANTS

    def base_options(self, preset: str | None) -> ChaseOptions:
        key = "screw" if preset is None else preset.strip().lower() if isinstance(preset, str) else None
        if key not in PRESET_OPTIONS:
            raise OptionError(f"unknown preset {echo(preset)}; choose one of: {', '.join(PRESET_OPTIONS)}")
        return PRESET_OPTIONS[key]

    def with_variant(self, options: ChaseOptions, key: str) -> ChaseOptions:
        if key == "high-card-pays":
            return replace(options, high_card_pays=True)
        if key == "on-honour":
            return replace(options, on_honour=True)
        if key == "no-honour":
            return replace(options, on_honour=False)
        raise OptionError(f"unknown variant {echo(key)}; choose from: {', '.join(v.key for v in VARIANTS)}")

    def entries(self) -> tuple[GameEntry, ...]:
        return LISTING.game_entries(self)

    def new_match(
        self, players: int, options: ChaseOptions, rng: random.Random, scenario: Scenario | None = None
    ) -> ChaseState:
        """A match; ``scenario`` may choose the first decks (see the module docstring), the first dealer and the
        lives (the life on honour included, 0 for a seat that is out)."""
        self.check_players(players)
        if not isinstance(options, ChaseOptions):
            raise OptionError(f"not options of {self.name}: {echo(options)}")
        scenario = scenario if scenario is not None else Scenario()
        totals = self._scenario_totals(players, options, scenario.totals)
        dealer = first_dealer(players, scenario.dealer, rng)
        if totals[dealer] <= 0:
            if scenario.dealer is not None:
                raise OptionError(f"seat {dealer} is out and cannot deal")
            dealer = left_of(dealer, totals)
        planned = check_planned_decks(scenario.decks, standard_deck())
        state = ChaseState(
            players=players,
            options=options,
            rng=rng,
            progress=MatchProgress.starting(players, MATCH_RULE, dealer=dealer, totals=totals),
            out_order=[None if life > 0 else 0 for life in totals],
        )
        state.planned = planned
        state.history.extend(state.start_hand())
        return state

    @staticmethod
    def _scenario_totals(players: int, options: ChaseOptions, totals: Sequence[int] | None) -> list[int]:
        lives = check_totals(players, totals, "the starting lives")
        if lives is None:
            return [options.starting_lives] * players
        if sum(1 for t in lives if t > 0) < 2:
            raise OptionError("a match needs at least two players with a life left")
        return lives

    def deck_for(
        self, players: int, dealer: int, hands: Sequence[Sequence[Card]], rest: Sequence[Card] = ()
    ) -> tuple[Card, ...]:
        """A deck order dealing ``hands[s]`` (one card, or none for a seat that is out) to each seat when
        ``dealer`` deals, then ``rest`` (the dealer's swap or cut takes ``rest[0]``), then the other cards.

        >>> from engine.cards import parse_cards
        >>> order = ChaseGame().deck_for(3, 0, [parse_cards("2C"), parse_cards("9H"), parse_cards("KD")], [])
        >>> [str(c) for c in order[:3]]
        ['9H', 'KD', '2C']
        """
        if len(hands) != players:
            raise OptionError(f"deck_for needs one hand per seat ({players}), not {len(hands)}")
        if any(len(hand) > 1 for hand in hands):
            raise OptionError("in this game every seat is dealt one card")
        lives = [len(hand) for hand in hands]
        if not 0 <= dealer < players or not lives[dealer]:
            raise OptionError(f"the dealer (seat {dealer}) must be dealt a card")
        order: list[Card] = []
        seat = dealer
        for _ in range(sum(lives)):
            seat = left_of(seat, lives)
            order.append(hands[seat][0])
        order.extend(rest)
        pool = standard_deck()
        take_named(pool, order)
        return (*order, *pool)

    def determinize(self, view: ChaseView, rng: random.Random) -> ChaseState:
        return sample_state(view, rng)

    def rules_summary(self, options: ChaseOptions | None = None) -> str:
        return rules_summary(options or PRESET_OPTIONS["screw"])

    def figures(self) -> Figures:
        return ChaseFigures()

    def codec_types(self) -> Sequence[type]:
        return (
            ChaseOptions,
            ChaseView,
            ChaseAction,
            Acted,
            PayReason,
            CardDealt,
            KingShown,
            Stayed,
            Traded,
            DeckSwapped,
            PackCut,
            Revealed,
            Paid,
            HandVoid,
            Eliminated,
        )


def rules_summary(options: ChaseOptions) -> str:
    chase = options.preset == "chase"
    title = "Chase the Ace" if chase else "Screw Your Neighbor"
    life, lives = ("token", "tokens") if chase else ("life", "lives")
    lines = [
        f"# {title}",
        "",
        f"Every player starts with **{options.lives} {lives}** and is dealt **one card**. Ace is low, King is high.",
        "",
        "## A hand",
        "- Starting left of the dealer and going clockwise, each player **stays** or **trades** with the player to",
        "  their left, who must accept. Nobody trades back.",
        "- Both players in a trade see both cards; nobody else does.",
    ]
    if options.kings_face_up:
        lines += [
            "- A **King** is turned face up at the deal. Its holder must stay, and the player to its right may not",
            "  trade into it.",
        ]
    else:
        lines += [
            "- A **King** holder must stay. A trade into a King is **blocked**, and the King is shown.",
        ]
    if options.dealer_cuts:
        lines.append("- The **dealer** goes last: stay, or **cut** the pack and use the card turned up (even a King).")
    else:
        lines.append("- The **dealer** goes last: stay, or **swap** with the top card of the deck (even a King).")
    lines += ["", "## Who pays"]
    if options.high_card_pays:
        lines += [
            "- *High card pays*: the **highest** card pays 1. A King never pays, so a Queen is the highest that can.",
            "- Every **Ace** pays 2 (an Ace that is also the highest card pays 2 in all).",
        ]
    else:
        lines.append("- The **lowest** card pays 1.")
    if options.ties_all_pay:
        lines.append("- Ties: **every** tied player pays.")
    else:
        lines.append("- Ties are broken by suit, **♠ > ♥ > ♣ > ♦**: exactly one player pays.")
    lines.append("- If a hand would knock out every player still in, nobody pays and the hand is dealt again.")
    lines += ["", "## The match"]
    if options.on_honour:
        lines.append(f"- After the last {life} a player plays **on honour** until they must pay again, then is out.")
    else:
        lines.append(f"- A player with no {life} left is out.")
    lines.append("- The dealer button moves one seat to the left after every hand, skipping players who are out.")
    lines.append(f"- The last player with a {life} left wins" + (" and takes the pot." if chase else "."))
    return "\n".join(lines) + "\n"
