"""Rank events in plain words, as the event log, the turn line and the end-of-deal dialog show them.

The engine's events carry data (a seat, a card, how it was played); the words are made here. A Joker is played
and named in two events, and the player it answers may come back in between; :class:`RankNarrator` makes one
line of the two ("Ben plays a Joker and names 6"), and remembers each seat's count of cards so that a player who
has just played the last card can be told who they wait on ("Cleo played the last card: waiting on Dev").

>>> from engine.cards import Card
>>> from engine.games.rank.rules import Played, PlayKind
>>> describe_rank(Played(seat=1, card=Card.parse("6C"), kind=PlayKind.NORMAL, left=4), ("You", "Ben"), me=0)
'Ben plays the 6♣'
>>> rank_word(Rank.QUEEN), a_rank(Rank.EIGHT), a_rank(Rank.ACE), ordinal(2)
('Queen', 'an 8', 'an Ace', '2nd')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import Card, Rank
from engine.events import Event
from engine.game import Action
from engine.games.rank.rules import (
    CameBack,
    DealOver,
    DealStarted,
    Draw,
    Drew,
    HandDealt,
    JokerReturned,
    Named,
    OutForGood,
    Pass,
    Passed,
    Play,
    Played,
    PlayKind,
    RankPhase,
    RankView,
    StarterTurned,
    StockShuffled,
    WentOut,
    neighbours,
)
from engine.match import MatchOver, RoundOver, RoundStarted
from tui.words import and_list, who
from tui.words.faces import card_text

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five")


def rank_word(rank: Rank) -> str:
    """A rank as a player says it: "Ace", "6", "10", "Queen"."""
    if rank is Rank.JOKER:
        return "Joker"
    return rank.name.capitalize() if rank is Rank.ACE or rank > Rank.TEN else str(int(rank))


def a_rank(rank: Rank) -> str:
    """A rank with its article: "a 5", "an 8", "an Ace", "a Queen"."""
    word = rank_word(rank)
    return f"{'an' if word[0] in 'A8' else 'a'} {word}"


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th."""
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


def cards_word(count: int) -> str:
    """ "no cards", "one card", "two cards", "7 cards"."""
    number = NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else str(count)
    return f"{number} card{'' if count == 1 else 's'}"


def top_text(top: Card | None, named: Rank | None) -> str:
    """The pile's top card: "6♣", "Joker as 6", "Joker (to be named)"."""
    if top is None:
        return "nothing"
    if top.suit is None:
        return f"Joker as {rank_word(named)}" if named is not None else "Joker (to be named)"
    return card_text(top)


def verb(seat: int, me: int | None, plain: str, third: str) -> str:
    return plain if seat == me else third


def penalty_text(points: int) -> str:
    return f"{points} penalty point{'' if points == 1 else 's'}"


def describe_rank(event: Event, names: Sequence[str], me: int | None, options: object = None) -> str | None:
    """One line of plain words for a Rank ``event`` as seat ``me`` sees it (maybe redacted), or None."""
    if isinstance(event, RoundStarted):
        if event.dealer is None:
            return f"Deal {event.round}"
        dealer = "you deal" if event.dealer == me else f"{who(event.dealer, names, me)} deals"
        return f"Deal {event.round} — {dealer}"
    if isinstance(event, DealStarted):
        return f"{who(event.first, names, me, start=True)} {verb(event.first, me, 'start', 'starts')}"
    if isinstance(event, HandDealt):
        return None  # your hand is on the table; the others' are counts
    if isinstance(event, StarterTurned):
        if event.card.suit is None:
            return "A Joker is turned up"
        return f"The {card_text(event.card)} is turned up to start the pile"
    if isinstance(event, JokerReturned):
        return "The Joker goes back into the stock and another card is turned up"
    actor = who(getattr(event, "seat", -1), names, me, start=True)
    seat = getattr(event, "seat", -1)
    if isinstance(event, Played):
        card = card_text(event.card)
        if event.kind is PlayKind.JOKER:
            return f"{actor} {verb(event.seat, me, 'play', 'plays')} a Joker"
        if event.kind is PlayKind.ACE:
            return f"{actor} {verb(seat, me, 'play', 'plays')} the {card} as an escape"
        if event.kind is PlayKind.FOLLOW:
            return f"{actor} {verb(event.seat, me, 'add', 'adds')} the {card}"
        if event.kind is PlayKind.DRAWN:
            return f"{actor} {verb(event.seat, me, 'play', 'plays')} the drawn {card} at once"
        return f"{actor} {verb(event.seat, me, 'play', 'plays')} the {card}"
    if isinstance(event, Named):
        return f"{actor} {verb(seat, me, 'name', 'names')} {rank_word(event.rank)}"
    if isinstance(event, Drew):
        if event.seat == me and event.card is not None:
            return f"You draw the {card_text(event.card)}"
        return f"{who(event.seat, names, me, start=True)} {verb(event.seat, me, 'draw', 'draws')} a card"
    if isinstance(event, Passed):
        return f"{who(event.seat, names, me, start=True)} {verb(event.seat, me, 'pass', 'passes')}"
    if isinstance(event, WentOut):
        return f"{who(event.seat, names, me, start=True)} played the last card"
    if isinstance(event, CameBack):
        actor = who(event.seat, names, me, start=True)
        be = verb(event.seat, me, "are", "is")
        if event.count == 0:
            return f"{actor} {be} back in, but there is no card to take"
        line = f"{actor} {be} back with {cards_word(event.count)}"
        if event.seat == me and event.cards:
            line += ": " + " ".join(card_text(card) for card in event.cards)
        return line
    if isinstance(event, OutForGood):
        return f"{actor} {verb(seat, me, 'are', 'is')} out ({ordinal(event.place)})"
    if isinstance(event, StockShuffled):
        return f"The pile but its top card is shuffled into a new stock ({cards_word(event.cards)})"
    if isinstance(event, DealOver):
        loser = event.loser
        actor = who(loser, names, me, start=True)
        line = f"{actor} {verb(loser, me, 'lose', 'loses')} the deal: 1 penalty point"
        total = event.penalties[loser] if loser < len(event.penalties) else 1
        if total > 1:
            line += f" ({total} in all)"
        return line
    if isinstance(event, RoundOver):
        return None  # the DealOver before it has the line
    if isinstance(event, MatchOver):
        return match_line(event.winners, event.totals, names, me)
    return None


def match_line(winners: Sequence[int], totals: Sequence[int], names: Sequence[str], me: int | None) -> str:
    """ "Ana wins the match with 1 penalty point", "You and Ben win the match with 2 penalty points each"."""
    if not winners:
        return "Nobody wins the match"
    words = [who(seat, names, me, start=i == 0) for i, seat in enumerate(winners)]
    shared = len(winners) > 1
    won = "win" if shared or winners[0] == me else "wins"
    points = totals[winners[0]] if winners[0] < len(totals) else 0
    return f"{and_list(words)} {won} the match with {penalty_text(points)}{' each' if shared else ''}"


class RankNarrator:
    """The log's lines for a stream of Rank events, with what a line needs from earlier events.

    A Joker's play waits for its naming (lines between them, a player coming back, follow it); a player who played
    the last card is told who they wait on (the next seat still holding cards, from the counts it keeps).

    >>> n = RankNarrator(("You", "Ben", "Cleo"), me=0)
    >>> n.feed(DealStarted(deal=1, dealer=2, first=0, counts=(5, 5, 5)))
    ['You start']
    >>> n.feed(Played(seat=1, card=Card.parse("JK"), kind=PlayKind.JOKER, left=4))
    []
    >>> n.feed(Named(seat=1, rank=Rank.SIX))
    ['Ben plays a Joker and names 6']
    """

    def __init__(self, names: Sequence[str], me: int | None) -> None:
        self.names = names
        self.me = me
        self.counts: list[int] = [0] * len(names)
        self._joker: Played | None = None
        """A Joker played and not yet named."""
        self._after_joker: list[str] = []
        """Lines of events between a Joker's play and its naming."""
        self._flushed: int | None = None
        """The seat whose unnamed Joker was already written alone (its naming then gets a line of its own)."""
        self._named: int | None = None
        """The seat that has just named a Joker (its pass next declines the follow-up)."""

    def _count(self, event: Event) -> None:
        if isinstance(event, DealStarted):
            self.counts = list(event.counts)
        elif isinstance(event, Played) and 0 <= event.seat < len(self.counts):
            self.counts[event.seat] = event.left
        elif isinstance(event, Drew) and 0 <= event.seat < len(self.counts):
            self.counts[event.seat] += 1
        elif isinstance(event, CameBack) and 0 <= event.seat < len(self.counts):
            self.counts[event.seat] += event.count

    def next_holder(self, seat: int) -> int | None:
        """The next seat clockwise after ``seat`` still holding cards."""
        players = len(self.counts)
        for step in range(1, players):
            other = (seat + step) % players
            if self.counts[other] > 0:
                return other
        return None

    def feed(self, event: Event) -> list[str]:
        """The lines to write for ``event`` now (none while a Joker waits for its rank)."""
        self._count(event)
        names, me = self.names, self.me
        if isinstance(event, Played) and event.kind is PlayKind.JOKER:
            lines = self.flush()
            self._joker = event
            return lines
        if isinstance(event, Named):
            named = f"{verb(event.seat, me, 'name', 'names')} {rank_word(event.rank)}"
            self._named = event.seat
            if self._joker is not None and self._joker.seat == event.seat:
                joker, self._joker = self._joker, None
                joined = f"{describe_rank(joker, names, me)} and {named}"
                after, self._after_joker = self._after_joker, []
                return [joined, *after]
            return [f"{who(event.seat, names, me, start=True)} {named}"]
        line = self._line(event)
        named_seat, self._named = self._named, None
        if isinstance(event, Passed) and named_seat == event.seat:
            line = f"{who(event.seat, names, me, start=True)} {verb(event.seat, me, 'add', 'adds')} no card"
        if line is None:
            return []
        if self._joker is not None:
            self._after_joker.append(line)
            return []
        return [line]

    def _line(self, event: Event) -> str | None:
        if isinstance(event, WentOut):
            actor = who(event.seat, self.names, self.me, start=True)
            nxt = self.next_holder(event.seat)
            if nxt is None:
                return f"{actor} played the last card"
            return f"{actor} played the last card: waiting on {who(nxt, self.names, self.me)}"
        return describe_rank(event, self.names, self.me)

    def flush(self) -> list[str]:
        """The held-back Joker's line (the table shows it while its player chooses the rank), and the lines after."""
        if self._joker is None:
            return []
        joker, self._joker = self._joker, None
        after, self._after_joker = self._after_joker, []
        return [describe_rank(joker, self.names, self.me) or "", *after]


# -- what you may do now ---------------------------------------------------------------------------------------------
def plays_of(legal: Iterable[Action]) -> list[Card]:
    return [action.card for action in legal if isinstance(action, Play)]


def options_text(view: RankView, legal: Sequence[Action]) -> str:
    """What the player to move may do, in words: "play a 5 or a 7", "no normal play: an Ace, a Joker or draw (d)"."""
    plays = plays_of(legal)
    rank = view.rank
    if view.phase is RankPhase.NAME:
        return "name the Joker's rank"
    wanted = " or ".join(a_rank(r) for r in neighbours(rank)) if rank is not None else "a card"
    if view.phase is RankPhase.FOLLOW:
        return f"you may add {wanted}, or not"
    if any(isinstance(action, Pass) for action in legal) and not plays:
        return "nothing to play and nothing to draw: pass (x)"
    normal = [card for card in plays if card.suit is not None and rank is not None and card.rank in neighbours(rank)]
    if normal:
        return f"play {wanted}"
    escapes: list[str] = []
    if any(card.rank is Rank.ACE for card in plays):
        escapes.append("an Ace")
    if any(card.suit is None for card in plays):
        escapes.append("a Joker")
    if any(isinstance(action, Draw) for action in legal):
        escapes.append("draw (d)")
    if len(escapes) > 1:
        return f"no normal play: {', '.join(escapes[:-1])} or {escapes[-1]}"
    return f"no normal play: {''.join(escapes)}"
