"""Where the LiveKit SDK's own log lines go: a log file (and stderr with --verbose), secrets blanked out."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from logging.handlers import RotatingFileHandler

from inspector.textsafe import clean

_MARK = "_inspector_handler"


class Redact(logging.Filter):
    """Replace every secret in a log record's final message."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        for secret in self.secrets:
            if secret in message:
                message = message.replace(secret, "<secret>")
        record.msg, record.args = message, None
        return True


def log_path() -> str:
    import platformdirs

    return os.path.join(platformdirs.user_log_dir("inspector"), "livekit.log")


class _Inert(logging.Formatter):
    """A formatter whose lines are inert: an identity or reason from a peer cannot act on a terminal."""

    def format(self, record: logging.LogRecord) -> str:
        return clean(super().format(record))


def configure(secrets: Iterable[str], *, to_stderr: bool, path: str | None = None) -> str | None:
    """Send the ``livekit`` logger to a file (returned) and, if asked, to stderr; never to the screen otherwise."""
    logger = logging.getLogger("livekit")
    for handler in [h for h in logger.handlers if getattr(h, _MARK, False)]:
        logger.removeHandler(handler)
        handler.close()
    logger.propagate = False
    logger.setLevel(logging.INFO)
    redact = Redact(secrets)
    formatter = _Inert("%(asctime)s %(levelname)s %(message)s")
    handlers: list[logging.Handler] = []
    path = path or log_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        handlers.append(RotatingFileHandler(path, maxBytes=1_000_000, backupCount=2, encoding="utf-8"))
    except OSError:
        path = None
    if to_stderr:
        stream = logging.StreamHandler()
        stream.setLevel(logging.WARNING)
        handlers.append(stream)
    if not handlers:
        handlers.append(logging.NullHandler())
    for handler in handlers:
        handler.addFilter(redact)
        handler.setFormatter(formatter)
        setattr(handler, _MARK, True)
        logger.addHandler(handler)
    return path
