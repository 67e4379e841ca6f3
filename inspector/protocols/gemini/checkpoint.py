"""Gemini CLI saved chats: ``/chat save <tag>`` writes ``<project temp dir>/checkpoint-<tag>.json``.

Such a file is the model's history as the Gemini API holds it, a JSON array of ``{role, parts}``
contents: text parts, a ``functionCall`` part (``{name, args}``, with no id in the 2025 builds) in a
``model`` content, answered by the ``functionResponse`` part (``{id, name, response}``) at the same place
among the parts of the next ``user`` content, as the API requires. A call takes its id from its response
when it has none of its own. Each call is read as the session layout's ``toolCalls`` entry would hold it,
so outcomes read the same (``response.error``, ``[Operation Cancelled]``, a shell's ``Exit Code: N``). No
time is stored. A call's record is the span from its ``model`` content to the end of the answering
``user`` content, so it can be decoded again alone (:func:`redecode`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from inspector.model.events import Event, Malformed, Message, RawRef
from inspector.protocols.gemini.calls import call_events

_ROLES = {"user": "user", "model": "assistant"}
_CANCELLED = "[Operation Cancelled]"
TEXT_LIMIT = 4000


def is_content(value: Any) -> bool:
    """True for one ``{role, parts}`` item of a saved chat."""
    return isinstance(value, dict) and value.get("role") in _ROLES and isinstance(value.get("parts"), list)


def events(contents: list[tuple[dict[str, Any], RawRef]], group: str) -> Iterator[Event]:
    """The messages, calls and results of a saved chat's contents, in order."""
    for index, (content, raw) in enumerate(contents):
        answer = contents[index + 1] if index + 1 < len(contents) else None
        if answer is not None and answer[0].get("role") != "user":
            answer = None
        yield from _content_events(content, raw, answer, group)


def _content_events(
    content: dict[str, Any],
    raw: RawRef,
    answer: tuple[dict[str, Any], RawRef] | None,
    group: str,
) -> Iterator[Event]:
    kind = _ROLES[content["role"]]
    parts = [part for part in content["parts"] if isinstance(part, dict)]
    text = "".join(
        part["text"] for part in parts if isinstance(part.get("text"), str) and not part.get("thought")
    )
    if text.strip():
        yield Message(kind, text[:TEXT_LIMIT], group, None, kind, raw)
    calls = [part["functionCall"] for part in parts if isinstance(part.get("functionCall"), dict)]
    if not calls or content["role"] != "model":
        return
    responses: list[Any] = []
    span = raw
    if answer is not None:
        responses = [p.get("functionResponse") for p in answer[0]["parts"] if isinstance(p, dict)]
        responses = [r for r in responses if r is not None]
        end = answer[1].offset + answer[1].length
        span = RawRef(raw.source, raw.where, raw.offset, end - raw.offset, protocol=raw.protocol)
    for place, call in enumerate(calls):
        response = responses[place] if place < len(responses) else None
        entry = _entry(call, response if isinstance(response, dict) else None, f"{raw.where}#{place + 1}")
        out: list[Event] = []
        call_events(entry, group, span, None, True, out)
        yield from out
    for extra in responses[len(calls) :]:
        yield Malformed(span.where, f"a functionResponse no functionCall asked for: {str(extra)[:120]}",
                        source=span.source, raw=span)  # fmt: skip


def _entry(call: dict[str, Any], response: dict[str, Any] | None, fallback_id: str) -> dict[str, Any]:
    """The ``toolCalls[]`` entry a session file would hold for this call and its response."""
    own = call.get("id")
    given = response.get("id") if response is not None else None
    call_id = (
        own if isinstance(own, str) and own else given if isinstance(given, str) and given else fallback_id
    )
    name = call.get("name")
    entry: dict[str, Any] = {
        "id": call_id,
        "name": name if isinstance(name, str) else "",
        "args": call.get("args"),
    }
    if response is None:
        entry["status"] = "scheduled"  # asked for, never answered in the saved chat
        return entry
    body = response.get("response")
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, str) and error.startswith(_CANCELLED):
        entry["status"] = "cancelled"
    else:
        entry["status"] = "error" if error is not None else "success"
    entry["result"] = [{"functionResponse": response}]
    return entry


def redecode(raw: RawRef, text: str) -> list[Event]:
    """A call's record again: its ``model`` content, and the ``user`` content answering it if any."""
    decoder = json.JSONDecoder()
    values: list[Any] = []
    at = 0
    try:
        while len(values) < 2:
            while at < len(text) and text[at] in " \t\r\n,":
                at += 1
            if at >= len(text):
                break
            value, at = decoder.raw_decode(text, at)
            values.append(value)
    except (ValueError, RecursionError) as exc:
        return [Malformed(raw.where, f"could not decode: {str(exc)[:160]}", source=raw.source, raw=raw)]
    if not values or not is_content(values[0]):
        return []
    answer = (values[1], raw) if len(values) > 1 and is_content(values[1]) else None
    found = list(_content_events(values[0], raw, answer, ""))
    return [event for event in found if not isinstance(event, Message)]
