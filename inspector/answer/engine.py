"""The auto-responder: applies rules to incoming requests, after each rule's delay, through a scheduler.

The scheduler is the only thing that knows about time: :class:`AsyncioScheduler` for a live room,
:class:`FakeScheduler` (driven by a :class:`~inspector.model.FakeClock`) for tests.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from inspector.answer import compose
from inspector.answer.rules import Rule, RuleSet
from inspector.model import Call, FakeClock
from inspector.protocols import alicia

Deliver = Callable[[Call, compose.Draft, Rule], None]
"""Sends one auto-answer (the live side marks it ``answered_by="auto"``)."""


class Handle(Protocol):
    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """Runs ``callback`` after ``delay`` seconds."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle: ...

    def now(self) -> float:
        """The time deadlines are compared with (epoch seconds)."""
        ...


class AsyncioScheduler:
    """Schedules on the running asyncio loop (looked up when scheduling, so it works in any loop)."""

    def now(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle:
        import asyncio

        loop = asyncio.get_running_loop()
        if delay <= 0:
            return loop.call_soon(callback)
        return loop.call_later(delay, callback)


class _FakeHandle:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class FakeScheduler:
    """A scheduler for tests: nothing runs until :meth:`advance` moves the fake clock past a due time."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self._queue: list[tuple[float, int, _FakeHandle, Callable[[], None]]] = []
        self._order = itertools.count()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle:
        handle = _FakeHandle()
        heapq.heappush(self._queue, (self.clock.now() + max(0.0, delay), next(self._order), handle, callback))
        return handle

    def now(self) -> float:
        return self.clock.now()

    def advance(self, seconds: float = 0.0) -> int:
        """Move the clock forward, running every callback that falls due on the way; returns how many ran."""
        target = self.clock.now() + seconds
        ran = 0
        while self._queue and self._queue[0][0] <= target:
            due, _, handle, callback = heapq.heappop(self._queue)
            self.clock.set(max(self.clock.now(), due))
            if not handle.cancelled:
                callback()
                ran += 1
        self.clock.set(target)
        return ran

    @property
    def pending(self) -> int:
        return sum(1 for entry in self._queue if not entry[2].cancelled)


@dataclass(frozen=True)
class Decision:
    """What the auto-responder did with one request (for logs and tests)."""

    call_id: str
    tool: str
    action: str  # "scheduled", "sent", "skipped"
    reason: str = ""
    rule_line: int = 0


class AutoResponder:
    """Offers each new call to the rules; the first matching rule's answer is delivered after its delay."""

    def __init__(
        self,
        rules: RuleSet,
        scheduler: Scheduler,
        deliver: Deliver,
        log: Callable[[Decision], None] | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.clock = clock
        self.rules = rules
        self.scheduler = scheduler
        self.deliver = deliver
        self.log = log
        self._scheduled: dict[int, Handle] = {}
        self.decisions: list[Decision] = []

    def offer(self, call: Call) -> Rule | None:
        """Consider a newly arrived call; returns the rule that will answer it, if any."""
        if not call.awaits_client_answer:
            return None
        if id(call) in self._scheduled:
            return None
        rule = self.rules.match(call)
        if rule is None:
            return None
        late = self._past_deadline(call, rule, self._now() + rule.delay_ms / 1000.0)
        if late:
            self._note(call, "skipped", late, rule)
            return None
        self._note(call, "scheduled", f"rule at line {rule.line}, after {rule.delay_ms} ms", rule)
        self._scheduled[id(call)] = self.scheduler.call_later(
            rule.delay_ms / 1000.0, lambda: self._fire(call, rule)
        )
        return rule

    def _fire(self, call: Call, rule: Rule) -> None:
        self._scheduled.pop(id(call), None)
        if call.answered:
            first = call.result
            who = (first.answered_by or first.sender or "someone") if first is not None else "someone"
            self._note(call, "skipped", f"already answered by {who}", rule)
            return
        late = self._past_deadline(call, rule, self._now())
        if late:
            self._note(call, "skipped", late, rule)
            return
        try:
            draft = rule.draft(call)
        except alicia.TemplateTooLarge as exc:  # a huge tool name in many {toolName}: never expanded
            self._note(call, "skipped", f"rule at line {rule.line}: {exc}", rule)
            return
        self._note(call, "sent", f"rule at line {rule.line}", rule)
        self.deliver(call, draft, rule)

    def _now(self) -> float:
        return self.clock() if self.clock is not None else self.scheduler.now()

    @staticmethod
    def _past_deadline(call: Call, rule: Rule, at: float) -> str:
        """Why an answer sent at ``at`` would be late (empty when it is not, or the rule allows it)."""
        deadline = call.deadline
        if rule.send_late or deadline is None or at <= deadline:
            return ""
        return (
            f"rule at line {rule.line} would answer {at - deadline:.1f} s past the request's deadline "
            f"(timeout {call.request.timeout_ms} ms, delay_ms {rule.delay_ms}): not sent; "
            "send_late = true in the rule sends it anyway"
        )

    def _note(self, call: Call, action: str, reason: str, rule: Rule) -> None:
        decision = Decision(call.call_id, call.tool, action, reason, rule.line)
        self.decisions.append(decision)
        if self.log is not None:
            self.log(decision)

    def cancel_all(self) -> None:
        """Forget every answer not yet sent (when the room is left)."""
        for handle in self._scheduled.values():
            handle.cancel()
        self._scheduled.clear()

    @property
    def waiting(self) -> int:
        return len(self._scheduled)
