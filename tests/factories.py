"""Small factories for model objects in tests (in the spirit of mitmproxy's tflow)."""

from __future__ import annotations

from inspector.model import Executor, Outcome, Request, Result


def make_request(
    call_id: str = "c1",
    tool: str = "web_search",
    *,
    group: str = "g",
    ts: float = 1000.0,
    executor: Executor | None = Executor.CLIENT,
    timeout_ms: int | None = 5000,
    params=None,
    parent_id: str | None = None,
) -> Request:
    return Request(
        call_id=call_id,
        tool=tool,
        group=group,
        ts=ts,
        executor=executor,
        timeout_ms=timeout_ms,
        params=params if params is not None else {"q": "x"},
        parent_id=parent_id,
        summary="x",
    )


def make_result(
    call_id: str = "c1",
    outcome: Outcome = Outcome.SUCCESS,
    *,
    group: str = "g",
    ts: float = 1001.0,
    data=None,
    error_code: str | None = None,
) -> Result:
    return Result(
        call_id=call_id,
        outcome=outcome,
        group=group,
        ts=ts,
        data=data if data is not None else {"ok": 1},
        error_code=error_code,
    )
