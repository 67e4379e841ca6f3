"""Free text and param:/result:/error: search the calls' payloads, in memory or re-read from the file."""

from __future__ import annotations

import pytest
from claude_records_factory import call, write

from inspector.model import CallStore
from inspector.model.filter import parse_filter
from inspector.sources.files import load
from inspector.sources.payloads import FilePayloads


def session_file(tmp_path):
    """A Claude session where 'X-Request-Id' is only in payloads: a Read result, an Edit's strings, an error."""
    records = [
        *call("toolu_read", "Read", {"file_path": "/w/server.py"}, "1\tHEADERS = ['X-Request-Id']\n2\tok"),
        *call(
            "toolu_edit",
            "Edit",
            {"file_path": "/w/app.py", "old_string": "h = 'x-request-id'", "new_string": "h = HEADERS[0]"},
        ),
        *call("toolu_bash", "Bash", {"command": "curl -I localhost"}, "missing X-REQUEST-ID", is_error=True),
        *call("toolu_other", "Bash", {"command": "ls"}, "README.md\nsetup.py"),
        *call("toolu_quote", "Write", {"file_path": "/w/q.txt", "content": 'say "hi"\nthen go'}),
    ]
    return write(tmp_path / "s.jsonl", records)


@pytest.fixture(params=["in memory", "re-read from the file"])
def matching(request, tmp_path):
    keep = request.param == "in memory"
    store = CallStore(keep_payloads=keep)
    load([str(session_file(tmp_path))], store)
    payloads = None if keep else FilePayloads()
    if not keep:
        assert next(iter(store.all_calls())).request.params is None  # the payloads were dropped

    def ids(text: str) -> list[str]:
        flt = parse_filter(text, payloads)
        return [c.call_id for c in store.all_calls() if flt.matches(c, store.clock.now())]

    return ids


def test_free_text_finds_the_text_in_parameters_and_results_not_only_summaries(matching):
    assert matching("x-request-id") == ["toolu_read", "toolu_edit", "toolu_bash"]
    assert matching("README") == ["toolu_other"]


def test_field_terms_look_in_one_place(matching):
    assert matching("param:x-request-id") == ["toolu_edit"]
    assert matching("result:x-request-id") == ["toolu_read", "toolu_bash"]
    assert matching("error:x-request-id") == ["toolu_bash"]
    assert matching("-result:x-request-id tool:Bash") == ["toolu_other"]
    assert matching("param:old_string,command") == ["toolu_edit", "toolu_bash", "toolu_other"]


def test_text_is_searched_as_it_reads_not_as_json_escapes(matching):
    assert matching('param:"say \\"hi\\""') == ["toolu_quote"]


def test_the_filter_names_what_to_highlight():
    assert parse_filter('tool:Bash param:curl -result:x "two words" state:ok').highlights == (
        "curl",
        "two words",
    )


def test_an_unknown_field_lists_the_new_ones():
    with pytest.raises(ValueError) as caught:
        parse_filter("paramz:x")
    assert "param" in str(caught.value) and "result" in str(caught.value) and "error" in str(caught.value)
