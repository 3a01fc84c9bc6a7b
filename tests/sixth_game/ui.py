"""High Card's one record in the UI."""

from pathlib import Path

from tui.games import UiListing

UI_LISTING = UiListing(
    "highcard",
    table="sixth_game.table:HighCardTableScreen",
    words="sixth_game.words:describe",
    summary="sixth_game.words:summary",
    styles=(str(Path(__file__).with_name("highcard.tcss")),),
)
