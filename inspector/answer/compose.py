"""Build and check one ToolUseResult answer before it is sent: exact envelope, size, refusals, warnings.

How the UI uses it (no Textual or LiveKit in here)::

    draft = compose.success({"content": "hi"})          # or compose.failure("execution_error", "disk full")
    review = source.review_answer(call, draft)          # = compose.review(call, draft, now=..., stanza_id=...)
    review.preview_json()                               # the exact envelope, pretty-printed
    review.refusals / review.confirmations / review.notes   # Issue lists, each with a readable .message
    await source.send_answer(call, draft, confirm_late=...)

``review.refusals`` block sending (server-executed request, a request already answered: one answer per
request, result not a map, over 64,000 bytes...); ``review.confirmations`` need an explicit yes (an
answer after the deadline); ``review.notes`` are only shown (execution ``either``, no errorMessage on a custom code).
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from typing import Any

import msgpack

from inspector.model import Call, Executor
from inspector.protocols import alicia
from inspector.textsafe import one_line

STANDARD_ERROR_CODES: tuple[str, ...] = ("unknown_tool", "invalid_parameters", "execution_error", "timeout")
CUSTOM = "custom"
ERROR_CHOICES: tuple[str, ...] = (*STANDARD_ERROR_CODES, CUSTOM)
MAX_PACKET_BYTES = alicia.MAX_PACKET_BYTES

# Spec wording for the codes the spec gives a fixed message; the other two get a readable default.
MESSAGE_TEMPLATES: dict[str, str] = {
    "unknown_tool": "Tool '{toolName}' is not supported by this client",
    "timeout": "Tool execution exceeded timeout of {timeoutMs}ms",
    "invalid_parameters": "Invalid parameters for tool '{toolName}'",
    "execution_error": "Tool '{toolName}' failed during execution",
}


class Severity(str, enum.Enum):
    """How much an issue stands in the way of sending."""

    REFUSE = "refuse"  # cannot be sent at all
    CONFIRM = "confirm"  # sent only with an explicit confirmation
    NOTE = "note"  # shown, never blocks


@dataclass(frozen=True)
class Issue:
    """One finding about an answer: ``kind`` is a stable id (e.g. ``"duplicate"``), ``message`` is for people."""

    kind: str
    severity: Severity
    message: str


@dataclass(frozen=True)
class Draft:
    """What someone wants to send: success with a result map, or a failure with an error code."""

    success: bool
    result: Any = None
    error_code: str | None = None
    error_message: str | None = None
    meta: dict[str, Any] | None = None


def success(result: Any, meta: dict[str, Any] | None = None) -> Draft:
    """A successful answer; ``result`` must be a map (checked by :func:`review`)."""
    return Draft(success=True, result=result, meta=meta)


def failure(
    code: str, message: str | None = None, result: Any = None, meta: dict[str, Any] | None = None
) -> Draft:
    """A failed answer; ``message=None`` uses the spec's template for the code (filled in at review)."""
    return Draft(success=False, result=result, error_code=code, error_message=message, meta=meta)


def unknown_tool(call: Call | None = None) -> Draft:
    """The one-key "I do not support this tool" answer, with the spec's exact message."""
    return failure("unknown_tool", _fill(MESSAGE_TEMPLATES["unknown_tool"], call))


def timeout(call: Call | None = None) -> Draft:
    """The one-key "timed out" answer, with the spec's exact message and the request's timeoutMs."""
    return failure("timeout", _fill(MESSAGE_TEMPLATES["timeout"], call))


def default_message(code: str, call: Call | None = None) -> str:
    """The message the inspector proposes for ``code`` ("" for custom codes)."""
    return _fill(MESSAGE_TEMPLATES.get(code, ""), call)


def fill(template: str, call: Call | None, limit: int = alicia.FILL_LIMIT) -> str:
    """Fill ``{toolName}`` and ``{timeoutMs}`` from the call's request (raises TemplateTooLarge past
    ``limit`` characters, before expanding)."""
    return _fill(template, call, limit)


def _fill(template: str, call: Call | None, limit: int = alicia.FILL_LIMIT) -> str:
    if call is None:
        return template
    return alicia.fill_template(template, call.tool, call.request.timeout_ms, limit)


def parse_result(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """Parse the text of a result editor: ``(map, None)`` or ``(None, reason with line and column)``."""
    if not text.strip():
        return {}, None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
    except RecursionError:
        return None, "nested too deeply"
    if not isinstance(value, dict):
        return None, f"the result must be a map (a JSON object), not {_kind(value)}"
    return value, None


def _kind(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def time_left(call: Call, now: float) -> float | None:
    """Seconds before the request's deadline (negative once passed); None without a deadline."""
    return call.remaining(now)


def time_left_text(call: Call, now: float) -> str:
    """``"4.2 s left"``, ``"overdue by 3.1 s"``, ``"no deadline"``, or ``"answered by X"`` once a result
    came (the countdown stops there: it kept counting after the peer had answered)."""
    if call.answered:
        first = call.result
        who = (first.answered_by or first.sender or "") if first is not None else ""
        return f"answered by {one_line(who, 40)}" if who else "answered"
    left = call.remaining(now)
    if left is None:
        return "no deadline"
    return f"{left:.1f} s left" if left > 0 else f"overdue by {-left:.1f} s"


def conversation_of(call: Call) -> str:
    """The conversationId an answer to ``call`` carries: the request's own."""
    conv = call.request.extra.get("conversationId")
    return conv if isinstance(conv, str) else call.group


def already_answered(call: Call) -> str:
    """Why a second answer to ``call`` is refused: who answered it, how, and that one answer is all."""
    first = call.result
    who = (first.answered_by or first.sender or "someone") if first is not None else "someone"
    outcome = first.outcome.value if first is not None else "answered"
    return (
        f"this request was already answered ({outcome}, by {one_line(who, 40)}): a ToolUseResult is sent "
        "exactly once per request, so a second answer is not sent"
    )


def answerable(call: Call) -> Issue | None:
    """Why this call can never be answered by the inspector (a refusal), or None.

    Cheap: the UI can use it to grey out its answer key.
    """
    executor = call.request.executor
    if executor is Executor.SERVER:
        return Issue(
            "server",
            Severity.REFUSE,
            f"'{call.tool}' is executed by the server (execution: \"server\"): the spec says the client "
            "MUST NOT execute it, and the server sends the ToolUseResult itself.",
        )
    return None


@dataclass
class Review:
    """A composed answer, checked: the exact envelope, its encoded size and every issue found."""

    call: Call
    draft: Draft
    stanza_id: int
    conversation_id: str
    envelope: dict[str, Any] | None
    data: bytes | None
    remaining: float | None
    issues: list[Issue] = field(default_factory=list)
    overhead: int = 0

    @property
    def size(self) -> int:
        return len(self.data) if self.data is not None else 0

    @property
    def wire_size(self) -> int:
        """What the transport sends: the envelope and the data packet around it."""
        return self.size + self.overhead if self.data is not None else 0

    @property
    def refusals(self) -> list[Issue]:
        return [i for i in self.issues if i.severity is Severity.REFUSE]

    @property
    def confirmations(self) -> list[Issue]:
        return [i for i in self.issues if i.severity is Severity.CONFIRM]

    @property
    def notes(self) -> list[Issue]:
        return [i for i in self.issues if i.severity is Severity.NOTE]

    @property
    def sendable(self) -> bool:
        """True when nothing refuses the answer (confirmations may still be needed)."""
        return not self.refusals and self.data is not None

    def unconfirmed(self, *, confirm_late: bool = False) -> list[Issue]:
        """The confirmations still missing given the flags."""
        given = {"late": confirm_late}
        return [i for i in self.confirmations if not given.get(i.kind, False)]

    def preview_json(self) -> str:
        """The envelope exactly as it will be packed, as indented JSON (bytes shown as base64 markers)."""
        if self.envelope is None:
            return ""
        return json.dumps(self.envelope, indent=2, ensure_ascii=False, default=repr)


def review(
    call: Call,
    draft: Draft,
    *,
    now: float,
    stanza_id: int,
    max_bytes: int = MAX_PACKET_BYTES,
    overhead: int = 0,
) -> Review:
    """Compose the envelope for ``draft`` answering ``call`` and check it against the spec and the transport."""
    issues: list[Issue] = []
    blocked = answerable(call)
    if blocked is not None:
        issues.append(blocked)
    if call.request.executor is Executor.EITHER:
        issues.append(
            Issue(
                "either",
                Severity.NOTE,
                'execution is "either": the server may run this tool itself when no client does; '
                "answering claims it for the client side.",
            )
        )
    elif call.request.executor is None:
        issues.append(
            Issue(
                "no_execution",
                Severity.NOTE,
                "the request has no valid 'execution' field (a protocol violation); "
                "an answer may be ignored by the agent.",
            )
        )
    body_fields, problems = _body_fields(call, draft)
    issues.extend(problems)
    issues.extend(_timing(call, now))
    conv = conversation_of(call)
    envelope = data = None
    if body_fields is not None:
        body = alicia.tool_result_body(
            call_id=call.call_id,
            conversation_id=conv,
            message_id=call.request.message_id,
            **body_fields,
        )
        envelope = alicia.envelope(
            type_=alicia.TOOL_USE_RESULT,
            body=body,
            conversation_id=conv,
            stanza_id=stanza_id,
            meta=draft.meta,
        )
        try:
            data = msgpack.packb(envelope, use_bin_type=True)
        except (TypeError, ValueError, OverflowError) as exc:
            issues.append(Issue("unencodable", Severity.REFUSE, f"cannot be encoded as MessagePack: {exc}"))
        else:
            if len(data) + overhead > max_bytes:
                issues.append(
                    Issue(
                        "too_large",
                        Severity.REFUSE,
                        f"the answer is {len(data) + overhead:,} bytes on the wire ({len(data):,} of envelope); "
                        f"one LiveKit data packet carries at most {max_bytes:,} bytes, so it would not be "
                        "sent. Shorten the result.",
                    )
                )
    return Review(
        call=call,
        draft=draft,
        stanza_id=stanza_id,
        conversation_id=conv,
        envelope=envelope,
        data=data,
        remaining=call.remaining(now),
        issues=issues,
        overhead=overhead,
    )


def _body_fields(call: Call, draft: Draft) -> tuple[dict[str, Any] | None, list[Issue]]:
    issues: list[Issue] = []
    result = draft.result
    if draft.success:
        if not isinstance(result, dict):
            issues.append(
                Issue(
                    "not_a_map",
                    Severity.REFUSE,
                    f"the result must be a map (the spec's 'result' is a Map), not {_kind(result)}",
                )
            )
            return None, issues
        return {"success": True, "result": result}, issues
    if result is not None and not isinstance(result, dict):
        issues.append(
            Issue("not_a_map", Severity.REFUSE, f"partial results must be a map, not {_kind(result)}")
        )
        return None, issues
    code = (draft.error_code or "").strip()
    if not code or code == CUSTOM:
        issues.append(Issue("no_error_code", Severity.REFUSE, "a failed answer needs an error code"))
        return None, issues
    message = draft.error_message
    if message is None:
        message = default_message(code, call) or None
    else:
        message = fill(message, call)
    if message is None or not message.strip():
        message = None
        issues.append(Issue("no_message", Severity.NOTE, "no errorMessage: the agent sees only the code"))
    if code not in STANDARD_ERROR_CODES:
        issues.append(
            Issue(
                "custom_code",
                Severity.NOTE,
                f"'{code}' is a custom error code (the spec allows tool-specific codes)",
            )
        )
    return {"success": False, "result": result, "error_code": code, "error_message": message}, issues


def _timing(call: Call, now: float) -> list[Issue]:
    issues: list[Issue] = []
    first = call.result
    if first is not None:
        issues.append(Issue("duplicate", Severity.REFUSE, already_answered(call)))
    left = call.remaining(now)
    if left is not None and left <= 0:
        issues.append(
            Issue(
                "late",
                Severity.CONFIRM,
                f"the deadline passed {-left:.1f} s ago (timeoutMs {call.request.timeout_ms}); "
                "the agent may have given up on this request.",
            )
        )
    return issues
