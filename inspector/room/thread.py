"""Run a RoomServer on its own event loop in a background thread, for synchronous callers (the UI demo)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

from inspector.room.rooms import ParticipantView
from inspector.room.server import RoomServer
from inspector.room.tokens import DEV_API_KEY, DEV_API_SECRET

T = TypeVar("T")


class RoomServerThread:
    """``with RoomServerThread(port=0) as room:`` starts a room server in a daemon thread and stops it after.

    ``room.url``, ``room.mint_token(...)``, ``room.participants(name)``, ``room.drop(identity)`` and
    ``room.remove(identity)`` may be called from any thread.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        api_key: str = DEV_API_KEY,
        api_secret: str = DEV_API_SECRET,
        *,
        on_event: Callable[[str], None] | None = None,
        single_pc: bool = True,
    ) -> None:
        self._args: dict[str, Any] = dict(
            host=host,
            port=port,
            api_key=api_key,
            api_secret=api_secret,
            on_event=on_event,
            single_pc=single_pc,
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: RoomServer | None = None
        self._stopped: asyncio.Event | None = None

    def start(self, timeout: float = 10.0) -> RoomServerThread:
        """Start the thread and wait until the server listens; re-raise what stopped it from starting."""
        started: Future[RoomServer] = Future()
        self._thread = threading.Thread(target=self._run, args=(started,), name="inspector-room", daemon=True)
        self._thread.start()
        self._server = started.result(timeout)
        return self

    def stop(self, timeout: float = 10.0) -> None:
        if self._loop is None or self._stopped is None or self._thread is None:
            return
        self._loop.call_soon_threadsafe(self._stopped.set)
        self._thread.join(timeout)
        self._loop = None

    def __enter__(self) -> RoomServerThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def server(self) -> RoomServer:
        if self._server is None:
            raise RuntimeError("the room server is not running")
        return self._server

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def api_key(self) -> str:
        return self.server.api_key

    @property
    def api_secret(self) -> str:
        return self.server.api_secret

    def mint_token(self, identity: str, room: str, **options: Any) -> str:
        return self.server.mint_token(identity, room, **options)

    def participants(self, room: str) -> list[ParticipantView]:
        return self._call(self._snapshot(room))

    def drop(self, identity: str, room: str | None = None, *, rejoin: bool = True) -> bool:
        return self._call(self.server.drop(identity, room, rejoin=rejoin))

    def remove(self, identity: str, room: str | None = None) -> bool:
        return self._call(self.server.remove(identity, room))

    async def _snapshot(self, room: str) -> list[ParticipantView]:
        return self.server.participants(room)

    def _call(self, coro: Coroutine[Any, Any, T], timeout: float = 10.0) -> T:
        if self._loop is None:
            coro.close()
            raise RuntimeError("the room server is not running")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def _run(self, started: Future[RoomServer]) -> None:
        asyncio.run(self._main(started))

    async def _main(self, started: Future[RoomServer]) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        try:
            server = await RoomServer(**self._args).start()
        except BaseException as exc:  # noqa: BLE001 - handed to the thread that called start()
            started.set_exception(exc)
            return
        started.set_result(server)
        await self._stopped.wait()
        await server.stop()
