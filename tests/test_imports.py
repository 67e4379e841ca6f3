"""The model, the protocols and the headless commands never import textual or livekit."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
{body}
heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'livekit', 'aiortc'))
print(','.join(heavy))
"""


def heavy_modules_after(body: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", CHECK.format(body=body)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_model_and_protocols_import_neither_textual_nor_livekit():
    body = "\n".join(
        [
            "import inspector.model, inspector.model.stats, inspector.model.diff, inspector.model.details",
            "import inspector.sources.session",
            "from inspector import protocols",
            "for name in protocols.FORMAT_NAMES: protocols.get(name)",
        ]
    )
    assert heavy_modules_after(body) == ""


def test_help_and_headless_commands_stay_light():
    body = "\n".join(
        [
            "from inspector.cli import build_parser",
            "build_parser()",
            "import inspector.cli.headless, inspector.calltext",
        ]
    )
    assert heavy_modules_after(body) == ""


def test_stats_and_dump_of_a_transcript_build_no_detail_and_import_no_detail_types(tmp_path):
    """A read that keeps no details (stats, dump --json) imports neither the detail types nor the diff
    code (inspector.model.details and model.diff, which imported difflib: a tenth of a headless command's start-up);
    the detail view's read still builds them."""
    import json

    session = tmp_path / "session.jsonl"
    records = [
        {
            "type": "assistant",
            "sessionId": "s",
            "uuid": "u1",
            "timestamp": "2025-06-01T10:00:00.000Z",
            "message": {
                "content": [
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "Edit",
                        "input": {"file_path": "/a", "old_string": "x", "new_string": "y"},
                    }
                ]
            },
        },
        {
            "type": "user",
            "sessionId": "s",
            "uuid": "u2",
            "timestamp": "2025-06-01T10:00:01.000Z",
            "message": {"content": [{"type": "tool_result", "tool_use_id": "t1", "content": "done"}]},
            "toolUseResult": {
                "filePath": "/a",
                "structuredPatch": [
                    {"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["-x", "+y"]}
                ],
            },
        },
    ]
    session.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    loaded = "print(sorted(m for m in ('inspector.model.details', 'inspector.model.diff', 'difflib') if m in sys.modules))"
    for command in (["stats"], ["stats", "--json"], ["dump", "--json"], ["dump"]):
        code = f"import sys\nfrom inspector.cli import main\nmain({command + [str(session)]!r})\n{loaded}\n"
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.splitlines()[-1] == "[]", (command, proc.stdout)
        assert "Edit" in proc.stdout
    detailed = (
        f"import sys\nfrom inspector.protocols import claude\nevents = list(claude.read({str(session)!r}))\n"
        "print(type(events[-1].details).__name__)\n" + loaded + "\n"
    )
    proc = subprocess.run([sys.executable, "-c", detailed], capture_output=True, text=True, timeout=60)
    assert proc.stdout.splitlines() == [
        "PatchDetail",
        "['inspector.model.details', 'inspector.model.diff']",
    ]
