"""A resumed Claude Code session whose file repeats the earlier session's records with new uuids and its
own session id (Claude Code 1.0.89 on Linux, SWORDIntel/claude-backups: f5a50440 repeats the 80 calls of
05305169, 61 of them under new uuids, all at one timestamp). Opened together (a project folder), each
call shows once: a request another file of the set made and answered with the same input is skipped,
and so is its same answer. The folder showed 1,765 calls where 1,704 ran. Each file alone still shows
everything it holds; realcount's folder count agrees (a call is its id, counted once)."""

from __future__ import annotations

import copy

from claude_records_factory import call, record, write
from realcount import count, count_folder

from inspector.model import CallStore
from inspector.model.stats import session_stats
from inspector.sources.files import load

EARLIER = "0530516a-0000-4000-8000-000000000001"
LATER = "f5a50440-0000-4000-8000-000000000002"


def rewritten(records: list[dict], session: str, stamp: str) -> list[dict]:
    """The records again as 1.0.89 wrote them into the resuming file: new uuids (chained), its session id,
    one timestamp."""
    out, parent = [], None
    for number, original in enumerate(records):
        again = copy.deepcopy(original)
        again.update(sessionId=session, timestamp=stamp, parentUuid=parent)
        again["uuid"] = parent = f"{session[:8]}-0000-4000-8000-{number:012d}"
        out.append(again)
    return out


def conversation(folder, *, left_open: bool = False):
    """The earlier session (three calls, the last one failing; with ``left_open`` the third unanswered)
    and the later one repeating them, then making a call of its own."""
    earlier = [record("user", "look around", sessionId=EARLIER)]
    earlier += call("toolu_a", "Bash", {"command": "ls"}, sessionId=EARLIER)
    earlier += call("toolu_b", "Read", {"file_path": "/w/x"}, "text", sessionId=EARLIER)
    third = call("toolu_c", "Bash", {"command": "false"}, "Exit code 1", is_error=True, sessionId=EARLIER)
    earlier += third[:1] if left_open else third
    copies = rewritten(earlier if not left_open else [*earlier, third[1]], LATER, "2025-08-24T19:13:45.029Z")
    later = [*copies, record("user", "go on", sessionId=LATER)]
    later += call("toolu_d", "Bash", {"command": "pwd"}, sessionId=LATER)
    write(folder / f"{EARLIER}.jsonl", earlier)
    write(folder / f"{LATER}.jsonl", later)
    return folder / f"{EARLIER}.jsonl", folder / f"{LATER}.jsonl"


def figures(paths) -> tuple[int, int, int, int]:
    store = CallStore()
    load([str(p) for p in paths], store)
    stats = session_stats(store, store.end_clock().now(), None)
    states = stats["states"]
    bad = states["failed"] + states["timed_out"] + states["canceled"] + states["denied"]
    assert not store.malformed and store.duplicate_results == 0 and stats["protocol_violations"] == 0
    return stats["calls"], states["pending"] + states["overdue"], bad, stats["orphan_results"]


def test_a_resume_written_with_new_uuids_shows_each_call_once_in_either_order(tmp_path):
    earlier, later = conversation(tmp_path)
    for paths in ([earlier, later], [later, earlier], [tmp_path]):
        assert figures(paths) == (4, 0, 1, 0), paths
    folder = count_folder(tmp_path)
    assert (folder.calls, folder.unanswered, folder.errors, folder.orphans) == (4, 0, 1, 0)


def test_each_file_alone_shows_every_call_it_holds(tmp_path):
    earlier, later = conversation(tmp_path)
    assert figures([earlier]) == (3, 0, 1, 0)
    assert figures([later]) == (4, 0, 1, 0)
    assert (count(later).calls, count(earlier).calls) == (4, 3)


def test_a_call_the_earlier_file_left_open_is_answered_in_the_later_one(tmp_path):
    """The earlier file ends before the third call's answer; the later one holds both: the request is
    shown again there, answered (its answer belongs to that file's copy), and the earlier one's stays
    unanswered; nothing is taken for an orphan."""
    earlier, later = conversation(tmp_path, left_open=True)
    calls, unanswered, bad, orphans = figures([earlier, later])
    assert (calls, unanswered, bad, orphans) == (5, 1, 1, 0)
