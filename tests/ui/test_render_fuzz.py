"""Fuzz: whatever text a session holds, the rendered output carries no escape or control of its own."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from render_factories import make_call, make_request, make_result, render

from inspector.model import RawRef
from inspector.model.details import BashDetail, FileDetail, PatchDetail, TextDetail
from inspector.model.diff import parse_unified_diff
from inspector.ui.render import RenderTheme, render_call, render_raw

THEME = RenderTheme.dark()
ANY_CHAR = st.characters(exclude_categories=())
HOSTILE = st.sampled_from(
    [
        "\x1b",
        "\x1b[",
        "\x1b]",
        "\x07",
        "\x9b",
        "\x9d",
        "\u202e",
        "\ud800",
        "[",
        "]",
        "/",
        "\n",
        "\r",
        "\t",
        "m",
        "0",
        ";",
        "link=",
        "bold",
        "@@ -1 +1 @@",
        "\n+",
        "\n-",
        "é",
        "日",
    ]
)
TEXT = st.lists(st.one_of(st.text(ANY_CHAR, max_size=8), HOSTILE), max_size=30).map("".join)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(tool=TEXT, param=TEXT, output=TEXT, path=TEXT, width=st.integers(20, 180))
def test_fuzzed_calls_render_inert(tool, param, output, path, width):
    hunks = [h for f in parse_unified_diff(output, path) for h in f.hunks]
    call = make_call(
        make_request(tool=tool, params={param: [param, output]}, violation=param or None),
        make_result(details=BashDetail(output, param), error_message=param or None),
        make_result(details=FileDetail(path, output, start_line=3)),
        make_result(details=PatchDetail(path + ".py", hunks)),
        make_result(details=TextDetail(output)),
    )
    out = render(render_call(call, width=width, theme=THEME, now=1000.0), width=width)
    assert out.escapes_outside_styling() == []
    assert "\x1b]" not in out.ansi


@SETTINGS
@given(data=st.binary(max_size=300), protocol=st.sampled_from(["alicia", "recording", "rap", ""]))
def test_fuzzed_raw_records_render_inert(data, protocol):
    out = render(render_raw(RawRef("x", "packet 1", data=data, protocol=protocol), theme=THEME))
    assert out.escapes_outside_styling() == []
    assert "\x1b]" not in out.ansi
