"""The command palette (ctrl+p): every action of the inspector by name, and every theme."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode

from inspector.ui import keys
from inspector.ui.screens.help import key_label

Command = tuple[str, Callable[[], object], str]


@runtime_checkable
class Themed(Protocol):
    """What the palette needs of the inspector's app (named here, so that this module needs not the app)."""

    theme_names: list[str]

    def switch_theme(self, name: str) -> None: ...


class InspectorCommands(Provider):
    """Actions of the screen the palette was opened on, app actions, and one command per theme."""

    def _commands(self) -> Iterator[Command]:
        from inspector.ui.screens.main import MainScreen
        from inspector.ui.widgets.call_list import CallList
        from inspector.ui.widgets.timeline import Timeline

        screen = self.screen
        app = self.app
        overrides = keys.overrides_of(app)
        on_main = isinstance(screen, MainScreen)
        target: DOMNode
        for key in keys.KEYS:
            if key.scope == "app":
                target = self.app
                action = key.action.removeprefix("app.")
            elif not on_main or key.scope not in ("main", "list", "timeline"):
                continue
            elif key.scope == "list":
                target = screen.query_one("#calls", CallList)
                action = key.action
            elif key.scope == "timeline":
                target = screen.query_one("#timeline", Timeline)  # zoom, pan, fit... (w shows it)
                action = key.action
            else:
                target = screen
                action = key.action
                if not screen.check_action(keys.action_name(action), ()):
                    continue  # a key of another mode (replay, follow, answer)
            keys_text = key_label(overrides.get(key.id, key.keys))
            help_text = f"{key.tooltip or key.description} · keys: {keys_text}".replace("[", "\\[")
            yield key.description, partial(target.run_action, action), help_text
        if isinstance(app, Themed):
            for name in app.theme_names:
                yield f"Theme: {name}", partial(app.switch_theme, name), "Switch to this theme"

    async def discover(self) -> Hits:
        for name, callback, help_text in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback, help_text in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
