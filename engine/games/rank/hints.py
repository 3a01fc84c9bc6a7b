"""The hint for Rank: ``hard``'s choice, and why, from its own rule or its own playouts.

Away from the end of a deal ``hard`` (:class:`~engine.games.rank.bots.HardRankBot`) follows its rule: a normal play
that keeps the most cards able to answer the pile later, an Ace or a Joker kept for the finish, a Joker named so
that a card can follow it; the reason says which part of the rule decides, with the cards. Near the end it plays
sampled deals out (:meth:`~engine.games.rank.bots.HardRankBot.search`), and the reason gives how often each choice
came out well there. Only the seat's view is read: its hand, the counts, the pile's top.

:func:`review` judges a move already made (:mod:`engine.review`): a move other than ``hard``'s costs how much less
often it kept the seat from losing the deal in ``hard``'s playouts (the hint's own near the end of a deal; elsewhere
its search is asked of the two moves).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.bots import Bot
from engine.cards import Card, Rank
from engine.games.rank.bots import (
    KEEP_ESCAPES_ABOVE,
    HardRankBot,
    RankSearch,
    answers,
    best_name,
    keeper_choice,
)
from engine.games.rank.rules import DRAW, PASS, Name, Play, RankAction, RankPhase, RankView, is_normal, neighbours
from engine.hints import Hint, Judgement, Reviewer, times_in


def rank_word(rank: Rank) -> str:
    """A rank as the sentence names it: "Ace", "7", "King"."""
    return rank.word.capitalize() if rank.word.isalpha() else rank.word


def a_rank(rank: Rank) -> str:
    """A rank with its article: "a King", "an Ace", "an 8"."""
    word = rank_word(rank)
    return f"an {word}" if word in ("Ace", "8") else f"a {word}"


def card_word(card: Card) -> str:
    return "Joker" if card.rank is Rank.JOKER else card.pretty()


def cards_words(cards: Sequence[Card]) -> str:
    words = [card_word(c) for c in cards]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def move_words(action: RankAction) -> str:
    """A move as the hint starts its sentence: "Play the 7♠", "Draw", "Name 6", "Pass"."""
    if isinstance(action, Play):
        return f"Play the {card_word(action.card)}"
    if isinstance(action, Name):
        return f"Name {rank_word(action.rank)}"
    return "Draw" if action == DRAW else "Pass"


def hint(bot: Bot, view: RankView, legal: Sequence[RankAction], rng: random.Random) -> Hint:
    """``bot``'s choice for the seat of ``view``, with the reason ``hard`` has for it."""
    return _hinted(bot, view, legal, rng)[0]


def _hinted(
    bot: Bot, view: RankView, legal: Sequence[RankAction], rng: random.Random
) -> tuple[Hint, RankSearch | None]:
    """The hint, and the search it comes from (None: ``hard``'s rule decided, with no search)."""
    if not isinstance(bot, HardRankBot) or view.seat is None:
        return Hint(bot.choose(view, legal, rng), ""), None
    if len(legal) == 1:
        return Hint(legal[0], _only(view, legal[0])), None
    if bot.endgame(view):
        picks = bot.candidates(view, legal)
        if len(picks) > 1:
            found = bot.search(view, legal, picks, rng)
            action = found.picks[found.best]
            return Hint(action, _searched(view, legal, found)), found
        action = picks[0]
    else:
        action = keeper_choice(view, legal)
    return Hint(action, _ruled(view, action, legal)), None


def review(
    bot: Bot, view: RankView, legal: Sequence[RankAction], chosen: RankAction, rng: random.Random
) -> Judgement | None:
    """What ``hard`` makes of the move ``chosen`` (None: it would have made it too, or one of the same rank): its
    hint, and how much less often the move kept the seat from losing the deal in ``hard``'s own playouts. Near the
    end of a deal those are the hint's own; where ``hard``'s rule decided, or the move is not one the search
    compared, its search is asked of the two moves alone, with the same RNG after the hint's draws."""
    made, found = _hinted(bot, view, legal, rng)
    if _same(made.action, chosen):
        return None
    move = _review_words(view, chosen)
    if not isinstance(bot, HardRankBot) or view.seat is None:
        return Judgement(made, 0.0, move)
    index = None if found is None else next((i for i, p in enumerate(found.picks) if _same(p, chosen)), None)
    # Deals of its own when the reason gave none, other deals than the reason's when it did.
    deals = "in {} deals played on from here" if found is None else "in {} other deals played on from here"
    if found is None or index is None:
        found, best, index = bot.search(view, legal, [made.action, chosen], rng), 0, 1
    else:
        best, deals = found.best, "in {} deals played on from here"
    mine, theirs = found.shares[index], found.shares[best]
    cost = max(0.0, theirs - mine)
    deals = deals.format(found.rounds)
    other = _review_words(view, made.action)
    if times_in(mine) == times_in(theirs):
        worse = f"it makes little difference here: {deals} both kept you from losing the deal {times_in(mine)}"
    elif mine > theirs:
        worse = (
            f"a close call: {deals} it kept you from losing the deal {times_in(mine)}, and {other} {times_in(theirs)}"
        )
    else:
        only = "" if mine < 0.05 else "only "
        worse = (
            f"{deals} it kept you from losing the deal {only}{times_in(mine)}, against {times_in(theirs)} for {other}"
        )
    return Judgement(made, cost, move, worse)


def _review_words(view: RankView, action: RankAction) -> str:
    """A move as the review names it: :func:`doing_words`, but after a Joker "adding the 3♦" or "adding nothing"."""
    if view.phase is RankPhase.FOLLOW:
        return f"adding the {card_word(action.card)}" if isinstance(action, Play) else "adding nothing to the Joker"
    return doing_words(action)


def _top(view: RankView) -> str:
    assert view.rank is not None
    low, high = neighbours(view.rank)
    return f"one rank from the {rank_word(view.rank)} on the pile ({a_rank(low)} or {a_rank(high)})"


def _only(view: RankView, action: RankAction) -> str:
    if action == PASS:
        if view.phase is RankPhase.FOLLOW:
            return "Pass: none of your cards can follow the Joker"
        return "Pass: you can neither play nor draw"
    if action == DRAW:
        return f"Draw: none of your cards is {_top(view)}, and you hold no Ace or Joker"
    if isinstance(action, Play) and view.phase is RankPhase.PLAY and is_normal(action.card, view.rank):
        return f"{move_words(action)}: it is your only card {_top(view)}, and you must play one when you can"
    return f"{move_words(action)}: it is the only move you have"


def _ruled(view: RankView, action: RankAction, legal: Sequence[RankAction]) -> str:
    """The reason of ``hard``'s own rule (:func:`~engine.games.rank.bots.keeper_choice`) for ``action``."""
    hand = list(view.hand)
    if isinstance(action, Name):
        _, follow = best_name(view)
        if follow is not None:
            return f"{move_words(action)}: then you can add your {card_word(follow)} at once, one card fewer"
        near = [c for c in hand if c.rank is not Rank.JOKER and c.rank in neighbours(action.rank)]
        if near:
            return (
                f"{move_words(action)}: no card of yours can follow it now, but your {cards_words(near)} "
                f"will fit when the pile comes back to you"
            )
        return f"{move_words(action)}: none of your cards can follow any rank you could name"
    if view.phase is RankPhase.FOLLOW and isinstance(action, Play):
        return (
            f"Add the {card_word(action.card)}: it is one rank from the {rank_word(view.rank or Rank.ACE)} you named, "
            "so you hold one card fewer"
        )
    escapes = [c for c in hand if c.rank in (Rank.ACE, Rank.JOKER)]
    if action == DRAW:
        if escapes and len(hand) > KEEP_ESCAPES_ABOVE:
            return (
                f"Draw and keep your {cards_words(escapes)}: none of your cards is {_top(view)}, and with "
                f"{len(hand)} cards in hand you will need {'it' if len(escapes) == 1 else 'them'} later: an Ace or a "
                "Joker is the best card to go out on, as few cards can answer it"
            )
        return f"Draw: none of your cards is {_top(view)}, and you hold no Ace or Joker"
    if action == PASS:
        return "Pass: you can neither play nor draw"
    assert isinstance(action, Play)
    card = action.card
    if view.phase is RankPhase.PLAY and is_normal(card, view.rank):
        normal = [p for p in legal if isinstance(p, Play) and is_normal(p.card, view.rank)]
        text = f"{move_words(action)}: it is {_top(view)}"
        if len({p.card.rank for p in normal}) == 1:
            return text + ", the only rank of yours that fits, and you must play one when you can"
        left = list(hand)
        left.remove(card)
        kept = [c for c in left if c.rank in answers(card.rank) and c.rank is not Rank.JOKER]
        if kept:
            return text + f", and it keeps your {cards_words(kept)} to answer the pile when it comes back to you"
        return text + ", and of the cards that fit it is the one your hand misses least"
    if card.rank is Rank.JOKER:
        named, follow = best_name(view)
        if follow is not None:
            return (
                f"Play the Joker: none of your cards is {_top(view)}, and the Joker named {rank_word(named)} lets you "
                f"add your {card_word(follow)} at once: two cards gone instead of one drawn"
            )
        return f"Play the Joker: none of your cards is {_top(view)}, and a card played beats one drawn"
    return (
        f"{move_words(action)}: none of your cards is {_top(view)}; the Ace gets rid of a card where a draw adds "
        "one, and the next player then needs a King or a 2 to answer it"
    )


def doing_words(action: RankAction) -> str:
    """A move as the reason names it: "playing the 7♠", "drawing", "naming 6", "passing"."""
    if isinstance(action, Play):
        return f"playing the {card_word(action.card)}"
    if isinstance(action, Name):
        return f"naming {rank_word(action.rank)}"
    return "drawing" if action == DRAW else "passing"


def _same(one: RankAction, other: RankAction) -> bool:
    """The same choice (plays of one rank are: suits never matter)."""
    if isinstance(one, Play) and isinstance(other, Play):
        return one.card.rank is other.card.rank
    return one == other


def _searched(view: RankView, legal: Sequence[RankAction], found: RankSearch) -> str:
    """The reason of ``hard``'s endgame search: how often each choice came out well in its playouts (the rule's
    own choice keeps a head start there, so its reason is given when it stands)."""
    action = found.picks[found.best]
    share = found.shares[found.best]
    deals = f"in {found.rounds} deals played on from here"
    if _same(action, found.preferred):
        others = [i for i in range(len(found.picks)) if i != found.best]
        rival = max(others, key=lambda i: found.shares[i])
        rival_share = found.shares[rival]
        text = f"{_ruled(view, action, legal)}; {deals} it kept you from losing the deal {times_in(share)}"
        if times_in(rival_share) == times_in(share):
            text += f", as often as {doing_words(found.picks[rival])}"
        elif rival_share > share:
            text += f", and {doing_words(found.picks[rival])} {times_in(rival_share)}: too few deals to overrule that"
        else:
            text += f", against {times_in(rival_share)} for {doing_words(found.picks[rival])}"
    else:
        usual = next((i for i, pick in enumerate(found.picks) if _same(pick, found.preferred)), None)
        text = f"{move_words(action)}: {deals} it kept you from losing the deal {times_in(share)}"
        if usual is not None:
            text += f", clearly more than {doing_words(found.picks[usual])} ({times_in(found.shares[usual])})"
    if view.pending is not None and isinstance(action, Play) and view.phase is RankPhase.PLAY:
        text += " (any card you play brings back the player who has just gone out, with two cards)"
    return text


REVIEWER = Reviewer(review, round_word="deal", unit="chance of not losing the deal")
"""The review of a finished match's moves (:mod:`engine.review`)."""
