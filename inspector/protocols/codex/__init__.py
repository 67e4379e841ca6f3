"""OpenAI Codex CLI rollouts (``~/.codex/sessions/**/rollout-*.jsonl``): tool calls paired by call_id.

Both layouts: the bare one (a header object, bare response items, ``record_type: state`` lines) and
the envelope one (``{timestamp, type, payload}``). See ../shared/reference/agent-formats.md, part 1.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import inspector.protocols.common.reread as _reread
import inspector.protocols.common.values as _values
from inspector.model import values
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
from inspector.protocols.codex.calls import command_line, output_text, params
from inspector.protocols.codex.ends import POLLERS, State, end_event, output, unanswered_ends
from inspector.protocols.codex.hosted import HOSTED as _HOSTED
from inspector.protocols.codex.hosted import hosted
from inspector.protocols.codex.threads import nested
from inspector.protocols.common.lineblocks import line_blocks
from inspector.protocols.format import Format
from inspector.protocols.sniffers.codex import _CALLS, _ENVELOPES, _OUTPUTS, sniff
from inspector.userpath import open_binary

NAME = "codex"
DESCRIPTION = "OpenAI Codex CLI rollouts (~/.codex/sessions/**/rollout-*.jsonl), bare or envelope layout"

_BOM = b"\xef\xbb\xbf"
_ENDS = (
    "exec_command_end",
    "patch_apply_end",
    "mcp_tool_call_end",
    "collab_agent_spawn_end",
    "collab_waiting_end",
)
TEXT_LIMIT = 20_000
# The payload types ``_event`` and ``_item`` act on (any other is quiet: passed over by ``read``).
_EVENT_KINDS = frozenset(
    (*_ENDS, "web_search_end", "guardian_assessment", "turn_aborted", "user_message", "task_started",
     "thread_rolled_back")
)  # fmt: skip
_ITEM_KINDS = frozenset((*_CALLS, *_OUTPUTS, "web_search_call", *_HOSTED, "message"))


_FOLLOWED: dict[str, State] = {}

_decode = values.fast_loads  # msgspec: what loads_json tries first; what it refuses goes through it


# -- the format-module contract ---------------------------------------------------------------------


def read(path: str, seen: set[str] | None = None, *, details: bool = True) -> Iterator[Event]:
    """Every event of a rollout; a call without an output by the end is ended by its ``*_end`` event if
    one came, else stays pending (or canceled when its turn was aborted). Only a missing or unreadable
    file raises (OSError). The state at the end is kept for following the file as it grows, so what was
    decided at the end is not decided again when the missing records arrive. The sub-agent threads it
    spawned follow, nested under their spawn calls (``seen``: the rollouts already read).

    ``details=False`` (a store that drops payloads, ``read_bare``) builds no result details and keeps no
    result data: each result's ``has_diff`` is still said, and the detail is read again from the record
    when it is shown."""
    seen = {os.path.abspath(path)} if seen is None else seen
    state = State(details=details)
    number = 0
    payload: Any = None  # a record's payload object, when its type is told by the payload's
    with open_binary(path) as fh:
        for base, block, size, _own in line_blocks(fh, BLOCK):
            find, pos = block.find, 0
            with memoryview(block) as view:
                while pos < size:  # each line of the block: decoded from a view of it, no copy
                    newline = find(b"\n", pos, size)
                    start = pos
                    pos = size if newline < 0 else newline + 1
                    number += 1
                    if block.startswith(_BOM, start, pos):
                        text: bytes | memoryview = bytes(view[start:pos]).lstrip(_BOM)
                    else:
                        text = view[start:pos]
                    try:  # what loads_json does first, without its call: most lines are read here
                        record, error = _decode(text), None
                    except (ValueError, TypeError, RecursionError):
                        if not bytes(text).strip():
                            continue  # a blank line (the stdlib parser's error path cost 12 us each)
                        # exact integers, valid text; the reason names a column of the line, not its end
                        record, error, note = values.loads_refused(bytes(text).rstrip(b"\r\n"))
                        if note is not None:  # bytes not UTF-8, read as U+FFFD: said, and the record kept
                            length = _line_end(block, start, pos) - start
                            bad = RawRef(path, f"line {number}", base + start, length, protocol=NAME)
                            yield Malformed(bad.where, note, source=path, raw=bad)
                    if type(record) is dict:
                        # a record _record makes nothing of, neither an event nor a change of state
                        # (token counts, reasoning, turn contexts, state lines: most of a rollout), told
                        # from its types alone, is passed over before any reference is made
                        kind = record.get("type")
                        inner = None
                        if kind == "response_item" or kind == "event_msg":
                            payload = record.get("payload")
                            if type(payload) is dict:
                                inner = payload.get("type")
                                if type(inner) is str and inner not in (
                                    _EVENT_KINDS if kind == "event_msg" else _ITEM_KINDS
                                ):
                                    continue
                        elif kind == "turn_context":
                            if type(record.get("payload")) is dict:
                                continue
                        elif type(kind) is str:  # the bare layout's items
                            if kind not in _ITEM_KINDS and kind not in _ENVELOPES and kind != "world_state":
                                continue
                        elif kind is None and record.get("record_type") == "state":
                            continue
                    elif error is not None and not bytes(text).strip():
                        continue  # a blank line
                    length = _line_end(block, start, pos) - start
                    raw = RawRef(path, number, base + start, length, protocol=NAME)
                    if error is not None or type(record) is not dict:
                        yield from _decoded(record, error, raw, state)
                        continue
                    try:  # what _decoded, _record and _item do for a JSON object, without their generators
                        if inner is not None:  # an envelope's response_item or event_msg
                            ts = _values.parse_time(record.get("timestamp"))
                            if kind == "event_msg":
                                yield from _event(payload, ts, raw, state)
                                continue
                            item, kind = payload, inner
                        elif (kind in _CALLS or kind in _OUTPUTS) and record.get("record_type") != "state":
                            item, ts = record, None  # the bare layout's call or output
                        else:
                            yield from _record(record, raw, state)
                            continue
                        if kind in _CALLS:
                            yield _call(item, ts, raw, state)
                        elif kind in _OUTPUTS:
                            yield from _output(item, ts, raw, state)
                        else:
                            yield from _item(item, ts, raw, state)
                    except Exception as exc:  # noqa: BLE001 - a record no rule foresaw must not stop the file
                        yield Malformed(raw.where, f"unexpected shape: {exc}", source=raw.source, raw=raw)
    yield from unanswered_ends(state)
    yield from _searched(state, last=True)
    yield from _cancel_aborted(state)
    _FOLLOWED[path] = state
    nested_read = read if details else _read_bare
    yield from nested(path, state.children, nested_read, seen)


BLOCK = 1 << 20
"""A rollout is read in blocks of this size (common/lineblocks.py); a longer line comes alone."""


def _line_end(block: bytes | bytearray, start: int, stop: int) -> int:
    """Where the line ``block[start:stop]`` (ended by one newline, or none) ends without its newline and
    the carriage returns before it (a line's length, without a copy of it)."""
    end = stop - 1 if stop > start and block[stop - 1] == 10 else stop
    while end > start and block[end - 1] == 13:
        end -= 1
    return end


def _read_bare(path: str, seen: set[str] | None = None) -> Iterator[Event]:
    return read(path, seen, details=False)


def _cancel_aborted(state: State) -> Iterator[Event]:
    """The calls an aborted turn left open, canceled once the next turn starts or the file ends (an
    output written just after the abort still counts); a later output for one of them is dropped."""
    for call_id, ts in state.aborted.items():
        if call_id not in state.answered:
            state.answered.add(call_id)
            state.decided.add(call_id)
            yield Result(call_id, Outcome.CANCELED, state.group, None, "interrupted", "turn aborted", ts)
    state.aborted.clear()


def decode_line(line: bytes, raw: RawRef) -> list[Event]:
    """The events of one appended line of a growing rollout (the file's state is kept between lines)."""
    state = _FOLLOWED.get(raw.source)
    if state is None or raw.where == "line 1":  # a new file, or the old one truncated and restarted
        state = _FOLLOWED[raw.source] = State()
    return list(_line(line, raw, state))


def redecode(raw: RawRef) -> list[Event]:
    """Decode the one line ``raw`` points at again (links to other lines are not restored)."""
    return list(_line(_reread.reread(raw), raw, State()))


# -- lines ------------------------------------------------------------------------------------------


def _line(line: bytes | str, raw: RawRef, state: State) -> Iterator[Event]:
    if isinstance(line, bytes) and line.startswith(_BOM):
        line = line.lstrip(_BOM)
    if not line.strip():
        return
    record, error, note = values.loads_noted(line)  # exact integers, valid text
    if note is not None:
        yield Malformed(raw.where, note, source=raw.source, raw=raw)
    yield from _decoded(record, error, raw, state)


def _decoded(record: Any, error: str | None, raw: RawRef, state: State) -> Iterator[Event]:
    if error is not None:
        yield Malformed(raw.where, error, source=raw.source, raw=raw)
        return
    if not isinstance(record, dict):
        yield Malformed(raw.where, "not a JSON object", source=raw.source, raw=raw)
        return
    try:
        yield from _record(record, raw, state)
    except Exception as exc:  # noqa: BLE001 - a record no rule foresaw must not stop the file
        yield Malformed(raw.where, f"unexpected shape: {exc}", source=raw.source, raw=raw)


def _record(record: dict[str, Any], raw: RawRef, state: State) -> Iterator[Event]:
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
            summary = payload.get("message")
            text = summary if isinstance(summary, str) else ""
            yield Marker(
                "compaction", "context compacted", state.group, ts, "system", raw, body=text[:TEXT_LIMIT]
            )
        elif kind == "world_state":
            yield Skipped("world_state", raw.where)
        return
    if kind == "world_state":
        yield Skipped("world_state", raw.where)
    elif kind in _ENVELOPES:
        yield Malformed(raw.where, f"{kind} record without a payload object", source=raw.source, raw=raw)
    elif record.get("record_type") == "state":
        return
    elif "type" not in record and "id" in record:  # the bare layout's header
        yield from _meta(record, _values.parse_time(record.get("timestamp")), raw, state)
    else:
        yield from _item(record, None, raw, state)


def _meta(payload: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Iterator[Event]:
    # ``id`` (every version seen); newer SessionMeta also writes ``session_id`` and reads it first.
    session = str(payload.get("id") or payload.get("session_id") or payload.get("thread_id") or "")
    if state.group and session == state.group:
        yield Skipped("session resumed", raw.where)  # a resumed thread repeats its session_meta
        return
    resumed = bool(state.group)
    state.group = session or state.group
    state.ts = _values.parse_time(payload.get("timestamp")) or ts
    version = payload.get("cli_version")
    words = f"codex {version}" if version else "codex session"
    source = payload.get("source")
    spawned = isinstance(source, dict) and isinstance(source.get("subagent"), dict)
    if spawned or payload.get("parent_thread_id"):
        words += " · sub-agent thread"
    text = ("session continues: " if resumed else "session: ") + words
    yield Marker("session", text, state.group, state.ts, "system", raw)


def _item(item: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Iterator[Event]:
    kind = item.get("type")
    if kind in _CALLS:
        yield _call(item, ts, raw, state)
    elif kind in _OUTPUTS:
        yield from _output(item, ts, raw, state)
    elif kind == "web_search_call":
        yield from _search(item, ts, raw, state)
    elif kind in _HOSTED:
        yield from hosted(item, ts, raw, state)
    elif kind == "message":
        text = output_text(item.get("content"))
        role = str(item.get("role") or "assistant")
        yield Message(role, text[:TEXT_LIMIT], state.group, ts, role, raw)
    elif kind is None:
        yield Malformed(raw.where, "a record without a 'type'", source=raw.source, raw=raw)


def _call(item: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Event:
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
        space = item.get("namespace")  # newer MCP calls: name "get_me", namespace "mcp__github"
        if isinstance(space, str) and space.startswith("mcp__") and not name.startswith(space):
            name = f"{space}__{name}"  # the qualified name older versions wrote
        args = params(name, item.get("arguments"))
        command = args.get("command") if isinstance(args, dict) else None
        if isinstance(command, str) and "*** Begin Patch" in command:
            state.patches[call_id] = command
    state.tools[call_id] = name
    if name in POLLERS and isinstance(args, dict):
        kind, keys = POLLERS[name]
        target = next((args[key] for key in keys if key in args), None)
        if isinstance(target, (int, str)) and not isinstance(target, bool):
            state.polls[call_id] = (kind, str(target))
    summary = _values.arguments_summary(args)
    return Request(call_id, name, state.group, args, ts=ts, sender="assistant", raw=raw, summary=summary)


def _output(item: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Iterator[Event]:
    call_id = item.get("call_id")
    if not isinstance(call_id, str) or not call_id:
        # newer ResponseItem makes an output's call_id optional: nothing to pair it with, not a bad record
        yield Skipped(f"{item.get('type')} without a call_id", raw.where)
        return
    found = item.get("output")
    data = None if isinstance(found, (str, list, dict)) else found
    text = output_text(found)
    if isinstance(found, dict) and found.get("success") is False and call_id not in state.ends:
        # an older payload shape, ``{content, success: false}``: the tool said it failed
        state.ends[call_id] = ({"success": False, "stderr": text.strip()[:200]}, ts, raw)
    if state.tools.get(call_id) == "spawn_agent" and call_id not in state.children.values():
        _spawned_by_output(call_id, text, state)
    yield from output(call_id, text, data, ts, raw, state)


def _spawned_by_output(call_id: str, text: str, state: State) -> None:
    """0.104 writes no ``collab_agent_spawn_end``: the spawn_agent output ``{"agent_id": <thread id>}``
    names the thread it started (real: h-morishita-esol/devenv, taturou/codex-chrome-extension)."""
    if not text.startswith('{"agent_id"'):
        return
    value, error = values.loads_json(text.encode())
    thread = value.get("agent_id") if error is None and isinstance(value, dict) else None
    if isinstance(thread, str) and thread:
        state.children.setdefault(thread, call_id)


def _search(item: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Iterator[Event]:
    """A server-side web search: no call_id and no output item; its ``status`` is its result. The
    ``web_search_end`` event just before it (0.126, 0.145) gives its id and query."""
    end = state.search_end
    state.search_end = None
    call_id = str(item.get("id") or (end or {}).get("call_id") or f"web_search@{raw.where}")
    if call_id in state.decided:
        return  # shown when the file ended after its web_search_end (a file read, then followed)
    found = item.get("action")
    action: dict[str, Any] = found if isinstance(found, dict) else {}
    state.searches.append(call_id)
    yield Request(call_id, "web_search", state.group, action, ts=ts, sender="assistant", raw=raw,
                  summary=_values.arguments_summary(action))  # fmt: skip
    status = item.get("status")
    if status in ("completed", "failed"):
        ended = Outcome.SUCCESS if status == "completed" else Outcome.ERROR
        state.answered.add(call_id)
        data = end.get("results", action) if end else action
        yield Result(call_id, ended, state.group, data, ts=ts, sender="server", raw=raw, tool="web_search")


def _searched(state: State, last: bool = False) -> Iterator[Event]:
    """A ``web_search_end`` no ``web_search_call`` item followed (another search, or the file ended):
    the search still ran. At the end of a file the end is kept, so its item, if it comes, is known."""
    end = state.search_end
    if not last:
        state.search_end = None
    if end is None or str(end["call_id"]) in state.decided:
        return
    call_id, ts, raw = str(end["call_id"]), end.get("_ts"), end["_raw"]
    if last:
        state.decided.add(call_id)
    query = {"query": end.get("query")}
    yield Request(call_id, "web_search", state.group, query, ts=ts, sender="assistant", raw=raw,
                  summary=_values.arguments_summary(query))  # fmt: skip
    yield Result(call_id, Outcome.SUCCESS, state.group, end.get("results"), ts=ts, sender="server", raw=raw,
                 tool="web_search")  # fmt: skip


def _event(payload: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Iterator[Event]:
    kind = payload.get("type")
    call_id = payload.get("call_id")
    if kind in _ENDS and isinstance(call_id, str):
        yield from _end(kind, call_id, payload, ts, raw, state)
    elif kind == "web_search_end" and isinstance(call_id, str) and call_id:
        yield from _searched(state)
        state.search_end = {**payload, "_ts": ts, "_raw": raw}
    elif kind == "guardian_assessment":
        target, status = payload.get("target_item_id"), payload.get("status")
        if isinstance(target, str) and status not in (None, "in_progress"):
            risk = f" ({payload.get('risk_level')} risk)" if payload.get("risk_level") else ""
            state.reviews[target] = (
                f"automatic review: {status}{risk}: {payload.get('rationale') or ''}".strip()
            )
    elif kind == "turn_aborted":
        for open_id in state.tools:
            if open_id not in state.answered:
                state.aborted.setdefault(open_id, ts)
        reason = payload.get("reason") or "aborted"
        yield Marker("aborted", f"turn aborted ({reason})", state.group, ts, "system", raw)
    elif kind in ("user_message", "task_started"):
        yield from _cancel_aborted(state)  # a new turn: the text itself is a response_item message
    elif kind == "thread_rolled_back":  # /undo and backtracking: the model forgets the last turns
        turns = payload.get("num_turns")
        count = f"{turns} turn{'' if turns == 1 else 's'}" if type(turns) is int else "turns"
        text = (
            f"thread rolled back ({count}): the calls above it stay in the file, not in the model's context"
        )
        yield Marker("rollback", text, state.group, ts, "system", raw)


def _end(
    kind: str, call_id: str, payload: dict[str, Any], ts: float | None, raw: RawRef, state: State
) -> Iterator[Event]:
    end = dict(payload)
    duration = payload.get("duration")
    if isinstance(duration, dict):
        secs, nanos = values.number(duration.get("secs")), values.number(duration.get("nanos"))
        if secs is not None and values.number(secs + (nanos or 0.0) / 1e9) is not None:
            end["duration_s"] = secs + (nanos or 0.0) / 1e9
    if kind.startswith("collab_"):
        state.spawned[call_id] = end
        thread = payload.get("new_thread_id")
        if kind == "collab_agent_spawn_end" and isinstance(thread, str) and thread:
            state.children[thread] = call_id
    if call_id in state.tools:
        yield from end_event(call_id, end, ts, raw, state)
    elif payload.get("source") == "user_shell":
        yield _user_shell(payload, ts, raw, state)
    elif kind == "patch_apply_end" and isinstance(payload.get("changes"), dict):
        # 0.145 code mode: the patch ran inside an ``exec`` script, under an ``exec-<uuid>`` id no call
        # has; its changes are that script's diff (the newest exec call still open).
        script = next(
            (c for c in reversed(state.tools) if state.tools[c] == "exec" and c not in state.answered), None
        )
        if script is None:
            yield Skipped("patch applied by no known call", raw.where)
        else:
            state.changes.setdefault(script, {}).update(payload["changes"])
    else:
        yield Skipped(f"{kind} for no known call", raw.where)


def _user_shell(payload: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Message:
    """A command the user ran themselves (``!cmd`` in the TUI): no call asked for it, so it is shown as
    what the user did, with its exit code and output, not as an orphan result."""
    command = payload.get("command")
    words = (
        command_line(command)
        if isinstance(command, list) and all(isinstance(w, str) for w in command)
        else str(command or "")
    )
    text = f"$ {words}  (exit {payload.get('exit_code')})"
    shown = str(payload.get("aggregated_output") or payload.get("stdout") or "")
    if shown:
        text += "\n" + shown[:TEXT_LIMIT]
    return Message("user_shell", text, state.group, ts, "user", raw)


def read_set(paths: list[str], *, details: bool = True) -> list[Iterator[Event]]:
    """Rollouts opened together (a folder): a sub-agent thread read under the call that spawned it is
    not read again as a session of its own (its calls showed twice, once nested and once at the top),
    and a rollout that a resumed session's rollout replays whole (0.36 ``codex resume``: the new file
    starts with its own ``session_meta``, then the earlier thread's, then every earlier item) is shown
    from that later file only, where a call asked before the resume and answered after it is one call."""
    seen: set[str] = set()
    threads = [_threads_of(path) for path in paths]
    replayed = {thread for _, continued in threads for thread in continued}

    def one(path: str, own: str | None) -> Iterator[Event]:
        full = os.path.abspath(path)
        if full in seen:
            return  # already read, nested under its spawn_agent call
        seen.add(full)
        if own is not None and own in replayed:
            yield Skipped("replayed by a resumed session's rollout", path)
            return
        yield from read(path, seen, details=details)

    return [one(path, own) for path, (own, _) in zip(paths, threads, strict=True)]


def _threads_of(path: str) -> tuple[str | None, list[str]]:
    """A rollout's own thread id and the threads it continues: the ids of the ``session_meta`` records
    its first lines hold (a resumed session writes its own, then the earlier one's)."""
    ids: list[str] = []
    try:
        with open_binary(path) as fh:
            for _, line in zip(range(_META_LINES), fh, strict=False):
                record, error = values.loads_json(line.lstrip(_BOM))
                payload = record.get("payload") if error is None and type(record) is dict else None
                if record is None or type(record) is not dict or record.get("type") != "session_meta":
                    continue
                thread = payload.get("id") if isinstance(payload, dict) else None
                if isinstance(thread, str) and thread and thread not in ids:
                    ids.append(thread)
    except OSError:
        return None, []
    return (ids[0], ids[1:]) if ids else (None, [])


_META_LINES = 4  # a resumed rollout's two session_meta records come first


def _read_set_bare(paths: list[str]) -> list[Iterator[Event]]:
    return read_set(paths, details=False)


FORMAT = Format(
    NAME,
    DESCRIPTION,
    sniff,
    read,
    redecode,
    decode_line=decode_line,
    read_bare=_read_bare,
    read_set=read_set,
    read_set_bare=_read_set_bare,
)
"""This format for the registry (:func:`inspector.protocols.get`)."""
