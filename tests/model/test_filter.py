"""The filter language: every field, aliases, negation, quoting, errors with columns, and items of every kind."""

from __future__ import annotations

import pytest
from factories import make_request, make_result

from inspector.model import CallStore, Executor, FakeClock, Malformed, Message, Outcome
from inspector.model.filter import FilterError, parse_filter


@pytest.fixture
def session():
    """A store with one item of each interesting kind, keyed by a short name."""
    s = CallStore(clock=FakeClock(1000.0))
    items = {}
    items["ok"] = s.ingest(make_request("ok1", "web_search", ts=1000.0, timeout_ms=5000))
    s.ingest(make_result("ok1", ts=1001.0))
    items["failed"] = s.ingest(make_request("fa1", "Bash", ts=1000.0, executor=Executor.SERVER))
    failed_result = make_result("fa1", Outcome.ERROR, ts=1001.0, error_code="execution_error")
    failed_result.error_message = "File not found: /tmp/Notes.txt"
    s.ingest(failed_result)
    s.ingest(make_result("fa1", ts=1002.0))  # a duplicate result
    items["pending"] = s.ingest(
        make_request("pe1", "Read", ts=1000.0, timeout_ms=10_000, executor=Executor.EITHER)
    )
    items["overdue"] = s.ingest(make_request("ov1", "Read", ts=990.0, timeout_ms=5000))
    items["late"] = s.ingest(make_request("la1", "Write", ts=990.0, timeout_ms=1000, group="conv-2"))
    s.ingest(make_result("la1", ts=995.0, group="conv-2"))
    items["timeout"] = s.ingest(make_request("ti1", "web_fetch", ts=1000.0))
    s.ingest(make_result("ti1", Outcome.TIMEOUT, ts=1003.0))
    items["orphan"] = s.ingest(make_result("zz9", ts=1000.0))
    items["message"] = s.ingest(Message(kind="user", text="Please search the Web", group="g"))
    items["malformed"] = s.ingest(Malformed(where="line 7", reason="not JSON: Expecting value"))
    bad = make_request("vi1", "Edit")
    bad.violation = "timeout is negative"
    items["violation"] = s.ingest(bad)
    items["dup_request"] = s.ingest(make_request("ok1", "web_search"))
    return s, items


def names(text: str, session, now: float = 1000.0) -> set[str]:
    _store, items = session
    flt = parse_filter(text)
    return {name for name, item in items.items() if flt.matches(item, now)}


def test_empty_filter_matches_everything(session):
    assert names("", session) == set(session[1])
    assert names("   ", session) == set(session[1])
    assert parse_filter("").empty


def test_tool_is_a_case_insensitive_glob_and_exact_without_wildcards(session):
    assert names("tool:bash", session) == {"failed"}
    assert names("tool:web_*", session) == {"ok", "timeout", "dup_request"}
    assert names("tool:web", session) == set()
    assert names("tool:Read,Write", session) == {"pending", "overdue", "late"}


def test_states_follow_the_clock(session):
    assert names("state:pending", session, now=1000.0) == {"pending", "violation", "dup_request"}
    assert names("state:overdue", session, now=1000.0) == {"overdue"}
    assert "pending" in names("state:overdue", session, now=1011.0)
    assert parse_filter("state:pending").time_dependent
    assert not parse_filter("state:failed tool:x").time_dependent


def test_state_aliases_and_flags(session):
    # a state speaks of calls, as the status bar counts them: the orphan (a success) is state:orphan only
    assert names("state:ok", session) == names("state:succeeded", session) == {"ok", "late"}
    assert names("state:err", session) == names("state:failed", session) == {"failed"}
    assert names("state:timeout", session) == names("state:timed_out", session) == {"timeout"}
    assert names("is:orphan", session) == {"orphan"}
    assert names("state:late", session) == {"late"}
    assert names("state:dup", session) == {"failed", "dup_request"}
    assert names("state:violation", session) == {"violation", "dup_request"}
    assert names("state:answered", session) == {"ok", "failed", "late", "timeout"}
    assert names("state:message", session) == {"message"}
    assert names("state:malformed", session) == {"malformed"}


def test_exec_id_and_group(session):
    assert names("exec:server", session) == {"failed"}
    assert names("exec:either", session) == {"pending"}
    assert names("id:OK", session) == {"ok", "dup_request"}
    assert names("id:zz", session) == {"orphan"}
    assert names("group:conv", session) == {"late"}
    assert names("conv:*-2", session) == {"late"}
    assert names("group:g", session) == set(session[1]) - {"late", "malformed"}


def test_free_text_searches_names_ids_summaries_errors_and_messages(session):
    assert names("notes.TXT", session) == {"failed"}
    assert names("execution_error", session) == {"failed"}
    assert names("search", session) == {"ok", "dup_request", "message"}
    assert names("ti1", session) == {"timeout"}
    assert names("expecting", session) == {"malformed"}
    assert names('"the web"', session) == {"message"}
    assert names("web", session) == {"ok", "timeout", "dup_request", "message"}
    assert names("the web", session) == {"message"}  # two terms, both must match


def test_a_negated_state_leaves_messages_out_but_a_negated_kind_does_not(session):
    kept = names("-state:ok", session)
    assert "message" not in kept and {"failed", "pending", "malformed"} <= kept
    assert "message" in names("-state:call", session)
    assert "message" in names("-tool:Read", session)


def test_terms_combine_with_and_and_negate_with_bang_or_minus(session):
    assert names("tool:Read state:pending", session) == {"pending"}
    assert names("-tool:Read state:pending", session) == {"violation", "dup_request"}
    assert names("!state:ok !state:pending", session) == set(session[1]) - {
        "ok",
        "late",
        "pending",
        "violation",
        "dup_request",
        "message",  # a negated state speaks of calls: messages, which have none, go too
    }
    assert names('tool:"web_search" -"dup"', session) == {"ok", "dup_request"}


def test_result_arriving_later_refreshes_the_cached_text():
    s = CallStore(clock=FakeClock(1000.0))
    call = s.ingest(make_request("c9", "Bash"))
    flt = parse_filter("permission")
    assert not flt.matches(call, 1000.0)
    result = make_result("c9", Outcome.DENIED)
    result.error_message = "Permission denied by user"
    s.ingest(result)
    assert flt.matches(call, 1000.0)
    assert parse_filter("state:denied").matches(call, 1000.0)


def test_matches_tree_keeps_a_parent_of_a_matching_child():
    s = CallStore(clock=FakeClock(1000.0))
    parent = s.ingest(make_request("p1", "Task"))
    s.ingest(make_request("k1", "Grep", parent_id="p1"))
    flt = parse_filter("tool:grep")
    assert not flt.matches(parent, 1000.0)
    assert flt.matches_tree(parent, 1000.0)
    assert flt.select(s.items, 1000.0) == []


@pytest.mark.parametrize(
    ("text", "column", "fragment"),
    [
        ("state:nope", 7, "unknown state 'nope'"),
        ("tool:x stat:pending", 8, "unknown field 'stat:'"),
        ('tool:"abc', 6, "never closed"),
        ("tool: x", 1, "'tool:' needs a value"),
        ("x -", 3, "nothing follows"),
        ("exec:robot", 6, "server, client or either"),
        ("state:ok,", 7, "empty alternative"),
        ('"a"b', 4, "space after the closing quote"),
    ],
)
def test_errors_say_what_and_where(text, column, fragment):
    with pytest.raises(FilterError) as info:
        parse_filter(text)
    assert fragment in info.value.message
    assert info.value.position + 1 == column
    assert f"column {column}" in str(info.value)
    assert info.value.end > info.value.position


def test_quoted_values_keep_spaces_and_escapes():
    flt = parse_filter(r'tool:"my tool" "say \"hi\""')
    assert [t.values for t in flt.terms] == [("my tool",), ('say "hi"',)]
    assert parse_filter('"http://x"').terms[0].values == ("http://x",)
    assert parse_filter("a.b:c").terms[0].field == "text"
