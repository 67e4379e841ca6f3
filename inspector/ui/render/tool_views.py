"""Views for tools with lists in their results: todos, file lists, web fetch and search, subagent tasks."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.text import Text

from inspector.model.details import (
    FetchDetail,
    FileListDetail,
    SearchDetail,
    TaskDetail,
    TodoDetail,
    TodoItem,
)
from inspector.ui.render.json_view import render_value
from inspector.ui.render.parts import fields_line, heading, muted
from inspector.ui.render.safe import Limits, cut_marker, duration, human_size, inline, safe_line, safe_text
from inspector.ui.render.theme import RenderTheme

TODO_MARKS = {"pending": "☐", "in_progress": "◐", "completed": "☑"}


# -- todos -------------------------------------------------------------------------------------
def todo_view(detail: TodoDetail, theme: RenderTheme, limits: Limits) -> RenderableType:
    """The list after the call, changes marked (new item, status change), then what was removed."""
    before = {item.content: item for item in detail.old}
    after_contents = {item.content for item in detail.new}
    changed_style = Style(color=theme.heading, bold=True)
    parts: list[RenderableType] = [heading("todos", theme, f"{len(detail.old)} → {len(detail.new)} items")]
    lines = Text()
    for index, item in enumerate(detail.new[: limits.lines]):
        if index:
            lines.append("\n")
        old = before.get(item.content)
        note = ""
        if old is None and detail.old:
            note = "new"
        elif old is not None and old.status != item.status:
            note = f"was {old.status.replace('_', ' ')}"
        lines.append_text(_todo_line(item, theme, changed_style if note else None))
        if note:
            lines.append(f"   ← {note}", Style(color=theme.heading, italic=True))
    if len(detail.new) > limits.lines:
        lines.append("\n")
        lines.append_text(cut_marker(len(detail.new) - limits.lines, "items"))
    parts.append(lines if detail.new else muted("(empty list)", theme))
    removed = [item for item in detail.old if item.content not in after_contents]
    if removed:
        parts.append(heading("removed", theme, f"{len(removed)} item{'s' if len(removed) != 1 else ''}"))
        gone = Text()
        for index, item in enumerate(removed[: limits.lines]):
            if index:
                gone.append("\n")
            gone.append_text(_todo_line(item, theme, Style(color=theme.muted, strike=True)))
        if len(removed) > limits.lines:
            gone.append("\n")
            gone.append_text(cut_marker(len(removed) - limits.lines, "items"))
        parts.append(gone)
    return Group(*parts)


def _todo_line(item: TodoItem, theme: RenderTheme, style: Style | None) -> Text:
    status = item.status if isinstance(item.status, str) else str(item.status)
    mark = TODO_MARKS.get(status, "?")
    color = {"completed": theme.succeeded, "in_progress": theme.overdue}.get(status, theme.muted)
    text = Text()
    text.append(mark + " ", Style(color=color, bold=True))
    text.append_text(safe_line(item.content, style=style or ""))
    if status not in TODO_MARKS:
        text.append(f"  ({inline(status, 40)})", Style(color=theme.muted))
    return text


# -- file lists --------------------------------------------------------------------------------
def file_list_view(detail: FileListDetail, theme: RenderTheme, limits: Limits) -> RenderableType:
    """Glob and Grep: counts and mode, then the matching lines (content mode) or the file names."""
    count = detail.num_files if detail.num_files is not None else len(detail.files)
    summary = fields_line(
        [
            ("", f"{count:,} file{'s' if count != 1 else ''}"),
            ("mode", detail.mode),
            ("lines", detail.num_lines),
            ("", "truncated" if detail.truncated else None),
        ],
        theme,
    )
    parts: list[RenderableType] = [summary]
    if detail.content:
        parts.append(safe_text(detail.content, limits=limits))
    elif detail.files:
        names = Text()
        for index, name in enumerate(detail.files[: limits.lines]):
            if index:
                names.append("\n")
            names.append_text(safe_line(name if isinstance(name, str) else str(name), limits=limits))
        if len(detail.files) > limits.lines:
            names.append("\n")
            names.append_text(cut_marker(len(detail.files) - limits.lines, "files"))
        parts.append(names)
    else:
        parts.append(muted("(no matches)", theme))
    return Group(*parts)


# -- web -----------------------------------------------------------------------------------------
def fetch_view(detail: FetchDetail, theme: RenderTheme, limits: Limits) -> RenderableType:
    """WebFetch: URL, HTTP status, size and time, then what the fetch returned."""
    status = " ".join(str(part) for part in (detail.code, detail.code_text) if part not in (None, ""))
    summary = fields_line(
        [
            ("", detail.url),
            ("HTTP", status),
            ("", human_size(detail.size) if detail.size is not None else None),
            ("", duration(detail.duration_ms / 1000) if detail.duration_ms is not None else None),
        ],
        theme,
    )
    body = safe_text(detail.result, limits=limits) if detail.result else muted("(no content)", theme)
    return Group(summary, body)


def search_view(detail: SearchDetail, theme: RenderTheme, limits: Limits) -> RenderableType:
    """WebSearch: the query, then links (title and URL) and text results in order."""
    summary = fields_line(
        [
            ("query", detail.query),
            ("", duration(detail.duration_s) if detail.duration_s is not None else None),
        ],
        theme,
    )
    parts: list[RenderableType] = [summary]
    left = limits.lines  # one budget for every result and link: each alone within it could still be
    for index, entry in enumerate(detail.results):  # thousands of results of thousands of links each
        if left <= 0:
            parts.append(cut_marker(len(detail.results) - index, "results"))
            break
        shown, used = _search_entry(entry, theme, replace(limits, lines=left))
        parts.append(shown)
        left -= max(1, used)
    if not detail.results:
        parts.append(muted("(no results)", theme))
    return Group(*parts)


def _search_entry(entry: Any, theme: RenderTheme, limits: Limits) -> tuple[RenderableType, int]:
    """One search result and about how many lines of ``limits.lines`` it took."""
    if isinstance(entry, str):
        text = safe_text(entry, limits=limits)
        return text, text.plain.count("\n") + 1
    links = entry.get("content") if isinstance(entry, dict) else None
    if isinstance(links, list) and all(isinstance(link, dict) for link in links):
        text = Text()
        shown = links[: max(1, limits.lines // 2)]  # two lines a link
        for index, link in enumerate(shown):
            if index:
                text.append("\n")
            text.append("• ")
            text.append(inline(link.get("title") or "(untitled)", 300), "bold")
            if link.get("url"):
                text.append("\n  ")
                text.append(inline(link["url"], 500), Style(color=theme.json_string, underline=True))
        if len(links) > len(shown):
            text.append("\n")
            text.append_text(cut_marker(len(links) - len(shown), "links"))
        return (text if links else muted("(no links)", theme)), 2 * len(shown) + 1
    value = render_value(entry, theme, limits)
    return value, value.plain.count("\n") + 1


# -- subagent tasks ------------------------------------------------------------------------------
def task_view(detail: TaskDetail, theme: RenderTheme, limits: Limits) -> RenderableType:
    """Task/Agent: status and counts, the prompt, then the subagent's final answer."""
    summary = fields_line(
        [
            ("status", detail.status),
            ("agent", detail.agent_id),
            ("tool uses", detail.tool_count),
            ("took", duration(detail.duration_ms / 1000) if detail.duration_ms is not None else None),
            ("tokens", f"{detail.tokens:,}" if isinstance(detail.tokens, int) else detail.tokens),
        ],
        theme,
    )
    parts: list[RenderableType] = [summary]
    if detail.description:
        parts.append(fields_line([("description", detail.description)], theme))
    if detail.prompt:
        parts += [heading("prompt", theme), safe_text(detail.prompt, limits=limits)]
    if detail.content:
        parts += [heading("answer", theme), safe_text(detail.content, limits=limits)]
    return Group(*parts)
