"""Big Two under the menu's form: the rules in force in one line, from the options ticked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.words import count
from tui.words.faces import card_text, suit_symbol

if TYPE_CHECKING:  # the menu loads a game's rules only when that game is shown
    from engine.games.big2.rules import Big2Options


def summary(options: Big2Options, players: int) -> str:
    """Big Two: the suit order and the lead card, passing, the scoring, the length of the match."""
    from engine.games.big2.rules import SUIT_ORDERS

    order = " > ".join(suit_symbol(suit) for suit in reversed(SUIT_ORDERS[options.suits]))
    lead = card_text(options.lead_card)
    passing = "no play after a pass" if options.no_play_after_pass else "you may play again after a pass"
    if options.scoring == "pagat":
        scoring = "pagat scoring: a point a card left, ×2 for 10–12, ×3 for 13"
    else:
        scoring = "a point a card left, doubled over 9 and again for each 2"
    match = count(options.deals, "deal")
    if options.score_limit is not None:
        match += f" or to {count(options.score_limit, 'point')}"
    return f"suits {order}, the {lead} leads; {passing}; {scoring}; {match}"
