"""Start-up and terminal plumbing: :mod:`tui.terminal.driver` (a driver whose input thread ends when told, so
quitting is quick), :mod:`tui.terminal.textual_version` (is the installed Textual the one Parlour was checked
against?) and :mod:`tui.terminal.screen_styles` (the ``.tcss`` files in ``styles/`` and each screen's
``CSS_PATH``).

It imports nothing of ``tui`` but the package itself (to find ``styles/`` beside it), and nothing of ``engine``.
"""
