"""The ingest path of live packets: decode once, record, thread. No network and no UI in here."""

from __future__ import annotations

import time
from collections.abc import Callable

from inspector.model import CallStore, RawRef, Request, Result
from inspector.model.events import Event
from inspector.protocols import alicia
from inspector.protocols.recording import RecordingWriter


class PacketIngest:
    """Turn each data packet into events in ``store``, appending it to ``writer`` first when recording.

    The packet is unpacked once; the recording gets the decoded form beside the raw bytes.
    """

    def __init__(
        self,
        store: CallStore,
        writer: RecordingWriter | None = None,
        wall: Callable[[], float] = time.time,
        source: str = "live",
    ) -> None:
        self.store = store
        self.writer = writer
        self.wall = wall
        self.source = source
        self.count = 0
        self.record_error = ""
        self.on_record_error: Callable[[str], None] | None = None
        self.on_event: Callable[[Event], list[Event]] | None = None
        """Sees each event before it is threaded and gives the events to thread in its place (none: a
        hub's echo of a message; more: the event and what it settles)."""

    def packet(
        self,
        data: bytes,
        *,
        direction: str = "in",
        participant: str = "",
        topic: str | None = None,
        reliable: bool = True,
        ts: float | None = None,
        answered_by: str | None = None,
    ) -> list[Event]:
        """Record and thread one packet; returns the events it produced (never raises on bad data)."""
        self.count += 1
        ts = self.wall() if ts is None else ts
        where = f"packet {self.count}"
        payload = bytes(data)
        raw = RawRef(source=self.source, where=where, data=payload, protocol=alicia.NAME)
        obj, events = alicia.unpack_packet(
            payload,
            where=where,
            ts=ts,
            sender=participant,
            topic=topic,
            reliable=reliable,
            source=self.source,
            raw=raw,
        )
        if self.writer is not None:
            try:
                self.writer.write(
                    direction,
                    payload,
                    ts=ts,
                    participant=participant,
                    topic=topic,
                    reliable=reliable,
                    answered_by=answered_by,
                    decoded=obj,
                )
            except OSError as exc:  # disk full, a write error: stop recording, keep every packet in view
                self.writer = None
                self.record_error = exc.strerror or str(exc)
                if self.on_record_error is not None:
                    self.on_record_error(self.record_error)
        ingest = self.store.ingest
        adjust = self.on_event
        if adjust is not None:
            events = [kept for event in events for kept in adjust(event)]
        for event in events:
            if isinstance(event, Request) and participant:
                event.extra["participant"] = participant  # where an answer goes (not a stanza's role)
            if isinstance(event, Result):
                event.extra["dir"] = direction
                if answered_by:
                    event.answered_by = answered_by
            ingest(event)
        return events


def tune_gc() -> None:
    """Collect garbage less often: a session keeps nearly everything it allocates, so the default
    thresholds spend a third of the ingest time re-scanning live objects (see bench/bench_ingest.py)."""
    import gc

    gc.set_threshold(20_000, 20, 20)
