"""A result Claude Code saved to ``tool-results/``: the full output read from that file when it is here."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from inspector.model.details import BashDetail, PersistedDetail
from inspector.protocols.claude.details import terminal_text
from inspector.ui.render.parts import heading, muted
from inspector.ui.render.safe import human_size, inline, safe_text

READ_LIMIT = 8 * 1024 * 1024
"""Bytes of a saved output read for the detail (the full-text switch reads up to FULL_LIMIT)."""
FULL_LIMIT = 256 * 1024 * 1024

_cache: dict[tuple[str, int, int, float], tuple[str | None, int, str]] = {}


def _read(detail: PersistedDetail, limit: int) -> tuple[str | None, int, str]:
    """The saved output, read once per file version (a detail is drawn again on every resize)."""
    try:
        stat = os.stat(detail.local)
    except OSError:
        return detail.read(limit)
    key = (detail.local, limit, stat.st_size, stat.st_mtime)
    hit = _cache.get(key)
    if hit is None:
        hit = detail.read(limit)
        _cache.clear()  # one output is kept: the one being looked at
        _cache[key] = hit
    return hit


def persisted_view(
    detail: PersistedDetail, ctx: Any, inner_view: Callable[[Any], RenderableType]
) -> RenderableType:
    """The output from the saved file, or, when the file is not here, why not and the preview."""
    theme = ctx.theme
    limit = FULL_LIMIT if ctx.full_text else READ_LIMIT
    text, size, problem = _read(detail, limit)
    name = os.path.basename(detail.local)
    parts: list[RenderableType] = []
    if text is not None:
        note = f"tool-results/{name}, {human_size(size)}"
        if size > limit:
            note += f"; the first {human_size(limit)} shown"
        parts += [heading("output", theme, note), safe_text(terminal_text(text), limits=ctx.limits)]
    else:
        wanted = f" ({human_size(detail.size)})" if detail.size is not None else ""
        line = Text()
        line.append(f"The full output{wanted} is not here: ", Style(color=theme.failed))
        where = f"tool-results/{inline(name, 120)}"
        if problem == "not found":
            words = f"there is no {where} beside this session."
        else:
            words = f"{where} beside this session cannot be read ({inline(problem, 80)})."
        line.append(words, Style(color=theme.muted))
        line.append("\nClaude Code saved it to ", Style(color=theme.muted))
        line.append(inline(detail.saved_as, 400))
        parts.append(line)
        parts.append(heading("preview kept in the transcript", theme))
        parts.append(
            safe_text(detail.preview, limits=ctx.limits) if detail.preview else muted("(none)", theme)
        )
    inner = detail.inner
    if isinstance(inner, BashDetail) and (inner.stderr or inner.interrupted or inner.exit_code or inner.note):
        parts.append(inner_view(dataclasses.replace(inner, stdout="")))
    return Group(*parts)
