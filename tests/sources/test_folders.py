"""Opening a folder (sources.folders): the sessions of every format under it, at every level of each CLI's
layout, built in temporary folders from the real sessions of tests/fixtures/real; counted against
tests/realcount.py, which finds a folder's sessions and counts them with none of the inspector's code.

Every command that takes a folder goes through the one walk: the app (open_paths), ``stats``, ``dump``,
``check`` and ``export-otlp``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from claude20_factory import GONE_1, GONE_2, write_20_agent
from realcount import count, folder_sessions

from inspector.model import CallStore
from inspector.sources.files import load, open_paths
from inspector.sources.session import UnusableInput

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "tests" / "fixtures" / "real"

GEMINI = {  # the project hash each session was kept under (PROVENANCE.md) -> the fixture
    "56cfacee57fb9791a4f38e595662752e07022cdeb39cd7127005427d7361037b": [
        "fabien-lessirard_dotfiles/session-2026-01-24T18-48-36d4e89a.json"
    ],
    "596d3688fee3b82f59f4aa1d0b90f625ade4afad4f1c4d84b80bd2f4141260aa": [
        "Tar-ive_brain-system/session-2025-09-16T20-39-38d857b1.json"
    ],
    "3e01b55cf0f7db05e67685223611854c60e1172a0d5223003df48711cf0b1d87": [
        "KuantumQuest_MyDotFiles-HyDE/session-2025-09-22T12-41-7bcb6ef1.json"
    ],
}
SAVED_CHAT = (
    "ada922badf44a2b22b3781c3a9f3e45714f60196536f2b7657ad8b07dac0ae3b",
    "KuantumQuest_MyDotFiles-HyDE/checkpoint-UNED.json",
)
XU = REAL / "Xu-Wentao_dotfile"
ORPHANED = "f7881aa9-f93e-41b6-94a1-fde7ddb9485f"  # one subagent, 7 calls of the session's 13
KEPT = "0f1544d1-461f-4e42-b321-7eb11ed77758"  # with its subagent: 22 calls
ROLLOUT = "rollout-2026-04-08T22-02-46-019d6d67-1952-7e83-93ef-94497e3c15b6.jsonl"


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("OTEL_EXPORTER_OTLP_ENDPOINT", None)
    return subprocess.run(
        [sys.executable, "-m", "inspector", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def gemini_home(tmp: Path) -> Path:
    """``~/.gemini`` as Gemini CLI lays it out: ``tmp/<project hash>/chats/session-*.json`` and a saved chat."""
    home = tmp / ".gemini"
    for project, names in GEMINI.items():
        chats = home / "tmp" / project / "chats"
        chats.mkdir(parents=True)
        for name in names:
            shutil.copy(REAL / name, chats)
    saved = home / "tmp" / SAVED_CHAT[0]
    saved.mkdir()
    shutil.copy(REAL / SAVED_CHAT[1], saved)
    (saved / "logs.json").write_text("[]")  # the prompts Gemini CLI keeps beside: no session
    return home


def claude_project(tmp: Path, *, orphan: bool = True) -> Path:
    """A Claude Code project folder holding a session with its subagent and, with ``orphan``, the
    ``subagents/`` folder of a session whose file is gone."""
    project = tmp / "projects" / "-Users-xuwentao-Projects"
    project.mkdir(parents=True)
    shutil.copy(XU / f"{KEPT}.jsonl", project)
    shutil.copytree(XU / KEPT, project / KEPT)
    if orphan:
        shutil.copytree(XU / ORPHANED, project / ORPHANED)
    return project


def expected(folder: Path) -> tuple[set[str], int]:
    """The session files realcount finds in ``folder`` and the calls it counts in them."""
    files = folder_sessions(folder)
    return {p.name for p in files}, sum(count(p).calls for p in files)


def stats_of(folder: Path) -> tuple[dict, str]:
    done = cli("stats", "--json", folder)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def opened_names(folder: Path, notes: list[str] | None = None) -> set[str]:
    return {Path(o.path).name for o in open_paths([str(folder)], None, [], notes)}


# -- Gemini CLI ---------------------------------------------------------------------------------------


def test_every_level_of_a_gemini_home_opens_with_its_sessions(tmp_path):
    home = gemini_home(tmp_path)
    chats = home / "tmp" / next(iter(GEMINI)) / "chats"
    for folder in (chats, chats.parent, home / "tmp", home):
        names, calls = expected(folder)
        assert names and opened_names(folder) == names, folder
        figures, err = stats_of(folder)
        assert figures["calls"] == calls and not err, folder
    names, calls = expected(home)
    assert len(names) == 4 and "checkpoint-UNED.json" in names  # three chats and the saved chat
    done = cli("dump", "--json", home)
    assert done.returncode == 0, done.stderr
    assert len({json.loads(line)["id"] for line in done.stdout.splitlines()}) == calls
    assert cli("check", home).returncode != 2


GEMINI_SESSION = "36d4e89a-7e2f-458a-8cbd-80d80d444edf"  # fabien-lessirard's chat's sessionId


def sub_agent_file(folder: Path, agent: str) -> tuple[Path, int]:
    """A sub-agent's file as Gemini CLI writes it (a ``kind: subagent`` header, then messages), its
    messages the real chat's that ran tools; and how many calls they hold."""
    chat = json.loads(
        (REAL / GEMINI["56cfacee57fb9791a4f38e595662752e07022cdeb39cd7127005427d7361037b"][0]).read_text()
    )
    messages = [m for m in chat["messages"] if m.get("toolCalls")][:3]
    header = {"sessionId": agent, "projectHash": chat["projectHash"], "startTime": chat["startTime"],
              "lastUpdated": chat["lastUpdated"], "kind": "subagent"}  # fmt: skip
    folder.mkdir(parents=True)
    path = folder / f"{agent}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [header, *messages]))
    return path, sum(len(m["toolCalls"]) for m in messages)


def test_a_gemini_sub_agents_folder_is_read_with_its_session_not_as_sessions(tmp_path):
    """``chats/<session id>/*.jsonl`` are a session's sub-agents: opening the folder does not list them."""
    home = gemini_home(tmp_path)
    chats = home / "tmp" / next(iter(GEMINI)) / "chats"
    sub_agent_file(chats / GEMINI_SESSION, "agent-1")
    notes: list[str] = []
    assert opened_names(chats, notes) == {"session-2026-01-24T18-48-36d4e89a.json"} == expected(chats)[0]
    assert notes == []


def test_a_gemini_sub_agents_folder_whose_session_is_missing_is_shown_and_said(tmp_path):
    home = gemini_home(tmp_path)
    chats = home / "tmp" / next(iter(GEMINI)) / "chats"
    gone = "0b1c2d3e-0000-4000-8000-000000000001"
    path, agent_calls = sub_agent_file(chats / gone, "agent-1")
    notes: list[str] = []
    names, calls = expected(chats)
    assert opened_names(chats, notes) == names == {"session-2026-01-24T18-48-36d4e89a.json", path.name}
    [note] = notes
    assert gone in note and "missing" in note
    assert agent_calls > 0 and calls == count(REAL / GEMINI[next(iter(GEMINI))][0]).calls + agent_calls
    figures, err = stats_of(chats)
    assert figures["calls"] == calls and gone in err


# -- every format together ----------------------------------------------------------------------------


def test_a_folder_holding_all_three_clis_sessions_opens_them_all(tmp_path):
    home = tmp_path / "home"
    claude_project(home / "claude", orphan=False)
    day = home / "codex" / "sessions" / "2026" / "04" / "08"
    day.mkdir(parents=True)
    shutil.copy(XU / ROLLOUT, day)
    gemini_home(home / "gemini")
    shutil.move(str(home / "gemini" / ".gemini"), home / "gemini" / "dot-gemini")  # not a hidden folder
    names, calls = expected(home)
    assert {f"{KEPT}.jsonl", ROLLOUT, "checkpoint-UNED.json"} <= names and len(names) == 6
    assert opened_names(home) == names
    figures, err = stats_of(home)
    assert figures["calls"] == calls and not err
    assert set(figures["format"].split(",")) == {"claude", "codex", "gemini"}


def test_an_empty_folder_says_what_was_looked_for(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "README.txt").write_text("nothing here")
    (folder / "data.json").write_text("{}")
    with pytest.raises(UnusableInput) as caught:
        open_paths([str(folder)])
    for looked_for in ("Claude Code session", "Codex rollout", "Gemini CLI chat"):
        assert looked_for in str(caught.value)
    gemini_home(folder)  # ~/.gemini in a home folder: hidden, not searched, and said so
    with pytest.raises(UnusableInput, match=r"hidden folders are not searched: open \.gemini itself"):
        open_paths([str(folder)])
    for command in (["stats"], ["dump"], ["check"], ["export-otlp", "--endpoint", "http://127.0.0.1:9"]):
        done = cli(*command, folder)
        assert done.returncode == 2 and "Gemini CLI chat" in done.stderr and "notes" in done.stderr, command
        assert not done.stdout


# -- Claude Code subagents whose session is missing ------------------------------------------------


def test_subagents_whose_session_is_missing_are_shown_and_said(tmp_path):
    project = claude_project(tmp_path)
    names, calls = expected(project)
    assert names == {f"{KEPT}.jsonl", "agent-a1c54672ab61514c6.jsonl"}
    assert calls == 22 + 7
    notes: list[str] = []
    assert opened_names(project, notes) == names
    [note] = notes
    assert ORPHANED in note and "missing" in note
    figures, err = stats_of(project)
    assert figures["calls"] == calls
    assert ORPHANED in err and "missing" in err
    done = cli("dump", "--json", project)
    assert done.returncode == 0
    ids = {json.loads(line)["id"] for line in done.stdout.splitlines()}
    assert len(ids) == calls  # every call of the orphaned agent is there, beside the session's
    done = cli("check", project)
    assert ORPHANED in done.stderr and done.returncode != 2
    store = CallStore()
    load([str(project)], store)
    assert store.call_count == calls


def test_subagents_of_a_session_that_a_later_one_resumes_are_read_with_it_once(tmp_path):
    """A resume into a new file starts with the earlier session's id, and reads the earlier session's
    subagents from its folder: they are not orphans, and not shown twice."""
    project = claude_project(tmp_path, orphan=False)
    shutil.copytree(XU / ORPHANED, project / ORPHANED)
    resumed = project / "11111111-2222-4333-8444-555555555555.jsonl"
    shutil.copy(XU / f"{ORPHANED}.jsonl", resumed)  # its records carry the earlier session's id
    notes: list[str] = []
    assert opened_names(project, notes) == {f"{KEPT}.jsonl", resumed.name} == expected(project)[0]
    assert notes == []
    figures, err = stats_of(project)
    assert figures["calls"] == 22 + 13 and figures["nested"] == 21 + 7 and not err


def test_a_subagents_folder_opened_itself_shows_its_agents(tmp_path):
    project = claude_project(tmp_path, orphan=False)
    folder = project / KEPT / "subagents"
    notes: list[str] = []
    assert opened_names(folder, notes) == {"agent-a991016c967bcbde5.jsonl"}
    [note] = notes
    assert "shown without the session" in note and KEPT in note


def test_the_browser_lists_subagents_whose_session_is_missing_as_one_row_that_opens_them(tmp_path):
    from inspector.sources.claude_sessions import find_sessions

    project = claude_project(tmp_path)
    rows = {Path(info.path).name: info for info in find_sessions(str(tmp_path / "projects"))}
    assert set(rows) == {f"{KEPT}.jsonl", "subagents"}
    assert rows[f"{KEPT}.jsonl"].tool_calls == 22
    orphaned = rows["subagents"]
    assert orphaned.tool_calls == 7 and ORPHANED in orphaned.title and "missing" in orphaned.title
    assert orphaned.path == str(project / ORPHANED / "subagents")
    store = CallStore()
    load([orphaned.path], store)  # what enter opens: the folder, its agents
    assert store.call_count == 7
    assert [info.path for info in find_sessions(str(tmp_path / "projects"), count_calls=False)] == [
        info.path for info in sorted(rows.values(), key=lambda i: (-i.modified, i.path))
    ]


def test_a_2_0_subagent_file_beside_the_sessions_whose_session_is_missing_is_shown_and_said(tmp_path):
    """Claude Code 2.0.x keeps ``agent-<id>.jsonl`` beside the sessions, its records carrying the session's
    id (the real corpus has a project folder with 26 of them whose sessions are gone, 31 calls)."""
    project = claude_project(tmp_path, orphan=False)
    agent = "agent-a1c54672ab61514c6.jsonl"  # its records carry the session id f7881aa9…
    shutil.copy(XU / ORPHANED / "subagents" / agent, project)
    names, calls = expected(project)
    assert names == {f"{KEPT}.jsonl", agent} and calls == 22 + 7
    notes: list[str] = []
    assert opened_names(project, notes) == names
    [note] = notes
    assert ORPHANED in note and "missing" in note
    figures, err = stats_of(project)
    assert figures["calls"] == calls and ORPHANED in err
    # with its session beside it, it is that session's: nested there, not shown on its own
    shutil.copy(XU / f"{ORPHANED}.jsonl", project)
    notes = []
    assert opened_names(project, notes) == {f"{KEPT}.jsonl", f"{ORPHANED}.jsonl"} == expected(project)[0]
    figures, err = stats_of(project)
    assert notes == [] and not err and figures["calls"] == 22 + 13 and figures["nested"] == 21 + 7


CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_the_corpus_folders_open_the_sessions_the_independent_count_finds():
    from inspector.sources.folders import sessions_in

    for folder in (CORPUS, CORPUS / "claude", CORPUS / "claude" / "daaain-real_projects"):
        assert sorted(sessions_in(str(folder)).paths) == sorted(str(p) for p in folder_sessions(folder))
    lone = CORPUS / "claude" / "daaain-real_projects" / "-Users-dain-workspace-coderabbit-review-helper"
    for folder in (CORPUS / "claude", lone):
        names, calls = expected(folder)
        figures, err = stats_of(folder)
        assert figures["calls"] == calls, folder
    assert "26 subagent file(s)" in err and "missing" in err  # the lone project: 121 calls, 90 before


def test_the_browser_lists_what_opening_gemini_and_codex_folders_opens(tmp_path):
    """The browser's Codex and Gemini lists come from the same walk: the saved chat too, with its project."""
    from inspector.sources.agent_sessions import find_codex, find_gemini

    home = gemini_home(tmp_path)
    listed = {Path(info.path).name: info for info in find_gemini(str(home / "tmp"))}
    assert set(listed) == opened_names(home / "tmp")
    assert listed["checkpoint-UNED.json"].project == SAVED_CHAT[0][:12]
    assert listed["checkpoint-UNED.json"].tool_calls == count(REAL / SAVED_CHAT[1]).calls
    codex = tmp_path / ".codex"
    day = codex / "sessions" / "2026" / "04" / "08"
    day.mkdir(parents=True)
    shutil.copy(XU / ROLLOUT, day)
    (codex / "history.jsonl").write_text('{"session_id":"019d6d67","ts":1775656966,"text":"hello"}\n')
    assert [Path(info.path).name for info in find_codex(str(codex))] == [ROLLOUT]
    assert opened_names(codex) == {ROLLOUT} == expected(codex)[0]  # the prompt history is no session
    figures, err = stats_of(codex)
    assert figures["calls"] == count(XU / ROLLOUT).calls and not err


def test_export_otlp_sends_the_calls_of_a_folder_as_the_other_commands_count_them(tmp_path):
    pytest.importorskip("opentelemetry.sdk", reason="the otlp extra is not installed")
    from otlp_sink import OtlpSink

    project = claude_project(tmp_path)
    chats = gemini_home(tmp_path / "g") / "tmp" / next(iter(GEMINI)) / "chats"
    shutil.copytree(chats, project / "chats")  # a Gemini chats folder beside, for the mix
    names, calls = expected(project)
    assert "session-2026-01-24T18-48-36d4e89a.json" in names
    with OtlpSink() as sink:
        done = cli("export-otlp", project, "--endpoint", sink.endpoint)
        assert done.returncode == 0, done.stderr
        assert f"{calls} call(s)" in done.stdout and ORPHANED in done.stderr
        spans = sink.wait_spans(calls)
    assert (
        len({s.attributes["gen_ai.tool.call.id"] for s in spans if "gen_ai.tool.call.id" in s.attributes})
        == calls
    )


def lone_agents_project(tmp: Path) -> Path:
    """A project folder with a session (with its subagent) and 2.0.x agent files beside it of two sessions
    whose files are gone: three agents of the first (2 + 1 + 0 calls), one of the second (1 call)."""
    project = claude_project(tmp, orphan=False)
    write_20_agent(project / "agent-a0000001.jsonl", GONE_1, "a0000001", 2)
    write_20_agent(project / "agent-a0000002.jsonl", GONE_1, "a0000002", 1)
    write_20_agent(project / "agent-a0000003.jsonl", GONE_1, "a0000003", 0)
    write_20_agent(project / "agent-b0000001.jsonl", GONE_2, "b0000001", 1)
    return project


def test_the_browser_lists_2_0_subagent_files_of_a_missing_session_as_one_row_that_opens_them(tmp_path):
    """Opening the folder shows them (on their own, said); the browser had no row for them at all."""
    from inspector.sources.claude_sessions import find_sessions

    project = lone_agents_project(tmp_path)
    names, calls = expected(project)
    assert calls == 22 + 4 and len(names) == 5  # the session and the four agent files, as realcount sees them
    rows = find_sessions(str(tmp_path / "projects"))
    assert sum(row.tool_calls or 0 for row in rows) == calls
    by_title = {row.title: row for row in rows}
    [first] = [row for title, row in by_title.items() if GONE_1 in title]
    [second] = [row for title, row in by_title.items() if GONE_2 in title]
    assert "missing" in first.title and "3 subagent file(s)" in first.title and first.tool_calls == 3
    assert [Path(p).name for p in first.opens()] == [
        "agent-a0000001.jsonl",
        "agent-a0000002.jsonl",
        "agent-a0000003.jsonl",
    ]
    assert second.opens() == [str(project / "agent-b0000001.jsonl")] and second.tool_calls == 1
    assert GONE_1 in first.note and "missing" in first.note
    store = CallStore()
    load(first.opens(), store)  # what enter opens: the three files, the calls of the session's agents
    assert store.call_count == 3
    assert {row.path for row in find_sessions(str(tmp_path / "projects"), count_calls=False)} == {
        row.path for row in rows
    }
    # an agent file of a session that is there is that session's: no row of its own, its call counted there
    write_20_agent(project / "agent-c0000001.jsonl", KEPT, "c0000001", 1)
    rows = find_sessions(str(tmp_path / "projects"))
    assert len(rows) == 3 and {row.tool_calls for row in rows} == {22 + 1, 3, 1}
