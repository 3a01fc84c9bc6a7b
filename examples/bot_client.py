"""A Parlour bot in the standard library alone: it joins a host, sits at a table and plays any game by choosing at
random among the legal actions the host sends it (it knows no rules). See docs/protocol.md.

    python examples/bot_client.py HOST PORT --name Robo --game big2 --players 4 --fill easy
    python examples/bot_client.py HOST PORT --name Robo --table BCDF

With ``--game`` it makes a table, sits at seat 0, fills the other seats with the host's bots and starts; with
``--table`` it takes the first free seat at that table, says it is ready and waits for the creator to start.
It exits 0 when the match is over, 2 when the host refuses it (the host's message is printed), 1 if the connection
is lost.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import sys
from typing import Any

PROTOCOL = 1


class Refused(Exception):
    pass


class Connection:
    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.reader = self.sock.makefile("rb")

    def send(self, message: dict[str, Any]) -> None:
        self.sock.sendall(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")

    def receive(self) -> dict[str, Any]:
        """The next message (the host's pings are answered here)."""
        while True:
            line = self.reader.readline()
            if not line:
                raise ConnectionError("the host closed the connection")
            message: dict[str, Any] = json.loads(line)
            if message.get("type") == "ping":
                self.send({"type": "pong"})
                continue
            return message

    def expect(self, kind: str) -> dict[str, Any]:
        """Read until a message of ``kind``; an ``error`` instead raises Refused."""
        while True:
            message = self.receive()
            if message["type"] == kind:
                return message
            if message["type"] == "error":
                raise Refused(f"{message['code']}: {message['message']}")

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


def join(conn: Connection, args: argparse.Namespace) -> None:
    """Make a table (``--game``) or sit at one (``--table``)."""
    if args.game:
        bots = [None] + [args.fill] * (args.players - 1)
        conn.send({"type": "create", "game": args.game, "players": args.players, "bots": bots})
        conn.expect("table")
        conn.send({"type": "start"})
        return
    conn.send({"type": "list"})
    tables = conn.expect("tables")["tables"]
    table = next((t for t in tables if t["code"] == args.table.upper()), None)
    if table is None:
        raise Refused(f"no table {args.table} at this host")
    seat = next((s["seat"] for s in table["seats"] if s["status"] == "open"), None)
    if seat is None:
        raise Refused(f"table {args.table} has no free seat")
    conn.send({"type": "sit", "table": table["code"], "seat": seat})
    conn.expect("table")
    conn.send({"type": "ready"})


def play(conn: Connection, rng: random.Random) -> dict[str, Any]:
    """Answer every prompt with a random legal action until the match is over; the MatchOver event."""
    while True:
        message = conn.receive()
        kind = message["type"]
        if kind == "snapshot":
            snapshot = message["snapshot"]
            if snapshot["legal"]:
                action = rng.choice(snapshot["legal"])
                conn.send({"type": "act", "action": action, "version": snapshot["version"]})
        elif kind == "event":
            event = message["event"]
            if event.get("type") == "RoundOver" and not event.get("last"):
                conn.send({"type": "next"})
            elif event.get("type") == "MatchOver":
                return event
        elif kind == "error" and message.get("code") != "not_your_turn":
            raise Refused(f"{message['code']}: {message['message']}")
        elif kind == "bye":
            raise ConnectionError(message.get("message", "the host said goodbye"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A random bot for a Parlour host.")
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--name", default="Robo")
    parser.add_argument("--password")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--game", help="make a table of this game")
    where.add_argument("--table", help="sit at this table (its code)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--fill", default="easy", help="the level of the host's bots in the other seats")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for any one message")
    args = parser.parse_args(argv)
    try:
        conn = Connection(args.host, args.port, args.timeout)
    except OSError as err:
        print(f"bot_client: cannot reach {args.host}:{args.port}: {err}", file=sys.stderr)
        return 1
    try:
        hello: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL, "name": args.name}
        if args.password is not None:
            hello["password"] = args.password
        conn.send(hello)
        conn.expect("welcome")
        join(conn, args)
        result = play(conn, random.Random(args.seed))
        print(f"bot_client: the match is over; winners {result['winners']}, totals {result['totals']}")
        conn.send({"type": "bye"})
        return 0
    except Refused as err:
        print(f"bot_client: the host refused: {err}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as err:  # a lost connection, a timeout, a line that is no JSON
        print(f"bot_client: {err}", file=sys.stderr)
        return 1
    finally:
        conn.close()


if __name__ == "__main__":
    sys.exit(main())
