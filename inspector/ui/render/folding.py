"""Parameters of a call that changed a file: shown after its diff, their long texts folded to one line."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from inspector.model import Result
from inspector.model.details import PatchDetail
from inspector.ui.render.json_view import render_json
from inspector.ui.render.parts import heading, muted
from inspector.ui.render.safe import Limits, human_size, inline
from inspector.ui.render.theme import RenderTheme

FOLD_LINES = 8
"""A parameter text longer than this many lines is folded under a diff."""


def diff_first(results: list[Result]) -> bool:
    """True when a result shows a diff: it comes first, the parameters (the whole content) after it."""
    return any(isinstance(result.details, PatchDetail) for result in results)


def parameters(params: Any, theme: RenderTheme, limits: Limits, *, fold: bool) -> list[RenderableType]:
    """The parameters' heading and body; with ``fold``, each long text is one line saying what it holds."""
    if params is None:
        return [heading("parameters", theme), muted("(none)", theme)]
    folded = _long_texts(params) if fold else {}
    if not folded:
        return [heading("parameters", theme), render_json(params, theme, limits, text_blocks=True)]
    rest = {key: value for key, value in params.items() if key not in folded}
    parts: list[RenderableType] = [heading("parameters", theme, "long texts folded: f unfolds")]
    if rest:
        parts.append(render_json(rest, theme, limits, text_blocks=True))
    for key, text in folded.items():
        line = Text("▸ ", Style(color=theme.heading, bold=True))
        line.append(inline(key, 60), "bold")
        lines = text.count("\n") + 1
        line.append(f"  {lines:,} lines, {human_size(len(text.encode('utf-8', 'replace')))}", Style(dim=True))
        parts.append(line)
    return [Group(*parts)]


def _long_texts(params: Any) -> dict[str, str]:
    if not isinstance(params, dict):
        return {}
    return {
        str(key): value
        for key, value in params.items()
        if isinstance(value, str) and value.count("\n") >= FOLD_LINES
    }
