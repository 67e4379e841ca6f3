"""``--otlp URL`` in the app: the calls of the files a screen shows sent as OpenTelemetry spans as they are
read and as they end (inspector.live.otlp_out does the sending), and what is left sent when it goes."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import App

from inspector.model import CallStore
from inspector.sources.base import Source


def start(app: App[Any], store: CallStore, source: Source) -> Any:
    """The stream of ``store``'s calls to the app's ``--otlp`` endpoint (None when none is asked, or the
    exporter is missing: said in a notice)."""
    options = getattr(app, "options", None)
    endpoint = getattr(options, "otlp", None)
    if not endpoint or options is None:
        return None
    from inspector.live.otlp_out import OtlpMissing, SpanOptions, stream_to

    spans = SpanOptions(content=options.otlp_content, limit=max(0, options.otlp_content_limit))
    try:
        return stream_to(endpoint, store, source, spans)
    except OtlpMissing as exc:
        app.notify(str(exc), title="OpenTelemetry", severity="error", timeout=15)
        return None


async def finish(stream: Any) -> None:
    """Send what is left (unfinished calls, each conversation's span) without holding the loop."""
    await asyncio.get_running_loop().run_in_executor(None, stream.close)
