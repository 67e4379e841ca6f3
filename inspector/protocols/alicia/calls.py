"""Alicia's tool calls: the bodies of ToolUseRequest (6) and ToolUseResult (7) of both generations."""

from __future__ import annotations

from typing import Any

from inspector.model.events import Event, Executor, Malformed, Outcome, RawRef, Request, Result
from inspector.protocols.alicia.wire import DEFAULT_TIMEOUT_MS
from inspector.textsafe import one_line, summarize

_EXECUTORS = {e.value: e for e in Executor}

_EXECUTION_REASON = (
    "execution is REQUIRED and MUST be 'server', 'client' or 'either'; "
    "if it is omitted or unrecognized the receiver MUST reject the message"
)


def text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def decode_request(
    body: Any,
    group: str,
    ts: float | None,
    sender: str,
    raw: RawRef | None,
    extra: dict[str, Any],
    where: str,
    source: str,
) -> Event:
    if not isinstance(body, dict):
        return Malformed(where=where, reason="ToolUseRequest body is not a map", source=source, raw=raw)
    call_id = text_or_none(body.get("id")) or text_or_none(body.get("requestId"))
    if not call_id:
        return Malformed(where=where, reason="ToolUseRequest without a text 'id'", source=source, raw=raw)
    problems = []
    tool = text_or_none(body.get("toolName")) or text_or_none(body.get("name"))
    if not tool:
        problems.append("toolName is missing or not text")
        tool = "?"
    params = body.get("parameters", body.get("arguments"))
    if params is None:
        params = {}
    elif not isinstance(params, dict):
        problems.append("parameters must be a map")
    execution = body.get("execution")
    executor = _EXECUTORS.get(execution) if isinstance(execution, str) else None
    if execution is None and extra.get("stanzaId") is None:
        pass  # the coded generation omits it when empty (types.go: `execution,omitempty`)
    elif execution is None:
        problems.append(f"no 'execution': {_EXECUTION_REASON}")
    elif executor is None:
        problems.append(f"unknown execution {one_line(repr(execution), 40)}: {_EXECUTION_REASON}")
    timeout = body.get("timeoutMs")
    timeout_ms: int | None
    if timeout is None and executor is Executor.SERVER and extra.get("stanzaId") is None:
        # the coded generation (longregen/alicia's Go agent) waits on no server tool: agent/agent.go calls
        # it with no limit, so no countdown; the documented one gives every request the 30 s default
        timeout_ms = None
    elif timeout is None:
        timeout_ms = DEFAULT_TIMEOUT_MS
        extra["default_timeout"] = True  # not sent: a source that knows who waits may set its own
    elif isinstance(timeout, int) and not isinstance(timeout, bool) and timeout > 0:
        timeout_ms = timeout
    elif isinstance(timeout, float) and timeout.is_integer() and timeout > 0:
        timeout_ms = int(timeout)  # 5000.0: a JavaScript or Python peer's number, the same deadline
    else:
        problems.append(
            f"timeoutMs must be a positive integer (got {one_line(repr(timeout), 30)}); using 30000"
        )
        timeout_ms = DEFAULT_TIMEOUT_MS
    return Request(
        call_id=call_id,
        tool=tool,
        group=group,
        params=params,
        executor=executor,
        timeout_ms=timeout_ms,
        ts=ts,
        sender=sender,
        raw=raw,
        violation="; ".join(problems) or None,
        summary=summarize(params),
        message_id=text_or_none(body.get("messageId")),
        extra=extra,
    )


_OUTCOMES = {
    "timeout": Outcome.TIMEOUT,
    "timed_out": Outcome.TIMEOUT,
    "canceled": Outcome.CANCELED,
    "cancelled": Outcome.CANCELED,
    "denied": Outcome.DENIED,
    "permission_denied": Outcome.DENIED,
}


def decode_result(
    body: Any,
    group: str,
    ts: float | None,
    sender: str,
    raw: RawRef | None,
    extra: dict[str, Any],
    where: str,
    source: str,
) -> Event:
    if not isinstance(body, dict):
        return Malformed(where=where, reason="ToolUseResult body is not a map", source=source, raw=raw)
    # A result names its request by ``requestId`` when it has one (the Go server looks the tool use up
    # by it: longregen/alicia api/server/ws.go; types.go gives a result its own ``id`` as well); the
    # protocol document's type 7 has only ``id``, naming the request.
    own_id = text_or_none(body.get("id"))
    request_id = text_or_none(body.get("requestId"))
    call_id = request_id or own_id or text_or_none(body.get("toolUseId"))
    if not call_id:
        return Malformed(
            where=where, reason="ToolUseResult without a text 'id' or 'requestId'", source=source, raw=raw
        )
    if request_id and own_id and own_id != request_id:
        extra["resultId"] = own_id
    code = text_or_none(body.get("errorCode"))
    message = text_or_none(body.get("errorMessage"))
    error = body.get("error")
    if isinstance(error, dict):
        code = code or text_or_none(error.get("code"))
        message = message or text_or_none(error.get("message"))
    elif isinstance(error, str) and error:
        message = message or error
    success = body.get("success")
    if not isinstance(success, bool):
        extra["violation"] = "success is missing or not a boolean"
        success = not (code or message or error)
    data = body.get("result", body.get("data"))
    if success:
        outcome = Outcome.SUCCESS
    else:
        outcome = _OUTCOMES.get((code or "").lower(), Outcome.ERROR)
        code = code or "execution_error"
    return Result(
        call_id=call_id,
        outcome=outcome,
        group=group,
        data=data,
        error_code=None if success else code,
        error_message=None if success else message,
        ts=ts,
        sender=sender,
        raw=raw,
        extra=extra,
    )
