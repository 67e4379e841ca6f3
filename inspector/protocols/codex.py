"""OpenAI Codex CLI rollouts (``~/.codex/sessions/**/rollout-*.jsonl``): tool calls paired by call_id.

Both layouts: the bare one (a header object, bare response items, ``record_type: state`` lines) and
the envelope one (``{timestamp, type, payload}``). See ../shared/reference/agent-formats.md, part 1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from inspector.model.details import BashDetail, DisplayDetail, PatchDetail, TextDetail
from inspector.model.events import (
    Event,
    Malformed,
    Marker,
    Message,
    Outcome,
    RawRef,
    Request,
    Result,
    Skipped,
)
from inspector.protocols import _jsonfile, _values
from inspector.protocols.codex_calls import SHELL_TOOLS, duration_s, exit_code, outcome, output_text, params
from inspector.protocols.codex_patch import changes_detail, has_hunks, patch_detail

NAME = "codex"
DESCRIPTION = "OpenAI Codex CLI rollouts (~/.codex/sessions/**/rollout-*.jsonl), bare or envelope layout"

_BOM = b"\xef\xbb\xbf"
_ENVELOPES = ("session_meta", "turn_context", "response_item", "event_msg", "compacted", "world_state")
_CALLS = ("function_call", "custom_tool_call", "local_shell_call")
_OUTPUTS = ("function_call_output", "custom_tool_call_output")
_ENDS = ("exec_command_end", "patch_apply_end", "mcp_tool_call_end")
TEXT_LIMIT = 20_000


@dataclass
class _State:
    """What one rollout has said so far: the session, the open calls and the *_end events waiting."""

    group: str = ""
    ts: float | None = None
    tools: dict[str, str] = field(default_factory=dict)
    patches: dict[str, str] = field(default_factory=dict)
    ends: dict[str, dict[str, Any]] = field(default_factory=dict)
    aborted: dict[str, float | None] = field(default_factory=dict)
    answered: set[str] = field(default_factory=set)
    searches: list[str] = field(default_factory=list)


_FOLLOWED: dict[str, _State] = {}


# -- the format-module contract ---------------------------------------------------------------------


def sniff(path: str, head: bytes) -> int:
    """85 for an envelope rollout, 75 for the bare layout, else 0."""
    for record in _jsonfile.head_records(head, 20):
        if not isinstance(record, dict):
            return 0
        if record.get("type") in _ENVELOPES and isinstance(record.get("payload"), dict):
            return 85
        if record.get("record_type") == "state":
            return 75
        if "id" in record and "timestamp" in record and ("instructions" in record or "git" in record):
            return 75 if "sessionId" not in record else 0
        if record.get("type") in _CALLS + _OUTPUTS and "call_id" in record:
            return 70
    return 0


def read(path: str) -> Iterator[Event]:
    """Every event of a rollout; a call without an output by the end stays pending (or canceled when
    its turn was aborted). Only a missing or unreadable file raises (OSError)."""
    state = _State()
    offset = 0
    with open(path, "rb") as fh:
        for number, line in enumerate(fh, 1):
            raw = RawRef(path, f"line {number}", offset, len(line.rstrip(b"\r\n")), protocol=NAME)
            offset += len(line)
            yield from _line(line, raw, state)
    for call_id, ts in state.aborted.items():
        if call_id not in state.answered:
            yield Result(call_id, Outcome.CANCELED, state.group, None, "interrupted", "turn aborted", ts)


def decode_line(line: bytes, raw: RawRef) -> list[Event]:
    """The events of one appended line of a growing rollout (the file's state is kept between lines)."""
    state = _FOLLOWED.setdefault(raw.source, _State())
    return list(_line(line, raw, state))


def redecode(raw: RawRef) -> list[Event]:
    """Decode the one line ``raw`` points at again (links to other lines are not restored)."""
    return list(_line(raw.read(), raw, _State()))


# -- lines ------------------------------------------------------------------------------------------


def _line(line: bytes, raw: RawRef, state: _State) -> Iterator[Event]:
    line = line.lstrip(_BOM) if line.startswith(_BOM) else line
    if not line.strip():
        return
    try:
        record = json.loads(line)
    except (ValueError, RecursionError) as exc:
        yield Malformed(raw.where, f"not JSON: {exc}", source=raw.source, raw=raw)
        return
    if not isinstance(record, dict):
        yield Malformed(raw.where, "not a JSON object", source=raw.source, raw=raw)
        return
    try:
        yield from _record(record, raw, state)
    except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        yield Malformed(raw.where, f"unexpected shape: {exc}", source=raw.source, raw=raw)


def _record(record: dict[str, Any], raw: RawRef, state: _State) -> Iterator[Event]:
    kind = record.get("type")
    payload = record.get("payload")
    if kind in _ENVELOPES and isinstance(payload, dict):
        ts = _values.parse_time(record.get("timestamp"))
        if kind == "session_meta":
            yield from _meta(payload, ts, raw, state)
        elif kind == "response_item":
            yield from _item(payload, ts, raw, state)
        elif kind == "event_msg":
            yield from _event(payload, ts, raw, state)
        elif kind == "compacted":
            yield Marker("compaction", "context compacted", state.group, ts, "system", raw)
        return
    if kind in _ENVELOPES:
        yield Malformed(raw.where, f"{kind} record without a payload object", source=raw.source, raw=raw)
    elif record.get("record_type") == "state":
        return
    elif "type" not in record and "id" in record:  # the bare layout's header
        yield from _meta(record, _values.parse_time(record.get("timestamp")), raw, state)
    else:
        yield from _item(record, None, raw, state)


def _meta(payload: dict[str, Any], ts: float | None, raw: RawRef, state: _State) -> Iterator[Event]:
    session = str(payload.get("id") or "")
    if state.group and session == state.group:
        yield Skipped("session resumed", raw.where)  # a resumed thread repeats its session_meta
        return
    resumed = bool(state.group)
    state.group = session or state.group
    state.ts = _values.parse_time(payload.get("timestamp")) or ts
    version = payload.get("cli_version")
    words = f"codex {version}" if version else "codex session"
    source = payload.get("source")
    if isinstance(source, dict) and isinstance(source.get("subagent"), dict):
        words += " · sub-agent thread"
    text = ("session continues: " if resumed else "session: ") + words
    yield Marker("session", text, state.group, state.ts, "system", raw)


def _item(item: dict[str, Any], ts: float | None, raw: RawRef, state: _State) -> Iterator[Event]:
    kind = item.get("type")
    if kind in _CALLS:
        yield _call(item, ts, raw, state)
    elif kind in _OUTPUTS:
        yield _output(item, ts, raw, state)
    elif kind == "web_search_call":
        yield from _search(item, ts, raw, state)
    elif kind == "message":
        text = output_text(item.get("content"))
        role = str(item.get("role") or "assistant")
        yield Message(role, text[:TEXT_LIMIT], state.group, ts, role, raw)
    elif kind is None:
        yield Malformed(raw.where, "a record without a 'type'", source=raw.source, raw=raw)


def _call(item: dict[str, Any], ts: float | None, raw: RawRef, state: _State) -> Event:
    call_id = item.get("call_id") or item.get("id")
    if not isinstance(call_id, str) or not call_id:
        return Malformed(raw.where, f"{item.get('type')} without a 'call_id'", source=raw.source, raw=raw)
    kind = item["type"]
    if kind == "local_shell_call":
        found = item.get("action")
        action: dict[str, Any] = found if isinstance(found, dict) else {}
        name, args = "local_shell", params("local_shell", {k: v for k, v in action.items() if k != "type"})
    elif kind == "custom_tool_call":
        name = str(item.get("name") or "custom_tool")
        text = item.get("input")
        args = {"input": text} if isinstance(text, str) else text
        if isinstance(text, str) and "*** Begin Patch" in text:
            state.patches[call_id] = text
    else:
        name = str(item.get("name") or "function")
        args = params(name, item.get("arguments"))
        command = args.get("command") if isinstance(args, dict) else None
        if isinstance(command, str) and "*** Begin Patch" in command:
            state.patches[call_id] = command
    state.tools[call_id] = name
    summary = _values.arguments_summary(args)
    return Request(call_id, name, state.group, args, ts=ts, sender="assistant", raw=raw, summary=summary)


def _output(item: dict[str, Any], ts: float | None, raw: RawRef, state: _State) -> Event:
    call_id = item.get("call_id")
    if not isinstance(call_id, str) or not call_id:
        return Malformed(raw.where, f"{item.get('type')} without a 'call_id'", source=raw.source, raw=raw)
    state.answered.add(call_id)
    tool = state.tools.get(call_id, "")
    output = item.get("output")
    text = output_text(output)
    end = state.ends.pop(call_id, {})
    code = exit_code(text)
    if isinstance(end.get("exit_code"), int):
        code = end["exit_code"]
    ended, message = outcome(text, code)
    if end.get("success") is False and ended is Outcome.SUCCESS:
        ended, message = Outcome.ERROR, str(end.get("stderr") or "patch not applied")[:200]
    detail = _detail(tool, text, code, end, state.patches.pop(call_id, None))
    diff = has_hunks(detail) if isinstance(detail, (PatchDetail, DisplayDetail)) else False
    extra: dict[str, Any] = {}
    seconds = end.get("duration_s") or duration_s(text)
    if seconds is not None:
        extra["duration_s"] = seconds
    data = text[:TEXT_LIMIT] if isinstance(output, (str, list, dict)) else output
    return Result(
        call_id, ended, state.group, data, None if code in (None, 0) else str(code), message, ts, "tool", raw,
        detail, diff, tool, extra=extra,
    )  # fmt: skip


def _detail(tool: str, text: str, code: int | None, end: dict[str, Any], patch: str | None) -> Any:
    changes = changes_detail(end.get("changes")) if "changes" in end else None
    if changes is not None:
        return changes
    if patch is not None:
        found = patch_detail(patch)
        if found is not None:
            return found
    if tool in SHELL_TOOLS or code is not None:
        stdout = str(end.get("aggregated_output") or end.get("stdout") or text)
        return BashDetail(stdout[:TEXT_LIMIT], str(end.get("stderr") or ""), exit_code=code)
    return TextDetail(text[:TEXT_LIMIT]) if text else None


def _search(item: dict[str, Any], ts: float | None, raw: RawRef, state: _State) -> Iterator[Event]:
    """A server-side web search: no call_id and no output item; its ``status`` is its result."""
    call_id = str(item.get("id") or f"web_search@{raw.where}")
    found = item.get("action")
    action: dict[str, Any] = found if isinstance(found, dict) else {}
    state.searches.append(call_id)
    yield Request(call_id, "web_search", state.group, action, ts=ts, sender="assistant", raw=raw,
                  summary=_values.arguments_summary(action))  # fmt: skip
    status = item.get("status")
    if status in ("completed", "failed"):
        ended = Outcome.SUCCESS if status == "completed" else Outcome.ERROR
        state.answered.add(call_id)
        yield Result(call_id, ended, state.group, action, ts=ts, sender="server", raw=raw, tool="web_search")


def _event(payload: dict[str, Any], ts: float | None, raw: RawRef, state: _State) -> Iterator[Event]:
    kind = payload.get("type")
    call_id = payload.get("call_id")
    if kind in _ENDS and isinstance(call_id, str):
        if call_id in state.answered:
            return
        end = dict(payload)
        duration = payload.get("duration")
        if isinstance(duration, dict):
            secs, nanos = duration.get("secs"), duration.get("nanos")
            if isinstance(secs, (int, float)):
                end["duration_s"] = secs + (nanos / 1e9 if isinstance(nanos, (int, float)) else 0.0)
        if call_id in state.tools:
            state.ends[call_id] = end
        elif payload.get("source") == "user_shell":
            command = payload.get("command")
            words = " ".join(command) if isinstance(command, list) else str(command or "")
            yield Message(
                "user_shell", f"$ {words} (exit {payload.get('exit_code')})", state.group, ts, "user", raw
            )
    elif kind == "turn_aborted":
        for open_id in state.tools:
            if open_id not in state.answered:
                state.aborted.setdefault(open_id, ts)
        reason = payload.get("reason") or "aborted"
        yield Marker("aborted", f"turn aborted ({reason})", state.group, ts, "system", raw)
    elif kind == "user_message":
        return  # the same text is a response_item message
