"""What both demos (a LiveKit room, the hub) do alike: their options from the command line, preparing the
session (a mistake is one line and exit 2), and running it in the UI or headless until the script ends."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import IO, TYPE_CHECKING, Any

from inspector.demo import demo_record
from inspector.live.session import LiveOptions, LiveSession

if TYPE_CHECKING:
    from inspector.live.runner import ShowUi

EXIT_SETUP = 2
Prepare = Callable[[LiveOptions, Mapping[str, str]], LiveSession]


def rounds(args: argparse.Namespace) -> int:
    """The rounds the script plays: as asked, else one headless and without end in the UI."""
    return int(args.rounds) if args.rounds is not None else (1 if args.no_ui else 0)


def options(args: argparse.Namespace, *, rules: str | None, **where: Any) -> LiveOptions:
    """A demo's live options: where it joins (``where``) and what the command line asked of it."""
    return LiveOptions(
        answer=args.answer,
        answer_rules=rules,
        record=demo_record(args),
        no_record=args.no_record,
        command="demo",
        no_ui=args.no_ui,
        json=args.json,
        verbose=args.verbose,
        **where,
    )


def prepare(build: Prepare, live_options: LiveOptions, err: IO[str]) -> LiveSession | None:
    """The session ``build`` prepares (with no environment: the demo gives it everything), or None
    after saying why not."""
    from inspector.answer.rules import RulesError
    from inspector.live.errors import SetupError

    try:
        return build(live_options, {})
    except (SetupError, RulesError) as exc:
        err.write(f"inspector demo: {exc}\n")
        return None


def run(
    session: LiveSession,
    out: IO[str],
    err: IO[str],
    show: ShowUi | None,
    *,
    finished: Callable[[], Awaitable[object]],
    note: str = "",
) -> int:
    """The session in the UI until the person quits, or headless (saying ``note`` first) until the
    script has ``finished``."""
    from inspector.live import logs, supervise
    from inspector.live.runner import run_headless, run_ui
    from inspector.sources.ingest import tune_gc

    headless = session.options.no_ui
    logs.configure(session.secrets, to_stderr=session.options.verbose and headless)
    supervise.note_status(recording=session.recording_path)
    tune_gc()
    if not headless:
        return run_ui(session, err, show)
    if note:
        err.write(f"inspector demo: {note}\n")

    async def until_finished() -> int:
        return await run_headless(session, out, err, until=finished())

    return asyncio.run(until_finished())
