"""A small asyncio client of the LAN protocol: for tests, the load benchmark and programs that play.

It keeps every byte it received (:attr:`LanClient.raw`) so that a test can check what a seat was sent, answers the
host's pings by itself, and can play a whole match choosing among the legal actions it is sent
(:meth:`LanClient.play`): it needs no rules of any game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

from engine.errors import ParlourError
from engine.lan import protocol as p


class HostError(ParlourError):
    """The host answered with an ``error`` where something else was expected (``code``: the error's code)."""

    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__(f"{data.get('code')}: {data.get('message')}")
        self.code = str(data.get("code"))
        self.data = data


class LanClient:
    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, answer_pings: bool = True
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.answer_pings = answer_pings
        self.raw: list[bytes] = []
        """Every line received, as it came."""
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.token: str | None = None
        self.closed = False
        self._task = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, host: str, port: int, *, timeout: float = 5.0, answer_pings: bool = True) -> LanClient:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=p.HOST_LINE + 1), timeout)
        return cls(reader, writer, answer_pings=answer_pings)

    async def _read(self) -> None:
        try:
            while True:
                raw = await self.reader.readline()
                if not raw:
                    break
                self.raw.append(raw)
                data = p.parse_host_line(raw)
                if data["type"] == "ping" and self.answer_pings:
                    self.writer.write(p.line({"type": "pong"}))
                    continue
                self.inbox.put_nowait(data)
        except (ConnectionError, OSError, ValueError, p.ProtocolError):
            pass
        finally:
            self.closed = True
            self.inbox.put_nowait(None)

    # -- out --------------------------------------------------------------------------------------------------
    @property
    def received(self) -> list[dict[str, Any]]:
        """Every message received so far (pings included), decoded."""
        return [json.loads(raw) for raw in list(self.raw)]

    def pause_reading(self) -> None:
        """Stop reading what the host sends (a client that asks and never reads: the host's bounds are tested)."""
        transport = self.writer.transport
        assert isinstance(transport, asyncio.ReadTransport)  # (a socket's transport reads and writes)
        transport.pause_reading()

    async def send(self, data: dict[str, Any] | p.Message) -> None:
        await self.send_raw(p.line(data))

    async def send_raw(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    # -- in ---------------------------------------------------------------------------------------------------
    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next message; ConnectionError once the host has closed and everything was read."""
        data = await asyncio.wait_for(self.inbox.get(), timeout)
        if data is None:
            self.inbox.put_nowait(None)  # stays closed for the next reader
            raise ConnectionError("the host closed the connection")
        return data

    async def expect(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """Read until a message of type ``kind`` (an ``error`` instead raises HostError); bounded by ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            data = await self.recv(max(0.0, deadline - loop.time()))
            if data["type"] == kind:
                return data
            if data["type"] == "error":
                raise HostError(data)

    async def hello(
        self,
        name: str,
        *,
        password: str | None = None,
        token: str | None = None,
        timeout: float = 5.0,
        protocol: int = p.OLDEST_PROTOCOL,
        max_protocol: int | None = None,
        seen: int | None = None,
    ) -> dict[str, Any]:
        """Say hello (as a version 1 client unless ``max_protocol`` says more) and wait for the welcome."""
        hello = p.Hello(
            protocol=protocol, max_protocol=max_protocol, name=name, password=password, token=token, seen=seen
        )
        await self.send(hello)
        welcome = await self.expect("welcome", timeout)
        self.token = str(welcome["token"])
        return welcome

    async def close(self) -> None:
        if not self.writer.is_closing():
            self.writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer.wait_closed(), 2.0)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task

    # -- playing ----------------------------------------------------------------------------------------------
    async def play(self, rng: random.Random, *, timeout: float = 30.0, as_text: float = 0.0) -> list[dict[str, Any]]:
        """Play until the match is over: a random legal action for each snapshot that offers some (as its text in
        a share ``as_text`` of moves), ``next`` after each round. Every message read is returned."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen: list[dict[str, Any]] = []
        while True:
            data = await self.recv(max(0.0, deadline - loop.time()))
            seen.append(data)
            kind = data["type"]
            if kind == "snapshot":
                snap = data["snapshot"]
                if snap["legal"] and not snap["over"]:
                    index = rng.randrange(len(snap["legal"]))
                    action = data["texts"][index] if rng.random() < as_text else snap["legal"][index]
                    await self.send({"type": "act", "action": action, "version": snap["version"]})
            elif kind == "event":
                event = data["event"]
                if event.get("type") == "RoundOver" and not event.get("last"):
                    await self.send({"type": "next"})
                if event.get("type") == "MatchOver":
                    return seen
            elif kind == "error" and data.get("code") not in ("not_your_turn", p.STALE):
                raise HostError(data)
