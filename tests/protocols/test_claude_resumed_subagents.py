"""Two session files of one conversation opened together (a project folder), the later one repeating
the earlier one's records (same uuids): the subagent's calls show once. The shape is real (aistrad/work,
Claude Code 2.1.19: session 68afba52 repeats ace0ad13, holding the Task's agent_progress copies, while the
agent's own file sits in ace0ad13/subagents/): the folder showed 2,573 calls for 2,541 ids, 32 of them
twice, once nested under the Task from the copies and once at the top level from the agent's file."""

from __future__ import annotations

import copy

from claude_records_factory import record, write
from test_claude_subagents import agent_records, progress, task

from inspector.model import CallStore
from inspector.sources.files import load


def conversation(folder):
    """The earlier file with its subagent's own file, and the later file repeating it with the copies."""
    ask, done = task("toolu_T", "Explore the repository", "Explore", agent_id="a2dc69a", name="Task")
    first = [record("user", "Go"), ask, done]
    write(folder / "ace0ad13" / "subagents" / "agent-a2dc69a.jsonl", inner := agent_records(
        "a2dc69a", "Explore the repository", ["toolu_x1", "toolu_x2"]))  # fmt: skip
    write(folder / "ace0ad13.jsonl", first)
    later = [copy.deepcopy(r) for r in first[:2]]
    later += [progress(r, "a2dc69a", "toolu_T") for r in inner if isinstance(r["message"]["content"], list)]
    later += [copy.deepcopy(first[2]), record("user", "And now?")]
    write(folder / "68afba52.jsonl", later)
    return folder / "68afba52.jsonl", folder / "ace0ad13.jsonl"


def test_a_subagents_calls_show_once_when_a_resumed_file_holds_their_copies(tmp_path):
    later, earlier = conversation(tmp_path)
    for paths in ([later, earlier], [earlier, later], [tmp_path]):
        store = CallStore()
        load([str(p) for p in paths], store)
        ids = [c.call_id for c in store.all_calls()]
        assert sorted(ids) == ["toolu_T", "toolu_x1", "toolu_x2"], paths
        parents = {c.call_id: c.parent.call_id if c.parent else None for c in store.all_calls()}
        assert parents == {"toolu_T": None, "toolu_x1": "toolu_T", "toolu_x2": "toolu_T"}, paths
        assert not store.malformed and store.duplicate_results == 0


def test_each_file_alone_still_shows_the_subagents_calls(tmp_path):
    for path in conversation(tmp_path):
        store = CallStore()
        load([str(path)], store)
        assert sorted(c.call_id for c in store.all_calls()) == ["toolu_T", "toolu_x1", "toolu_x2"]
