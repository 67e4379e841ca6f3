"""Headless commands: ``dump``, ``stats`` and ``check`` (no Textual, no LiveKit)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from inspector import protocols
from inspector.model.values import dumps_json

EXIT_OK, EXIT_MALFORMED, EXIT_UNUSABLE = 0, 1, 2


def register(sub: argparse._SubParsersAction) -> None:
    formats = ", ".join(protocols.FORMAT_NAMES)
    dump = sub.add_parser("dump", help="print the threaded calls of sessions as text or JSON lines")
    dump.add_argument("paths", nargs="+", metavar="PATH")
    dump.add_argument("--json", action="store_true", help="one JSON object per call")
    dump.add_argument("--messages", action="store_true", help="also print conversation messages")
    dump.add_argument("--format", choices=protocols.FORMAT_NAMES, help=f"force a format ({formats})")
    dump.set_defaults(handler=run_dump)

    stats = sub.add_parser("stats", help="counts per state and tool, orphans, duplicates, latencies")
    stats.add_argument("paths", nargs="+", metavar="PATH")
    stats.add_argument("--json", action="store_true", help="one JSON object")
    stats.add_argument("--format", choices=protocols.FORMAT_NAMES, help="force a format")
    stats.set_defaults(handler=run_stats)

    check = sub.add_parser(
        "check",
        help="exit non-zero on orphan results, unanswered client requests or protocol violations",
    )
    check.add_argument("paths", nargs="+", metavar="PATH")
    check.add_argument("--format", choices=protocols.FORMAT_NAMES, help="force a format")
    check.set_defaults(handler=run_check)


def _load(paths: list[str], forced: str | None, keep_payloads: bool):
    from inspector.model import CallStore
    from inspector.session import UnusableInput, load

    store = CallStore(keep_payloads=keep_payloads)
    try:
        infos = load(paths, store, forced)
    except UnusableInput as exc:
        print(f"inspector: {exc}", file=sys.stderr)
        return None, None
    store.clock = store.end_clock()  # a file is judged at its last record's time, not today's
    return store, infos


def _console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def run_dump(args: argparse.Namespace) -> int:
    from inspector.calltext import call_json, item_text
    from inspector.model import Call, Message
    from inspector.session import hydrate

    store, _ = _load(args.paths, args.format, keep_payloads=False)
    if store is None:
        return EXIT_UNUSABLE
    now = store.clock.now()
    out = sys.stdout
    if args.json:
        for call in store.all_calls():
            request, results = hydrate(call)
            out.write(dumps_json(call_json(call, now, request, results)))
            out.write("\n")
        for orphan in store.orphans:
            out.write(
                dumps_json(
                    {
                        "orphan_result": orphan.call_id,
                        "where": orphan.result.raw.where if orphan.result.raw else None,
                        "outcome": orphan.result.outcome.value,
                    }
                )
            )
            out.write("\n")
    else:
        console = _console()
        for item in store.items:
            if isinstance(item, Message) and not args.messages:
                continue
            nodes = item.walk() if isinstance(item, Call) else [item]
            for node in nodes:
                text = item_text(node, now)
                if text is not None:
                    console.print(text)
    return EXIT_MALFORMED if store.malformed else EXIT_OK


def run_stats(args: argparse.Namespace) -> int:
    from inspector.model.stats import session_stats
    from inspector.model.tool_stats import per_tool

    store, infos = _load(args.paths, args.format, keep_payloads=False)
    if store is None:
        return EXIT_UNUSABLE
    figures: dict[str, Any] = {"format": ",".join(sorted({i.format for i in infos}))}
    figures.update(session_stats(store))
    per_tool_figures = per_tool(store.all_calls(), store.clock.now())
    figures["sources"] = [{"path": i.path, "format": i.format, "malformed": i.malformed} for i in infos]
    if args.json:
        print(dumps_json(figures))
    else:
        _print_stats(figures | {"per_tool_figures": per_tool_figures})
    return EXIT_MALFORMED if store.malformed else EXIT_OK


def _print_stats(figures: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    from inspector.textsafe import one_line

    table = Table(
        title=Text(one_line(", ".join(s["path"] for s in figures["sources"]), 200)),
        show_header=False,
        box=None,
    )
    table.add_column(style="bold")
    table.add_column()
    rows = [
        ("format", figures["format"]),
        ("calls", f"{figures['calls']} ({figures['top_level']} top level, {figures['nested']} nested)"),
        ("states", ", ".join(f"{k} {v}" for k, v in figures["states"].items() if v) or "-"),
        ("orphan results", figures["orphan_results"]),
        ("duplicate results", figures["duplicate_results"]),
        ("late results", figures["late_results"]),
        ("protocol violations", figures["protocol_violations"]),
        ("with diff", figures["with_diff"]),
        ("malformed records", figures["malformed"]),
        ("messages", figures["messages"]),
        (
            "latency p50/p90/p99",
            " / ".join(
                "-" if figures[k] is None else f"{figures[k]:.0f} ms" for k in ("p50_ms", "p90_ms", "p99_ms")
            ),
        ),
    ]
    for name, value in rows:
        table.add_row(name, Text(str(value)))
    tools = ", ".join(f"{one_line(k, 40)} {v}" for k, v in list(figures["tools"].items())[:15])
    table.add_row("tools", Text(tools or "-"))
    console = _console()
    console.print(table)
    _print_per_tool(console, figures.get("per_tool_figures") or [])


def _print_per_tool(console: Any, per_tool: list[Any]) -> None:
    """Per tool: count, failures, p50/p90/max and the latency distribution, in 80 columns."""
    from inspector.ui.render.tool_figures import figure_lines

    if not per_tool:
        return
    console.print()
    for line in figure_lines(per_tool, failed="bold red"):
        console.print(line)


def run_check(args: argparse.Namespace) -> int:
    from inspector.model.stats import problems

    store, infos = _load(args.paths, args.format, keep_payloads=False)
    if store is None:
        return EXIT_UNUSABLE
    found = problems(store)
    from inspector.textsafe import one_line

    for where, what in found:
        print(f"{one_line(where, 80)}: {one_line(what, 300)}")
    calls = store.call_count
    if found:
        print(f"{len(found)} problem(s) in {calls} call(s)", file=sys.stderr)
        return 1
    print(f"ok: {calls} call(s), no orphan, no unanswered client request, no protocol violation")
    return EXIT_OK
