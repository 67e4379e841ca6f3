"""The renderers stay usable without Textual (``inspector dump`` reuses them)."""

from __future__ import annotations

import subprocess
import sys


def test_render_package_does_not_import_textual():
    code = (
        "import sys, inspector.ui.render as r; r.warm_up(); "
        "print(','.join(m for m in sys.modules if m.split('.')[0] in ('textual', 'livekit')))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""
