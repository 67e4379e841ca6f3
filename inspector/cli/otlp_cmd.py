"""OpenTelemetry commands: ``export-otlp`` sends the calls of session files to an OTLP/HTTP endpoint as
GenAI spans (the span-building lives in :mod:`inspector.live.otlp_out`); ``otlp-listen`` receives what
agents send over OTLP/HTTP and shows their tool calls live (:mod:`inspector.sources.otlp_receiver`)."""

from __future__ import annotations

import argparse
import io
import os
import sys

from inspector import protocols

EXIT_OK, EXIT_MALFORMED, EXIT_UNUSABLE, EXIT_UNSENT = 0, 1, 2, 3


def register(sub: argparse._SubParsersAction) -> None:
    export = sub.add_parser(
        "export-otlp",
        help="send the calls of session files to an OpenTelemetry backend as GenAI spans (OTLP/HTTP)",
        description=(
            "One execute_tool span per call under one invoke_agent span per conversation, a subagent's "
            "calls under the call that started them, with the calls' own times. Needs the extra: "
            "pip install 'toolcall-inspector[otlp]'."
        ),
    )
    export.add_argument("paths", nargs="+", metavar="PATH")
    export.add_argument(
        "--endpoint",
        default=None,
        help="the OTLP/HTTP base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it (/v1/traces is added; "
        "default: $OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318)",
    )
    export.add_argument("--format", choices=protocols.FORMAT_NAMES, help="force a format")
    add_content_options(export)
    export.add_argument(
        "--timeout", type=float, default=10.0, help="seconds to wait for the endpoint (default 10)"
    )
    export.set_defaults(handler=run_export)

    listen = sub.add_parser(
        "otlp-listen",
        help="an OTLP/HTTP receiver: agents' telemetry (OTEL_EXPORTER_OTLP_ENDPOINT) shown as tool calls live",
        description=(
            "Receives OTLP/HTTP on /v1/traces and /v1/logs (protobuf or JSON) and shows the tool calls in "
            "it: point an agent at it with OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 "
            "(and OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf or http/json). Protobuf needs the otlp extra."
        ),
    )
    listen.add_argument(
        "--port", type=int, default=4318, help="port to listen on (default 4318; 0: any free)"
    )
    listen.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)"
    )
    listen.add_argument(
        "--max-body",
        type=int,
        default=None,
        metavar="BYTES",
        help="refuse larger request bodies (default 16 MiB)",
    )
    listen.add_argument(
        "--record", metavar="PATH", help="append every body received to PATH, as OTLP JSON lines"
    )
    listen.add_argument("--no-ui", action="store_true", help="print calls as they come instead of the UI")
    listen.add_argument("--json", action="store_true", help="with --no-ui: one JSON object per event")
    add_stream_options(listen)
    listen.set_defaults(handler=run_listen)


def add_stream_options(parser: argparse.ArgumentParser) -> None:
    """``--otlp URL`` (and the content options) for a command whose calls arrive live."""
    parser.add_argument(
        "--otlp",
        metavar="URL",
        help="also send each call as an OpenTelemetry span when it ends, to this OTLP/HTTP base URL "
        "(as export-otlp; needs the otlp extra)",
    )
    add_content_options(parser)


def add_content_options(parser: argparse.ArgumentParser) -> None:
    from inspector.live.otlp_out import CONTENT_LIMIT

    parser.add_argument(
        "--otlp-content",
        action="store_true",
        help="also send each call's arguments and result (gen_ai.tool.call.arguments / .result)",
    )
    parser.add_argument(
        "--otlp-content-limit",
        type=int,
        default=CONTENT_LIMIT,
        metavar="CHARS",
        help=f"characters of arguments or result sent, the rest cut (default {CONTENT_LIMIT})",
    )


def endpoint_of(given: str | None) -> str:
    from inspector.live.otlp_out import DEFAULT_ENDPOINT

    return given or os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT") or DEFAULT_ENDPOINT


def run_export(args: argparse.Namespace) -> int:
    from inspector.live.otlp_out import ExportFailed, OtlpMissing, SpanOptions, send, store_spans
    from inspector.model import CallStore
    from inspector.sources.files import keep_payloads_for, open_paths, read_into
    from inspector.sources.session import UnusableInput
    from inspector.textsafe import one_line

    endpoint = endpoint_of(args.endpoint)
    skipped: list[str] = []
    notes: list[str] = []
    try:  # a folder as the other commands take it: a file of it that cannot be opened is named, not fatal
        opened = open_paths(args.paths, args.format, skipped, notes)
        store = CallStore(keep_payloads=keep_payloads_for(opened))
        infos = read_into(store, opened)
    except UnusableInput as exc:
        print(f"inspector: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    for reason in skipped:
        print(f"inspector: skipped {reason}", file=sys.stderr)
    for note in notes:
        print(f"inspector: {note}", file=sys.stderr)
    store.clock = store.end_clock()  # a file is judged at its last record's time
    options = SpanOptions(content=args.otlp_content, limit=max(0, args.otlp_content_limit))
    try:
        spans = store_spans(store, options)
        sent = send(spans, endpoint, timeout=args.timeout)
    except OtlpMissing as exc:
        print(f"inspector: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    except ExportFailed as exc:
        print(f"inspector: could not send the spans to {one_line(str(exc), 300)}", file=sys.stderr)
        return EXIT_UNSENT
    calls = store.call_count
    print(
        f"sent {sent} span(s): {calls} call(s), {sent - calls} conversation(s), to {one_line(endpoint, 200)}"
    )
    malformed = sum(info.malformed for info in infos)
    if malformed:
        print(f"inspector: {malformed} malformed record(s) left out", file=sys.stderr)
        return EXIT_MALFORMED
    return EXIT_OK


def run_listen(args: argparse.Namespace) -> int:
    from inspector.model import CallStore
    from inspector.sources.otlp_receiver import MAX_BODY, OtlpSource
    from inspector.textsafe import one_line
    from inspector.userpath import open_append

    record = None
    if args.record:
        try:
            # held for the session; opened as every path is (a FIFO or a device there is refused, not waited on)
            record = io.TextIOWrapper(open_append(args.record), encoding="utf-8")
        except OSError as exc:
            print(
                f"inspector: cannot record to {one_line(args.record, 200)}: {exc.strerror or exc}",
                file=sys.stderr,
            )
            return EXIT_UNUSABLE
    store = CallStore()
    source = OtlpSource(
        store, host=args.host, port=args.port, max_body=args.max_body or MAX_BODY, record=record
    )
    try:
        source.bind()
    except (OSError, OverflowError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        print(
            f"inspector: cannot listen on {one_line(args.host, 100)}:{args.port}: {reason}", file=sys.stderr
        )
        return EXIT_UNUSABLE
    stream = None
    try:
        if args.otlp:
            from inspector.live.otlp_out import OtlpMissing, SpanOptions, stream_to

            spans = SpanOptions(content=args.otlp_content, limit=max(0, args.otlp_content_limit))
            try:
                stream = stream_to(args.otlp, store, source, spans, sys.stderr if args.no_ui else None)
            except OtlpMissing as exc:
                print(f"inspector: {exc}", file=sys.stderr)
                return EXIT_UNUSABLE
        if args.no_ui:
            return _listen_headless(source, store, as_json=args.json)
        from inspector.ui.app import run_live

        return run_live(source, store)
    finally:
        if stream is not None:
            stream.close()
        if record is not None:
            record.close()


def _listen_headless(source, store, *, as_json: bool) -> int:  # type: ignore[no-untyped-def]
    import asyncio
    import signal

    from inspector.live.printer import Printer

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        Printer(store, sys.stdout, as_json=as_json).attach(loop)
        await source.start()
        print(f"listening on {source.url} (OTLP/HTTP: /v1/traces, /v1/logs)", file=sys.stderr, flush=True)
        await stop.wait()
        await source.stop()

    asyncio.run(main())
    sys.stdout.flush()
    print(f"stopped: {store.call_count} call(s) from {source.requests} request(s)", file=sys.stderr)
    return EXIT_OK
