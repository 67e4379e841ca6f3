"""Every place the inspector opens a path, with what is not a regular file there (issue 25 §1).

``PLACES`` is the one table of those places: each entry puts the path under test (a FIFO nobody writes, a
symlink to /dev/zero, a folder named like the file, a dangling symlink, a file whose read fails) where
the app would open a file, runs the app's own code on it in a thread, and checks the outcome: it
returns within seconds (nothing blocks, nothing reads a device forever), the user is told the path and
what it is where the path was named, and whatever else was there is still read.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile_io import SPECIAL_KINDS, claude_pair, jsonl, make_special, names_kind, run_cli, within

from inspector.answer import rules
from inspector.answer.stanzas import STATE_FILE, StanzaCounter
from inspector.config import load_config, write_default_config
from inspector.live import hub_tools
from inspector.live.errors import SetupError
from inspector.model.details import PersistedDetail
from inspector.model.events import Malformed, RawRef
from inspector.protocols import codex, gemini
from inspector.protocols.common.nesting import nest_files
from inspector.protocols.recording import RecordingWriter
from inspector.sources.agent_sessions import find_codex, find_gemini
from inspector.sources.claude_sessions import find_sessions
from inspector.sources.files import open_paths
from inspector.sources.payloads import FilePayloads
from inspector.sources.session import UnusableInput
from inspector.sources.tail import FileTail
from inspector.themes import ThemeError, load_theme
from inspector.ui.export import export_path, write_export

BOUND_S = 10
ROOT_READS_ALL = os.geteuid() == 0

Place = Callable[[Path, str], None]
PLACES: dict[str, Place] = {}


def place(fn: Place) -> Place:
    PLACES[fn.__name__] = fn
    return fn


def good_session(path: Path, call_id: str = "g1") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return jsonl(path, claude_pair(call_id, {"command": "ls"}))


def ids_of(out: str) -> set[str]:
    return {json.loads(line).get("id") for line in out.splitlines() if line.startswith("{")}


# -- the places --------------------------------------------------------------------------------------
@place
def session_file_in_headless_commands(tmp: Path, kind: str) -> None:
    bad = make_special(tmp / "s.jsonl", kind)
    for command in (["dump"], ["dump", "--json"], ["stats"], ["check"], ["dump", "--format", "claude"]):
        code, out, err = run_cli(*command, str(bad))
        assert code == 2 and "s.jsonl" in err and names_kind(err, kind), (command, err)
        assert len(err.strip().splitlines()) == 1 and not out


@place
def session_in_a_folder_for_dump_and_stats(tmp: Path, kind: str) -> None:
    good_session(tmp / "p" / "good.jsonl")
    make_special(tmp / "p" / "bad.jsonl", kind)
    code, out, err = run_cli("dump", "--json", str(tmp / "p"))
    assert code != 2 and ids_of(out) == {"g1"}, err
    if kind != "folder":  # a folder is a folder there, not a session
        assert "bad.jsonl" in err and names_kind(err, kind), err
    code, out, err = run_cli("stats", "--json", str(tmp / "p"))
    assert code != 2 and json.loads(out)["calls"] == 1, err


@place
def session_opened_by_the_ui(tmp: Path, kind: str) -> None:
    bad = make_special(tmp / "s.jsonl", kind)
    with pytest.raises(UnusableInput) as caught:
        open_paths([str(bad)])
    assert "s.jsonl" in str(caught.value) and names_kind(str(caught.value), kind)


@place
def followed_file_replaced(tmp: Path, kind: str) -> None:
    path = good_session(tmp / "s.jsonl")
    tail = FileTail.at_end(str(path))
    assert tail.read().lines == []
    os.rename(path, tmp / "moved.jsonl")
    make_special(path, kind)
    chunk = tail.read()
    assert chunk.missing and not chunk.lines and names_kind(chunk.problem, kind), chunk
    assert tail.read().missing  # and again: tried each time, never blocking
    if kind in ("fifo", "dev_zero", "dangling"):
        path.unlink()
    elif kind == "folder":
        path.rmdir()
    else:
        path.unlink()
    good_session(path, "g2")
    back = tail.read()
    assert back.restarted and not back.missing and len(back.lines) == 2


@place
def followed_from_the_start(tmp: Path, kind: str) -> None:
    bad = make_special(tmp / "s.jsonl", kind)
    with pytest.raises(OSError) as caught:
        FileTail.at_end(str(bad))
    assert names_kind(str(caught.value), kind)
    chunk = FileTail(str(bad)).read()
    assert chunk.missing and names_kind(chunk.problem, kind)


@place
def claude_session_browser(tmp: Path, kind: str) -> None:
    good_session(tmp / "p" / "good.jsonl")
    make_special(tmp / "p" / "bad.jsonl", kind)
    found = {Path(info.path).name: info for info in find_sessions(str(tmp))}
    assert found["good.jsonl"].tool_calls == 1
    if "bad.jsonl" in found:
        assert found["bad.jsonl"].tool_calls is None


@place
def codex_session_browser(tmp: Path, kind: str) -> None:
    make_special(tmp / "2026" / "11" / "01" / "rollout-2026-11-01T10-00-00-x.jsonl", kind)
    for info in find_codex(str(tmp)):
        assert info.tool_calls is None


@place
def gemini_session_browser(tmp: Path, kind: str) -> None:
    make_special(tmp / "proj" / "chats" / "session-2026-11-01T10-00-x.json", kind)
    for info in find_gemini(str(tmp)):
        assert info.tool_calls is None


@place
def folder_walk_beside_orphaned_subagents_and_gemini_chats(tmp: Path, kind: str) -> None:
    """sources.folders: a project's session heads are read to tell whether one resumes a session whose
    file is gone (its subagents then shown on their own); a Gemini chat in the same folder."""
    good_session(tmp / "p" / "gone" / "subagents" / "agent-a1.jsonl", "n1")
    make_special(tmp / "p" / "bad.jsonl", kind)
    make_special(tmp / "p" / "h" / "chats" / "session-2026-11-01T10-00-x.json", kind)
    code, out, err = run_cli("dump", "--json", str(tmp / "p"))
    assert code != 2 and ids_of(out) == {"n1"}, err
    assert "gone" in err and "missing" in err, err


@place
def claude_subagent_file(tmp: Path, kind: str) -> None:
    session = good_session(tmp / "s.jsonl")
    make_special(tmp / "s" / "subagents" / "agent-a1.jsonl", kind)
    code, out, err = run_cli("dump", "--json", str(session))
    assert code != 2 and "g1" in ids_of(out), err
    code, _, err = run_cli("check", str(session))
    assert code != 2, err


@place
def claude_subagent_meta_file(tmp: Path, kind: str) -> None:
    session = good_session(tmp / "s.jsonl")
    good_session(tmp / "s" / "subagents" / "agent-a1.jsonl", "n1")
    make_special(tmp / "s" / "subagents" / "agent-a1.meta.json", kind)
    code, out, err = run_cli("dump", "--json", str(session))
    assert code != 2 and "g1" in ids_of(out), err
    code, _, err = run_cli("check", str(session))
    assert code != 2, err


@place
def claude_tool_results_file(tmp: Path, kind: str) -> None:
    bad = make_special(tmp / "s" / "tool-results" / "x1.txt", kind)
    text, size, problem = PersistedDetail("x1.txt", str(bad)).read(100)
    assert text is None and size == 0 and problem
    if kind != "dangling":
        assert names_kind(problem, kind), problem


@place
def codex_and_gemini_nested_files(tmp: Path, kind: str) -> None:
    for name, read in (("codex", codex.read), ("gemini", gemini.read)):
        bad = make_special(tmp / name / "child.jsonl", kind)
        events = list(nest_files([(str(bad), "c1")], read, set(), "a thread"))
        assert len(events) == 1 and isinstance(events[0], Malformed)
        assert names_kind(events[0].reason, kind), events[0].reason


@place
def recording_written(tmp: Path, kind: str) -> None:
    if kind == "unreadable" and ROOT_READS_ALL:
        return  # a read that fails is not a place to write to (and root writes mode-000 files)
    bad = make_special(tmp / "rec.jsonl", kind)
    if kind == "dangling":  # the user's own symlink: followed, the file it names is created
        RecordingWriter(str(bad), {"room": "r"}).close()
        return
    with pytest.raises(OSError) as caught:
        RecordingWriter(str(bad), {"room": "r"})
    assert names_kind(str(caught.value), kind)


@place
def config_file(tmp: Path, kind: str) -> None:
    bad = make_special(tmp / "config.toml", kind)
    config, notes = load_config(str(bad))
    assert config.theme == load_config(str(tmp / "none.toml"))[0].theme
    if kind != "dangling":  # a missing config is the defaults, without a word
        assert len(notes) == 1 and str(bad) in notes[0] and names_kind(notes[0], kind), notes
    write_default_config(str(bad))  # never written through what is there


@place
def rules_file(tmp: Path, kind: str) -> None:
    bad = make_special(tmp / "rules.toml", kind)
    with pytest.raises(rules.RulesError) as caught:
        rules.load(str(bad))
    assert names_kind(str(caught.value), kind), caught.value


@place
def theme_file(tmp: Path, kind: str) -> None:
    bad = make_special(tmp / "t.toml", kind)
    with pytest.raises(ThemeError):
        load_theme(str(bad))


@place
def hub_tools_file(tmp: Path, kind: str) -> None:
    bad = make_special(tmp / "tools.toml", kind)
    with pytest.raises(SetupError) as caught:
        hub_tools.load(str(bad))
    assert names_kind(str(caught.value), kind), caught.value


@place
def export_target(tmp: Path, kind: str) -> None:
    clock = time.time()
    planted = Path(export_path(str(tmp), "call", "json", clock))
    make_special(planted, kind)
    written = write_export(str(tmp), "call", "json", "{}\n", clock)
    assert written != str(planted) and Path(written).read_text() == "{}\n"
    assert not (tmp / "gone-away-target").exists()  # a dangling symlink was not written through


@place
def record_read_again_when_shown(tmp: Path, kind: str) -> None:
    bad = make_special(tmp / "s.jsonl", kind)
    with pytest.raises(OSError) as caught:
        RawRef(str(bad), "line 1", offset=0, length=10).read()
    assert names_kind(str(caught.value), kind)
    assert FilePayloads()._bytes(RawRef(str(bad), "line 1", offset=0, length=10)) == b""


@place
def answer_stanza_state(tmp: Path, kind: str) -> None:
    make_special(tmp / STATE_FILE, kind)
    counter = StanzaCounter(lambda: 1_767_225_600.0, tmp)
    stanza = counter.reserve("c")
    counter.commit("c", stanza)
    assert counter.peek("c") > stanza - 1


# -- the walk ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", SPECIAL_KINDS)
@pytest.mark.parametrize("where", sorted(PLACES))
def test_every_place_that_opens_a_path(tmp_path, where, kind):
    if kind == "unreadable" and ROOT_READS_ALL and not os.path.exists("/proc/self/mem"):
        pytest.skip("root reads mode-000 files and there is no /proc/self/mem here")
    within(BOUND_S, lambda: PLACES[where](tmp_path, kind), tmp_path)


def test_the_table_names_every_kind_of_place():
    assert len(PLACES) >= 18


# Opens that are not a user's path: a temp file the inspector made itself, /proc, /dev/null.
OWN_FILES = {
    "inspector/userpath.py",
    "inspector/live/supervise.py",
    "inspector/live/netcheck.py",
    "inspector/ui/hangup.py",
    "inspector/cli/__init__.py",
}


def test_no_path_is_opened_but_through_userpath():
    """The class, not the file: a new ``open(...)`` anywhere else would bypass the checks above."""
    import ast

    package = Path(__file__).resolve().parents[2] / "inspector"
    found = []
    for path in sorted(package.rglob("*.py")):
        where = str(path.relative_to(package.parent))
        if where in OWN_FILES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            owner = (
                func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""
            )
            if (name == "open" and owner in ("", "os", "io")) or name in ("read_bytes", "read_text"):
                found.append(f"{where}:{node.lineno}")
    assert not found, found
