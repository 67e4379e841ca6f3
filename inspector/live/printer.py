"""Headless output of a live room: each call as it is threaded (the ``dump`` format), or JSON lines."""

from __future__ import annotations

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
        }
    return None


class Printer:
    """Subscribe to a store and print every change: text lines (colour on a terminal) or JSON lines."""

    def __init__(
        self, store: CallStore, out: IO[str], *, as_json: bool = False, color: bool | None = None
    ) -> None:
        self.store = store
        self.out = out
        self.as_json = as_json
        self.lines = 0
        self._console = None
        self._loop: Any = None
        self._timed: set[int] = set()
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
        if (
            self._loop is None
            or deadline is None
            or call.answered
            or id(call) in self._timed
            or deadline <= now
        ):
            return
        self._timed.add(id(call))

        def overdue() -> None:
            self._timed.discard(id(call))
            if not call.answered:
                self.show(call)

        self._loop.call_later(deadline - now + 0.01, overdue)

    def show(self, item: Item) -> None:
        now = self.store.clock.now()
        if isinstance(item, Call):
            self._watch_deadline(item, now)
        if self.as_json:
            obj = item_json(item, now)
            if obj is not None:
                self.out.write(dumps_json(obj) + "\n")
                self.out.flush()
                self.lines += 1
            return
        text = item_text(item, now)
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
