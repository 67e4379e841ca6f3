"""Calls as readable text, shared by `inspector dump`, `inspector live --no-ui` and the UI's export
(``call_json``, their JSON, lives in ``inspector.calljson``)."""

from __future__ import annotations

from rich.text import Text

from inspector.calljson import call_json  # noqa: F401 - the export and the live printer import it here
from inspector.model import Call, Malformed, Message, OrphanResult, State
from inspector.model.call import Item
from inspector.model.clock import at_recording_end
from inspector.textsafe import clean, one_line
from inspector.timefmt import clock_text, deadline_words, duration

STATE_STYLES = {
    State.PENDING: "bold yellow",
    State.OVERDUE: "bold magenta",
    State.SUCCEEDED: "green",
    State.FAILED: "bold red",
    State.TIMED_OUT: "red",
    State.CANCELED: "dim yellow",
    State.DENIED: "bold dark_orange",
}


def time_column(call: Call, now: float) -> str:
    """Latency when done, time left while pending, how late when overdue."""
    latency = call.latency_ms
    if call.results:
        return duration(latency / 1000.0) if latency is not None else ""
    remaining = call.remaining(now)
    if remaining is None:
        return ""
    if at_recording_end(now):
        return deadline_words(remaining, True)
    return f"{duration(remaining)} left" if remaining > 0 else f"{duration(-remaining)} over"


def call_text(call: Call, now: float, at: float | None = None) -> Text:
    """One line for a call: time, tool, executor, state, timing, summary and flags. The time is the
    request's, or ``at`` (a live printer stamps each line with the time of what it reports)."""
    state = call.state(now)
    text = Text("  " * call.depth)
    text.append(clock_text(call.request.ts if at is None else at), "dim")
    text.append(" ")
    text.append(f"{state.value:<9}", STATE_STYLES[state])
    text.append(" ")
    text.append(one_line(call.tool, 40), "bold")
    if call.request.executor is not None:
        text.append(f" [{call.request.executor.value}]", "cyan")
    timing = time_column(call, now)
    if timing:
        text.append(f" {timing}", "dim")
    if call.request.summary:  # a format's summary is the session's text, made inert here as every field
        text.append("  " + clean(call.request.summary, keep_newlines=False))
    flags = []
    if call.undelivered:
        flags.append("not delivered")
    if "failure_as_text" in call.notes:
        flags.append("failure reported as success")
    link = call.notes.get("link")
    if link:
        flags.append(one_line(link.split(";", 1)[0], 120))
    if call.late:
        flags.append("late")
    if call.duplicates:
        flags.append(f"{call.duplicates} duplicate result(s)")
    if call.result is not None and call.result.answered_by:
        flags.append(f"answered by {one_line(call.result.answered_by, 60)}")
    if flags:
        text.append("  (" + ", ".join(flags) + ")", "yellow")
    first = call.result
    if first is not None and (first.error_message or first.error_code):
        said = (one_line(first.error_code or "", 40), one_line(first.error_message or "", 160))
        text.append(f"\n{'  ' * call.depth}  ↳ " + " ".join(part for part in said if part), "red")
    if call.request.violation:
        text.append(
            f"\n{'  ' * call.depth}  ⚠ protocol violation: {one_line(call.request.violation, 200)}",
            "bold magenta",
        )
    return text


def item_text(item: Item, now: float, at: float | None = None) -> Text | None:
    """Text for any store item (None for items not worth a line); ``at`` stamps a call's line."""
    if isinstance(item, Call):
        return call_text(item, now, at)
    if isinstance(item, OrphanResult):
        result = item.result
        text = Text("  " * item.depth)
        text.append(clock_text(result.ts), "dim")
        text.append(" orphan    ", "bold red reverse")
        text.append(f" result for unknown id {one_line(result.call_id, 60)}", "red")
        if item.unseen_before is not None:
            text.append(f" ({unseen_words(item)})", "yellow")
        if result.error_message:
            text.append("  " + one_line(result.error_message, 120))
        return text
    if isinstance(item, Malformed):
        text = Text("malformed ", "bold red")
        text.append(f"{one_line(item.where, 60)}: {one_line(item.reason, 200)}")
        return text
    if isinstance(item, Message):
        text = Text(clock_text(item.ts), "dim")
        text.append(f" {one_line(item.kind, 30)}: ", "italic blue")
        text.append(one_line(item.text, 160), "italic")
        return text
    return None


def format_call(call: Call, now: float) -> str:
    """Plain text of a call and its nested calls (no colour)."""
    lines = [call_text(c, now).plain for c in call.walk()]
    return "\n".join(lines)


def unseen_words(orphan: OrphanResult) -> str:
    """What may explain an orphan result: the inspector began listening just before it (a room already in
    use, a hub, a rejoin), and a room keeps no history, so its request may have gone by unseen."""
    return (
        f"its request may have been sent before {clock_text(orphan.unseen_before)}, when the inspector began "
        "listening (a room keeps no history)"
    )
