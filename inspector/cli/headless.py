"""Headless commands: ``dump``, ``stats`` and ``check`` (no Textual, no LiveKit)."""

from __future__ import annotations

import argparse
import gc
import sys
from typing import Any

from inspector import protocols
from inspector.cli import headless_filter, plain_out
from inspector.model import Request, Result
from inspector.model.values import dumps_json, json_chunks

EXIT_OK, EXIT_MALFORMED, EXIT_UNUSABLE = 0, 1, 2


def register(sub: argparse._SubParsersAction) -> None:
    formats = ", ".join(protocols.FORMAT_NAMES)
    dump = sub.add_parser("dump", help="print the threaded calls of sessions as text or JSON lines")
    dump.add_argument("paths", nargs="+", metavar="PATH")
    dump.add_argument("--json", action="store_true", help="one JSON object per call")
    dump.add_argument("--messages", action="store_true", help="also print conversation messages")
    dump.add_argument("--format", choices=protocols.FORMAT_NAMES, help=f"force a format ({formats})")
    headless_filter.add_option(dump)
    dump.set_defaults(handler=run_dump)

    stats = sub.add_parser("stats", help="counts per state and tool, orphans, duplicates, latencies")
    stats.add_argument("paths", nargs="+", metavar="PATH")
    stats.add_argument("--json", action="store_true", help="one JSON object")
    stats.add_argument("--format", choices=protocols.FORMAT_NAMES, help="force a format")
    stats.add_argument("--per-file", action="store_true", help="the figures of each file too")
    headless_filter.add_option(stats)
    stats.set_defaults(handler=run_stats)

    check = sub.add_parser(
        "check",
        help="exit non-zero on orphan results, unanswered client requests or protocol violations",
    )
    check.add_argument("paths", nargs="+", metavar="PATH")
    check.add_argument("--format", choices=protocols.FORMAT_NAMES, help="force a format")
    headless_filter.add_option(check)
    check.set_defaults(handler=run_check)


def _load(paths: list[str], forced: str | None, keep_payloads: bool, expr: str | None = None):
    """The store of ``paths`` judged at its end, the files' infos and the parsed ``--filter`` (Nones when
    a path or the filter is unusable: the reason was printed)."""
    from inspector.model import CallStore
    from inspector.sources.files import load
    from inspector.sources.session import UnusableInput

    try:
        flt = headless_filter.parse(expr)
    except headless_filter.BadFilter:
        return None, None, None
    store = CallStore(keep_payloads=keep_payloads)
    skipped: list[str] = []
    notes: list[str] = []
    # The store lives until the command ends: kept out of the cyclic collector's walks, which what a
    # command makes of it (dump --json's objects) would otherwise set off over and over, and
    # frozen before the collector is on again (its first run walked the whole store to find nothing).
    enabled = gc.isenabled()
    gc.disable()
    try:
        # payloads, no detail shown
        infos = load(paths, store, forced, skipped, lean=keep_payloads, notes=notes)
    except UnusableInput as exc:
        print(f"inspector: {exc}", file=sys.stderr)
        return None, None, None
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
    for reason in skipped:  # a file of a folder that could not be opened: named, the rest are shown
        print(f"inspector: skipped {reason}", file=sys.stderr)
    for note in notes:  # what a folder's files are, when they are not what opening it suggests
        print(f"inspector: {note}", file=sys.stderr)
    store.clock = store.end_clock()  # a file is judged at its last record's time, not today's
    return store, infos, flt


def _console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


BIG_CALL = 1 << 20
"""A call whose records hold more bytes than this is written as it is encoded, a piece at a time: a 200 MB
result costs one escaped copy, not three (issue 9: one record within about 2x its size)."""


def _record_bytes(request: Request, results: list[Result]) -> int:
    events: list[Request | Result] = [request, *results]
    raws = [event.raw for event in events if event.raw is not None]
    saved = sum(len(r.data) for r in results if "saved_output" in r.extra and isinstance(r.data, str))
    return saved + sum(raw.length if raw.data is None else len(raw.data) for raw in raws)


def run_dump(args: argparse.Namespace) -> int:
    # dump --json keeps the payloads the read gave (as the app does for a file under BIG_FILES): each
    # call is written as its read threaded it, with no record decoded twice
    store, _, flt = _load(args.paths, args.format, keep_payloads=args.json, expr=args.filter)
    if store is None:
        return EXIT_UNUSABLE
    now = store.clock.now()
    if args.json:
        _dump_json(store, flt, now)
    else:
        _dump_text(store, flt, now, args.messages)
    return EXIT_MALFORMED if store.malformed else EXIT_OK


def _dump_json(store: Any, flt: Any, now: float) -> None:
    """One JSON object per call, in tree order, then one per orphan result."""
    from inspector.calljson import call_json, call_json_text
    from inspector.sources.session import with_saved_outputs

    out = _Batched(sys.stdout)
    try:
        for call in store.all_calls():
            if flt is not None and not flt.matches(call, now):
                continue
            request = call.request
            results = with_saved_outputs(call.results)  # a saved output in full, as the detail shows it
            if _record_bytes(request, results) > BIG_CALL:
                out.flush()
                for chunk in json_chunks(call_json(call, now, request, results)):
                    for start in range(0, len(chunk), BIG_CALL):  # encoded for the pipe a slice at a time
                        out.write(chunk[start : start + BIG_CALL])
            else:
                out.write(call_json_text(call, now, request, results))
            out.write("\n")
        for orphan in store.orphans:
            if flt is not None and not flt.matches(orphan, now):
                continue
            out.write(
                dumps_json(
                    {
                        "orphan_result": orphan.call_id,
                        "where": orphan.result.raw.where if orphan.result.raw else None,
                        "outcome": orphan.result.outcome.value,
                        **_unseen(orphan),
                    }
                )
            )
            out.write("\n")
    finally:  # what was written before a failure is not lost
        out.flush()


def _unseen(orphan: Any) -> dict[str, float]:
    """``unseen_before`` for a result whose request may have come before the session listened (else nothing)."""
    return {} if orphan.unseen_before is None else {"unseen_before": orphan.unseen_before}


class _Batched:
    """Text written to ``out`` a batch at a time (a write per call's piece costs more than its encoding)."""

    LIMIT = 1 << 16

    def __init__(self, out: Any) -> None:
        self.out = out
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: str) -> None:
        if len(text) >= self.LIMIT:  # a big piece goes as it is, after what came before it
            self.flush()
            self.out.write(text)
            return
        self.parts.append(text)
        self.size += len(text)
        if self.size >= self.LIMIT:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            self.out.write("".join(self.parts))
            self.parts.clear()
            self.size = 0


def _dump_text(store: Any, flt: Any, now: float, messages: bool) -> None:
    from inspector.calltext import item_text
    from inspector.model import Call, Message

    console = _console()
    for item in store.items:
        if isinstance(item, Message) and not messages:
            continue
        if flt is not None and not flt.matches_tree(item, now):
            continue
        nodes = item.walk() if isinstance(item, Call) else [item]
        for node in nodes:
            if flt is not None and not flt.matches_tree(node, now):
                continue  # a parent stays as the context of a nested match, as in the UI
            text = item_text(node, now)
            if text is not None:
                console.print(text)


def run_stats(args: argparse.Namespace) -> int:
    from inspector.model.stats import session_figures, session_stats, source_of

    store, infos, flt = _load(args.paths, args.format, keep_payloads=False, expr=args.filter)
    if store is None:
        return EXIT_UNUSABLE
    now = store.clock.now()
    keep = headless_filter.keep_function(flt, now)
    figures: dict[str, Any] = {"format": ",".join(sorted({i.format for i in infos}))}
    if flt is not None:
        figures["filter"] = flt.text
    stats, per_tool_figures = session_figures(store, now, keep)
    figures.update(stats)
    figures["sources"] = [{"path": i.path, "format": i.format, "malformed": i.malformed} for i in infos]
    per_file = []
    if args.per_file:
        for info in infos:

            def in_file(item: object, path: str = info.path) -> bool:
                return source_of(item) == path and (keep is None or keep(item))

            per_file.append({"path": info.path, "format": info.format} | session_stats(store, now, in_file))
        figures["per_file"] = per_file
    if args.json:
        print(dumps_json(figures))
    else:
        _print_stats(figures | {"per_tool_figures": per_tool_figures})
        for one in per_file:
            print()
            _print_stats(one | {"sources": [one]}, with_tools=False)
    return EXIT_MALFORMED if store.malformed else EXIT_OK


def _stats_rows(figures: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """The title and the rows (name, value) of the stats table."""
    from inspector.textsafe import one_line
    from inspector.timefmt import duration

    title = one_line(", ".join(s["path"] for s in figures["sources"]), 200)
    rows = [
        ("format", figures["format"]),
        ("calls", f"{figures['calls']} ({figures['top_level']} top level, {figures['nested']} nested)"),
        ("states", ", ".join(f"{k} {v}" for k, v in figures["states"].items() if v) or "-"),
        ("orphan results", figures["orphan_results"]),
        *(
            [("results of unseen requests", figures["unseen_results"])]
            if figures.get("unseen_results")
            else []
        ),
        ("duplicate results", figures["duplicate_results"]),
        ("late results", figures["late_results"]),
        ("protocol violations", figures["protocol_violations"]),
        ("with diff", figures["with_diff"]),
        ("malformed records", figures["malformed"]),
        ("messages", figures["messages"]),
        (
            "latency p50/p90/p99",
            " / ".join(
                # the units of the per-tool table below (2m54s, not 173933 ms)
                "-" if figures[k] is None else duration(max(0.0, figures[k]) / 1000.0)
                for k in ("p50_ms", "p90_ms", "p99_ms")
            ),
        ),
    ]
    tools = ", ".join(f"{one_line(k, 40)} {v}" for k, v in list(figures["tools"].items())[:15])
    rows.append(("tools", tools or "-"))
    if len(figures["sources"]) > 1:  # each file on its own line, with what it holds
        for source in figures["sources"]:
            where = one_line(source["path"], 120)
            rows.append(("file", f"{where} ({source['format']}, {source['malformed']} malformed)"))
    if figures.get("filter"):
        rows.append(("filter", one_line(figures["filter"], 200)))
    return title, [(name, str(value)) for name, value in rows]


def _print_stats(figures: dict[str, Any], with_tools: bool = True) -> None:
    title, rows = _stats_rows(figures)
    per_tool = (figures.get("per_tool_figures") or []) if with_tools else []
    width = plain_out.width()
    if width is not None:
        lines = plain_out.table(title, rows, width)
        if lines is not None:  # what Rich would write, without importing it (a third of the start-up)
            if per_tool:
                from inspector.tool_figures import figure_strings

                lines += ["", *figure_strings(per_tool, width=width)]
            sys.stdout.write("".join(line + "\n" for line in lines))
            return
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(title), show_header=False, box=None)
    table.add_column(style="bold")
    table.add_column()
    for name, value in rows:
        table.add_row(name, Text(value))
    console = _console()
    console.print(table)
    if per_tool:
        _print_per_tool(console, per_tool)


def _print_per_tool(console: Any, per_tool: list[Any]) -> None:
    """Per tool: count, failures, p50/p90/max and the latency distribution, in the terminal's width (80
    when it is not a terminal); a narrower one drops the sparkline, then p90 and max, rather than wrap."""
    from inspector.tool_figures import figure_lines

    console.print()
    for line in figure_lines(per_tool, width=console.width, failed="bold red"):
        console.print(line)


def run_check(args: argparse.Namespace) -> int:
    from inspector.model.stats import sourced_problems
    from inspector.textsafe import one_line

    store, infos, flt = _load(args.paths, args.format, keep_payloads=False, expr=args.filter)
    if store is None:
        return EXIT_UNUSABLE
    now = store.clock.now()
    keep = headless_filter.keep_function(flt, now)
    found = sourced_problems(store, now, keep)
    several = len(infos or []) > 1
    for source, where, what in found:
        place = f"{source} {where}" if several and source else where  # which file, with several
        print(f"{one_line(place, 200)}: {one_line(what, 300)}")
    calls = store.call_count if keep is None else sum(1 for call in store.all_calls() if keep(call))
    if found:
        shown = sum(1 for bad in store.malformed if keep is None or keep(bad))
        counted = (
            len(found)
            - shown
            + sum(store.malformed_weight(b) for b in store.malformed if keep is None or keep(b))
        )
        print(f"{counted} problem(s) in {calls} call(s)", file=sys.stderr)
        return 1
    print(f"ok: {calls} call(s), no orphan, no unanswered client request, no protocol violation")
    return EXIT_OK
