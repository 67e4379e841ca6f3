"""A whole call in the detail pane: header, flags, errors first, parameters, results, duplicates, nesting."""

from __future__ import annotations

from render_factories import make_call, make_request, make_result, render

from inspector.model import Call, Malformed, Message, OrphanResult, Outcome, RawRef
from inspector.model.details import BashDetail, TextDetail
from inspector.themes import load_theme
from inspector.ui.render import RenderTheme, render_call, render_item

THEME = RenderTheme.dark()


def show(call: Call, now: float | None = 1010.0, width: int = 100, **kwargs) -> str:
    return render(render_call(call, width=width, theme=THEME, now=now, **kwargs), width=width).text


def test_header_has_tool_id_executor_state_and_timings():
    call = make_call(make_request(timeout_ms=5000), make_result(ts=1001.5))
    lines = show(call).splitlines()
    assert lines[0].split() == ["Bash", "succeeded", "client"]
    assert lines[1].strip() == "id toolu_1  ·  group g"
    assert "timeout 5.0s" in lines[2] and "took 1.5s" in lines[2]


def test_pending_counts_down_then_turns_overdue():
    call = make_call(make_request(timeout_ms=5000))
    pending = show(call, now=1002.0)
    assert (
        "pending" in pending.splitlines()[0] and "3.0s left" in pending and "waiting for a result" in pending
    )
    overdue = show(call, now=1007.0)
    assert "overdue" in overdue.splitlines()[0] and "overdue by 2.0s" in overdue
    assert "the deadline has passed" in overdue
    assert "pending" in show(call, now=None).splitlines()[0]


def test_flags_late_duplicates_answered_by_and_violation():
    call = make_call(
        make_request(timeout_ms=1000, violation="timeoutMs missing on a client call"),
        make_result(ts=1003.0, answered_by="inspector"),
        make_result(ts=1004.0),
        make_result(Outcome.ERROR, ts=1005.0, error_message="again"),
    )
    text = show(call)
    assert "late: answered after the deadline  ·  2 duplicate results  ·  answered by inspector" in text
    assert "⚠ protocol violation: timeoutMs missing on a client call" in text
    first = text.index("\nresult  success")
    second = text.index("duplicate result 1 of 2  success")
    third = text.index("duplicate result 2 of 2  error")
    assert first < second < third
    assert "4.0s after the request" in text


def test_errors_come_before_parameters_and_result():
    call = make_call(
        make_request(params={"command": "false"}),
        make_result(
            Outcome.ERROR,
            error_code="EXIT_1",
            error_message="command failed",
            details=BashDetail(stderr="bad thing"),
        ),
    )
    text = show(call)
    assert text.index("\nerror\n") < text.index("\nparameters\n") < text.index("\nresult  error")
    assert "EXIT_1  command failed" in text and "bad thing" in text
    assert '"command": "false"' in text


def test_a_result_that_only_repeats_its_error_is_not_shown_twice():
    call = make_call(
        make_request(),
        make_result(
            Outcome.ERROR,
            error_message="Error: rate limited",
            data="Error: rate limited",
            details=TextDetail("Error: rate limited"),
        ),
    )
    text = show(call)
    assert text.count("Error: rate limited") == 1
    assert "(the error message above is the whole result)" in text


def test_nested_calls_are_listed_with_their_state():
    parent = make_call(make_request("task", "Task"), make_result(call_id="task", ts=1009.0))
    parent.children = []  # a call's own list (a call starts with the shared empty one)
    for index, outcome in enumerate([Outcome.SUCCESS, Outcome.ERROR]):
        child = make_call(
            make_request(f"c{index}", "Read", summary=f"file{index}.py"),
            make_result(outcome, call_id=f"c{index}", ts=1000.25),
        )
        child.parent = parent
        parent.children.append(child)
    parent.children.append(Message("subscription_event", "pushed", ts=1002.0))
    text = show(parent)
    assert "nested  2 calls, 1 other event" in text
    assert "● Read  succeeded  250ms  file0.py" in text
    assert "● Read  failed  250ms  file1.py" in text
    assert "✉ subscription_event" in text and "pushed" in text


def test_state_colours_come_from_the_theme():
    theme = RenderTheme.from_variables(
        {"call-failed": "#010203", "nonsense": "#ffffff", "call-pending": "bogus"}
    )
    assert theme.failed == "#010203" and theme.pending == RenderTheme.dark().pending
    call = make_call(make_request(), make_result(Outcome.ERROR, error_message="x"))
    ansi = render(render_call(call, width=80, theme=theme, now=0.0)).ansi
    assert "38;2;1;2;3" in ansi


def test_theme_presets_match_the_theme_files():
    for name in ("dark", "light", "high-contrast"):
        spec = load_theme(name)
        from_file = RenderTheme.from_spec(spec)
        preset = RenderTheme.named(name)
        assert from_file.pending == preset.pending and from_file.diff_added_bg == preset.diff_added_bg
        assert from_file.syntax_style == preset.syntax_style == spec.syntax_style
    assert RenderTheme.light().state_color("succeeded") == "#1a7f37"
    assert RenderTheme.dark().state_color("orphan") == RenderTheme.dark().orphan


def test_raw_shows_the_labelled_records():
    request = make_request()
    request.raw = RawRef("s.jsonl", "line 1", data=b'{"type": "tool_use", "id": "toolu_1"}', protocol="rap")
    result = make_result()
    result.raw = RawRef("s.jsonl", "line 2", data=b'{"type": "tool_result"}', protocol="rap")
    text = show(make_call(request, result), raw=True)
    assert "request  line 1  ·  file s.jsonl  ·  format rap" in text
    assert "result  line 2" in text and '"type": "tool_result"' in text
    assert "parameters" not in text


def test_render_item_covers_orphans_messages_and_malformed_records():
    orphan = OrphanResult(make_result(call_id="ghost", details=TextDetail("late answer")))
    text = render(render_item(orphan, width=80, theme=THEME, now=0.0)).text
    assert "orphan result" in text and "id ghost" in text and "late answer" in text

    message = Message("assistant", '{"plan": ["a", "b"]}', group="g1", sender="agent", extra={"model": "m"})
    text = render(render_item(message, width=80, theme=THEME, now=0.0)).text
    assert text.startswith("assistant\nfrom agent  ·  group g1")
    assert '"plan": [' in text and '"model": "m"' in text

    raw = RawRef("f.jsonl", "line 9", data=b'{"broken": tru', protocol="rap")
    text = render(
        render_item(
            Malformed("line 9", "not JSON: Expecting value", "f.jsonl", raw), width=80, theme=THEME, now=0.0
        )
    ).text
    assert "malformed record" in text and "where line 9  ·  file f.jsonl" in text
    assert "not JSON: Expecting value" in text and '{"broken": tru' in text


def test_render_item_of_a_call_hydrates_and_renders_it():
    call = make_call(make_request(params={"command": "echo hi"}), make_result(details=BashDetail("hi")))
    text = render(render_item(call, width=80, theme=THEME, now=0.0)).text
    assert '"command": "echo hi"' in text and "stdout  1 line" in text


def test_multi_line_parameters_show_as_text_blocks():
    call = make_call(make_request(params={"command": "set -e\nmake test", "n": 1}))
    lines = [line.rstrip() for line in show(call).splitlines()]
    start = lines.index("parameters")
    assert lines[start + 1 : start + 7] == [
        "{",
        '  "command": ┆ 2 lines of text,',
        "    ┆ set -e",
        "    ┆ make test",
        '  "n": 1',
        "}",
    ]


def test_a_wrapped_text_block_line_keeps_its_gutter():
    long = "echo " + " ".join(f"word{n}" for n in range(40))
    call = make_call(make_request(params={"command": f"set -e\n{long}", "n": 1}))
    lines = [line.rstrip() for line in show(call, width=60).splitlines()]
    start = lines.index("parameters")
    block = lines[start + 3 : lines.index('  "n": 1')]
    assert len(block) > 2  # the long line wrapped...
    assert all(line.startswith("    ┆ ") for line in block), block  # ...and every piece keeps the bar
    assert " ".join(line[6:] for line in block[1:]).split() == long.split()  # nothing lost in the wrapping


def test_an_orphan_whose_request_may_predate_the_session_is_an_orphan_that_says_so():
    from inspector.calltext import item_text
    from inspector.ui.render.rows import _badge_and_style, _summary

    unseen = OrphanResult(make_result(call_id="before_join", ts=1004.0), unseen_before=1000.0)
    detail = render(render_item(unseen, width=140, theme=THEME, now=2000.0)).text
    assert "orphan result" in detail and "no request has this id" in detail
    words = " ".join(detail.split())  # wrapped at the pane's width
    assert "may have been sent before" in words and "a room keeps no history" in words
    assert _badge_and_style(unseen, 2000.0) == ("orphan", "orphan")
    summary = [text for text, _ in _summary(unseen)]
    assert summary[0] == "result for unknown id before_join"
    assert "its request may have been sent before" in summary[1]
    line = item_text(unseen, 2000.0)
    assert line is not None and " orphan " in line.plain and "may have been sent before" in line.plain
    plain = OrphanResult(make_result(call_id="ghost", ts=1004.0))
    assert _badge_and_style(plain, 2000.0) == ("orphan", "orphan")
