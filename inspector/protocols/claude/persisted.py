"""Claude Code 2.1.x externalised results: a ``<persisted-output>`` stub inline, the full text in ``tool-results/``.

A result too large for the transcript is written to ``<session>/tool-results/<name>`` and replaced by a
stub naming that file with the path of the machine that ran the session, e.g.::

    <persisted-output>
    Output too large (6.6MB). Full output saved to: C:\\Users\\me\\.claude\\projects\\p\\<session>\\tool-results\\bej1e99ys.txt

    Preview (first 2KB):
    ...
    </persisted-output>

Bash results also carry ``persistedOutputPath`` and ``persistedOutputSize`` in ``toolUseResult``. The
file is usually ``<tool_use_id>.txt`` but not always (the stub's name wins). Subagent transcripts
(``<session>/subagents/**/agent-*.jsonl``) share the session's folder. Facts read from real transcripts
quoted in public repositories (e.g. polylogue's ``claude`` sidecar join, entire's transcript tests).
Nothing is read here: the file is opened only when the result is shown (``PersistedDetail.read``).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

from inspector.model import values

if TYPE_CHECKING:
    from inspector.model.details import PersistedDetail

STUB = "<persisted-output>"
_STUB_END = "</persisted-output>"
_SAVED_TO = re.compile(r"(?:Full output saved to|Output has been saved to):?[ \t]*([^\n]+)")
_TOO_LARGE = re.compile(r"Output too large \((\d+(?:\.\d+)?)\s*([KMG]?B)\)")
_PREVIEW = re.compile(r"\nPreview[^\n]*:\n")
_SAFE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}")
_UNITS = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}
PREVIEW_LIMIT = 64 * 1024


def tool_results_dir(transcript: str) -> str:
    """``<session>/tool-results`` beside a session file; a subagent file's is its session's, at any
    depth below ``<session>/subagents/`` (a Workflow's agents are in ``subagents/workflows/<runId>/``)."""
    path = os.path.abspath(transcript)
    folder = os.path.dirname(path)
    for _ in range(8):
        if os.path.basename(folder) == "subagents":
            return os.path.join(os.path.dirname(folder), "tool-results")
        up = os.path.dirname(folder)
        if up == folder:
            break
        folder = up
    base = path[: -len(".jsonl")] if path.endswith(".jsonl") else path
    return os.path.join(base, "tool-results")


def stub_text(content: Any) -> str | None:
    """The stub when a tool_result's content is one (a string, or its first text block), else None."""
    if isinstance(content, list):
        first = next((b for b in content if isinstance(b, dict) and b.get("type") == "text"), None)
        content = first.get("text") if first is not None else None
    if isinstance(content, str) and content[:256].lstrip().startswith(STUB):
        return content
    return None


def persisted(transcript: str, call_id: str, content: Any, structured: Any) -> PersistedDetail | None:
    """Where the full output of an externalised result is (None for a result kept inline)."""
    stub = stub_text(content)
    saved_as = structured.get("persistedOutputPath") if isinstance(structured, dict) else None
    if not isinstance(saved_as, str) or not saved_as:
        if stub is None:
            return None
        found = _SAVED_TO.search(stub)
        saved_as = found.group(1).strip() if found else ""
    name = re.split(r"[\\/]", saved_as)[-1] if saved_as else ""
    if not _SAFE_NAME.fullmatch(name) or name.strip(".") == "":
        name = f"{call_id}.txt" if _SAFE_NAME.fullmatch(f"{call_id}.txt") else ""
    if not name:
        return None
    size = structured.get("persistedOutputSize") if isinstance(structured, dict) else None
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        size = _stub_size(stub)
    from inspector.model.details import PersistedDetail  # (not at the top: see claude/details.py)

    return PersistedDetail(
        saved_as or name,
        os.path.join(tool_results_dir(transcript), name),
        size,
        _preview(stub) if stub is not None else "",
    )


def _stub_size(stub: str | None) -> int | None:
    found = _TOO_LARGE.search(stub) if stub is not None else None
    if found is None:
        return None
    size = values.number(float(found.group(1)) * _UNITS[found.group(2)])  # 400 digits: inf, no size
    return int(size) if size is not None else None


def _preview(stub: str) -> str:
    text = stub.strip()
    if text.endswith(_STUB_END):
        text = text[: -len(_STUB_END)]
    found = _PREVIEW.search(text)
    text = text[found.end() :] if found else text[len(STUB) :]
    return text.strip("\n")[:PREVIEW_LIMIT]
