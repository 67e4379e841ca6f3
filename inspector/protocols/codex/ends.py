"""Codex CLI results: an output item, or a ``*_end`` event when no output came, as one Result per call.

What else a rollout says about a call is gathered here too: the automatic reviewer's verdict
(``guardian_assessment``), the thread a ``spawn_agent`` started, a process still running after its
``exec_command`` returned. See ../shared/reference/agent-formats.md, 1.3 to 1.6.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from inspector.model.details import BashDetail, DisplayDetail, PatchDetail, TextDetail
from inspector.model.events import Event, Message, Outcome, RawRef, Result
from inspector.protocols.codex.calls import (
    SHELL_TOOLS,
    body,
    duration_s,
    exit_code,
    outcome,
    output_text,
    running,
    script,
)
from inspector.protocols.codex.patch import (
    changes_detail,
    changes_hunks,
    has_hunks,
    patch_changes,
    patch_detail,
)

TEXT_LIMIT = 20_000
# Tools whose output may say "still running": the call that started it is decided later.
STARTERS = ("exec_command", "exec")
# Tools that poll a running process or script by the id the starter's output gave: what they poll (an
# exec_command's session, a code-mode cell) and the argument that holds the id (code mode's ``wait`` is
# not described by the reference: any of these names). Only a poll of the starter's own kind decides it:
# a ``wait`` given an exec session id answers "Script failed … exec cell N not found", the poll's failure.
POLLERS = {
    "write_stdin": ("session", ("session_id",)),
    "wait": ("cell", ("cell_id", "cell", "id", "session_id")),
}


@dataclass
class State:
    """What one rollout has said so far: the session, the open calls and the *_end events waiting."""

    group: str = ""
    ts: float | None = None
    tools: dict[str, str] = field(default_factory=dict)
    patches: dict[str, str] = field(default_factory=dict)
    ends: dict[str, tuple[dict[str, Any], float | None, RawRef]] = field(default_factory=dict)
    aborted: dict[str, float | None] = field(default_factory=dict)
    answered: set[str] = field(default_factory=set)
    searches: list[str] = field(default_factory=list)
    search_end: dict[str, Any] | None = None
    reviews: dict[str, str] = field(default_factory=dict)
    spawned: dict[str, dict[str, Any]] = field(default_factory=dict)
    changes: dict[str, dict[str, Any]] = field(default_factory=dict)
    polls: dict[str, tuple[str, str]] = field(default_factory=dict)  # poller call id -> (kind, id)
    running: dict[tuple[str, str], str] = field(default_factory=dict)  # (session | cell, id) -> starter
    held: dict[str, str] = field(default_factory=dict)  # starter call id -> its output so far
    decided: set[str] = field(default_factory=set)  # ended without their output (file end, aborted turn)
    children: dict[str, str] = field(default_factory=dict)  # spawned thread id -> its spawn_agent call
    details: bool = True  # False: results carry no detail nor data (a store that drops them), has_diff still


def output(
    call_id: str, text: str, data: Any, ts: float | None, raw: RawRef, state: State
) -> Iterator[Event]:
    """The events of an output item: its call's Result, or (a process still running) a note under the
    call, which stays open until a later poll or ``exec_command_end`` says how the process exited."""
    if call_id in state.decided:
        state.decided.discard(call_id)
        return  # the file was read when it ended without this output; its call was decided then
    tool = state.tools.get(call_id, "")
    state.answered.add(call_id)
    end = state.ends.pop(call_id, None)
    fields = end[0] if end else {}
    still = running(text) if tool in STARTERS and not isinstance(fields.get("exit_code"), int) else None
    if still is not None and call_id in state.tools:
        where = "cell" if script(text) == "running" else "session"
        state.running[(where, still)] = call_id
        state.held[call_id] = text
        note = f"still running in {where} {still}; the call ends when the process reports its exit"
        shown = body(text).strip()
        text_out = f"{note}:\n{shown[:TEXT_LIMIT]}" if shown else note
        yield Message("process", text_out, state.group, ts, "tool", raw, parent_id=call_id)
        return
    yield result(call_id, text, data, fields, ts, raw, state)
    poll = state.polls.pop(call_id, None)
    starter = state.running.get(poll) if poll is not None else None
    if (
        poll is not None
        and starter is not None
        and starter in state.held
        and (exit_code(text) is not None or script(text))
        and f"exec cell {poll[1]} not found" not in text
    ):
        if script(text) != "running":
            del state.running[poll]
            first = state.held.pop(starter)
            yield result(starter, text, None, {}, ts, raw, state, before=body(first))


def end_event(
    call_id: str, fields: dict[str, Any], ts: float | None, raw: RawRef, state: State
) -> Iterator[Event]:
    """A ``*_end`` event for a known call: kept for its output item, or deciding a held call."""
    if call_id in state.held:
        first = state.held.pop(call_id)
        state.running = {k: v for k, v in state.running.items() if v != call_id}
        yield result(call_id, first, None, fields, ts, raw, state)
    elif call_id not in state.answered:
        state.ends[call_id] = (fields, ts, raw)


def unanswered_ends(state: State) -> Iterator[Event]:
    """At the end of a file: a call whose ``*_end`` event came but no output item, ended by that event."""
    for call_id, (fields, ts, raw) in list(state.ends.items()):
        if call_id in state.tools and call_id not in state.answered:
            state.answered.add(call_id)
            state.decided.add(call_id)
            yield result(call_id, _end_text(fields), None, fields, ts, raw, state)
    state.ends.clear()


def _end_text(fields: dict[str, Any]) -> str:
    found = fields.get("result")
    if isinstance(found, dict) and "Ok" in found:
        return output_text(found["Ok"])
    if isinstance(found, dict) and "Err" in found:
        return output_text(found["Err"])
    return str(fields.get("aggregated_output") or fields.get("stdout") or fields.get("stderr") or "")


def result(
    call_id: str,
    text: str,
    data: Any,
    end: dict[str, Any],
    ts: float | None,
    raw: RawRef,
    state: State,
    before: str = "",
) -> Result:
    """One call's Result from its output text and the ``*_end`` event that came for it (maybe none).

    ``before`` is what a process printed before ``text`` (its starter's output, when a poll ends it);
    the duration is then unknown (the poll's wall time is not the command's).
    """
    tool = state.tools.get(call_id, "")
    code = None if text.startswith("Script ") and script(text) else exit_code(text)
    if end and isinstance(end.get("exit_code"), int):  # no *_end event (most): none of its fields
        code = end["exit_code"]
    ended, message = outcome(text, code)
    if end:
        ended, message = _ended_by(end, ended, message)
    more = state.changes.pop(call_id, None)
    patch = state.patches.pop(call_id, None)
    if state.details:
        shown = before + body(text)
        detail = _detail(tool, shown, code, end, more, patch)
        diff = has_hunks(detail) if isinstance(detail, (PatchDetail, DisplayDetail)) else False
        value = shown[:TEXT_LIMIT] if data is None or isinstance(data, (str, list, dict)) else data
    elif end or more is not None or patch is not None:
        detail, value, diff = None, None, _has_diff(end, more, patch)
    else:  # nothing that holds a diff
        detail, value, diff = None, None, False
    extra = _extra(call_id, "" if before else text, end, state)
    if ended is Outcome.DENIED and "review" in extra:
        message = str(extra["review"])[:300]  # why the reviewer refused, not the wrapper's text
    return Result(
        call_id, ended, state.group, value, None if code in (None, 0) else str(code), message, ts, "tool", raw,
        detail, diff, tool, extra=extra,
    )  # fmt: skip


def _ended_by(end: dict[str, Any], ended: Outcome, message: str | None) -> tuple[Outcome, str | None]:
    """How the ``*_end`` event that came for a call says it ended, over what its output said."""
    failed = end.get("result")
    if isinstance(failed, dict) and "Err" in failed:
        ended, message = Outcome.ERROR, output_text(failed["Err"])[:200] or "MCP tool call failed"
    ok = failed.get("Ok") if isinstance(failed, dict) else None
    if isinstance(ok, dict) and (ok.get("isError") is True or ok.get("is_error") is True):
        ended, message = Outcome.ERROR, output_text(ok)[:200] or "MCP tool reported an error"
    if end.get("success") is False and ended is Outcome.SUCCESS:
        ended, message = Outcome.ERROR, str(end.get("stderr") or "patch not applied")[:200]
    # newer *_end events say how the call ended: ``status`` completed, failed or declined (refused)
    if end.get("status") == "declined" and ended is not Outcome.CANCELED:
        ended, message = Outcome.DENIED, message or "declined"
    elif end.get("status") == "failed" and ended is Outcome.SUCCESS:
        ended, message = Outcome.ERROR, str(end.get("stderr") or "failed").strip()[:200] or "failed"
    return ended, message


def _extra(call_id: str, text: str, end: dict[str, Any], state: State) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    seconds = end.get("duration_s") or duration_s(text)
    if seconds is not None:
        extra["duration_s"] = seconds
    review = state.reviews.pop(call_id, None)
    if review:
        extra["review"] = review
    spawned = state.spawned.pop(call_id, None)
    if spawned:
        for key in ("new_thread_id", "new_agent_nickname", "new_agent_role"):
            value = spawned.get(key)
            if isinstance(value, str) and value:
                extra[key] = value
    return extra


def _has_diff(end: dict[str, Any], more: dict[str, Any] | None, patch: str | None) -> bool:
    """What ``has_hunks`` says of the detail ``_detail`` would build, without building it (the changes of
    a ``patch_apply_end`` are rare and still built; a patch envelope, in every apply_patch call, is not)."""
    changes = end.get("changes") if isinstance(end.get("changes"), dict) else more
    found = changes_hunks(changes) if changes else None
    if found is not None:
        return found
    return patch is not None and patch_changes(patch)


def _detail(
    tool: str,
    shown: str,
    code: int | None,
    end: dict[str, Any],
    more: dict[str, Any] | None,
    patch: str | None,
) -> Any:
    """A diff (patch_apply_end changes, else the patch the call sent), a shell view, or the text."""
    changes = end.get("changes") if isinstance(end.get("changes"), dict) else more
    found = changes_detail(changes) if changes else None
    if found is not None:
        return found
    if patch is not None:
        found = patch_detail(patch)
        if found is not None:
            return found
    if tool in SHELL_TOOLS or code is not None:
        stdout = str(end.get("aggregated_output") or end.get("stdout") or shown)
        return BashDetail(stdout[:TEXT_LIMIT], str(end.get("stderr") or ""), exit_code=code)
    return TextDetail(shown[:TEXT_LIMIT]) if shown else None
