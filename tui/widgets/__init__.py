"""The widgets every game's screens share: card faces (:mod:`~tui.widgets.card`), a hand
(:mod:`~tui.widgets.hand`), what every table's seats share (:mod:`~tui.widgets.seats`), the event log, the key
footer, the title bar, the table's room and its size classes, and quiet updates (:mod:`~tui.widgets.quiet`).

It may import the engine's core, :mod:`tui.words` and :mod:`tui.terminal`; never :mod:`tui.screens`,
:mod:`tui.dialogs`, :mod:`tui.games`, :mod:`tui.settings` or :mod:`tui.apps`.
"""
