"""Subagent files whose session file is missing, opened together (their folder, or the project's): each
is read on its own, and the calls one repeats from another (2.1.x side-question agents,
``agent-aside_question-*``, and compaction agents hold the conversation they were asked about, its
tool_use ids, inputs and answers) show once. A real folder of Claude Code 2.1.x (pshung/personal_git)
showed 3,283 calls where 2,314 ran, and another 951 for 824. realcount's folder count agrees."""

from __future__ import annotations

import copy

from claude_records_factory import call, record, write
from realcount import count, count_folder

from inspector.model import CallStore
from inspector.model.stats import session_stats
from inspector.sources.files import load

GONE = "9a0e0000-0000-4000-8000-000000000001"  # the session whose file is missing


def agent(agent_id: str, records: list[dict]) -> list[dict]:
    out = []
    for number, original in enumerate(records):
        again = copy.deepcopy(original)
        again.update(sessionId=GONE, isSidechain=True, agentId=agent_id)
        again["uuid"] = f"{agent_id[-8:]}-0000-4000-8000-{number:012d}"  # each file its own uuids
        out.append(again)
    return out


def layout(root):
    """Two side-question agents asked about the same conversation (its two calls, one failing), the
    second making a call of its own."""
    asked = [record("user", "what did we do?")]
    asked += call("toolu_a", "Bash", {"command": "make"}, "built")
    asked += call("toolu_b", "Bash", {"command": "make test"}, "Exit code 2", is_error=True)
    folder = root / "-w" / GONE / "subagents"
    write(folder / "agent-aside_question-0001.jsonl", agent("aside_question-0001", asked))
    second = asked + call("toolu_c", "Read", {"file_path": "/w/Makefile"}, "all:")
    write(folder / "agent-aside_question-0002.jsonl", agent("aside_question-0002", second))
    return folder


def figures(paths) -> tuple[int, int, int]:
    store = CallStore()
    load([str(p) for p in paths], store)
    stats = session_stats(store, store.end_clock().now(), None)
    states = stats["states"]
    assert not store.malformed and store.duplicate_results == 0 and stats["orphan_results"] == 0
    return stats["calls"], states["pending"] + states["overdue"], states["failed"]


def test_lone_agent_files_opened_together_show_each_call_once(tmp_path):
    folder = layout(tmp_path)
    for paths in ([folder], [tmp_path / "-w"], sorted(folder.iterdir()), sorted(folder.iterdir())[::-1]):
        assert figures(paths) == (3, 0, 1), paths
    counted = count_folder(folder)
    assert (counted.calls, counted.unanswered, counted.errors) == (3, 0, 1)


def test_each_lone_agent_file_alone_shows_what_it_holds(tmp_path):
    first, second = sorted(layout(tmp_path).iterdir())
    assert figures([first]) == (2, 0, 1) and count(first).calls == 2
    assert figures([second]) == (3, 0, 1) and count(second).calls == 3
