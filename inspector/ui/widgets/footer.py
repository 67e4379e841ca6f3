"""Textual's footer, recomposed only when the keys it shows change."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class SteadyFooter(Footer):
    """The footer of the main screens. Textual's recomposes on every change of bindings (each return
    from the help, each focus move), restyling every key; this one only when what it shows changed."""

    def __init__(self) -> None:
        super().__init__()
        self._shown: tuple[tuple[str, str, str, bool, str], ...] | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        shown = tuple(
            (binding.key, binding.description, binding.action, enabled, tooltip)
            for _, binding, enabled, tooltip in screen.active_bindings.values()
            if binding.show
        )
        if shown == self._shown and self.children:  # composed already, with these very keys
            return
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._shown = shown
        super().bindings_changed(screen)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and not widget.has_class("-command-palette"):
                # made in the footer's style: Textual's key is made compact, then bound to the footer's
                # (the palette's key is not bound: it stays compact), and each change restyled it
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget
