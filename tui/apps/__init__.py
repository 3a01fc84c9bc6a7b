"""The apps, and what they share.

- :mod:`tui.apps.parlour`: :class:`~tui.apps.parlour.ParlourApp`, local play (the menu, or straight to a table);
  the only part of the UI that sets up tables (it asks :mod:`engine.play` for a host);
- :mod:`tui.apps.lan`: :class:`~tui.apps.lan.LanApp`, a player at a LAN host (the lobby, then the game's table);
  :mod:`tui.apps.lan_records`: every LAN game it sees, kept and counted; :mod:`tui.apps.sign_in`: the name (and
  password) it asks before it connects, for a browser guest;
- :mod:`tui.apps.replay`: :class:`~tui.apps.replay.ReplayApp`, ``parlour replay FILE``;
- :mod:`tui.apps.navigation`: the keys every app shares, and leaving (``q``, ``m``, ``?``);
  :mod:`tui.apps.notices`: the toasts an app said, kept to be read back.

It may import anything of ``tui`` and of ``engine`` (:mod:`engine.play`, :mod:`engine.lan` and
:mod:`engine.records` included). Nothing imports it but the command (:mod:`tui.cli`) and the apps themselves:
screens ask the app for things by messages (:mod:`tui.messages`).
"""
