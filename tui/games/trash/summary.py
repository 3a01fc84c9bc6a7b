"""Trash under the menu's form: the rules in force in one line, from the options ticked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.words import decks

if TYPE_CHECKING:  # the menu loads a game's rules only when that game is shown
    from engine.games.trash.rules import TrashOptions


def summary(options: TrashOptions, players: int) -> str:
    """Trash: one deal or a match, the layout size, the decks, how a deal ends."""
    from engine.games.trash import rules as trash

    scope = "deal after deal" if options.match else "one deal"
    parts = [f"{scope}, {options.size}-card layouts, {decks(len(trash.deck_of(players)) // 52)}"]
    if options.last_turn:
        parts.append("after a completion the others get a last turn")
    if options.match:
        winners = "all who complete get" if options.last_turn else "the first to complete gets"
        parts.append(f"{winners} one card fewer; a 1-card layout wins the match")
    else:
        parts.append("all who complete win" if options.last_turn else "the first to complete wins at once")
    return "; ".join(parts)
