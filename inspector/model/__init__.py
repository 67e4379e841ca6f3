"""The model of tool calls: pure Python, imports neither textual nor livekit."""

from inspector.model.call import Call, OrphanResult, State
from inspector.model.clock import Clock, FakeClock, SystemClock
from inspector.model.events import (
    Adopt,
    Event,
    Executor,
    Malformed,
    Marker,
    Message,
    Outcome,
    RawRef,
    Request,
    Result,
    Skipped,
)
from inspector.model.store import CallStore

__all__ = [
    "Adopt",
    "Call",
    "CallStore",
    "Clock",
    "Event",
    "Executor",
    "FakeClock",
    "Malformed",
    "Marker",
    "Message",
    "OrphanResult",
    "Outcome",
    "RawRef",
    "Request",
    "Result",
    "Skipped",
    "State",
    "SystemClock",
]
