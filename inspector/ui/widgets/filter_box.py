"""The filter box: an Input that takes its own editing keys (backspace, ctrl+u, enter...) in the order
they were typed.

Textual runs a widget's key bindings only once the key has bubbled up to the app, behind every key
already queued there; the printable keys behind it are inserted first. Typed faster than the app
reads them (a paste, a macro, an app busy loading), ``/Reda⌫⌫ad`` became ``Readad`` and ``ctrl+u``
then more text erased the new text, and ``enter`` submitted what was left. Here the box's own
bindings run as the key reaches it, in turn with the characters.
"""

from __future__ import annotations

from textual import events

from inspector.ui.widgets.inert_input import InertInput


class FilterBox(InertInput):
    """An Input whose own bindings run in the order the keys came (its value drawn inertly)."""

    async def _on_key(self, event: events.Key) -> None:
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if binding.priority:
                continue
            event.stop()
            event.prevent_default()
            await self.run_action(binding.action)
            return
        await super()._on_key(event)
