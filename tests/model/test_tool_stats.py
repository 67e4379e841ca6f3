"""Per-tool figures: counts, failures, nearest-rank percentiles, buckets and the sparkline."""

from __future__ import annotations

from factories import make_request, make_result

from inspector.model import CallStore, FakeClock, Outcome
from inspector.model.stats import session_stats
from inspector.model.tool_stats import BUCKET_EDGES_MS, bucket_of, per_tool, sparkline
from inspector.tool_figures import figure_lines


def store_with(latencies: dict[str, list[float]], failed: set[str] = frozenset()) -> CallStore:
    store = CallStore(clock=FakeClock(5000.0))
    n = 0
    for tool, values in latencies.items():
        for ms in values:
            n += 1
            call_id = f"{tool}{n}"
            store.ingest(make_request(call_id, tool, ts=1000.0 + n))
            outcome = Outcome.ERROR if call_id in failed else Outcome.SUCCESS
            store.ingest(make_result(call_id, outcome, ts=1000.0 + n + ms / 1000.0))
    return store


def test_counts_failures_and_percentiles_per_tool():
    store = store_with(
        {"read": [10, 20, 30, 40, 50, 60, 70, 80, 90, 1000], "bash": [500, 700]}, failed={"bash12"}
    )
    store.ingest(make_request("never", "bash", ts=1100.0, timeout_ms=None))
    figures = {f.tool: f for f in per_tool(store.all_calls(), 5000.0)}
    read, bash = figures["read"], figures["bash"]
    assert (read.count, read.failures) == (10, 0)
    assert round(read.p50_ms) == 50 and round(read.p90_ms) == 90 and round(read.max_ms) == 1000
    assert (bash.count, bash.failures) == (3, 1)  # the unanswered call counts, but has no latency
    assert round(bash.p50_ms) == 500 and round(bash.max_ms) == 700
    assert [f.tool for f in per_tool(store.all_calls(), 5000.0)] == ["read", "bash"]


def test_buckets_are_log_spaced_and_cover_everything():
    assert bucket_of(0) == 0 and bucket_of(9.9) == 0 and bucket_of(10) == 1
    assert bucket_of(10**9) == len(BUCKET_EDGES_MS)


def test_sparkline_heights_and_empty_buckets():
    assert sparkline([0, 1, 8, 4]) == " ▁█▄"
    assert sparkline([0, 0]) == "  "
    assert sparkline([1, 1000])[0] != " "  # a single call still shows


def test_session_stats_json_adds_per_tool_and_keeps_its_keys():
    store = store_with({"read": [100, 200], "edit": [3000]})
    figures = session_stats(store, now=5000.0)
    assert figures["tools"] == {"read": 2, "edit": 1} and figures["calls"] == 3
    read = figures["per_tool"]["read"]
    assert read["count"] == 2 and read["failures"] == 0 and read["p50_ms"] == 100.0
    assert read["max_ms"] == 200.0 and sum(read["histogram"]) == 2
    assert len(figures["histogram_buckets"]) == len(read["histogram"])


def test_text_lines_fit_80_columns_and_escape_tool_names():
    store = store_with({"[bold]x" * 20 + "\x1b[31m": [5, 50, 500, 5000, 50000], "t": [1]})
    lines = figure_lines(per_tool(store.all_calls(), 5000.0))
    assert all(line.cell_len <= 80 for line in lines)
    assert "\x1b" not in "".join(line.plain for line in lines)
    assert lines[1].plain.startswith("[bold]x") and "5" in lines[1].plain


def test_limit_says_how_many_more():
    store = store_with({f"t{i}": [1] for i in range(5)})
    lines = figure_lines(per_tool(store.all_calls(), 5000.0), limit=2)
    assert len(lines) == 5 and "3 more" in lines[-2].plain
    assert lines[0].plain.split()[1:3] == ["calls", "not"]  # the column says what it counts, under the table
    assert lines[-1].plain == "not ok: failed, timed_out, canceled or denied"


MCP_TOOLS = {
    "mcp__server__very_long_tool_name": [5, 50],
    "mcp__github__create_pull_request_review_comment": [500],
    "mcp__github__create_pull_request_review": [5000],
    "ナビゲート_ツール_とても長い名前です": [1],
}


def test_long_mcp_names_keep_their_ends_and_every_width_fits_without_wrapping():
    from rich.cells import cell_len

    figures = per_tool(store_with(MCP_TOOLS).all_calls(), 5000.0)
    for width in (120, 80, 60, 50, 40, 30):
        lines = figure_lines(figures, width=width)
        assert all(line.cell_len <= width for line in lines), width
        rows = [line.plain for line in lines[1:]]
        assert len({row.split("  ")[0].strip() for row in rows}) == len(rows), width  # names stay distinct
    wide = [line.plain for line in figure_lines(figures, width=80)]
    assert wide[0].startswith("tool") and wide[0].rstrip().endswith("<10ms…>=100s")
    assert any(row.startswith("mcp__server__very_long_tool_name ") for row in wide)  # whole at 80
    assert any("review_comment" in row for row in wide) and any(row.startswith("mcp__github") for row in wide)
    narrow = [line.plain for line in figure_lines(figures, width=40)]
    assert "p50" in narrow[0] and "<10ms" not in narrow[0]  # the sparkline goes before a line wraps
    assert all(cell_len(row) <= 40 for row in narrow)
