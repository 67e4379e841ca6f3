"""The auto-responder rules file: matching, templates, and mistakes reported with their line."""

from __future__ import annotations

import pytest
from factories import make_request

from inspector.answer import rules
from inspector.model import Call, Executor

GOOD = """\
# answers for the demo
[[rule]]
tool = "read_*"
result = { content = "hello from {toolName}", size = 5 }
delay_ms = 200

[[rule]]
tool = "calc*"
execution = "either"
result = { answer = 4 }

[[rule]]
tool = "*"
error = "unknown_tool"
"""


def call(tool, executor=Executor.CLIENT, timeout_ms=5000):
    return Call(make_request("r1", tool, executor=executor, timeout_ms=timeout_ms))


def test_first_matching_rule_wins_and_fills_templates():
    ruleset = rules.parse(GOOD, "rules.toml")
    assert len(ruleset) == 3
    first = ruleset.match(call("read_local_file"))
    assert first.line == 2 and first.delay_ms == 200
    draft = first.draft(call("read_local_file"))
    assert draft.success and draft.result == {"content": "hello from read_local_file", "size": 5}
    assert ruleset.match(call("calculator", Executor.EITHER)).result == {"answer": 4}
    assert ruleset.match(call("calculator", Executor.CLIENT)).error == "unknown_tool"  # narrowed to either
    fallback = ruleset.match(call("web_search")).draft(call("web_search"))
    assert fallback.error_code == "unknown_tool" and fallback.error_message is None


def test_server_requests_never_match():
    ruleset = rules.parse(GOOD)
    assert ruleset.match(call("read_local_file", Executor.SERVER)) is None
    assert ruleset.match(call("read_local_file", None)) is None


def test_message_templates():
    ruleset = rules.parse(
        '[[rule]]\ntool = "*"\nerror = "timeout"\nmessage = "{toolName} gave up after {timeoutMs}ms"\n'
    )
    draft = ruleset.match(call("web_search", timeout_ms=7000)).draft(call("web_search", timeout_ms=7000))
    assert draft.error_message == "web_search gave up after 7000ms"


@pytest.mark.parametrize(
    "text, line, words",
    [
        ('[[rule]]\ntool = "x"\nresult = { a = 1 \n', 3, "not valid TOML"),
        (
            '[[rule]]\ntool = "x"\nresult = { a = 1 }\n\n[[rule]]\ntool = "y"\nresult = [1, 2]\n',
            7,
            "result must be a map",
        ),
        ('[[rule]]\ntool = "x"\nresult = {}\n[[rule]]\ntool = "y"\n', 4, "needs either result"),
        ('[[rule]]\ntool = "x"\nreslt = {}\n', 3, "unknown key 'reslt'"),
        ("[[rule]]\nresult = {}\n", 1, "needs tool"),
        ('[[rule]]\ntool = "x"\nerror = 3\n', 3, "error must be an error code"),
        ('[[rule]]\ntool = "x"\nerror = "custom"\n', 3, "error must be an error code"),
        ('[[rule]]\ntool = "x"\nresult = {}\ndelay_ms = -5\n', 4, "delay_ms"),
        ('[[rule]]\ntool = "x"\nresult = {}\nmessage = "hi"\n', 4, "message goes with error"),
        ('[[rule]]\ntool = "x"\nresult = {}\nexecution = "server"\n', 4, "never"),
        ('answer = 1\n[[rule]]\ntool = "x"\nresult = {}\n', 1, "unknown top-level key"),
        ('[[rule]]\ntool = "x"\n[rule.result]\na = [1\n', 4, "not valid TOML"),
    ],
)
def test_mistakes_are_reported_with_line_and_reason(text, line, words):
    with pytest.raises(rules.RulesError) as info:
        rules.parse(text, "rules.toml")
    assert info.value.line == line, str(info.value)
    assert words in info.value.reason
    assert str(info.value).startswith(f"rules.toml line {line}: ")


def test_load_reports_unreadable_files(tmp_path):
    with pytest.raises(rules.RulesError, match="cannot read"):
        rules.load(str(tmp_path / "missing.toml"))
    path = tmp_path / "rules.toml"
    path.write_text(GOOD)
    assert len(rules.load(str(path))) == 3
