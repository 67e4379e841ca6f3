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
