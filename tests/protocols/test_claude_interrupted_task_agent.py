"""Two shapes of real Claude Code 2.0.76 sessions (patleeman/dotfiles, macOS) that tests/realcount.py
counted otherwise than the inspector, the inspector right in both:

* a Task the user interrupted gets a result that names no agent (``[Request interrupted by user for
  tool use]``, no ``toolUseResult.agentId``), yet its agent ran: its project-level ``agent-<id>.jsonl``
  beside the session (its session id, its first message the Task's prompt) holds the calls it made,
  nested under the Task (a real session: 39 calls, 12 of them the interrupted agent's, that realcount
  counted as 27);
* ``This command requires approval`` (a Bash command refused where nobody can approve it, ``claude -p``)
  is a refusal, as the other permission texts are.

Minimal synthetic files of those shapes; the inspector and realcount agree on them."""

from __future__ import annotations

from claude_records_factory import SID, call, record, write
from realcount import count, count_folder
from test_claude_subagents import agent_records, task

from inspector.model import CallStore
from inspector.model.stats import session_stats
from inspector.sources.files import load

PROMPT = "Explore the codebase: how are hooks implemented?"


def figures(path) -> tuple[int, int, int, int, int]:
    store = CallStore()
    load([str(path)], store)
    stats = session_stats(store, store.end_clock().now(), None)
    states = stats["states"]
    bad = states["failed"] + states["timed_out"] + states["canceled"] + states["denied"]
    return stats["calls"], stats["nested"], bad, states["denied"], states["canceled"]


def test_an_interrupted_tasks_agent_file_beside_the_session_is_its_nested_calls(tmp_path):
    ask, _ = task("toolu_T", PROMPT, "Explore hooks", answered=False)
    stopped = record(
        "user",
        [
            {
                "type": "tool_result",
                "tool_use_id": "toolu_T",
                "content": "[Request interrupted by user for tool use]",
                "is_error": True,
            }
        ],
        toolUseResult="Error: [Request interrupted by user for tool use]",
    )
    session = write(tmp_path / f"{SID}.jsonl", [record("user", "go"), ask, stopped])
    write(tmp_path / "agent-ab4ee3a.jsonl", agent_records("ab4ee3a", PROMPT, ["toolu_x1", "toolu_x2"]))
    write(tmp_path / "agent-a0c2475.jsonl", agent_records("a0c2475", "Warmup", []))  # no call of this session
    counted = count(session)
    assert figures(session) == (3, 2, 1, 0, 1)
    assert (counted.calls, counted.nested, counted.errors, counted.denied, counted.canceled) == (
        3,
        2,
        1,
        0,
        1,
    )
    folder = count_folder(tmp_path)
    assert (folder.calls, folder.nested) == (3, 2) == figures(tmp_path)[:2]


def test_a_command_that_requires_approval_is_refused(tmp_path):
    records = [record("user", "list the tasks")]
    records += call("toolu_b", "Bash", {"command": "/tasks"}, "This command requires approval", is_error=True)
    session = write(tmp_path / f"{SID}.jsonl", records)
    counted = count(session)
    assert figures(session) == (1, 0, 1, 1, 0)
    assert (counted.calls, counted.errors, counted.denied) == (1, 1, 1)
