"""A Claude Code file change whose result carries no diff, as a diff computed from the request.

Claude Code 2.1.x sub-agent files hold Edits, MultiEdits and Writes with no ``toolUseResult`` (so no
``structuredPatch``): the change is still in the call's own parameters (``old_string``/``new_string``,
``edits``, a Write's ``content``). Reading a session only asks :func:`changes` (cheap, to count the call
among those with a diff); the hunks are computed by :func:`request_patch` when the detail is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inspector.model.details import PatchDetail

EDIT_TOOLS = frozenset(("Edit", "MultiEdit", "Write"))


def _pairs(tool: str, params: Any) -> list[tuple[str, str]]:
    """The (old, new) texts the call changes, as the request gave them."""
    if not isinstance(params, dict):
        return []
    if tool == "Write":
        content = params.get("content")
        return [("", content)] if isinstance(content, str) else []
    edits = params.get("edits") if tool == "MultiEdit" else [params]
    pairs = []
    for edit in edits if isinstance(edits, list) else []:
        if isinstance(edit, dict):
            old, new = edit.get("old_string"), edit.get("new_string")
            if isinstance(old, str) and isinstance(new, str):
                pairs.append((old, new))
    return pairs


def changes(tool: str, params: Any) -> bool:
    """Whether the request of a file-change call holds a change a diff can show (no diff is computed)."""
    return tool in EDIT_TOOLS and any(old != new for old, new in _pairs(tool, params))


def request_patch(tool: str, params: Any, *, created: bool = False) -> PatchDetail | None:
    """The change as diff hunks computed from the request (a Write: every line added; ``created``: the
    result said the file is new); None when the request holds none. An edit's line numbers count from
    the edited text, not the file (the file is not in the session)."""
    if not changes(tool, params):
        return None
    from inspector.model.details import PatchDetail
    from inspector.model.diff import hunks_from_texts

    path = params.get("file_path") if isinstance(params, dict) else None
    hunks = [hunk for old, new in _pairs(tool, params) for hunk in hunks_from_texts(old, new)]
    kind = ("create" if created else "write") if tool == "Write" else "update"
    return PatchDetail(path if isinstance(path, str) else "", hunks, kind=kind, from_request=True)
