"""A result's body, in a view made for its kind of details (Bash, Read, Edit, RAP display, ...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from inspector.model.details import (
    BashDetail,
    DisplayDetail,
    FetchDetail,
    FileDetail,
    FileListDetail,
    PatchDetail,
    PersistedDetail,
    SearchDetail,
    Segment,
    TaskDetail,
    TextDetail,
    TodoDetail,
)
from inspector.model.events import Result
from inspector.ui.render.diff_view import diff_from_content, render_diff, render_diffs
from inspector.ui.render.json_view import render_value
from inspector.ui.render.parts import fields_line, heading, muted, numbered_code
from inspector.ui.render.persisted_view import persisted_view
from inspector.ui.render.safe import DEFAULT_LIMITS, Limits, human_size, safe_text
from inspector.ui.render.theme import RenderTheme
from inspector.ui.render.tool_views import (
    fetch_view,
    file_list_view,
    search_view,
    task_view,
    todo_view,
)


class ViewContext:
    """What every result view may need: width, theme, limits and the full-text switch."""

    __slots__ = ("width", "theme", "limits", "full_text")

    def __init__(
        self, width: int, theme: RenderTheme, limits: Limits = DEFAULT_LIMITS, full_text: bool = False
    ) -> None:
        self.width = width
        self.theme = theme
        self.limits = limits
        self.full_text = full_text


def render_result_body(
    result: Result,
    *,
    width: int,
    theme: RenderTheme,
    limits: Limits = DEFAULT_LIMITS,
    full_text: bool = False,
) -> RenderableType:
    """The body of one result: a view chosen by the type of ``result.details``, else its data as JSON/text.

    A view that fails on unexpected detail contents falls back to the generic JSON view of the data.
    """
    ctx = ViewContext(width, theme, limits, full_text)
    view = _VIEWS.get(type(result.details))
    if view is not None:
        try:
            return view(result.details, ctx)
        except (TypeError, AttributeError, ValueError):
            pass
    return generic_view(result.data, ctx)


def generic_view(data: Any, ctx: ViewContext) -> RenderableType:
    """Any payload: JSON pretty-printed, a string as text (or as JSON when it is a JSON document)."""
    if data is None:
        return muted("(no data)", ctx.theme)
    if isinstance(data, str) and not data.strip():
        return muted("(empty text)", ctx.theme)
    return render_value(data, ctx.theme, ctx.limits)


def text_view(detail: TextDetail, ctx: ViewContext) -> RenderableType:
    if not detail.text:
        return muted("(empty text)", ctx.theme)
    return render_value(detail.text, ctx.theme, ctx.limits)


def bash_view(detail: BashDetail, ctx: ViewContext) -> RenderableType:
    """Flags (exit code, interrupted, background), then stdout and stderr apart."""
    theme = ctx.theme
    parts: list[RenderableType] = []
    flags = Text()
    if detail.interrupted:
        flags.append("interrupted", Style(color=theme.failed, bold=True))
    info = fields_line(
        [
            ("exit code", detail.exit_code),
            ("background task", detail.background_id),
            ("", detail.note),
        ],
        theme,
    )
    if flags.plain and info.plain:
        flags.append("  ·  ", Style(color=theme.muted))
    flags.append_text(info)
    if flags.plain:
        parts.append(flags)
    if detail.stdout:
        parts += [
            heading("stdout", theme, _line_count(detail.stdout)),
            safe_text(detail.stdout, limits=ctx.limits),
        ]
    if detail.stderr:
        parts += [
            heading("stderr", theme, _line_count(detail.stderr)),
            safe_text(detail.stderr, style=Style(color=theme.failed), limits=ctx.limits),
        ]
    if not detail.stdout and not detail.stderr:
        parts.append(muted("(no output)", theme))
    return Group(*parts)


def _line_count(text: str) -> str:
    count = text.count("\n") + (0 if text.endswith("\n") else 1)
    return f"{count:,} line{'s' if count != 1 else ''}"


def file_view(detail: FileDetail, ctx: ViewContext) -> RenderableType:
    """A file as read: path and line range, then the content highlighted with its line numbers."""
    theme = ctx.theme
    if detail.is_image:
        return Group(
            heading("image", theme, detail.path),
            muted(f"[image {detail.mime or 'of unknown type'} — not shown in the terminal]", theme),
        )
    shown = detail.num_lines if detail.num_lines is not None else detail.content.count("\n") + 1
    last = detail.start_line + max(shown, 1) - 1
    span = f"lines {detail.start_line}–{last}"
    if detail.total_lines is not None:
        span += f" of {detail.total_lines}"
    parts: list[RenderableType] = [heading("file", theme, f"{detail.path}  ({span})")]
    if detail.content:
        parts.append(numbered_code(detail.content, detail.path, theme, detail.start_line, ctx.limits))
    else:
        parts.append(muted("(empty)", theme))
    return Group(*parts)


def patch_view(detail: PatchDetail, ctx: ViewContext) -> RenderableType:
    """An edit or a write: the kind and flags, then the diff (a created file shows all lines added)."""
    theme = ctx.theme
    note = detail.kind + (" · modified by the user before it was applied" if detail.user_modified else "")
    if detail.from_request:
        note += " · diff computed from the request (the result carries none)"
        if detail.kind == "update":
            note += "; lines counted from the edited text, not the file"
        elif detail.kind == "write":
            note += "; the file's earlier content is not in the session"
    parts: list[RenderableType] = [heading("change", theme, note)]
    if detail.hunks:
        parts.append(render_diff(detail.file_diff, width=ctx.width, theme=theme, limits=ctx.limits))
    elif detail.content is not None:
        file_diff = diff_from_content(detail.path, detail.content, ctx.limits)
        parts.append(
            render_diff(file_diff, width=ctx.width, theme=theme, side_by_side=False, limits=ctx.limits)
        )
    else:
        parts.append(render_diff(detail.file_diff, width=ctx.width, theme=theme, limits=ctx.limits))
    return Group(*parts)


def display_view(detail: DisplayDetail, ctx: ViewContext) -> RenderableType:
    """RAP ``display_as``: the first segment the inspector supports, or the full text the model got."""
    theme = ctx.theme
    size = f"{len(detail.text):,} chars" if detail.text else "no text"
    if ctx.full_text:
        return Group(heading("full text the model received", theme, size), _text_or_empty(detail.text, ctx))
    segment = detail.preferred()
    if segment is None:
        types = ", ".join(s.type for s in detail.segments) or "none"
        return Group(
            heading("text", theme, f"no display segment the inspector can show (types: {types})"),
            _text_or_empty(detail.text, ctx),
        )
    position = detail.segments.index(segment) + 1
    note = f"segment {position} of {len(detail.segments)}; the model received {size}"
    return Group(heading(f"display: {segment.type}", theme, note), _segment_body(segment, ctx))


def _segment_body(segment: Segment, ctx: ViewContext) -> RenderableType:
    if segment.type == "diff" and segment.diffs:
        return render_diffs(segment.diffs, width=ctx.width, theme=ctx.theme, limits=ctx.limits)
    if isinstance(segment.content, str):
        return _text_or_empty(segment.content, ctx)
    return render_value(segment.content, ctx.theme, ctx.limits)


def _text_or_empty(text: str, ctx: ViewContext) -> RenderableType:
    return safe_text(text, limits=ctx.limits) if text else muted("(empty text)", ctx.theme)


def data_size(data: Any) -> str:
    """A rough size of a payload for headings (``2.3 KB`` of text, ``12 items``)."""
    if isinstance(data, (str, bytes)):
        return human_size(len(data))
    if isinstance(data, (list, dict)):
        return f"{len(data)} item{'s' if len(data) != 1 else ''}"
    return ""


_VIEWS: dict[type, Callable[[Any, ViewContext], RenderableType]] = {
    TextDetail: text_view,
    BashDetail: bash_view,
    FileDetail: file_view,
    PatchDetail: patch_view,
    DisplayDetail: display_view,
    TodoDetail: lambda d, ctx: todo_view(d, ctx.theme, ctx.limits),
    FileListDetail: lambda d, ctx: file_list_view(d, ctx.theme, ctx.limits),
    FetchDetail: lambda d, ctx: fetch_view(d, ctx.theme, ctx.limits),
    SearchDetail: lambda d, ctx: search_view(d, ctx.theme, ctx.limits),
    TaskDetail: lambda d, ctx: task_view(d, ctx.theme, ctx.limits),
    PersistedDetail: lambda d, ctx: persisted_view(d, ctx, lambda inner: bash_view(inner, ctx)),
}
