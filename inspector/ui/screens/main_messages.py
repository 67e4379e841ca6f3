"""The messages a main screen posts itself, from threads and listeners."""

from __future__ import annotations

from textual.message import Message

from inspector.sources.files import Progress


class CallsChanged(Message, bubble=False):
    """The store changed; one pending message stands for any number of changes."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, CallsChanged)


class LoadProgress(Message, bubble=False):
    def __init__(self, progress: Progress) -> None:
        super().__init__()
        self.progress = progress


class SourceChanged(Message, bubble=False):
    """A live source's state changed (connected, reconnecting...)."""
