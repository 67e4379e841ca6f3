"""Workflow subagents (Claude Code 2.1.16x): every folder under ``subagents/`` is read, at every depth,
and each Workflow agent's calls nest under the Workflow call whose result names their run's folder."""

from __future__ import annotations

import json

import claude_workflows as wf
import pytest
from hostile_io import run_cli

from inspector.model import CallStore
from inspector.sources.claude_sessions import find_sessions
from inspector.sources.files import load


def loaded(path) -> CallStore:
    store = CallStore(keep_payloads=False)
    load([str(path)], store)
    return store


@pytest.mark.parametrize("result", ["full", "text"])
def test_the_agents_of_a_run_nest_under_its_workflow_call(tmp_path, result):
    store = loaded(wf.session(tmp_path, result))
    calls = {c.call_id: c for c in store.all_calls()}
    assert len(calls) == wf.ALL_CALLS
    for call_id in wf.WORKFLOW_CALLS:
        assert calls[call_id].parent is calls["toolu_01Workflow"], call_id
        assert calls[call_id].result is not None
    assert calls["toolu_01FlatGlob"].parent is calls["toolu_01Agent"]  # the Agent tool's subagent as before
    top = [c.call_id for c in store.items if hasattr(c, "call_id")]
    assert top == ["toolu_01Agent", "toolu_01Workflow", "toolu_01Bash"]
    # each agent's calls stay together and in their order
    nested = [c.call_id for c in calls["toolu_01Workflow"].walk()][1:]
    assert nested == wf.WORKFLOW_CALLS


def test_without_the_workflow_result_the_agents_calls_still_show(tmp_path):
    store = loaded(wf.session(tmp_path, "none"))
    ids = {c.call_id for c in store.all_calls()}
    assert set(wf.WORKFLOW_CALLS) <= ids
    assert len(ids) == wf.ALL_CALLS


def test_headless_commands_count_and_nest_them(tmp_path):
    path = wf.session(tmp_path)
    code, out, _ = run_cli("dump", "--json", str(path))
    rows = {row["id"]: row for row in map(json.loads, out.splitlines())}
    assert len(rows) == wf.ALL_CALLS
    assert {rows[c]["parent"] for c in wf.WORKFLOW_CALLS} == {"toolu_01Workflow"}
    code, out, _ = run_cli("stats", "--json", str(path))
    assert json.loads(out)["calls"] == wf.ALL_CALLS
    code, out, _ = run_cli("check", str(path))
    assert code == 0 and f"ok: {wf.ALL_CALLS} call(s)" in out


def test_the_session_browser_counts_them_and_lists_only_the_session(tmp_path):
    path = wf.session(tmp_path)
    [info] = find_sessions(str(tmp_path))
    assert info.path == str(path)
    assert info.tool_calls == wf.ALL_CALLS


@pytest.mark.parametrize("result", ["full", "text"])
def test_the_independent_count_nests_a_runs_agents_as_the_inspector_does(tmp_path, result):
    """tests/realcount.py nests a run's agents under the call whose result names the run
    (``toolUseResult.runId``): it said 0 nested of a real 2.1.167 session's 231 workflow calls."""
    from realcount import count

    path = wf.session(tmp_path, result)
    counted = count(path)
    store = loaded(path)
    nested = sum(1 for c in store.all_calls() if c.parent is not None)
    assert counted.calls == wf.ALL_CALLS and counted.nested == nested
