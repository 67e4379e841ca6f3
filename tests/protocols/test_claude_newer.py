"""Claude Code's newer files on real records: externalised outputs, resumed sessions, compaction, nesting."""

from __future__ import annotations

import claude_rewrites as rw
import pytest
from rich.console import Console

from inspector.model import Call, CallStore, Marker, Message
from inspector.model.details import BashDetail, PersistedDetail
from inspector.sources.claude_sessions import find_sessions
from inspector.sources.files import load
from inspector.sources.session import UnusableInput, hydrate
from inspector.ui.render.call_view import render_item
from inspector.ui.render.result_views import render_result_body
from inspector.ui.render.theme import RenderTheme
from inspector.ui.view import RowView

pytestmark = pytest.mark.skipif(not rw.available(), reason="../shared/corpus/claude is not present")


def loaded(*paths, keep_payloads: bool = True) -> CallStore:
    store = CallStore(keep_payloads=keep_payloads)
    load([str(p) for p in paths], store)
    return store


def calls_by_id(store: CallStore) -> dict:
    return {call.call_id: call for call in store.all_calls()}


def shown(result, width: int = 120, full_text: bool = False) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(render_result_body(result, width=width, theme=RenderTheme(), full_text=full_text))
    return console.export_text()


# -- externalised outputs -----------------------------------------------------------------------------


@pytest.mark.parametrize("keep_payloads", [True, False])
def test_an_externalised_output_is_read_from_tool_results_beside_the_session(tmp_path, keep_payloads):
    path, full = rw.with_persisted_outputs(tmp_path / "project")
    store = loaded(path, keep_payloads=keep_payloads)
    assert store.malformed == [] and store.orphans == []
    calls = calls_by_id(store)
    for call_id, local in (
        (rw.MAIN_SAVED, tmp_path / "project" / rw.SID / "tool-results" / f"{rw.MAIN_SAVED}.txt"),
        (rw.AGENT_SAVED, tmp_path / "project" / rw.SID / "tool-results" / rw.AGENT_SAVED_NAME),
    ):
        _, results = hydrate(calls[call_id])
        detail = results[0].details
        assert isinstance(detail, PersistedDetail), call_id
        assert detail.local == str(local)  # the stub's path is another machine's: only its name is used
        assert detail.read(1 << 20) == (full[call_id], len(full[call_id].encode()), "")
        text = shown(results[0])
        last_line = full[call_id].strip().splitlines()[-1].strip()
        assert last_line[:60] in text and "tool-results/" in text  # beyond the three-line preview
        assert "not here" not in text
    assert calls[rw.AGENT_SAVED].parent.call_id == "toolu_01GmrK6tgdD9D5xD6W5X9UUy"  # alice's Agent call
    _, results = hydrate(calls[rw.MAIN_SAVED])
    assert isinstance(results[0].details.inner, BashDetail)  # the Bash flags are kept beside


def test_a_missing_saved_output_says_so_and_shows_the_preview(tmp_path):
    path, full = rw.with_persisted_outputs(tmp_path / "project")
    _, results = hydrate(calls_by_id(loaded(path))[rw.MISSING])
    detail = results[0].details
    assert isinstance(detail, PersistedDetail)
    assert detail.read(100) == (None, 0, "not found")
    assert detail.size == len(full[rw.MISSING])
    text = " ".join(shown(results[0], width=200).split())
    assert "The full output (" in text and "is not here" in text
    assert f"{rw.ORIGINAL_HOME}/{rw.SID}/tool-results/{rw.MISSING}.txt" in text
    assert "there is no tool-results/" in text
    words = " ".join(full[rw.MISSING].split())
    assert words[:70] in text  # the preview the transcript kept
    assert words[-60:] not in text


def test_nothing_is_read_from_tool_results_while_loading(tmp_path, monkeypatch):
    path, _ = rw.with_persisted_outputs(tmp_path / "project")
    opened = []
    real_open = open

    def watching(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", watching)
    loaded(path)
    assert not [name for name in opened if "tool-results" in name]


# -- compaction -------------------------------------------------------------------------------------


def test_a_compaction_is_one_marker_row_with_its_summary_folded(tmp_path):
    store = loaded(rw.with_compaction(tmp_path / "project"))
    assert store.malformed == []
    markers = [item for item in store.items if isinstance(item, Marker)]
    assert [(m.kind, m.text) for m in markers] == [
        ("compaction", "context compacted (auto, 155,025 tokens before)"),
        ("microcompaction", "context microcompacted (auto, 12,345 tokens saved, 3 tool results cleared)"),
    ]
    compaction, micro = markers
    assert compaction.body == rw.SUMMARY  # folded under the row, not a user message of its own
    assert not any(isinstance(i, Message) and rw.SUMMARY[:40] in i.text for i in store.items)
    assert all(call_id in micro.body for call_id in rw.CLEARED)
    order = [item.call_id if isinstance(item, Call) else item for item in store.items]
    at = order.index(compaction)
    assert order[at - 1] == rw.COMPACT_AFTER or rw.COMPACT_AFTER in order[:at]
    assert order.index(micro) > order.index(rw.MICRO_AFTER)
    assert store.skipped.get("compact summary") == 1


def test_a_summary_without_its_boundary_is_a_marker_of_its_own(tmp_path):
    path = rw.with_compaction(tmp_path / "project")
    lines = [line for line in path.read_text().splitlines() if '"compact_boundary"' not in line]
    path.write_text("\n".join(lines) + "\n")
    markers = [item for item in loaded(path).items if isinstance(item, Marker)]
    assert [(m.kind, m.text, m.body) for m in markers][0] == (
        "compaction",
        "context compacted (summary)",
        rw.SUMMARY,
    )


def test_marker_rows_render_as_separators_and_stay_when_messages_are_hidden(tmp_path):
    store = loaded(rw.with_compaction(tmp_path / "project"))
    view = RowView(store)
    view.hide_messages = True
    view.rebuild(None)
    shown_markers = [item for item in view.items if isinstance(item, Marker)]
    assert len(shown_markers) == 2
    assert not any(isinstance(i, Message) and not isinstance(i, Marker) for i in view.items)
    detail = Console(width=100, record=True, color_system=None)
    detail.print(render_item(shown_markers[0], width=100, theme=RenderTheme(), now=None))
    text = detail.export_text()
    assert "context compacted (auto, 155,025 tokens before)" in text and "folded" in text
    assert "Primary Request and Intent" in text


# -- resumed sessions --------------------------------------------------------------------------------

ALL_CALLS = 40 + 77  # the real session: its own calls and its subagents'


def resume_markers(store: CallStore) -> list[Marker]:
    return [item for item in store.items if isinstance(item, Marker) and item.kind == "resume"]


def test_a_resumed_file_alone_shows_everything_and_marks_where_it_resumes(tmp_path):
    earlier, resumed = rw.with_resume(tmp_path / "project")
    store = loaded(resumed)
    assert store.malformed == [] and store.orphans == [] and store.duplicate_results == 0
    assert store.call_count == ALL_CALLS
    [marker] = resume_markers(store)
    assert marker.text == f"session resumed: {rw.RESUMED[:8]} continues {rw.SID[:8]}"
    at = store.items.index(marker)
    before = [i for i in store.items[:at] if isinstance(i, Call)]
    after = [i for i in store.items[at:] if isinstance(i, Call)]
    assert {c.group for c in before} == {rw.SID} and {c.group for c in after} == {rw.RESUMED}
    assert isinstance(store.items[at + 1], Message) and store.items[at + 1].text.startswith(
        "Well, the subagents"
    )


@pytest.mark.parametrize("order", ["earlier first", "resumed first", "folder"])
def test_both_files_show_each_call_once(tmp_path, order):
    earlier, resumed = rw.with_resume(tmp_path / "project")
    paths = {
        "earlier first": [earlier, resumed],
        "resumed first": [resumed, earlier],
        "folder": [tmp_path / "project"],
    }[order]
    store = loaded(*paths)
    assert store.malformed == [] and store.orphans == [] and store.duplicate_results == 0
    ids = [call.call_id for call in store.all_calls()]
    assert len(ids) == len(set(ids)) == ALL_CALLS
    assert store.nested_count == 77
    [marker] = resume_markers(store)
    if order != "resumed first":  # the earlier file's records are shown from the earlier file
        repeated = rw.RESUME_AT - sum(1 for line in earlier.read_text().splitlines() if '"uuid"' not in line)
        assert f"({repeated} repeated records shown once, from the earlier file)" in marker.text
        assert rw.SESSION.name in marker.body
        first_of_resumed = store.items.index(marker)
        assert all(c.group == rw.SID for c in store.items[:first_of_resumed] if isinstance(c, Call))


def test_a_folder_without_sessions_is_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(UnusableInput, match="a folder with no Claude Code session .* or Gemini CLI chat"):
        loaded(tmp_path / "empty")


# -- subagents within subagents ---------------------------------------------------------------------


def test_subagents_within_subagents_nest_at_every_depth(tmp_path):
    path, (outer, inner) = rw.with_nested_subagents(tmp_path / "project")
    store = loaded(path)
    assert store.malformed == [] and store.orphans == [] and store.duplicate_results == 0
    calls = calls_by_id(store)
    alice = calls["toolu_01GmrK6tgdD9D5xD6W5X9UUy"]
    assert alice.depth == 0 and calls[outer].parent is alice and calls[outer].depth == 1
    assert calls[inner].parent is calls[outer] and calls[inner].depth == 2
    folder = tmp_path / "project" / rw.SID / "subagents"
    for agent_id, call_id, depth in ((rw.NESTED[0][0], outer, 2), (rw.NESTED[1][0], inner, 3)):
        ids = [
            b["id"] for r in rw.records(folder / f"agent-{agent_id}.jsonl") for b in rw._blocks(r, "tool_use")
        ]
        own = [c for c in calls[call_id].children if isinstance(c, Call)]
        assert [c.call_id for c in own] == ids  # in the order its file holds them (the nested Agent call too)
        assert {c.depth for c in own} == {depth}
    nested_files = [folder / f"agent-{agent_id}.jsonl" for agent_id, _ in rw.NESTED]
    nested_uses = sum(len(rw._blocks(r, "tool_use")) for f in nested_files for r in rw.records(f))
    assert store.call_count == len(calls) == 117 + 1 + nested_uses  # the outer call + the nested files'
    [info] = find_sessions(str(tmp_path / "project"))
    assert info.tool_calls == store.call_count  # the session browser counts them too


def test_parallel_subagents_keep_their_own_calls_in_order(tmp_path):
    store = loaded(rw.copy_session(tmp_path / "project"))
    folder = tmp_path / "project" / rw.SID / "subagents"
    calls = calls_by_id(store)
    for agent_file in sorted(folder.glob("agent-*.jsonl")):
        rows = rw.records(agent_file)
        ids = [b["id"] for r in rows for b in rw._blocks(r, "tool_use")]
        parents = {calls[i].parent.call_id for i in ids}
        assert len(parents) == 1, agent_file.name
        parent = calls[parents.pop()]
        assert [c.call_id for c in parent.children if isinstance(c, Call)] == ids
