"""Gemini CLI's telemetry outfile (``telemetry.outfile``): not OTLP, but the JS SDK's span, log and metric
objects each written with ``JSON.stringify(obj, null, 2)`` one after another (packages/core/src/telemetry/
file-exporters.ts), several signals in one file.

A ``gemini_cli.tool_call`` log record is one whole call: ``function_name``, ``function_args`` (a JSON
string), ``duration_ms``, ``success``, ``decision`` (accept, reject, modify, auto_accept), ``error``,
``error_type``, ``prompt_id``, ``session.id`` and ``event.timestamp`` (when it ended) in its attributes
(packages/core/src/telemetry/types.ts, ``ToolCallEvent``). The events carry no call id: a call is named
by its ``prompt_id``, with its order within the prompt when the prompt made several
(``<prompt_id>#<n>``), and its detail says so. Everything
else in the file (spans, other events, metrics) is counted as skipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import inspector.protocols.common.reread as _reread
from inspector.model.call import NOTES
from inspector.model.events import Event, Malformed, Outcome, RawRef, Request, Result, Skipped
from inspector.model.values import (
    CONTROL_NOTE,
    has_control,
    loads_noted,
    loads_text,
    number,
    text_noted,
    utf8_note,
    valid,
)
from inspector.protocols.common.jsondeep import value_end
from inspector.protocols.common.values import arguments_summary, parse_time
from inspector.protocols.format import Format
from inspector.protocols.sniffers.gemini_telemetry import sniff
from inspector.userpath import open_binary

NAME = "gemini_telemetry"
DESCRIPTION = (
    "Gemini CLI telemetry outfile (pretty-printed OpenTelemetry JS objects): gemini_cli.tool_call events"
)

TOOL_CALL = "gemini_cli.tool_call"
NO_ID = (
    "Gemini CLI's telemetry gives a call no id: it is named by its prompt (with its order within the "
    "prompt when the prompt made several calls)"
)
_DECODER = json.JSONDecoder(strict=False)  # a control character raw in a string: read, and said
_WHERE = re.compile(r"\(call (.+)\)$")
_NEXT = re.compile(r"\n\{")


def read(path: str) -> Iterator[Event]:
    with open_binary(path) as fh:  # a regular file only: a FIFO or a device is refused, never waited on
        data = fh.read()
    yield from _decode_all(path, data)


def _decode_all(path: str, data: bytes) -> Iterator[Event]:
    """Every object of the file in order; a call's id is known once the whole file is (see
    :func:`_call_ids`)."""
    found: list[Event | tuple[Any, int, int, int, str | None]] = []
    text = data.decode("utf-8", "surrogateescape")
    pos = 0
    byte_pos = 0  # the byte offset of ``pos``
    index = 0
    while True:
        start = _skip(text, pos)
        if start >= len(text):
            break
        byte_start = byte_pos + len(text[pos:start].encode("utf-8", "surrogateescape"))
        index += 1
        try:
            try:
                value, end = _DECODER.raw_decode(text, start)
                deep = None
            except RecursionError:  # read with a stand-in for what is past MAX_DEPTH, as a line is
                end = value_end(text, start)
                value, failed, deep = loads_noted(text[start:end]) if end > 0 else (None, "", None)
                if failed is not None:
                    raise
        except (ValueError, RecursionError) as exc:
            later = _NEXT.search(text, start + 1)  # the next object starts a line with its brace
            end = later.start() + 1 if later else len(text)
            length = len(text[start:end].encode("utf-8", "surrogateescape"))
            where = f"object {index}"
            raw = RawRef(path, where, byte_start, length, protocol=NAME)
            found.append(Malformed(where, f"not JSON: {str(exc)[:200]}", source=path, raw=raw))
        else:
            piece = text[start:end]
            try:
                length, note = len(piece.encode("utf-8")), None
            except UnicodeEncodeError as exc:  # bytes not UTF-8 (escaped): read as U+FFFD, and said
                length = len(piece.encode("utf-8", "surrogateescape"))
                note = utf8_note(len(piece[: exc.start].encode("utf-8", "surrogateescape")))
            if has_control(piece):
                note = CONTROL_NOTE if note is None else f"{note}; {CONTROL_NOTE}"
            if deep is not None:
                note = deep if note is None else f"{note}; {deep}"
            nuls = _nuls(text, pos, start)
            if nuls is not None:
                note = nuls if note is None else f"{nuls}; {note}"
            found.append((valid(value), index, byte_start, length, note))  # a lone surrogate made valid
        pos, byte_pos = end, byte_start + length
    ids = _call_ids([item[0] for item in found if isinstance(item, tuple)])
    calls = iter(ids)
    for item in found:
        if not isinstance(item, tuple):
            yield item
            continue
        value, index, offset, length, note = item
        call_id = next(calls)
        if note is not None:
            where = f"object {index}" if call_id is None else f"object {index} (call {call_id})"
            yield Malformed(where, note, source=path, raw=RawRef(path, where, offset, length, protocol=NAME))
        if call_id is None:
            yield _skipped(value, index)
            continue
        yield from decode(
            value, call_id, RawRef(path, f"object {index} (call {call_id})", offset, length, protocol=NAME)
        )


def _call_ids(values: list[Any]) -> list[str | None]:
    """Per object, the id of its call (None: not a tool call): the prompt's id when the prompt made one
    call, else ``<prompt_id>#<n>`` by order within it."""
    prompts = [_prompt(value) for value in values]
    totals: dict[str, int] = {}
    for prompt in prompts:
        if prompt is not None:
            totals[prompt] = totals.get(prompt, 0) + 1
    seen: dict[str, int] = {}
    ids: list[str | None] = []
    for prompt in prompts:
        if prompt is None:
            ids.append(None)
            continue
        seen[prompt] = seen.get(prompt, 0) + 1
        ids.append(prompt if totals[prompt] == 1 and prompt else f"{prompt}#{seen[prompt]}")
    return ids


def _prompt(value: Any) -> str | None:
    """The prompt id of a tool call record ('' when it has none), None for anything else."""
    attrs = value.get("attributes") if isinstance(value, dict) else None
    if not isinstance(attrs, dict) or attrs.get("event.name") != TOOL_CALL:
        return None
    prompt = attrs.get("prompt_id")
    return prompt if isinstance(prompt, str) else ""


def _skip(text: str, pos: int) -> int:
    """Past the blanks at ``pos``, and the NUL bytes a crash leaves in a file (the object after them
    says how many: ``_nuls``)."""
    while pos < len(text) and text[pos] in " \t\r\n\x00":
        pos += 1
    return pos


def _nuls(text: str, pos: int, start: int) -> str | None:
    count = text.count("\x00", pos, start)
    return (
        f"had {count} NUL byte{'s' if count > 1 else ''} before it (as a crash leaves in a file)"
        if count
        else None
    )


def _skipped(value: Any, index: int) -> Skipped:
    attrs = value.get("attributes") if isinstance(value, dict) else None
    kind = attrs.get("event.name") if isinstance(attrs, dict) else None
    name = value.get("name") if isinstance(value, dict) else None
    label = kind if isinstance(kind, str) else name if isinstance(name, str) else "object"
    return Skipped(label[:60], f"object {index}")


def decode(value: dict[str, Any], call_id: str, raw: RawRef) -> list[Event]:
    """The request and result of one ``gemini_cli.tool_call`` record, as call ``call_id``."""
    attrs = value["attributes"]
    tool = attrs.get("function_name") if isinstance(attrs.get("function_name"), str) else "?"
    group = attrs.get("session.id") if isinstance(attrs.get("session.id"), str) else ""
    end = parse_time(attrs.get("event.timestamp"))
    if end is None:
        end = _hr_time(value.get("hrTime"))
    took = number(attrs.get("duration_ms"))  # None for an int past any float (OverflowError) or NaN
    seconds = took / 1000.0 if took is not None else None
    start = end - seconds if end is not None and seconds is not None else end
    params: Any = attrs.get("function_args")
    if isinstance(params, str):
        parsed, error = loads_text(params)
        params = parsed if error is None else params
    request = Request(
        call_id,
        tool,
        group=group,
        params=params,
        ts=start,
        sender="gemini-cli",
        raw=raw,
        summary=arguments_summary(params) if params is not None else "",
        extra={NOTES: {"no_id": NO_ID}},
    )
    decision = attrs.get("decision")
    error = attrs.get("error") if isinstance(attrs.get("error"), str) else None
    if decision == "reject":
        outcome = Outcome.DENIED
    elif attrs.get("success") is True:
        outcome = Outcome.SUCCESS
    else:
        outcome = Outcome.ERROR
    error_type = attrs.get("error_type") if isinstance(attrs.get("error_type"), str) else None
    result = Result(
        call_id,
        outcome,
        group=group,
        error_code=error_type,
        error_message=error if outcome is not Outcome.SUCCESS else None,
        ts=end,
        sender="gemini-cli",
        raw=raw,
        tool=tool,
    )
    return [request, result]


def _hr_time(value: Any) -> float | None:
    """The JS SDK's ``[seconds, nanoseconds]``."""
    if isinstance(value, list) and len(value) == 2:
        seconds, nanos = value
        if isinstance(seconds, int) and isinstance(nanos, int):
            try:
                return float(seconds) + nanos / 1e9
            except OverflowError:
                return None
    return None


def redecode(raw: RawRef) -> list[Event]:
    """The one record ``raw`` points at, decoded again under the call id its place gave it."""
    found = _WHERE.search(raw.where)
    value, error = loads_text(_text(_reread.reread(raw)), record=True)
    if error is not None or found is None or not isinstance(value, dict):
        reason = error or "not a Gemini CLI tool call record"
        return [Malformed(raw.where, reason, source=raw.source, raw=raw)]
    attrs = value.get("attributes")
    if not isinstance(attrs, dict) or attrs.get("event.name") != TOOL_CALL:
        return [Malformed(raw.where, "not a gemini_cli.tool_call record", source=raw.source, raw=raw)]
    return decode(value, found.group(1), raw)


def _text(data: bytes | str) -> str:
    return text_noted(data)[0]  # bad bytes as its read made them


FORMAT = Format(name=NAME, description=DESCRIPTION, sniff=sniff, read=read, redecode=redecode)
