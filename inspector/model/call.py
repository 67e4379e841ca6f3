"""A call: one request and the results that answer it, with its state computed from a clock."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Any, Union

from inspector.model.clock import at_recording_end
from inspector.model.events import Malformed, Message, Outcome, Request, Result


class State(str, enum.Enum):
    """The state of a call; ``pending`` and ``overdue`` depend on the time."""

    PENDING = "pending"
    OVERDUE = "overdue"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    TIMED_OUT = "timed_out"
    CANCELED = "canceled"
    DENIED = "denied"


OUTCOME_STATE = {  # the state a call's deciding result puts it in
    Outcome.SUCCESS: State.SUCCEEDED,
    Outcome.ERROR: State.FAILED,
    Outcome.TIMEOUT: State.TIMED_OUT,
    Outcome.CANCELED: State.CANCELED,
    Outcome.DENIED: State.DENIED,
}


NOTES = "notes"
"""``Request.extra[NOTES]``: what a reading of the whole session found about a call, by kind, each a
sentence for people (the hub's: ``link``, ``undelivered``, ``failure_as_text``)."""
ALSO_IN = "also_in"
"""``Request.extra[ALSO_IN]``: another group the call belongs to (a phone request of the bridge also
belongs to the agent's conversation); a group filter matches either."""


class _NoChildren(list[Any]):
    """A ``children`` that stays empty: adding to it raises (see :data:`NO_CHILDREN`)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            "this call's children are the shared empty list (NO_CHILDREN): give the call a list of its own"
        )

    append = extend = insert = remove = pop = clear = sort = reverse = __iadd__ = __imul__ = _refuse
    __setitem__ = __delitem__ = _refuse

    def __copy__(self) -> _NoChildren:
        return self  # a copied call still shares it (the store tells it by identity)

    def __deepcopy__(self, memo: dict[int, Any]) -> _NoChildren:
        return self


NO_CHILDREN: list[Any] = _NoChildren()
"""The children of a call with nothing under it (most calls): one empty list for all of them, as a list
of its own each was 56 bytes (0.5 MB of a 100 MB transcript's 8,469 calls). The store gives a call a list
of its own when something goes under it; a write to this one raises TypeError rather than reaching every
call."""


class Call:
    """A tool request and its results; the first result decides, later ones are duplicates.

    ``children`` is :data:`NO_CHILDREN` until something is nested under the call (``CallStore`` nests:
    it gives the call a list of its own then).
    """

    __slots__ = ("request", "results", "children", "parent", "depth", "seq")

    def __init__(self, request: Request, seq: int = 0) -> None:
        self.request = request
        self.results: list[Result] = []
        self.children: list[Item] = NO_CHILDREN
        self.parent: Call | None = None
        self.depth = 0
        self.seq = seq

    @property
    def call_id(self) -> str:
        return self.request.call_id

    @property
    def tool(self) -> str:
        return self.request.tool

    @property
    def group(self) -> str:
        return self.request.group

    @property
    def result(self) -> Result | None:
        """The result that decides the call's state (the first one received)."""
        return self.results[0] if self.results else None

    @property
    def notes(self) -> dict[str, str]:
        """What a reading of the session found about this call (see :data:`NOTES`); empty when nothing."""
        notes = self.request.extra.get(NOTES)
        return notes if isinstance(notes, dict) else {}

    @property
    def undelivered(self) -> bool:
        """Unanswered, and known never to have reached its executor (the hub had no assistant)."""
        return not self.results and "undelivered" in self.notes

    @property
    def duplicates(self) -> int:
        """How many results arrived after the first."""
        return max(0, len(self.results) - 1)

    @property
    def deadline(self) -> float | None:
        return self.request.deadline

    @property
    def late(self) -> bool:
        """True when the deciding result arrived after the request's deadline."""
        first = self.result
        deadline = self.deadline
        return first is not None and deadline is not None and first.ts is not None and first.ts > deadline

    @property
    def answered(self) -> bool:
        return bool(self.results)

    @property
    def awaits_client_answer(self) -> bool:
        """No result yet, and a client executes it: the one rule for what can be answered (by a person,
        the auto-responder) and what counts as a client request that never got its result (stats, check)."""
        executor = self.request.executor
        return not self.results and executor is not None and executor.client_may_answer

    def state(self, now: float | None = None) -> State:
        """The call's state at time ``now`` (epoch seconds)."""
        first = self.result
        if first is not None:
            return OUTCOME_STATE[first.outcome]
        deadline = self.deadline
        if deadline is not None and now is not None and now >= deadline:
            return State.OVERDUE
        return State.PENDING

    def remaining(self, now: float) -> float | None:
        """Seconds left before the deadline (negative once passed); None without a deadline."""
        deadline = self.deadline
        return None if deadline is None else deadline - now

    @property
    def latency_ms(self) -> float | None:
        first = self.result
        if first is None or first.ts is None or self.request.ts is None or first.ts < self.request.ts:
            return None  # no end, no start, or an end before the start: how long it took is unknown
        return (first.ts - self.request.ts) * 1000.0

    @property
    def has_diff(self) -> bool:
        first = self.result
        return bool(first and first.has_diff)

    def figures(self, now: float | None = None) -> tuple[State, float | None, bool, bool]:
        """``(state(now), latency_ms, has_diff, late)`` in one go, for a pass over every call of a session
        (stats): the deciding result and the request looked up once, the same rules as each alone."""
        request = self.request
        results = self.results
        if not results:
            return self.state(now), None, False, False
        first = results[0]
        ended, started = first.ts, request.ts
        latency = None if ended is None or started is None or ended < started else (ended - started) * 1000.0
        late = False
        if ended is not None and request.timeout_ms is not None and started is not None:
            late = ended > request.deadline  # type: ignore[operator] # a timeout and a time: a deadline
        return OUTCOME_STATE[first.outcome], latency, bool(first.has_diff), late

    def walk(self) -> Iterator[Call]:
        """Yield this call and every call nested under it, depth first."""
        yield self
        for child in self.children:
            if isinstance(child, Call):
                if child.children:
                    yield from child.walk()
                else:  # a call with nothing under it (most): itself, without a generator of its own
                    yield child

    def __repr__(self) -> str:
        return f"Call({self.call_id!r}, {self.tool!r}, results={len(self.results)})"


class HoldWindow:
    """How long a result may wait for its request: the longest timeout seen, until the session ends."""

    __slots__ = ("seconds", "ended")

    def __init__(self, seconds: float = 30.0) -> None:
        self.seconds = seconds
        self.ended = False


class OrphanResult:
    """A result whose id matches no request (yet): shown on its own until its request arrives.

    While ``waiting(now)`` it is held for a request that may still come (a lossy request overtaken by
    a reliable result, a reconnect); after the longest timeout seen, or once the session ended, it is
    an orphan.
    """

    __slots__ = ("result", "seq", "depth", "parent", "since", "window", "unseen_before")

    def __init__(
        self,
        result: Result,
        seq: int = 0,
        since: float | None = None,
        window: HoldWindow | None = None,
        unseen_before: float | None = None,
    ) -> None:
        self.result = result
        self.seq = seq
        self.depth = 0
        self.parent: Call | None = None
        self.since = since
        self.window = window
        self.unseen_before = unseen_before
        """When the session started listening (joined a room already in use, or came back after a gap)
        shortly before this result: its request may have been sent before then, unseen; else None."""

    def waiting(self, now: float | None) -> bool:
        """True while the request may still arrive (never for a finished session or file)."""
        window = self.window
        if window is None or window.ended or now is None or self.since is None or at_recording_end(now):
            return False
        return now < self.since + window.seconds

    @property
    def call_id(self) -> str:
        return self.result.call_id

    def __repr__(self) -> str:
        return f"OrphanResult({self.call_id!r})"


Item = Union[Call, OrphanResult, Message, Malformed]  # noqa: UP007 - a runtime alias, also on 3.10
