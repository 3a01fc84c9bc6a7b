"""A seat in the browser, end to end: ``parlour host --headless --web-port`` on 127.0.0.1, Cleo at the terminal end
of the protocol (a scripted client) and a bot at a Screw Your Neighbor table, and Zoe in headless chromium, who
types her name on the page, sits from the lobby with Enter and plays her turns by key (``s``) and by clicking the
Stay button and the round's Next button, on the turn clock, opens the rules pane, chats, and sees the page redrawn
when the window is resized; then she plays on by key to the match's end and sees its results (the winner, every
place), redrawn again when the window grows; what the page shows is read from its terminal. Closing her tab ends her
process within seconds (the host's children are counted). Screenshots at 1280x800 and 800x600 are written under
build/screenshots (or $PARLOUR_SCREENSHOTS)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conftest import GONE, START, WAIT, Creator, Host, Terminal, screenshots_dir, until

from engine.games.chase.rules import Paid, Stayed
from engine.lan.remote_session import NetworkSession
from engine.match import MatchOver, RoundOver


def seat(cleo: NetworkSession, index: int) -> dict[str, Any] | None:
    summary = cleo.table
    return summary["seats"][index] if summary is not None else None


def test_a_browser_guest_signs_in_sits_and_plays_by_key_and_by_click(chromium: Any, host: Host) -> None:
    shots = screenshots_dir()
    cleo = NetworkSession.connect("127.0.0.1", host.port, "Cleo")
    code = cleo.create("screw", 3, bots=[None, None, "easy"], clock=90.0)
    heard: list[dict[str, Any]] = []
    cleo.watch(heard.append)
    creator = Creator(cleo, seed=5)
    page: Terminal | None = None
    try:
        assert host.url.startswith("http://127.0.0.1:")
        page = Terminal(chromium, host.url, 1280, 800)
        page.wait("Your name at the tables", START)
        assert code not in page.text()  # nothing of the host's before the name
        page.screenshot(shots / "sign-in-1280x800.png")
        page.type("Zoe")
        page.press("Enter")
        page.wait(code)
        page.wait("you are Zoe")
        assert len(host.children()) == 1, host.children()

        page.press("Enter")  # the first table of the list: sit, and ready

        def ready() -> bool:
            taken = seat(cleo, 1)
            return taken is not None and taken["name"] == "Zoe" and taken["status"] == "ready"

        until(ready, WAIT, "Zoe ready", page.why)
        page.screenshot(shots / "lobby-1280x800.png")
        cleo.start()
        creator.start()

        def her_turns() -> int:
            return sum(isinstance(e, Stayed) and e.seat == 1 for e in creator.events)

        def rounds() -> int:
            return sum(isinstance(e, RoundOver) for e in creator.events)

        # The first hand by key, at her turn: the rules pane (r) open and closed, a word in the chat (ctrl+t), then
        # s to stay.
        page.wait("Stay (s)", START)
        # Her turn, on the clock: her seat's title counts down ("▶ Zoe 79 s").
        until(lambda: re.search(r"Zoe \d+ s", page.text()), START, "Zoe's turn on the clock", page.why)
        page.screenshot(shots / "table-1280x800.png")
        page.press("r")  # the rules pane, beside the table
        page.wait("Who pays")
        page.screenshot(shots / "rules-1280x800.png")
        page.press("r")
        until(lambda: "Who pays" not in page.text(), WAIT, "the rules pane closed", page.why)
        page.press("Control+t")  # chat, from the table
        page.wait("Say something at your table")
        page.type("hello from the browser")
        page.press("Enter")
        said = {"type": "chat", "name": "Zoe", "text": "hello from the browser"}
        until(lambda: any(said.items() <= data.items() for data in heard), WAIT, "Zoe's chat heard by Cleo", page.why)
        until(lambda: her_turns() >= 1 or page.press("s"), WAIT, "Zoe's stay by key", page.why, every=0.5)
        until(lambda: rounds() >= 1, WAIT, "the first hand's end", lambda: f"{creator.events}; {page.why()}")
        page.wait("(Enter)")
        page.page.set_viewport_size({"width": 800, "height": 600})  # the window resized: the app redraws to fit
        until(lambda: len(page.rows()) < 40 and page.find("(Enter)"), WAIT, "the page redrawn at 800x600", page.why)
        page.screenshot(shots / "round-over-800x600.png")
        # (the page's terminal draws what the app sends as it comes: the dialog's title may follow its button)
        until(lambda: "Hand 1 — the cards" in page.text() and "Zoe" in page.text(), WAIT, "the hand's cards", page.why)

        # The second hand by click: the round's Next button, then the Stay button at her turn.
        def clicked(text: str, done: Callable[[], bool]) -> bool:
            """Click ``text`` until ``done()`` (one click a poll: the page's answer takes a moment)."""
            if done():
                return True
            page.click(text)
            return False

        until(lambda: clicked("(Enter)", lambda: page.find("(Enter)") is None), WAIT, "Next clicked", page.why, 0.7)
        until(lambda: clicked("Stay (s)", lambda: her_turns() >= 2), WAIT, "Zoe's stay by click", page.why, 0.7)
        page.screenshot(shots / "table-800x600.png")
        assert creator.failed is None, creator.failed
        assert her_turns() >= 2

        # On to the match's end, by key: space closes each hand's dialog (the last one's goes on to the results),
        # s stays at each of her turns (her seat's title on the clock), until the results show. Space, not Enter:
        # on a busy machine the page may still show a dialog its app has closed, and a key pressed again then
        # reaches the results, where Enter would press Play again and space does nothing.
        def play_on() -> bool:
            text = page.text()
            if "Play again" in text:  # (the results' button)
                return True
            if "(Enter)" in text:
                page.press("Space")
            elif re.search(r"Zoe \d+ s", text) and "Stay (s)" in text:
                page.press("s")
            return False

        until(play_on, 8 * WAIT, "the match's results", lambda: f"{creator.events[-3:]}; {page.why()}", every=0.7)
        until(lambda: not creator.is_alive(), WAIT, "Cleo told the match is over", page.why)
        over = next((event for event in creator.events if isinstance(event, MatchOver)), None)
        assert over is not None and len(over.winners) == 1, creator.events[-3:]
        names = list(cleo.info.names)  # the table's names (the bot's given by the host)
        assert names[:2] == ["Cleo", "Zoe"], names
        names[1] = "You"  # Zoe's page names her so
        title = f"Screw Your Neighbor — {'You win' if over.winners[0] == 1 else names[over.winners[0]] + ' wins'}"
        until(lambda: f"{title} the match" in page.text() and "Play again" in page.text(), WAIT, title, page.why)
        # Places: the winner first, then the one out last (one pays a life each hand: nobody shares a place).
        out = [event.seat for event in creator.events if isinstance(event, Paid) and event.lives_left <= 0]
        order = [over.winners[0], *reversed(out)]
        assert sorted(order) == [0, 1, 2], creator.events
        for place, index in enumerate(order, start=1):
            assert re.search(rf"\b{place}\. {re.escape(names[index])}\b", page.text()), (place, names, page.why())
        assert "Seed" not in page.text()  # a LAN table's seed is the host's
        # The page itself never scrolls (the terminal fills it): keys typed after the window shrank once moved it.
        scrolled = page.page.evaluate("() => [window.scrollY, document.documentElement.scrollHeight, innerHeight]")
        assert scrolled[0] == 0 and scrolled[1] <= scrolled[2], scrolled
        page.screenshot(shots / "results-800x600.png")
        page.page.set_viewport_size({"width": 1280, "height": 800})  # the results redrawn to the larger window

        def redrawn() -> bool:
            """The results, and the table behind them drawn to the new width (its seats' row reaches the edge)."""
            rows = page.rows()
            return len(rows) >= 40 and title in page.text() and len(rows[1].rstrip()) >= len(rows[1]) - 1 > 100

        until(redrawn, WAIT, "the results at 1280x800, over the table redrawn", page.why)
        page.screenshot(shots / "results-1280x800.png")
        assert creator.failed is None, creator.failed

        # Her tab closes: her process ends within seconds.
        page.close()
        page = None
        until(lambda: not host.children(), GONE, "Zoe's process gone", host.why)
        until(lambda: (seat(cleo, 1) or {}).get("status") not in ("ready", "connected"), WAIT, "Zoe gone", host.why)
    finally:
        creator.finish()
        if page is not None:
            page.close()
        cleo.close()
