"""Rank under the menu's form: the rules in force in one line, from the options ticked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.words import count, decks

if TYPE_CHECKING:  # the menu loads a game's rules only when that game is shown
    from engine.games.rank.rules import RankOptions


def summary(options: RankOptions, players: int) -> str:
    """Rank: the hand, the rule of play, the deck for this many players, the length of the match."""
    from engine.games.rank import rules as rank

    cards = rank.deck_of(players)
    jokers = sum(1 for card in cards if card.suit is None)
    deck = f"{decks((len(cards) - jokers) // 52)} and {count(jokers, 'joker')}"
    return (
        f"{count(rank.HAND_SIZE, 'card')} each, one rank up or down, Aces and Jokers to escape; {deck}; "
        f"{count(options.deals, 'deal')}, the fewest penalty points win"
    )
