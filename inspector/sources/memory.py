"""An in-memory packet source: no network, answers land in a list. For tests and UI pilots.

source = MemorySource(store, identity="inspector-test")
source.receive(request_bytes, participant="agent")      # as if it came from the room
await source.send_answer(call, compose.success({...}))  # source.sent holds the published bytes
"""

from __future__ import annotations

from inspector.model import CallStore
from inspector.protocols.recording import RecordingWriter
from inspector.sources.base import AnswerRefused, SourceStatus
from inspector.sources.packets import PacketSource


class MemorySource(PacketSource):
    """A live-like source fed by :meth:`receive`; what it publishes is kept in :attr:`sent`."""

    name = "memory"
    is_live = True
    addresses_answers = True  # as a room: an answer goes to the participant that asked

    def __init__(
        self,
        store: CallStore,
        writer: RecordingWriter | None = None,
        *,
        identity: str = "inspector-memory",
        answering: bool = True,
        room: str = "memory",
    ) -> None:
        super().__init__(store, writer, identity=identity, answering=answering)
        self.sent: list[tuple[bytes, str | None]] = []
        self.destinations: list[str | None] = []
        self.fail_next_publish: str | None = None
        self._set_state(room=room)

    async def start(self) -> None:
        self._set_state(status=SourceStatus.CONNECTED, detail="")

    async def stop(self) -> None:
        self._set_state(status=SourceStatus.DISCONNECTED, detail="stopped")

    async def _publish(self, data: bytes, *, topic: str | None, destination: str | None = None) -> None:
        if self.fail_next_publish:
            reason, self.fail_next_publish = self.fail_next_publish, None
            raise AnswerRefused(f"could not send the answer: {reason}")
        self.sent.append((data, topic))
        self.destinations.append(destination)
