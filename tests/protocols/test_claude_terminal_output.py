"""A command's coloured output, as Claude Code keeps it in a tool result, reads as the terminal showed it.

Colours (SGR) and mode switches are dropped; anything that would move the cursor or erase text stays
visible, since hiding what the agent was sent would misreport it.
"""

from __future__ import annotations

from claude_records_factory import call, write
from rich.console import Console

from inspector.model import CallStore, Request, Result
from inspector.model.details import BashDetail, PersistedDetail
from inspector.protocols import claude
from inspector.sources.files import load
from inspector.sources.session import hydrate
from inspector.textsafe import clean
from inspector.ui.render.result_views import render_result_body
from inspector.ui.render.theme import RenderTheme

VITEST = "\x1b[1m\x1b[46m RUN \x1b[49m\x1b[22m \x1b[36mv4.0.18 \x1b[39m\n \x1b[32m✓\x1b[39m test/a.test.js"
PROMPT = "\x1b[?25l\x1b[2K\x1b[1G\x1b[36m?\x1b[39m \x1b[1mUse Turbopack?\x1b[22m › \x1b[4mYes\x1b[24m"


def results(path) -> dict[str, Result]:
    return {e.call_id: e for e in claude.read(str(path)) if isinstance(e, Result)}


def shown(result: Result) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(render_result_body(result, width=120, theme=RenderTheme()))
    return console.export_text()


def test_a_commands_colours_are_dropped_from_its_result_and_its_stdout(tmp_path):
    bash = {"stdout": VITEST, "stderr": "\x1b[31mwarn\x1b[39m", "interrupted": False}
    path = write(
        tmp_path / "s.jsonl",
        [
            *call("t1", "Bash", {"command": "npx vitest run"}, VITEST, structured=bash),
            *call("t2", "Bash", {"command": "npx create-next-app"}, [{"type": "text", "text": PROMPT}]),
            *call("t3", "Bash", {"command": "false"}, "Error: \x1b[31mExit code 1\x1b[0m", is_error=True),
        ],
    )
    found = results(path)
    assert found["t1"].data == " RUN  v4.0.18 \n ✓ test/a.test.js"
    assert isinstance(found["t1"].details, BashDetail)
    assert (found["t1"].details.stdout, found["t1"].details.stderr) == (found["t1"].data, "warn")
    assert "RUN  v4.0.18" in shown(found["t1"]) and "␛" not in shown(found["t1"])
    [block] = found["t2"].data
    assert clean(block["text"]) == "␛[2K␛[1G? Use Turbopack? › Yes"  # the erase and the move stay visible
    assert found["t3"].error_message == "Error: Exit code 1"
    requests = [e for e in claude.read(str(path)) if isinstance(e, Request)]
    assert requests[0].params == {"command": "npx vitest run"}  # what the agent asked for is untouched


def test_the_saved_full_output_reads_without_colours_too(tmp_path):
    stub = (
        "<persisted-output>\nOutput too large (41KB). Full output saved to: "
        "/home/u/.claude/projects/p/s/tool-results/t1.txt\n\nPreview (first 2KB):\n"
        f"{VITEST}\n</persisted-output>"
    )
    path = write(tmp_path / "s.jsonl", [*call("t1", "Bash", {"command": "npx vitest run"}, stub)])
    saved = tmp_path / "s" / "tool-results" / "t1.txt"
    saved.parent.mkdir(parents=True)
    saved.write_text(VITEST + "\n\x1b[32m 12 passed\x1b[39m\n", encoding="utf-8")
    store = CallStore()
    load([str(path)], store)
    _, [result] = hydrate(next(iter(store.all_calls())))
    assert isinstance(result.details, PersistedDetail)
    text = shown(result)
    assert "tool-results/t1.txt" in text and "12 passed" in text and "␛" not in text
    saved.unlink()
    text = shown(result)
    assert "is not here" in text and "RUN  v4.0.18" in text and "␛" not in text  # the preview as well


def test_a_real_session_with_a_coloured_interactive_prompt(corpus):
    path = corpus / "claude" / "d-kimuson-claude-code-viewer" / "fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"
    result = results(path)["toolu_01FNh88T7ThJ4yVfQ9rPVT23"]
    assert isinstance(result.details, BashDetail)
    for text in (result.data, result.details.stdout):
        assert "\x1b[36m" not in text and "\x1b[?25l" not in text
        assert "Would you like your code inside a `src/` directory?" in text
        assert "\x1b[2K" in text  # an erase stays, shown as ␛[2K
