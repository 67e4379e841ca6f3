"""Rich renderables for the detail pane and ``inspector dump`` (never imports textual).

Entry points:

- ``render_call(call, request, results, *, width, theme, now, raw=False, full_text=False)``: a whole
  call (request/results from ``inspector.sources.session.hydrate(call)``).
- ``render_item(item, *, width, theme, now, raw=False, full_text=False)``: any store item (a call is
  hydrated here; orphan results, messages and malformed records get their own small views).
- ``render_raw(ref_or_refs, *, theme=None, width=100)``: original records (JSON, or MessagePack decoded
  plus a hex dump).
- ``render_diff(file_diff, *, width, theme, side_by_side=None)``: one file's diff, side by side from
  ``SIDE_BY_SIDE_MIN_WIDTH`` cells.
- ``render_json(value, theme)``, ``render_result_body(result, *, width, theme)``.
- ``RenderTheme``: the colours; ``RenderTheme.from_variables(textual_theme_variables, dark=...)``.
- ``warm_up()``: call once from a worker at start-up; the first Pygments lookup costs ~0.3 s.

Every string from a session is cleaned (``inspector.textsafe.clean``) and becomes plain ``Text``;
nothing is parsed as Rich markup. Lines are cut at ``MAX_LINE_CHARS`` and texts at ``MAX_LINES``
(``Limits``) with visible markers.
"""

from __future__ import annotations

from inspector.ui.render.call_view import call_header, nested_calls, render_call, render_item
from inspector.ui.render.diff_view import SIDE_BY_SIDE_MIN_WIDTH, diff_from_content, render_diff, render_diffs
from inspector.ui.render.highlight import lexer_for_path, warm_up
from inspector.ui.render.json_view import render_json, render_value
from inspector.ui.render.raw_view import hex_dump, render_raw
from inspector.ui.render.result_views import render_result_body
from inspector.ui.render.safe import MAX_LINE_CHARS, MAX_LINES, Limits
from inspector.ui.render.theme import RenderTheme

__all__ = [
    "MAX_LINES",
    "MAX_LINE_CHARS",
    "SIDE_BY_SIDE_MIN_WIDTH",
    "Limits",
    "RenderTheme",
    "call_header",
    "diff_from_content",
    "hex_dump",
    "lexer_for_path",
    "nested_calls",
    "render_call",
    "render_diff",
    "render_diffs",
    "render_item",
    "render_json",
    "render_raw",
    "render_result_body",
    "render_value",
    "warm_up",
]
