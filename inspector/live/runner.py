"""Run ``inspector live``: headless (printing calls or JSON lines) or in the Textual UI."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from typing import IO, Any

from inspector.answer.rules import RulesError
from inspector.live import logs, supervise
from inspector.live.errors import SetupError
from inspector.live.printer import Printer
from inspector.live.session import LiveOptions, LiveSession, prepare_room
from inspector.sources.ingest import tune_gc

EXIT_OK, EXIT_LOST, EXIT_SETUP = 0, 1, 2
EXIT_RECORDING = 4  # the session ran, but its recording stopped (disk full, write error)


ShowUi = Callable[[LiveSession], int]
"""Runs the UI on a prepared session until it quits (the command line passes ``inspector.ui.app``'s)."""


def run(
    options: LiveOptions,
    *,
    out: IO[str] | None = None,
    err: IO[str] | None = None,
    show: ShowUi | None = None,
) -> int:
    """The whole command: prepare (exit 2 on a setup or rules mistake), then run headless or with ``show``."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        session = prepare(options)
    except (SetupError, RulesError) as exc:
        err.write(f"inspector {options.command}: {exc}\n")
        return EXIT_SETUP
    if session.recording_note:
        err.write(f"inspector {options.command}: {session.recording_note}\n")
    logs.configure(session.secrets, to_stderr=options.verbose and options.no_ui)
    supervise.note_status(recording=session.recording_path)
    tune_gc()  # a live session keeps what it allocates: collect less often (bench/bench_ingest.py)
    stream = None
    try:
        if options.otlp:
            from inspector.live.otlp_out import OtlpMissing, SpanOptions, stream_to

            try:
                spans = SpanOptions(content=options.otlp_content, limit=max(0, options.otlp_content_limit))
                stream = stream_to(
                    options.otlp, session.store, session.source, spans, err if options.no_ui else None
                )
            except OtlpMissing as exc:
                err.write(f"inspector {options.command}: {exc}\n")
                return EXIT_SETUP
        if options.no_ui:
            return asyncio.run(run_headless(session, out, err))
        return run_ui(session, err, show)
    finally:
        if stream is not None:
            stream.close()  # what is left goes out: unfinished calls, each conversation's span
        session.close()


def prepare(options: LiveOptions) -> LiveSession:
    """A LiveKit session, or with ``--hub`` one on Alicia's WebSocket hub."""
    if options.hub:
        from inspector.live.hub_session import prepare_hub

        return prepare_hub(options)
    return prepare_room(options)


def run_ui(session: LiveSession, err: IO[str], show: ShowUi | None) -> int:
    """Hand the wired source and store to the UI (``show``), then say where the recording went."""
    if show is None:
        err.write(
            f"inspector {session.options.command}: the UI is not available here; use --no-ui to print calls instead\n"
        )
        return EXIT_SETUP
    result = show(session)
    path = session.recording_path
    if path and not session.source.state.record_error:
        err.write(f"inspector {session.options.command}: recorded to {path}\n")
    return recording_verdict(session, err, int(result or 0))


async def run_headless(
    session: LiveSession, out: IO[str], err: IO[str], *, until: Awaitable[object] | None = None
) -> int:
    """Join, print each change, until Ctrl+C, SIGTERM, the room is lost, or ``until`` completes."""
    options = session.options
    printer = Printer(session.store, out, as_json=options.json).attach(asyncio.get_running_loop())
    if session.recording_path:
        printer.note("recording", f"recording to {session.recording_path}", path=session.recording_path)
    if session.engine is not None and session.rules is not None:
        printer.note(
            "auto-responder",
            f"auto-answering with {len(session.rules)} rule(s) from {options.answer_rules}",
            rules=len(session.rules),
        )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # supervised, SIGTERM is left alone: it is how the SDK's core ends the process when it panics, and the
    # parent reports that (the parent forwards a user's stop as SIGINT)
    signals = (signal.SIGINT,) if supervise.supervised() else (signal.SIGINT, signal.SIGTERM)
    for sig in signals:
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - not the main thread / Windows
            pass
    if session.source.can_reclaim:
        _reclaim_on_request(session, printer, loop)
    from inspector.sources.rejoin import stay_joined

    staying = asyncio.ensure_future(stay_joined(session.source, stop, give_up_after=options.give_up_after))
    waiters: list[asyncio.Future[Any]] = [staying]
    if until is not None:
        waiters.append(asyncio.ensure_future(until))
    try:
        await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.set()
        outcome = await staying
        for waiter in waiters:
            waiter.cancel()
        await session.stop()
    if not outcome.stopped and not outcome.joined:
        err.write(f"inspector {options.command}: {session.redact(outcome.reason)}\n")
        return EXIT_SETUP
    if not outcome.stopped:
        what = "hub" if options.hub else "room"
        reason = session.redact(outcome.reason)
        err.write(f"inspector {options.command}: the {what} connection was lost ({reason})\n")
        return EXIT_LOST
    return recording_verdict(session, err, EXIT_OK)


def _reclaim_on_request(session: LiveSession, printer: Printer, loop: asyncio.AbstractEventLoop) -> None:
    """Headless, a displaced hub assistant takes its role back on SIGUSR1 or a line 'reclaim' on stdin."""
    source = session.source
    running: set[asyncio.Task[None]] = set()  # the loop holds its tasks weakly: kept here until done

    def reclaim() -> None:
        async def run() -> None:
            try:
                await source.reclaim()
            except Exception as exc:  # noqa: BLE001 - said, never a crash
                printer.note("assistant-role", f"could not take the role back: {session.redact(str(exc))}")

        task = loop.create_task(run())
        running.add(task)
        task.add_done_callback(running.discard)

    try:
        loop.add_signal_handler(signal.SIGUSR1, reclaim)
    except (NotImplementedError, RuntimeError, AttributeError):  # pragma: no cover - Windows
        pass
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return

    def line() -> None:
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(fd)  # end of input: the signal still works
        elif b"reclaim" in data:
            reclaim()

    try:
        loop.add_reader(fd, line)
    except (OSError, ValueError, NotImplementedError):  # a regular file or /dev/null: no lines to wait for
        pass


def recording_verdict(session: LiveSession, err: IO[str], code: int) -> int:
    """Exit 4 (and say why) when the recording stopped during the session; else ``code``. Packets that
    came after the source stopped (it could not leave in time) are counted and said."""
    unwritten = getattr(session.source, "unwritten", 0)
    if unwritten and session.recording_path:
        err.write(
            f"inspector {session.options.command}: {unwritten:,} packet(s) that came while leaving were not "
            f"written to {session.recording_path}\n"
        )
    reason = session.source.state.record_error
    if not reason or code not in (EXIT_OK,):
        return code
    path = session.recording_path
    command = session.options.command
    err.write(f"inspector {command}: the recording stopped ({reason}); what came before is in {path}\n")
    return EXIT_RECORDING
