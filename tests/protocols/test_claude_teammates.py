"""Claude Code 2.1.2xx subagents whose call is named only by their ``.meta.json``: the ``toolUseId`` of the
call that spawned them, or, for an in-process teammate (an ``Agent`` call given a ``name``), that name and
no id. The facts: real metas of 2.1.229-2.1.266 (MrMarHVD/claude-config-to-rule-them-all:
``{"agentType":"api-probe","description":...,"name":"api-probe","taskKind":"in_process_teammate",
"teamName":"session-31cff1c7",...}``, the teammate's first message wrapped in ``<teammate-message>``), and a
viewer's count over 818 metas of one machine (512 with a ``toolUseId``, 307 named without one)."""

from __future__ import annotations

import json

from claude_records_factory import SID, call, record, write
from test_claude_subagents import agent_records, parents, store_of


def spawn(call_id: str, prompt: str, description: str, name: str | None = None) -> list[dict]:
    """An Agent call answered at once, with no agentId in its result (a teammate runs on its own)."""
    params = {"description": description, "prompt": prompt}
    if name is not None:
        params["name"] = name
    return call(call_id, "Agent", params, [{"type": "text", "text": "Spawned successfully."}])


def meta(folder, agent_id: str, **fields) -> None:
    path = folder / f"agent-{agent_id}.meta.json"
    path.write_text(json.dumps({"agentType": "general-purpose", **fields}))


def test_a_named_teammate_nests_under_the_agent_call_that_asked_for_its_name(tmp_path):
    """Its first message is the prompt wrapped for the team, its meta's description is not the call's:
    only the name joins them (before, its calls stood at the top, beside the call that ran them)."""
    sub = tmp_path / "s" / "subagents"
    wrapped = '<teammate-message teammate_id="team-lead" summary="Explore the API">\nMap the API\n</teammate-message>'
    write(
        sub / "agent-aapi-probe-b77a6cc799f4e98b.jsonl",
        agent_records("aapi-probe-b77a6cc799f4e98b", wrapped, ["toolu_t1"]),
    )
    meta(
        sub,
        "aapi-probe-b77a6cc799f4e98b",
        agentType="api-probe",
        description="Explore ardoq-api sparql translator",
        name="api-probe",
        taskKind="in_process_teammate",
        teamName="session-31cff1c7",
    )
    main = [record("user", "Go")]
    main += spawn("toolu_A0", "Check the build", "Build check")
    main += spawn("toolu_A1", "Map the API", "API probe", name="api-probe")
    store = store_of(write(tmp_path / "s.jsonl", main))
    assert parents(store) == {"toolu_A0": None, "toolu_A1": None, "toolu_t1": "toolu_A1"}


def test_a_meta_naming_its_call_wins_over_an_equal_prompt(tmp_path):
    """Two calls asked the same thing; each agent's meta names its own call (``toolUseId``), so the first
    file in name order is not given the first call."""
    sub = tmp_path / "s" / "subagents"
    write(sub / "agent-a1.jsonl", agent_records("a1", "Review the diff", ["toolu_x1"]))
    write(sub / "agent-b2.jsonl", agent_records("b2", "Review the diff", ["toolu_y1"]))
    meta(sub, "a1", description="Review", toolUseId="toolu_B")
    meta(sub, "b2", description="Review", toolUseId="toolu_A")
    main = [record("user", "Go")]
    main += spawn("toolu_A", "Review the diff", "Review")
    main += spawn("toolu_B", "Review the diff", "Review")
    store = store_of(write(tmp_path / "s.jsonl", main))
    assert parents(store) == {"toolu_A": None, "toolu_B": None, "toolu_x1": "toolu_B", "toolu_y1": "toolu_A"}


def test_a_name_or_id_no_call_has_leaves_the_agent_alone(tmp_path):
    sub = tmp_path / "s" / "subagents"
    write(sub / "agent-a9.jsonl", agent_records("a9", "Something else", ["toolu_z1"]))
    meta(sub, "a9", description="Other", name="nobody", toolUseId="toolu_missing")
    main = [record("user", "Go"), *spawn("toolu_A", "Map the API", "API probe", name="api-probe")]
    store = store_of(write(tmp_path / "s.jsonl", main))
    assert parents(store) == {"toolu_A": None, "toolu_z1": None}
    assert SID in {c.group for c in store.all_calls()}
