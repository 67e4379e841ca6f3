"""Headless output of a live room: each call as it is threaded (the ``dump`` format), or JSON lines."""

from __future__ import annotations

import heapq
import math
from typing import IO, Any

from inspector.calltext import call_json, item_text
from inspector.model import Call, CallStore, Malformed, Message, OrphanResult
from inspector.model.call import Item
from inspector.model.values import dumps_json
from inspector.textsafe import clean


def item_json(item: Item, now: float) -> dict[str, Any] | None:
    """One JSON object for a store change (a call, a message, a malformed packet, an orphan result)."""
    if isinstance(item, Call):
        return {"event": "call", **call_json(item, now)}
    if isinstance(item, Message):
        return {
            "event": "message",
            "kind": item.kind,
            "text": item.text,
            "sender": item.sender,
            "group": item.group,
            "ts": item.ts,
        }
    if isinstance(item, Malformed):
        return {"event": "malformed", "where": item.where, "reason": item.reason}
    if isinstance(item, OrphanResult):
        result = item.result
        return {
            "event": "orphan",
            "id": result.call_id,
            "group": result.group,
            "outcome": result.outcome.value,
            "error_code": result.error_code,
            "error_message": result.error_message,
            "answered_by": result.answered_by,
            "ts": result.ts,
            **({} if item.unseen_before is None else {"unseen_before": item.unseen_before}),
        }
    return None


class Printer:
    """Subscribe to a store and print every change: text lines (colour on a terminal) or JSON lines.

    Lines come in the order things happen, each stamped with its own time: a call when its request came
    (``pending``), again when a result came (the result's time), and again when it went overdue (its
    deadline, printed by a timer, or before any later line if the timer is late). JSON call lines say
    which it was in ``change`` (``request``, ``result``, ``overdue``) and when in ``at``.
    """

    def __init__(
        self, store: CallStore, out: IO[str], *, as_json: bool = False, color: bool | None = None
    ) -> None:
        self.store = store
        self.out = out
        self.as_json = as_json
        self.lines = 0
        self._console = None
        self._loop: Any = None
        self._due: list[tuple[float, int, Call]] = []  # (deadline, seq, call) of calls shown unanswered
        self._timed: set[int] = set()
        self._results: dict[int, int] = {}  # how many results of each call have been shown
        if not as_json:
            from rich.console import Console

            is_tty = out.isatty() if hasattr(out, "isatty") else False
            self._console = Console(
                file=out,
                highlight=False,
                soft_wrap=True,
                force_terminal=color if color is not None else is_tty,
                no_color=not (color if color is not None else is_tty),
            )

    def attach(self, loop: Any = None) -> Printer:
        """Print every store change; with an asyncio ``loop``, also print calls again when they go overdue."""
        self._loop = loop
        self.store.subscribe(self.show)
        return self

    def _watch_deadline(self, call: Call, now: float) -> None:
        deadline = call.deadline
        if deadline is None or call.answered or id(call) in self._timed or not math.isfinite(deadline):
            return
        self._timed.add(id(call))
        heapq.heappush(self._due, (deadline, call.seq, call))
        if self._loop is not None:
            self._loop.call_later(max(0.0, deadline - now) + 0.01, self._overdue_now)

    def _overdue_now(self) -> None:
        self._overdue_until(self.store.clock.now())

    def _overdue_until(self, moment: float) -> None:
        """Print, in deadline order, every call whose deadline is at or before ``moment`` and that is
        still unanswered: what went overdue first is printed first, stamped with its deadline."""
        now = self.store.clock.now()
        while self._due and self._due[0][0] <= min(moment, now):
            deadline, _, call = heapq.heappop(self._due)
            self._timed.discard(id(call))
            if not call.answered:
                self._write(call, now, deadline, "overdue")

    def show(self, item: Item) -> None:
        now = self.store.clock.now()
        change = ""
        stamp: Any = getattr(item, "ts", None)
        if isinstance(item, Call):
            shown = self._results.get(id(item), 0)
            if len(item.results) > shown:
                self._results[id(item)] = len(item.results)
                stamp, change = item.results[-1].ts, "result"
            else:
                stamp, change = item.request.ts, "request"
        at: float = stamp if isinstance(stamp, (int, float)) else now
        self._overdue_until(at)  # a deadline that passed before this event is printed before it
        self._write(item, now, at, change)
        if isinstance(item, Call):
            self._watch_deadline(item, now)

    def _write(self, item: Item, now: float, at: float, change: str) -> None:
        if self.as_json:
            obj = item_json(item, now)
            if obj is not None:
                if change:
                    obj["change"], obj["at"] = change, at
                self.out.write(dumps_json(obj) + "\n")
                self.out.flush()
                self.lines += 1
            return
        text = item_text(item, now, at if change else None)
        if text is not None and self._console is not None:
            self._console.print(text)
            self.out.flush()
            self.lines += 1

    def note(self, event: str, text: str, **fields: Any) -> None:
        """A line of the run itself (e.g. where the recording goes), not from the room."""
        if self.as_json:
            self.out.write(dumps_json({"event": event, "text": text, **fields}) + "\n")
        else:
            self.out.write(clean(text) + "\n")  # a reason or room name from a peer stays inert
        self.out.flush()
