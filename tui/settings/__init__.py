"""Your settings: :mod:`tui.settings.file` keeps them between runs in a small TOML file; :mod:`tui.settings.in_app`
loads, applies and keeps them in a running app (``KeepsSettings``, which every app mixes in). The settings dialog
is :mod:`tui.dialogs.settings`.

It may import the engine's core, :mod:`engine.records` (where the user's directories are), :mod:`tui.words` and
:mod:`tui.screens` (to find the table on screen); never :mod:`tui.apps`.
"""
