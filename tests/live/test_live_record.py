"""``--record`` refusals: a directory, a place that cannot be written, /dev/full, a file that is not a
recording, another room's recording; ``--append`` for the same room. All before anything connects."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from inspector.live import record_target
from inspector.live.errors import SetupError

ENV = {
    **os.environ,
    "LIVEKIT_API_KEY": "devkey-for-tests",
    "LIVEKIT_API_SECRET": "a-secret-of-32-characters-or-so!",
}


def live(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "inspector",
            "live",
            "--no-ui",
            "--url",
            "ws://127.0.0.1:9",
            "--room",
            "r1",
            "--give-up-after",
            "0",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=ENV,
    )


def recording(path, room: str) -> None:
    header = {"format": "inspector-recording", "version": 1, "room": room}
    path.write_text(json.dumps(header) + "\n")


@pytest.mark.parametrize("where", ["dir", "dev_full", "not_a_recording"])
def test_refused_at_start_with_one_line_and_exit_2(tmp_path, where):
    target = {"dir": str(tmp_path), "dev_full": "/dev/full", "not_a_recording": str(tmp_path / "notes.txt")}[
        where
    ]
    if where == "not_a_recording":
        (tmp_path / "notes.txt").write_text("my notes\n")
    if where == "dev_full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    proc = live("--record", target)
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.startswith("inspector live:")]
    assert len(lines) == 1 and "--record" in lines[0] and "Traceback" not in proc.stderr
    assert "connecting" not in proc.stdout  # refused before joining
    if where == "not_a_recording":
        assert (tmp_path / "notes.txt").read_text() == "my notes\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_refused(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    proc = live("--record", str(folder / "x.jsonl"))
    assert proc.returncode == 2 and "cannot write there" in proc.stderr


def test_a_read_only_filesystem_is_refused_even_for_root(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=16k", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a read-only filesystem here")
    try:
        proc = live("--record", str(folder / "x.jsonl"))
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "cannot write there (Read-only file system)" in proc.stderr


def test_another_rooms_recording_gets_a_new_file_beside_it(tmp_path):
    path = tmp_path / "rec.jsonl"
    recording(path, "other-room")
    proc = live("--record", str(path))
    assert f"recording to {tmp_path / 'rec-2.jsonl'} instead" in proc.stderr
    assert path.read_text().count("\n") == 1  # untouched
    header = json.loads((tmp_path / "rec-2.jsonl").read_text().splitlines()[0])
    assert header["room"] == "r1"


def test_the_same_room_continues_only_with_append(tmp_path):
    path = tmp_path / "rec.jsonl"
    recording(path, "r1")
    assert record_target.choose(str(path), "r1", append=True) == (str(path), None)
    new, note = record_target.choose(str(path), "r1", append=False)
    assert new == str(tmp_path / "rec-2.jsonl") and "--append continues it" in note
    with pytest.raises(SetupError):
        record_target.choose(str(tmp_path), "r1", append=True)
