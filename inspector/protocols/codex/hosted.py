"""Codex response items that newer versions write besides function and custom calls (codex-rs/protocol
models.rs ResponseItem): ``tool_search_call`` / ``tool_search_output`` pairs, and ``image_generation_call``,
a call the server ran whose item holds its result. Neither is in the corpus; shapes from the sources."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import inspector.protocols.common.values as _values
from inspector.model.events import Event, Outcome, RawRef, Request, Result
from inspector.protocols.codex.ends import State, output

HOSTED = ("tool_search_call", "tool_search_output", "image_generation_call")
_SEARCH = "tool_search"


def hosted(item: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Iterator[Event]:
    kind = item.get("type")
    if kind == "tool_search_call":
        yield from _search_call(item, ts, raw, state)
    elif kind == "tool_search_output":
        yield from _search_output(item, ts, raw, state)
    else:
        yield from _image(item, ts, raw, state)


def _search_call(item: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Iterator[Event]:
    """``{call_id?, status?, execution, arguments}``: ``arguments`` is a JSON value, not a string."""
    call_id = item.get("call_id") or item.get("id")
    if not isinstance(call_id, str) or not call_id:
        call_id = f"tool_search@{raw.where}"
    found = item.get("arguments")
    args = found if isinstance(found, dict) else {"arguments": found}
    state.tools[call_id] = _SEARCH
    yield Request(call_id, _SEARCH, state.group, args, ts=ts, sender="assistant", raw=raw,
                  summary=_values.arguments_summary(args))  # fmt: skip


def _search_output(item: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Iterator[Event]:
    """``{call_id?, status, execution, tools}``; without a call_id it answers the newest open search."""
    call_id = item.get("call_id")
    if not isinstance(call_id, str) or not call_id:
        open_ids = [c for c, name in state.tools.items() if name == _SEARCH and c not in state.answered]
        call_id = open_ids[-1] if open_ids else f"tool_search@{raw.where}"
    tools = item.get("tools")
    names = [_tool_name(tool) for tool in tools] if isinstance(tools, list) else []
    text = "\n".join(names) if names else "no tools found"
    if item.get("status") not in (None, "completed") and call_id not in state.ends:
        state.ends[call_id] = ({"success": False, "stderr": f"tool search {item.get('status')}"}, ts, raw)
    yield from output(call_id, text, None, ts, raw, state)


def _tool_name(tool: Any) -> str:
    if isinstance(tool, dict):
        name = tool.get("name")
        space = tool.get("namespace")
        if isinstance(name, str):
            return f"{space}__{name}" if isinstance(space, str) and space else name
        return str(tool.get("type") or "tool")
    return str(tool)


def _image(item: dict[str, Any], ts: float | None, raw: RawRef, state: State) -> Iterator[Event]:
    """``{id, status, revised_prompt?, result}``: the result is the image in base64 (only its size kept)."""
    call_id = item.get("id") or item.get("call_id")
    if not isinstance(call_id, str) or not call_id:
        call_id = f"image_generation@{raw.where}"
    if call_id in state.answered:
        return
    prompt = item.get("revised_prompt")
    args = {"revised_prompt": prompt} if isinstance(prompt, str) else {}
    yield Request(call_id, "image_generation", state.group, args, ts=ts, sender="assistant", raw=raw,
                  summary=_values.arguments_summary(args))  # fmt: skip
    status = item.get("status")
    if status in ("completed", "failed", "incomplete"):
        state.answered.add(call_id)
        image = item.get("result")
        size = len(image) if isinstance(image, str) else 0
        ended = Outcome.SUCCESS if status == "completed" else Outcome.ERROR
        message = None if ended is Outcome.SUCCESS else f"image generation {status}"
        data = f"[image: {size} characters of base64]" if size else status
        yield Result(call_id, ended, state.group, data, error_message=message, ts=ts, sender="server", raw=raw,
                     tool="image_generation")  # fmt: skip
