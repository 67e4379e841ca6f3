"""Detecting a file's format imports the sniffers only; a format's reader is imported when its file is read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inspector import protocols
from inspector.protocols import rap
from inspector.protocols.sniffers import rap as rap_sniffer

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# The reader packages the registry keeps apart from their sniffers (their import is what detection spares).
READERS = {name: f"inspector.protocols.{name}" for name in protocols.SNIFFERS}

CHECK = """
import json, sys
from inspector import protocols
found = protocols.detect(sys.argv[1]).name
print(json.dumps([found, sorted(m for m in {readers} if m in sys.modules)]))
"""


def _detected_with_readers(path: Path) -> tuple[str, list[str]]:
    proc = subprocess.run(
        [sys.executable, "-c", CHECK.format(readers=sorted(READERS.values())), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    name, imported = json.loads(proc.stdout)
    return name, imported


# A file of each format the fixtures do not hold (written by the test).
WRITTEN = {
    "alicia": '{"type": 1, "stanzaId": 7, "body": {"text": "hi"}}\n',
    "lmkit": '{"Id": "c1", "Name": "search", "ArgumentsJson": "{}"}\n',
    "rap": '{"operation": "search", "id": "call_1", "callback_url": "https://agent.example/cb", "arguments": {}}\n',
    "recording": '{"format": "inspector-recording", "version": 1, "created": "2026-01-01T00:00:00Z"}\n',
}


def _fixture_of(name: str, folder: Path) -> Path:
    if name in WRITTEN:
        path = folder / f"{name}.jsonl"
        path.write_text(WRITTEN[name], encoding="utf-8")
        return path
    for path in sorted(FIXTURES.rglob("*")):
        if path.is_file():
            try:
                if protocols.detect(str(path)).name == name:
                    return path
            except protocols.UnknownFormat:
                continue
    pytest.skip(f"no fixture of format {name}")


@pytest.mark.parametrize("name", sorted(READERS))
def test_detection_imports_only_the_reader_of_the_format_found(name: str, tmp_path: Path) -> None:
    found, imported = _detected_with_readers(_fixture_of(name, tmp_path))
    assert found == name
    expected = {READERS[name]} if name in READERS else set()
    if name == "recording":
        expected.add(READERS["alicia"])  # a recording's reader decodes Alicia packets
    assert set(imported) == expected


@pytest.mark.parametrize("name", sorted(protocols.SNIFFERS))
def test_a_format_sniffs_with_its_sniffer(name: str) -> None:
    assert protocols.get(name).sniff is protocols._sniffer(name)


def test_rap_sniffer_knows_every_kind_the_reader_decodes() -> None:
    assert frozenset(rap._DECODERS) == rap_sniffer.KINDS


CLAUDE = "inspector.protocols.claude"
STATS = """
import json, sys
from inspector.cli import main
main(["stats", "--json", sys.argv[1]])
sys.stdout.flush()
print(json.dumps(sorted(m for m in {readers} if m in sys.modules)), file=sys.stderr)
"""


@pytest.mark.parametrize("name", ["codex", "gemini"])
def test_stats_of_another_format_imports_no_claude_reader(name: str, tmp_path: Path) -> None:
    """The whole headless command, not detection alone: reading a Codex rollout or a Gemini session and
    its figures import the Claude Code reader nowhere (its import is a fifth of the start-up)."""
    path = _fixture_of(name, tmp_path)
    proc = subprocess.run(
        [sys.executable, "-c", STATS.format(readers=sorted({*READERS.values(), CLAUDE})), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(proc.stdout)["format"] == name, proc.stderr
    assert json.loads(proc.stderr.strip().splitlines()[-1]) == [READERS[name]]
