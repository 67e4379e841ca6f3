"""Session text never acts on the terminal: markup, escape sequences, controls and bidi stay visible data."""

from __future__ import annotations

import json

import pytest
from render_factories import make_call, make_request, make_result, render

from inspector.model import Malformed, Message, OrphanResult, Outcome, RawRef
from inspector.model.details import (
    BashDetail,
    DisplayDetail,
    FetchDetail,
    FileDetail,
    FileListDetail,
    PatchDetail,
    SearchDetail,
    Segment,
    TaskDetail,
    TextDetail,
    TodoDetail,
    TodoItem,
)
from inspector.model.diff import FileDiff, hunks_from_structured_patch, parse_unified_diff
from inspector.ui.render import RenderTheme, render_call, render_diff, render_item, render_raw

THEME = RenderTheme.dark()

HAZARDS = {
    "markup": "[bold]x[/bold] [red]y[/red]",
    "link_markup": "[link=https://evil.example]click[/link]",
    "csi": "before\x1b[5;31mBLINK\x1b[0mafter",
    "osc52": "copy\x1b]52;c;aGVsbG8=\x07done",
    "osc8": "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "c0": "nul\x00bel\x07bs\x08vt\x0bff\x0ccr\rend",
    "c1": "csi8\x9b31mnel\x85end",
    "bidi": "admin\u202etxt.exe\u2066x\u2069",
    "surrogate": "lone\ud800half",
}


def _surfaces(payload: str):
    """Renderables that carry ``payload`` in every place a session string can reach."""
    request = make_request(
        tool=f"Tool{payload}",
        params={payload: payload, "list": [payload]},
        violation=payload,
        summary=payload,
    )
    details = [
        BashDetail(stdout=payload, stderr=payload, note=payload, background_id=payload),
        FileDetail(path=f"x{payload}.py", content=f"x = '{payload}'\n# {payload}"),
        FileDetail(path="notes.txt", content=payload),
        PatchDetail(
            path=f"a{payload}.rs",
            hunks=hunks_from_structured_patch(
                [
                    {
                        "oldStart": 1,
                        "oldLines": 1,
                        "newStart": 1,
                        "newLines": 1,
                        "lines": [f"-{payload}", f"+{payload}!"],
                    }
                ]
            ),
        ),
        PatchDetail(path="new.py", kind="create", content=payload),
        TodoDetail(
            old=[TodoItem(payload)], new=[TodoItem(payload, "completed"), TodoItem(payload + "2", payload)]
        ),
        FileListDetail(files=[payload], mode=payload),
        FileListDetail(content=payload),
        FetchDetail(url=payload, code_text=payload, result=payload),
        SearchDetail(query=payload, results=[payload, {"content": [{"title": payload, "url": payload}]}]),
        TaskDetail(status=payload, agent_id=payload, description=payload, prompt=payload, content=payload),
        DisplayDetail([Segment("text", payload)], payload),
        DisplayDetail(
            [Segment("diff", {}, parse_unified_diff(f"@@ -1 +1 @@ {payload}\n-{payload}\n+a\n", payload))],
            payload,
        ),
        TextDetail(payload),
        None,
    ]
    for detail in details:
        result = make_result(
            Outcome.ERROR,
            details=detail,
            data={payload: payload},
            error_code=payload,
            error_message=payload,
            answered_by=payload,
        )
        call = make_call(request, result, make_result(details=detail, data=payload))
        yield render_call(call, width=100, theme=THEME, now=1002.0)
        yield render_call(call, width=160, theme=THEME, now=1002.0)
    yield render_diff(
        FileDiff(
            payload,
            hunks_from_structured_patch(
                [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": [f" {payload}"]}]
            ),
            old_path=payload,
        ),
        width=160,
        theme=THEME,
    )
    orphan = OrphanResult(make_result(call_id=payload, details=TextDetail(payload), error_message=payload))
    yield render_item(orphan, width=100, theme=THEME, now=0.0)
    yield render_item(
        Message(payload, payload, group=payload, sender=payload, extra={payload: payload}),
        width=100,
        theme=THEME,
        now=0.0,
    )
    raw = RawRef(source=payload, where=payload, data=json.dumps({payload: payload}).encode(), protocol="rap")
    yield render_item(Malformed(payload, payload, source=payload, raw=raw), width=100, theme=THEME, now=0.0)
    yield render_raw(
        RawRef(source="x", where="line 1", data=payload.encode("utf-8", "surrogatepass"), protocol="rap"),
        theme=THEME,
    )


@pytest.mark.parametrize("name", sorted(HAZARDS))
def test_no_payload_escape_or_control_reaches_the_terminal(name):
    for renderable in _surfaces(HAZARDS[name]):
        out = render(renderable, width=100)
        assert out.escapes_outside_styling() == [], name
        assert "\x1b]" not in out.ansi  # no OSC at all: we never emit hyperlinks or clipboard writes


def test_markup_shows_as_the_literal_text():
    for renderable in _surfaces(HAZARDS["markup"]):
        out = render(renderable)
        assert "[bold]x[/bold]" in out.text or "[bold]x[/bold]" in out.text.replace("\n", "")
    out = render(
        render_call(
            make_call(make_request(), make_result(details=BashDetail(HAZARDS["link_markup"]))),
            width=100,
            theme=THEME,
            now=0.0,
        )
    )
    assert "[link=https://evil.example]click[/link]" in out.text


def test_csi_is_visible_and_inert():
    call = make_call(make_request(), make_result(details=BashDetail(HAZARDS["csi"])))
    out = render(render_call(call, width=100, theme=THEME, now=0.0))
    assert "before␛[5;31mBLINK␛[0mafter" in out.text
    assert "\x1b[5;31m" not in out.ansi  # Rich never writes blink; only the payload could have


def test_osc_sequences_are_visible_and_inert():
    call = make_call(make_request(), make_result(details=BashDetail(HAZARDS["osc52"], HAZARDS["osc8"])))
    out = render(render_call(call, width=100, theme=THEME, now=0.0))
    assert "copy␛]52;c;aGVsbG8=␇done" in out.text
    assert "␛]8;;https://evil.example␛\\click" in out.text
    assert "\x07" not in out.ansi and "\x1b]" not in out.ansi


def test_controls_bidi_and_surrogates_get_visible_stand_ins():
    for name, expected in [
        ("c0", "nul␀bel␇bs␈vt␋ff␌cr␍end"),
        ("c1", "csi8\\u009b31mnel\\u0085end"),
        ("bidi", "admin\\u202etxt.exe\\u2066x\\u2069"),
        ("surrogate", "lone\ufffdhalf"),
    ]:
        call = make_call(make_request(), make_result(details=TextDetail(HAZARDS[name])))
        out = render(render_call(call, width=100, theme=THEME, now=0.0))
        assert expected in out.text, name


def test_a_one_megabyte_line_is_cut_with_a_marker():
    line = "A" * 1_000_000
    call = make_call(
        make_request(params={"content": line}),
        make_result(details=BashDetail(stdout=line)),
        make_result(details=FileDetail("big.py", line)),
    )
    out = render(render_call(call, width=120, theme=THEME, now=0.0), width=120)
    assert out.text.count("… (998,000 more chars)") == 3
    assert len(out.text) < 30_000


def test_a_huge_output_is_cut_after_the_line_limit():
    stdout = "\n".join(f"line {n}" for n in range(100_000))
    call = make_call(make_request(), make_result(details=BashDetail(stdout=stdout)))
    out = render(render_call(call, width=100, theme=THEME, now=0.0))
    assert "line 1999" in out.text and "line 2000\n" not in out.text
    assert "… 98,000 more lines not shown" in out.text
