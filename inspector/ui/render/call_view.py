"""A whole call for the detail pane: header, errors, parameters, result, duplicates, nested calls."""

from __future__ import annotations

from dataclasses import replace

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from inspector.calltext import unseen_words
from inspector.model import Call, Malformed, Marker, Message, OrphanResult, Request, Result, State
from inspector.model.call import OUTCOME_STATE, Item
from inspector.model.clock import at_recording_end
from inspector.model.details import PatchDetail, TextDetail
from inspector.model.events import Outcome
from inspector.timefmt import deadline_words
from inspector.ui.render.folding import diff_first, parameters
from inspector.ui.render.json_view import render_json, render_value
from inspector.ui.render.parts import clock, fields_line, heading, muted
from inspector.ui.render.raw_view import render_raw
from inspector.ui.render.result_views import data_size, render_result_body
from inspector.ui.render.safe import DEFAULT_LIMITS, Limits, cut_marker, duration, inline, safe_text
from inspector.ui.render.theme import RenderTheme

MAX_CHILDREN = 200
"""Nested calls listed under a call before a marker."""
MAX_RESULTS = 20
"""Results of one call shown (its result and 19 duplicates), then a marker: a call answered thousands
of times (an id a peer reused) made a detail of millions of lines that froze the app."""
DUPLICATE_LINES = 200
"""Lines shown of a duplicate result's body or error (the result itself gets the full limits)."""


def _duplicate(limits: Limits) -> Limits:
    return replace(limits, lines=min(limits.lines, DUPLICATE_LINES))


def render_call(
    call: Call,
    request: Request | None = None,
    results: list[Result] | None = None,
    *,
    width: int,
    theme: RenderTheme,
    now: float | None,
    raw: bool = False,
    full_text: bool = False,
    limits: Limits = DEFAULT_LIMITS,
) -> RenderableType:
    """Everything about one call, top to bottom.

    ``request``/``results`` are the hydrated payloads (``inspector.sources.session.hydrate(call)``); when left
    out, the call's own are used. ``raw`` shows the original records instead; ``full_text`` shows a
    RAP result's full text instead of its display segment. ``now`` (epoch seconds) decides pending
    versus overdue and the time left.
    """
    request = request if request is not None else call.request
    results = results if results is not None else list(call.results)
    if results and not raw:
        results = with_request_diff(call, request, results)
    if raw:
        return Group(call_header(call, theme, now), Text(""), _raw_records(request, results, theme, width))
    parts: list[RenderableType] = [call_header(call, theme, now)]
    if any(r.error_code or r.error_message for r in results):
        parts.append(_errors(results, theme))
    first = diff_first(results)  # a Write or Edit: its diff, then the content it was given, folded
    params = [Text(""), *parameters(request.params, theme, limits, fold=first and not full_text)]
    parts += [] if first else params
    for index, result in enumerate(results[:MAX_RESULTS]):
        parts.append(Text(""))
        parts.append(_result_heading(result, index, len(results), request.ts, theme))
        parts.append(_body(result, width, theme, limits if index == 0 else _duplicate(limits), full_text))
    if len(results) > MAX_RESULTS:
        parts += [Text(""), cut_marker(len(results) - MAX_RESULTS, "duplicate results")]
    if not results:
        parts += [Text(""), heading("result", theme), muted(_waiting(call, now), theme)]
    parts += params if first else []
    if call.children:
        parts += [Text(""), nested_calls(call, theme, now)]
    return Group(*parts)


def with_request_diff(call: Call, request: Request, results: list[Result]) -> list[Result]:
    """``results`` with the first one's diff computed from the request when its result carries none
    (see below); the detail pane keeps what this gives, so a big edit's diff is computed once."""
    first = _with_request_diff(call.tool, request, results[0]) if results else None
    return results if first is None or first is results[0] else [first, *results[1:]]


def _with_request_diff(tool: str, request: Request, result: Result) -> Result:
    """A successful file change whose result carries no diff (no structuredPatch), with the diff
    computed from the request's own parameters (computed here, when shown, not when read)."""
    import inspector.protocols.claude.edits as claude_edits

    details = result.details
    if tool not in claude_edits.EDIT_TOOLS or result.outcome is not Outcome.SUCCESS:
        return result
    if isinstance(details, PatchDetail) and (details.hunks or details.content is not None):
        return result
    if details is not None and not isinstance(details, (PatchDetail, TextDetail)):
        return result
    said = details.text if isinstance(details, TextDetail) else result.data
    created = isinstance(said, str) and said.startswith("File created")
    patch = claude_edits.request_patch(tool, request.params, created=created)
    return result if patch is None else replace(result, details=patch)


def _body(result: Result, width: int, theme: RenderTheme, limits: Limits, full_text: bool) -> RenderableType:
    """A result's body, unless it only repeats the error message shown above."""
    text = result.details.text if isinstance(result.details, TextDetail) else result.data
    if result.details is None or isinstance(result.details, TextDetail):
        if result.error_message and isinstance(text, str) and text.strip() == result.error_message.strip():
            return muted("(the error message above is the whole result)", theme)
    return render_result_body(result, width=width, theme=theme, limits=limits, full_text=full_text)


def _raw_records(request: Request, results: list[Result], theme: RenderTheme, width: int) -> RenderableType:
    """The request's record, then each result's, each labelled."""
    refs, labels = [], []
    if request.raw is not None:
        refs.append(request.raw)
        labels.append("request")
    for index, result in enumerate(results[:MAX_RESULTS]):
        if result.raw is not None:
            refs.append(result.raw)
            labels.append("result" if index == 0 else f"duplicate result {index}")
    shown = render_raw(refs, theme=theme, width=width, labels=labels)
    if len(results) <= MAX_RESULTS:
        return shown
    return Group(shown, Text(""), cut_marker(len(results) - MAX_RESULTS, "duplicate results' records"))


def call_header(call: Call, theme: RenderTheme, now: float | None) -> Text:
    """Tool, id, executor, state; then times; then flags (late, duplicates, answered by, violation)."""
    request = call.request
    state = call.state(now)
    text = Text()
    text.append(inline(call.tool or "(no tool name)", 120), Style(bold=True))
    text.append("  ")
    text.append(f" {state.value} ", Style(color=theme.state_color(state), bold=True, reverse=True))
    if request.executor is not None:
        text.append(f"  {request.executor.value}", Style(color=theme.muted))
    text.append("\n")
    text.append_text(
        fields_line(
            [
                ("id", call.call_id),
                ("group", call.group or None),
                ("sender", request.sender or None),
                ("parent", call.parent.call_id if call.parent else None),
            ],
            theme,
        )
    )
    shown_trace = None
    for label, event in (("", request), ("result ", call.result)):
        trace = event.extra.get("trace") if event is not None else None
        if isinstance(trace, dict) and trace.get("trace_id") and trace != shown_trace:
            shown_trace = trace
            text.append("\n")
            pairs = [(f"{label}trace", trace.get("trace_id")), ("traceparent", trace.get("traceparent"))]
            text.append_text(fields_line(pairs, theme))
    timings = fields_line(_timings(call, now), theme)
    if timings.plain:
        text.append("\n")
        text.append_text(timings)
    flags = _flags(call, theme)
    if flags.plain:
        text.append("\n")
        text.append_text(flags)
    for kind, said in call.notes.items():
        text.append("\n")
        label, color = NOTE_LABELS.get(kind, (kind, theme.muted))
        text.append(f"{label}: ", Style(color=theme.overdue if color == "warn" else theme.muted, bold=True))
        text.append(inline(said, 600), Style(color=theme.muted))
    if request.violation:
        text.append("\n")
        text.append("⚠ protocol violation: ", Style(color=theme.violation, bold=True))
        text.append(inline(request.violation, 500), Style(color=theme.violation))
    return text


NOTE_LABELS = {
    "link": ("phone call", "muted"),
    "undelivered": ("not delivered", "warn"),
    "failure_as_text": ("failure reported as success", "warn"),
    "retransmitted": ("sent again", "muted"),
}
"""How the detail names each note of :data:`inspector.model.call.NOTES`."""


def _timings(call: Call, now: float | None) -> list[tuple[str, object]]:
    request = call.request
    first = call.result
    pairs: list[tuple[str, object]] = [("requested", clock(request.ts) if request.ts is not None else None)]
    if request.timeout_ms is not None:
        pairs.append(("timeout", duration(request.timeout_ms / 1000)))
    if first is not None:
        pairs.append(("answered", clock(first.ts) if first.ts is not None else None))
        latency = call.latency_ms
        pairs.append(("took", duration(latency / 1000) if latency is not None else None))
    elif now is not None:
        remaining = call.remaining(now)
        if remaining is not None:
            pairs.append(("", deadline_words(remaining, at_recording_end(now))))
        elif request.ts is not None:
            waited = duration(max(0.0, now - request.ts))
            if at_recording_end(now):
                pairs.append(("waited", f"{waited}, no result by the end of the recording"))
            else:
                pairs.append(("waiting", waited))
    return pairs


def _flags(call: Call, theme: RenderTheme) -> Text:
    text = Text()
    words: list[tuple[str, str]] = []
    if call.late:
        words.append(("late: answered after the deadline", theme.overdue))
    if call.duplicates:
        words.append(
            (f"{call.duplicates} duplicate result{'s' if call.duplicates > 1 else ''}", theme.overdue)
        )
    first = call.result
    if first is not None and first.answered_by:
        words.append((f"answered by {inline(first.answered_by, 80)}", theme.heading))
    for index, (word, color) in enumerate(words):
        if index:
            text.append("  ·  ", Style(color=theme.muted))
        text.append(word, Style(color=color, bold=True))
    return text


def _errors(results: list[Result], theme: RenderTheme) -> RenderableType:
    """Error codes and messages of the results that carry one (before anything else)."""
    parts: list[RenderableType] = [Text(""), heading("error", theme)]
    said = 0
    for number, result in enumerate(results, start=1):
        if not (result.error_code or result.error_message):
            continue
        if said == MAX_RESULTS:
            parts.append(
                cut_marker(sum(1 for r in results[number - 1 :] if r.error_code or r.error_message), "errors")
            )
            break
        said += 1
        line = Text()
        if len(results) > 1:
            line.append(f"result {number}: ", Style(color=theme.muted))
        if result.error_code:
            line.append(inline(result.error_code, 120), Style(color=theme.failed, bold=True))
            line.append("  ")
        if result.error_message:
            limits = DEFAULT_LIMITS if said == 1 else _duplicate(DEFAULT_LIMITS)
            line.append_text(safe_text(result.error_message, style=Style(color=theme.failed), limits=limits))
        parts.append(line)
    return Group(*parts)


def _result_heading(
    result: Result, index: int, count: int, request_ts: float | None, theme: RenderTheme
) -> Text:
    title = "result" if index == 0 else f"duplicate result {index} of {count - 1}"
    state = OUTCOME_STATE.get(result.outcome, State.FAILED)
    text = heading(title, theme)
    text.append("  ")
    text.append(result.outcome.value, Style(color=theme.state_color(state), bold=True))
    note = [data_size(result.data)]
    if index and result.ts is not None:
        note.append(f"at {clock(result.ts)}")
        if request_ts is not None:
            note.append(f"{duration(result.ts - request_ts)} after the request")
    if result.answered_by and index:
        note.append(f"answered by {result.answered_by}")
    shown = "  ·  ".join(part for part in note if part)
    if shown:
        text.append("  " + inline(shown, 300), Style(color=theme.muted))
    return text


def _waiting(call: Call, now: float | None) -> str:
    state = call.state(now)
    if state is State.OVERDUE:
        return "no result yet, and the deadline has passed"
    return "waiting for a result"


def nested_calls(call: Call, theme: RenderTheme, now: float | None) -> RenderableType:
    """What happened under this call (a subagent's tool calls, subscription events), one line each."""
    children = call.children
    calls = sum(1 for child in children if isinstance(child, Call))
    note = f"{calls} call{'s' if calls != 1 else ''}"
    if len(children) > calls:
        note += f", {len(children) - calls} other event{'s' if len(children) - calls != 1 else ''}"
    text = heading("nested", theme, note)
    for child in children[:MAX_CHILDREN]:
        text.append("\n")
        text.append_text(_child_line(child, theme, now))
    if len(children) > MAX_CHILDREN:
        text.append("\n")
        text.append_text(cut_marker(len(children) - MAX_CHILDREN, "nested items"))
    return text


def _child_line(child: Item, theme: RenderTheme, now: float | None) -> Text:
    text = Text()
    if isinstance(child, Call):
        state = child.state(now)
        color = theme.state_color(state)
        text.append("● ", Style(color=color))
        text.append(inline(child.tool, 60), Style(bold=True))
        text.append(f"  {state.value}", Style(color=color))
        latency = child.latency_ms
        if latency is not None:
            text.append(f"  {duration(latency / 1000)}", Style(color=theme.muted))
        if child.request.summary:
            text.append("  " + inline(child.request.summary, 120))
        inner = sum(1 for _ in child.walk()) - 1
        if inner:
            text.append(f"  (+{inner} nested)", Style(color=theme.muted))
    elif isinstance(child, Message):
        text.append("✉ ", Style(color=theme.muted))
        text.append(inline(child.kind or "message", 40), Style(italic=True))
        text.append(f"  {clock(child.ts)}  ", Style(color=theme.muted))
        text.append(inline(child.text, 120))
    elif isinstance(child, OrphanResult):
        text.append("● orphan result ", Style(color=theme.orphan))
        text.append(inline(child.call_id, 80))
    else:
        text.append("● malformed ", Style(color=theme.violation))
        text.append(inline(getattr(child, "reason", ""), 120))
    return text


# -- other items ---------------------------------------------------------------------------------
def render_item(
    item: Item,
    *,
    width: int,
    theme: RenderTheme,
    now: float | None,
    raw: bool = False,
    full_text: bool = False,
    limits: Limits = DEFAULT_LIMITS,
) -> RenderableType:
    """Any store item: a call (hydrated here), an orphan result, a message or a malformed record."""
    if isinstance(item, Call):
        from inspector.sources.session import hydrate

        request, results = hydrate(item, most=MAX_RESULTS)
        return render_call(
            item,
            request,
            results,
            width=width,
            theme=theme,
            now=now,
            raw=raw,
            full_text=full_text,
            limits=limits,
        )
    if isinstance(item, OrphanResult):
        return _orphan(item, width, theme, now, raw, full_text, limits)
    if isinstance(item, Message):
        return _message(item, theme, raw, limits)
    if isinstance(item, Malformed):
        return _malformed(item, theme)
    return muted(f"(nothing to show for a {type(item).__name__})", theme)


def _orphan(
    item: OrphanResult,
    width: int,
    theme: RenderTheme,
    now: float | None,
    raw: bool,
    full_text: bool,
    limits: Limits,
) -> RenderableType:
    result = item.result
    head = Text()
    if item.waiting(now):
        head.append(" early result ", Style(color=theme.orphan, bold=True, reverse=True))
        head.append("  its request has not arrived (yet)", Style(color=theme.muted))
    else:
        head.append(" orphan result ", Style(color=theme.orphan, bold=True, reverse=True))
        head.append("  no request has this id", Style(color=theme.muted))
    if item.unseen_before is not None:
        head.append("\n" + unseen_words(item), Style(color=theme.muted))
    head.append("\n")
    head.append_text(
        fields_line(
            [
                ("id", result.call_id),
                ("group", result.group or None),
                ("tool", result.tool or None),
                ("sender", result.sender or None),
                ("at", clock(result.ts) if result.ts is not None else None),
            ],
            theme,
        )
    )
    if raw:
        return Group(head, Text(""), render_raw(result.raw, theme=theme, width=width))
    parts: list[RenderableType] = [head]
    if result.error_code or result.error_message:
        parts.append(_errors([result], theme))
    parts += [Text(""), _result_heading(result, 0, 1, None, theme)]
    parts.append(_body(result, width, theme, limits, full_text))
    return Group(*parts)


def _message(item: Message, theme: RenderTheme, raw: bool, limits: Limits) -> RenderableType:
    head = Text()
    head.append(inline(item.kind or "message", 60), Style(color=theme.heading, bold=True, italic=True))
    head.append("\n")
    head.append_text(
        fields_line(
            [
                ("from", item.sender or None),
                ("group", item.group or None),
                ("at", clock(item.ts) if item.ts is not None else None),
                ("parent", item.parent_id),
            ],
            theme,
        )
    )
    if raw:
        return Group(head, Text(""), render_raw(item.raw, theme=theme))
    body = render_value(item.text, theme, limits) if item.text else muted("(no text)", theme)
    parts: list[RenderableType] = [head, Text(""), body]
    if isinstance(item, Marker) and item.body:  # what the row folds: a compaction's summary
        parts += [
            Text(""),
            heading("folded", theme, f"{item.body.count(chr(10)) + 1:,} lines"),
            safe_text(item.body, limits=limits),
        ]
    if item.extra:
        parts += [Text(""), heading("extra", theme), render_json(item.extra, theme, limits, text_blocks=True)]
    return Group(*parts)


def _malformed(item: Malformed, theme: RenderTheme) -> RenderableType:
    head = Text()
    head.append(" malformed record ", Style(color=theme.violation, bold=True, reverse=True))
    head.append("\n")
    head.append_text(fields_line([("where", item.where), ("file", item.source or None)], theme))
    head.append("\n")
    head.append(inline(item.reason, 2000), Style(color=theme.failed))
    if item.raw is None:
        return head
    return Group(head, Text(""), render_raw(item.raw, theme=theme))
