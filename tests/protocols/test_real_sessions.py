"""Real sessions from public repositories (tests/fixtures/real, PROVENANCE.md there; issue 20): the
inspector's headless figures for each equal the counts of tests/realcount.py, which reads the files with
plain ``json`` and none of the inspector's code, and both equal the counts pinned here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from realcount import count

from inspector.model import CallStore
from inspector.model.stats import session_stats
from inspector.sources.files import load

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"

# file -> (calls, of them nested, unanswered, ended badly, orphan results), as tests/realcount.py counted
# them when they were pinned (the same for the inspector); a change here is a change in how a session reads.
PINNED = {
    # Claude Code 2.1.92, macOS: one subagent
    "Xu-Wentao_dotfile/f7881aa9-f93e-41b6-94a1-fde7ddb9485f.jsonl": (13, 7, 0, 1, 0),
    # 2.1.87, a worktree session: its subagent runs 21 of its 22 calls; one call left unanswered
    "Xu-Wentao_dotfile/0f1544d1-461f-4e42-b321-7eb11ed77758.jsonl": (22, 21, 1, 8, 0),
    # 2.1.85: the first record is the result of a call made in the session this one continues
    "Xu-Wentao_dotfile/72924ef0-ff51-47d2-8fc6-a5f2ff3f9ff6.jsonl": (5, 0, 0, 0, 1),
    # 2.1.68, Windows: subagents, refusals, an unanswered call
    "fabien-lessirard_dotfiles/0d783c0d-6315-4770-aa90-8e59abd50388.jsonl": (11, 10, 0, 5, 0),
    "fabien-lessirard_dotfiles/a39ca27e-16f9-4728-be74-7da7a9580d41.jsonl": (18, 15, 1, 6, 0),
    # 22 file-history-snapshot records and nothing else
    "fabien-lessirard_dotfiles/1be091e3-cee0-42e8-8631-6ba0e5f55e48.jsonl": (0, 0, 0, 0, 0),
    # 2.0.2, macOS: a resume rewritten into the same file (after line 37 the earlier records come again: 13
    # tool_use ids a second time with the same input, new uuids, one timestamp); the file's first 101 lines
    "bradymholt_dotfiles/e77c7d1f-1b41-4e24-880a-08a2bad9ad7b.jsonl": (21, 0, 0, 9, 0),
    # 1.0.119, Linux
    "Tar-ive_brain-system/476394af-a519-4947-a443-dfd662dad871.jsonl": (18, 0, 0, 4, 0),
    # Codex: a fork's build in the legacy layout; 0.36 .. 0.118
    "JaydenXsoe_ocodex/rollout-2025-09-06T00-46-49-0006b370-3ba0-4783-b4ad-22ce45b53420.jsonl": (
        6,
        0,
        0,
        0,
        0,
    ),
    "Hoper-J_cpolar-connect/rollout-2025-09-16T12-47-48-9cd28a74-da7e-4458-a91a-fffec2be9d7a.jsonl": (
        51,
        0,
        0,
        1,
        0,
    ),
    # 0.46: 2 of the 39 failures are outputs shortened with a 'Total output lines: N' header
    "Maidang1_madinah/rollout-2025-10-27T11-43-01-019a23c3-1ed4-7b51-9dcb-0a9258699228.jsonl": (
        238,
        0,
        0,
        39,
        0,
    ),
    "MikeLockz_el-dorado-tanstack/rollout-2025-11-12T22-48-58-019a7bc2-8a27-7480-a82e-58cdf1144cd3.jsonl": (
        39,
        0,
        0,
        4,
        0,
    ),
    "EdofEngland_code_butler/rollout-2025-11-24T13-02-00-019ab73e-8c11-7ad2-b604-5987891db560.jsonl": (
        13,
        0,
        0,
        3,
        0,
    ),
    "Ogekuri_G/rollout-2025-12-15T15-11-17-019b2259-ee39-7c11-b613-5d32c161f9c9.jsonl": (21, 0, 0, 0, 0),
    "blubber_dotfiles/rollout-2026-02-07T09-18-16-019c372e-2526-7e72-83e1-9cba8efad18d.jsonl": (
        11,
        0,
        0,
        0,
        0,
    ),
    # 0.118 codex-tui: exec_command sessions polled by write_stdin, sandbox refusals, aborted commands
    "Xu-Wentao_dotfile/rollout-2026-04-08T22-02-46-019d6d67-1952-7e83-93ef-94497e3c15b6.jsonl": (
        34,
        0,
        0,
        12,
        0,
    ),
    # Gemini CLI, September 2025: the CLI recorded no tool call yet (the agent ran tools all the same)
    "Tar-ive_brain-system/session-2025-09-16T20-39-38d857b1.json": (0, 0, 0, 0, 0),
    "KuantumQuest_MyDotFiles-HyDE/session-2025-09-22T12-41-7bcb6ef1.json": (0, 0, 0, 0, 0),
    # ... but a chat saved with /chat save in those days holds them (one refused by the user)
    "KuantumQuest_MyDotFiles-HyDE/checkpoint-UNED.json": (13, 0, 0, 1, 0),
    # January 2026, Windows: toolCalls with errors
    "fabien-lessirard_dotfiles/session-2026-01-24T18-48-36d4e89a.json": (5, 0, 0, 2, 0),
}


def inspector_figures(path: Path) -> tuple[int, int, int, int, int]:
    """What ``inspector stats`` says of one file (the same calls as the command: judged at its end)."""
    store = CallStore(keep_payloads=False)
    load([str(path)], store)
    store.clock = store.end_clock()
    figures = session_stats(store, store.clock.now(), None)
    states = figures["states"]
    unanswered = states["pending"] + states["overdue"]
    bad = states["failed"] + states["timed_out"] + states["canceled"] + states["denied"]
    assert figures["malformed"] == 0 and figures["duplicate_results"] == 0, path
    assert figures["protocol_violations"] == 0, path
    return figures["calls"], figures["nested"], unanswered, bad, figures["orphan_results"]


def test_every_session_file_of_the_fixtures_is_pinned():
    sessions = {
        str(p.relative_to(REAL))
        for p in REAL.rglob("*")
        if p.is_file() and p.suffix in (".jsonl", ".json") and "subagents" not in p.parts
    }
    assert sessions == set(PINNED)
    assert all(p.stat().st_size < 5 * 1024 * 1024 for p in REAL.rglob("*") if p.is_file())


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_independent_count_is_the_pinned_count(name):
    counted = count(REAL / name)
    assert (counted.calls, counted.nested, counted.unanswered, counted.errors, counted.orphans) == PINNED[
        name
    ]
    assert counted.answered == counted.calls - counted.unanswered


@pytest.mark.parametrize("name", sorted(PINNED))
def test_the_inspector_counts_each_real_session_as_the_independent_count(name):
    assert inspector_figures(REAL / name) == PINNED[name]


def test_the_stats_command_gives_the_same_figures(tmp_path):
    """Through the CLI, as a user runs it: one file of each format."""
    names = [
        n
        for n in PINNED
        if n.startswith(("Maidang1", "fabien-lessirard_dotfiles/a39c", "fabien-lessirard_dotfiles/session"))
    ]
    for name in names:
        done = subprocess.run(
            [sys.executable, "-m", "inspector", "stats", "--json", str(REAL / name)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        figures = json.loads(done.stdout)
        calls, nested, unanswered, bad, orphans = PINNED[name]
        states = figures["states"]
        assert (figures["calls"], figures["nested"], figures["orphan_results"]) == (calls, nested, orphans)
        assert states["pending"] + states["overdue"] == unanswered
        assert states["failed"] + states["timed_out"] + states["canceled"] + states["denied"] == bad


CORPUS = REAL.parents[2] / ".." / "shared" / "corpus"
CORPUS_SESSIONS = (
    sorted(
        p
        for kind in ("claude", "codex", "gemini")
        for p in (CORPUS / kind).rglob("*.json*")
        if p.suffix in (".jsonl", ".json")
        and "subagents" not in p.parts
        and not p.name.startswith("agent-")
        and not p.name.endswith(".meta.json")
    )
    if CORPUS.is_dir()
    else []
)


@pytest.mark.skipif(not CORPUS_SESSIONS, reason="../shared/corpus is not present")
@pytest.mark.parametrize("path", CORPUS_SESSIONS, ids=lambda p: p.name[:60])
def test_the_inspector_counts_each_corpus_session_as_the_independent_count(path):
    """The shared corpus too (inline 1.0.x sidechains are nested by the inspector, not by the count:
    nested is not compared here)."""
    counted = count(path)
    calls, _nested, unanswered, bad, orphans = inspector_figures(path)
    assert (calls, unanswered, bad, orphans) == (
        counted.calls,
        counted.unanswered,
        counted.errors,
        counted.orphans,
    )
