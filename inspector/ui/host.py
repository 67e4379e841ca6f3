"""What screens may ask of the app that hosts them: the shared clock, the tick and the failure report."""

from __future__ import annotations

from typing import Protocol, cast

from textual.dom import DOMNode
from textual.worker import Worker

from inspector.model.clock import Clock


class Host(Protocol):
    """The part of ``InspectorApp`` a screen uses (a protocol, so screens never import the app)."""

    now: float
    clock: Clock
    export_dir: str | None

    def tick(self, force: bool = True) -> None: ...

    def worker_failed(self, worker: Worker[object]) -> None: ...


def host_of(node: DOMNode) -> Host:
    """The app ``node`` runs in, as a :class:`Host` (the inspector's screens run only in ``InspectorApp``)."""
    return cast(Host, node.app)
