"""Screw Your Neighbor and Chase the Ace under the menu's form: the rules in force in one line, from the options
ticked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.words import count

if TYPE_CHECKING:  # the menu loads a game's rules only when that game is shown
    from engine.games.chase.rules import ChaseOptions


def summary(options: ChaseOptions, players: int) -> str:
    """Screw Your Neighbor and Chase the Ace: lives or tokens, who pays, ties, Kings, the dealer's turn."""
    lives = count(options.lives, "token") if options.preset == "chase" else count(options.lives, "life", "lives")
    if options.on_honour:
        lives += " + a life on honour"
    payer = "the highest card pays 1 (never a King), every Ace 2" if options.high_card_pays else "the lowest card pays"
    ties = "tied players all pay" if options.ties_all_pay else "ties broken by suit"
    kings = "Kings face up" if options.kings_face_up else "a King blocks a trade"
    dealer = "the dealer cuts" if options.dealer_cuts else "the dealer may swap"
    return f"{lives}; {payer}, {ties}; {kings}; {dealer}"
