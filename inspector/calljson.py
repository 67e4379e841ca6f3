"""Calls as JSON objects, shared by ``inspector dump --json``, ``inspector live --no-ui --json`` and the
UI's export (no Rich: a headless JSON command imports none)."""

from __future__ import annotations

import json
from typing import Any

from inspector.model import Call
from inspector.model.values import dumps_json, inert_json


def call_json(call: Call, now: float, request=None, results=None) -> dict[str, Any]:
    """A JSON-ready dict for one call (payloads included when given by hydrate)."""
    return _call_dict(call, now, request, results, _safe)


def call_json_text(call: Call, now: float, request=None, results=None) -> str:
    """``dumps_json(call_json(...))`` with the payloads encoded once: tried as they are, strictly (no
    ``default``, no NaN); a payload that cannot be (an unknown type, a non-finite float, an integer past
    Python's digit limit, a cycle, nesting past the recursion limit) goes the way of ``call_json``, so
    the text is the same either way."""
    try:
        text = json.dumps(
            _call_dict(call, now, request, results, _as_is), ensure_ascii=False, allow_nan=False
        )
    except (TypeError, ValueError, RecursionError):
        return dumps_json(call_json(call, now, request, results))
    return inert_json(text)


def _call_dict(call: Call, now: float, request, results, payload) -> dict[str, Any]:
    request = request or call.request
    results = results if results is not None else call.results
    return {
        "id": call.call_id,
        "group": call.group,
        "tool": call.tool,
        "executor": request.executor.value if request.executor else None,
        "state": call.state(now).value,
        "parent": call.parent.call_id if call.parent else None,
        "depth": call.depth,
        "ts": request.ts,
        "deadline": call.deadline,
        "latency_ms": call.latency_ms,
        "late": call.late,
        "duplicates": call.duplicates,
        "violation": request.violation,
        "undelivered": call.undelivered,
        "notes": dict(call.notes),
        "summary": request.summary,
        "params": payload(request.params),
        "where": request.raw.where if request.raw else None,
        "results": [
            {
                "outcome": r.outcome.value,
                "ts": r.ts,
                "error_code": r.error_code,
                "error_message": r.error_message,
                "data": payload(r.data),
                "answered_by": r.answered_by,
                "has_diff": r.has_diff,
                "where": r.raw.where if r.raw else None,
                **({"saved_output": r.extra["saved_output"]} if "saved_output" in r.extra else {}),
            }
            for r in results
        ],
    }


def _as_is(value: Any) -> Any:
    return value


def _safe(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError, RecursionError):
        return repr(value)
