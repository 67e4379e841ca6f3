"""Real sessions from public repositories (tests/fixtures/real, PROVENANCE.md there; issue 20): the
inspector's headless figures for each equal the counts of tests/realcount.py, which reads the files with
plain ``json`` and none of the inspector's code, and both equal the counts pinned here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from realcount import count, count_folder

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
    # Claude Code 2.1.19, Linux, committed without its subagent files: the Task's agent_progress copies
    # hold the subagent's calls (lines 1-13 and 42: the Task, 9 copies, the Task's result)
    "aistrad_work/f3acc4a2-a351-43d6-a071-1d8560d542d4.jsonl": (7, 6, 4, 1, 0),
    # 2.0.76 with GLM-4.7 behind an Anthropic-compatible proxy: server_tool_use answered in the same message
    "aistrad_work/b745b61f-8bed-4a6c-a989-563179ed2740.jsonl": (4, 0, 0, 0, 0),
    # 2.1.71, Linux: a session left at once, one SessionStart hook_progress record
    "InvictusAutomation_oc-admin-home-shared/00a0560a-e6c4-4bc1-b9c2-104f0d084dd0.jsonl": (0, 0, 0, 0, 0),
    # 1.0.29 (NixOS) and 1.0.58 (macOS: a subagent's records inline, isSidechain)
    "borja-rojo-ilvento_dotfiles/1f0cd9c7-7a7e-4b33-aeac-f6009a446523.jsonl": (1, 0, 0, 1, 0),
    "dphaener_dotfiles/afc4f5a3-4d18-458f-95cc-1e92dbbded5b.jsonl": (26, 6, 2, 0, 0),
    # 2.1.278, macOS: /model and nothing else (mode, permission-mode, system, cost-state, last-prompt by leafUuid)
    "MrMarHVD_claude-config-to-rule-them-all/3487c9f4-4273-48b1-907f-64e7c7bc331e.jsonl": (0, 0, 0, 0, 0),
    # 2.1.92, Linux
    "Zatoichi-42_claude-zibe/2e67241e-3ebc-452b-9bd0-04a22653db37.jsonl": (2, 0, 0, 0, 0),
    # Codex: the fork's build calls a tool it does not have ('unsupported call: search.query')
    "JaydenXsoe_ocodex/rollout-2025-08-27T17-50-50-64427691-f58d-4166-9b30-c7de81feea9b.jsonl": (
        1,
        0,
        0,
        1,
        0,
    ),
    # 0.63.0 on Linux (gpt-5.1-codex-max), 0.104.0 driven by a Chrome extension through the app server
    "7567491_Feishu_ClaudeCode/rollout-2025-11-27T13-51-28-019ac3dd-dee1-70c2-a426-cd9099bc4366.jsonl": (
        16,
        0,
        0,
        5,
        0,
    ),
    "taturou_codex-chrome-extension/rollout-2026-02-24T03-49-50-019c8bd6-1b9f-70c1-b106-b375c88a9c19.jsonl": (
        5,
        0,
        0,
        0,
        0,
    ),
    # 0.142.5 Codex Desktop: a tool_search_call answered by tool_search_output; exec sessions still
    # running where the file is cut (its first 79 lines)
    "ADIOCLASSMATE_dotfile/rollout-2026-07-03T15-12-18-019f26d2-378f-7123-aaab-925df3e2bf7b.jsonl": (
        21,
        0,
        2,
        5,
        0,
    ),
    # 0.115.0-alpha.27 (VS Code): exec outputs begin with 'Command: <the whole command>', the exit line
    # far from the start (its first 73 lines, to the first failed command)
    "kv-248_TeacherEvaluation/rollout-2026-03-17T22-14-40-019cfddd-8b58-7031-9c38-031f65e09077.jsonl": (
        22,
        0,
        1,
        1,
        0,
    ),
    # 0.146.0 codex-tui: web searches written as web_search_end events alone (no web_search_call item)
    "seokhyeonhong_motion-jepa/rollout-2026-08-01T07-14-05-019fba3d-e2be-7722-a0af-76168179677c.jsonl": (
        9,
        0,
        0,
        0,
        0,
    ),
    # 0.104.0 on Linux: two spawn_agent calls (no collab events: the output names the thread), each
    # thread a rollout of its own beside the parent, read under its call (the parent's first 57 lines)
    "h-morishita-esol_devenv/rollout-2026-02-19T19-07-06-019c755e-168e-73c1-951b-0ef453bde2ee.jsonl": (
        16,
        10,
        0,
        1,
        0,
    ),
    "h-morishita-esol_devenv/rollout-2026-02-19T19-08-47-019c755f-a102-7ab2-bde8-460b1d554d4d.jsonl": (
        6,
        0,
        0,
        0,
        0,
    ),
    "h-morishita-esol_devenv/rollout-2026-02-19T19-09-37-019c7560-6654-7e80-a37e-cd553fc317e4.jsonl": (
        4,
        0,
        0,
        0,
        0,
    ),
    # Gemini CLI, October 2025, Linux (gemini-2.5-pro)
    "brexp_infra/session-2025-10-31T07-06-d83802b6.json": (2, 0, 0, 1, 0),
    # third round (fidelity3): Codex 0.46, macOS: 9 of the 11 failures are outputs 'failed in sandbox: ...'
    # (no exit code; the command was killed or refused by the sandbox), one an exit code 127, one 1
    "bumpy-croc_ai-trading-bot/rollout-2025-10-17T22-40-02-0199f41d-9079-7662-ba8d-eff8c75f8a7a.jsonl": (
        40,
        0,
        0,
        11,
        0,
    ),
    # Codex 0.58 under WSL (a Windows drive, /mnt/d/...): exit codes in the outputs' JSON metadata
    "MoonLadderStudios_MoonMind/rollout-2025-11-13T18-21-11-019a802a-aab1-7c31-9831-d2510c7a74a2.jsonl": (
        42,
        0,
        0,
        7,
        0,
    ),
    # fourth round (realsess): Claude Code 2.1.81 and 2.1.97 on Linux (omarchy): a subagent each (.meta.json
    # beside it), 13 and 5 failures, 3 and 2 of them refused
    "4thehalibit_omarchy-backup/44ef5cbf-9cc3-4f7b-ac40-337a4d39713b.jsonl": (26, 13, 0, 13, 0),
    "4thehalibit_omarchy-backup/8c880a68-969b-4b92-8733-a4927179d072.jsonl": (16, 10, 0, 5, 0),
    # a subagent file whose session file was not committed: read on its own, its calls at the top (realcount
    # nested them all once: its records are all isSidechain, as a 1.0.x inline subagent's are)
    "4thehalibit_omarchy-backup/6c7ec02b-03cc-41ca-a80f-09763e985c4d/subagents/agent-aa13521ec9928da7d.jsonl": (
        8,
        0,
        0,
        0,
        0,
    ),
    # 2.1.39 (macOS), the same: 7-hex agent id, no .meta.json
    "SudarshanVK_dotfiles/939c399e-4c74-4297-8c69-a5471ed8d0ea/subagents/agent-a14b0d4.jsonl": (
        16,
        0,
        0,
        0,
        0,
    ),
    # 2.1.123 on macOS driving a local model (unsloth/Qwen3-Coder-Next): refusals
    "SudarshanVK_dotfiles/737c59a9-7c54-4e14-82fa-78d9389ebc2b.jsonl": (2, 0, 0, 1, 0),
    "SudarshanVK_dotfiles/10344076-6ae9-48df-83e0-6e83a3efbda1.jsonl": (10, 0, 0, 5, 0),
    # 2.1.145 and 2.1.150 on macOS (claude-opus-4-7; a subagent with .meta.json)
    "JamesTiberiusKirk_dotsv2/74f505ae-fa88-4fed-8eea-2a85cb5d4c3e.jsonl": (2, 0, 0, 2, 0),
    "JamesTiberiusKirk_dotsv2/bbcc8ddc-b6cc-49f8-9a69-2da4f470d270.jsonl": (12, 11, 0, 0, 0),
    # 2.1.39 on macOS, a project path with a dot and a space
    "K3RN-LABS_k3rn.labs/9d1e3b54-8190-40f1-85c2-90278f98b365.jsonl": (4, 0, 0, 0, 0),
    # Codex 0.40 in VS Code on Windows (codex_vscode, c:\\Users paths): commands the user refused
    "Python-AI-Solutions_agentic-neurodata-conversion/rollout-2025-09-26T19-38-50-0199865a-ee71-7ae3-b232-87583b038e9f.jsonl": (
        4,
        0,
        0,
        3,
        0,
    ),
    "Python-AI-Solutions_agentic-neurodata-conversion/rollout-2025-09-26T20-11-25-01998678-c228-73e1-86d1-ff72b4845b64.jsonl": (
        3,
        0,
        0,
        2,
        0,
    ),
    # the legacy layout (bare header, record_type state) written in September 2025 on Windows: 4 failures
    "Elektriker-Edgar_PV-Projekt/rollout-2025-09-24T02-55-32-89fd76e1-3371-41a0-9ae3-12e5b8f999e8.jsonl": (
        4,
        0,
        0,
        4,
        0,
    ),
    # 0.94, 0.98 and 0.116 (Linux, macOS)
    "EdouardZemb_test-framework/rollout-2026-02-04T20-56-42-019c2a3a-7de1-7c11-8099-326909cfa51a.jsonl": (
        8,
        0,
        0,
        1,
        0,
    ),
    "493-Property-Estimator_Capstone-Test-Repo/rollout-2026-03-10T16-47-20-019cd9ee-ed46-7d43-8386-4242ad7cd2f0.jsonl": (
        3,
        0,
        0,
        1,
        0,
    ),
    "DimiCheck_dimicheck4/rollout-2026-03-23T17-24-31-019d19cb-ada7-76c3-89ac-d5e596fdb68d.jsonl": (
        19,
        0,
        1,
        1,
        0,
    ),
    # 0.139 codex-tui on Linux: a process left running (never polled to its end); three turns aborted then
    # rolled back (thread_rolled_back) and no call at all
    "Hiroya20040928_unitree-A1/rollout-2026-06-10T21-29-17-019eb182-25a9-7f12-b036-4cd105c211d8.jsonl": (
        21,
        0,
        1,
        8,
        0,
    ),
    "Hiroya20040928_unitree-A1/rollout-2026-06-11T17-03-44-019eb5b5-66c6-7db2-85a9-9eb7652633cb.jsonl": (
        0,
        0,
        0,
        0,
        0,
    ),
    # Gemini CLI: JSONL of April 2026 (gemini-3-flash-preview; 2 calls cancelled) and JSON of February 2026
    "AnthonyontheHub_TP-Tutor/session-2026-04-24T23-16-c8b2cbd9.jsonl": (3, 0, 0, 2, 0),
    "Ju-l-e-s_Myflix/session-2026-02-23T00-50-31b83e3d.json": (3, 0, 0, 0, 0),
    "Ju-l-e-s_Myflix/session-2026-02-23T00-55-233c8b2b.json": (8, 0, 0, 1, 0),
    # Claude Code 1.0.89 on Linux: f5a50440 resumes 05305169, repeating its records (some with their
    # uuids, some with new uuids and its own session id, all at one timestamp); each file's first 100 lines
    "SWORDIntel_claude-backups/05305169-1775-4375-9db4-c1cd7548b644.jsonl": (31, 0, 0, 1, 0),
    "SWORDIntel_claude-backups/f5a50440-d781-43e6-a0df-6150624a9716.jsonl": (32, 0, 1, 1, 0),
    # 2.0.76 on macOS: the first of three Task calls interrupted, its agent's file (beside the session, 12
    # calls) named by no result; realcount left it out (27 calls)
    "patleeman_dotfiles/616493b2-b673-404e-a5ee-307012919a3f.jsonl": (39, 18, 0, 1, 0),
    # 2.0.76: 'This command requires approval' (a command refused where nobody can approve it)
    "patleeman_dotfiles/8b18abbc-ea7f-4744-a7aa-0d2c5ee9c805.jsonl": (1, 0, 0, 1, 0),
}

# folder -> the same figures for the folder opened whole (realcount.count_folder: a call once, however
# many of its session files hold it), where they are not the sum of its files'
PINNED_FOLDERS = {
    # the 31 calls of 05305169 are repeated by f5a50440: 32 calls ran, not 63 (the copies written with
    # new uuids were shown twice: 44)
    "SWORDIntel_claude-backups": (32, 0, 1, 1, 0),
    # the two spawned threads' rollouts are the parent's nested calls, not sessions of their own
    "h-morishita-esol_devenv": (16, 10, 0, 1, 0),
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


def _a_session(path: Path) -> bool:
    """A session file, or a subagent file whose session file is not there (it is read on its own): a
    2.0.x agent file beside its session (the session id of its first record) is the session's."""
    if path.suffix not in (".jsonl", ".json") or path.name.endswith(".meta.json"):
        return False
    if "subagents" in path.parts:
        return not path.parent.parent.with_suffix(".jsonl").is_file()
    if path.name.startswith("agent-"):
        first = json.loads(path.read_bytes().split(b"\n", 1)[0])
        return not (path.parent / f"{first.get('sessionId')}.jsonl").is_file()
    return True


def test_every_session_file_of_the_fixtures_is_pinned():
    sessions = {str(p.relative_to(REAL)) for p in REAL.rglob("*") if p.is_file() and _a_session(p)}
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


@pytest.mark.parametrize("name", sorted(PINNED_FOLDERS))
def test_a_folder_opened_whole_counts_as_the_independent_count_does(name):
    """Its sessions read as one set (a resumed session's repeats, spawned threads): each call once."""
    counted = count_folder(REAL / name)
    assert (counted.calls, counted.nested, counted.unanswered, counted.errors, counted.orphans) == (
        PINNED_FOLDERS[name]
    )
    assert inspector_figures(REAL / name) == PINNED_FOLDERS[name]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_refused_and_interrupted_calls_are_told_apart_as_the_independent_count_does(name):
    """Of the calls that ended badly, the refused (denied) and the interrupted (canceled) ones."""
    counted = count(REAL / name)
    store = CallStore(keep_payloads=False)
    load([str(REAL / name)], store)
    store.clock = store.end_clock()
    states = session_stats(store, store.clock.now(), None)["states"]
    assert (states["denied"], states["canceled"]) == (counted.denied, counted.canceled)


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
