"""Claude Code boundaries as marker rows: context compacted (with its summary folded), microcompacted.

Shapes from real transcripts (quoted in public tools' tests and notes, e.g. ccrider's schema notes,
claude-code-log's DAG test data, erk's session layout): a compaction writes a ``system`` record
``subtype: "compact_boundary"`` (``content: "Conversation compacted"``, ``compactMetadata:
{trigger, preTokens, durationMs?}``, ``parentUuid: null``, ``logicalParentUuid``) and, right after it,
a ``user`` record with ``isCompactSummary: true`` whose text is the summary the model continues
from. A microcompaction writes ``subtype: "microcompact_boundary"`` (``content: "Context
microcompacted"``, ``microcompactMetadata: {trigger, preTokens, tokensSaved, compactedToolIds,
clearedAttachmentUUIDs}``): older tool results were cleared from the model's context.
"""

from __future__ import annotations

from typing import Any

from inspector.model.events import Marker, RawRef, Skipped

BOUNDARIES = ("compact_boundary", "microcompact_boundary")
BODY_LIMIT = 200_000  # characters of a summary kept (the full text stays in the file)


def boundary(record: dict[str, Any], group: str, ts: float | None, raw: RawRef, parent: str | None) -> Marker:
    """The marker of a ``compact_boundary`` or ``microcompact_boundary`` system record."""
    if record.get("subtype") == "microcompact_boundary":
        meta = _dict(record.get("microcompactMetadata"))
        cleared = [tool for tool in _list(meta.get("compactedToolIds")) if isinstance(tool, str)]
        words = _words(
            _str(meta.get("trigger")),
            _tokens(meta.get("tokensSaved"), "saved"),
            _count(len(cleared), "tool result") + " cleared" if cleared else "",
        )
        body = ""
        if cleared:
            body = "Tool results cleared from the model's context (the transcript keeps them):\n"
            body += "\n".join(cleared[:1000])
        return Marker(
            "microcompaction", "context microcompacted" + words, group, ts, "system", raw, parent, body=body
        )
    meta = _dict(record.get("compactMetadata"))
    words = _words(_str(meta.get("trigger")), _tokens(meta.get("preTokens"), "before"))
    return Marker("compaction", "context compacted" + words, group, ts, "system", raw, parent)


def summary(
    text: str, last: Marker | None, group: str, ts: float | None, raw: RawRef, parent: str | None
) -> Marker | Skipped:
    """An ``isCompactSummary`` record: folded under the compaction just before it, else a marker of its own."""
    if last is not None and last.kind == "compaction" and not last.body:
        last.body = text[:BODY_LIMIT]
        return Skipped("compact summary", raw.where)
    return Marker(
        "compaction", "context compacted (summary)", group, ts, "system", raw, parent, body=text[:BODY_LIMIT]
    )


def _words(*parts: str) -> str:
    kept = [part for part in parts if part]
    return f" ({', '.join(kept)})" if kept else ""


def _tokens(value: Any, what: str) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return f"{value:,} tokens {what}"
    return ""


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"


def _str(value: Any) -> str:
    return value[:40] if isinstance(value, str) else ""


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
