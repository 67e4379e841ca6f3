"""The inspector's Textual app: themes, keys, the one clock, and the entries ``run_open`` and ``run_live``."""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.notifications import SeverityLevel
from textual.reactive import reactive
from textual.screen import Screen
from textual.worker import Worker

from inspector.config import Config
from inspector.model import CallStore, Clock, SystemClock
from inspector.sources.base import Source
from inspector.sources.feeds import feed_for
from inspector.sources.files import open_paths, share_one_heap
from inspector.textsafe import clean, one_line
from inspector.themes import (
    ThemeError,
    available_themes,
    load_theme,
    load_theme_or_default,
    to_textual_theme,
    variable_defaults,
)
from inspector.ui import keys
from inspector.ui.commands import InspectorCommands
from inspector.ui.options import UiOptions
from inspector.ui.screens.help import HelpScreen
from inspector.ui.screens.main import MainScreen

if TYPE_CHECKING:
    from inspector.live.session import LiveSession

SLOW_TICK = 0.74
"""Without a countdown near its end, ``now`` moves only when this many seconds have passed (so ~1/s)."""


@functools.lru_cache(maxsize=2)
def _variable_defaults(dark: bool) -> dict[str, str]:
    return variable_defaults(dark)


class InspectorApp(App[int]):
    """Shows sessions from files, a replay, or a live source; with no session, the session browser."""

    TITLE = "inspector"
    CSS_PATH = [
        "app.tcss",
        "main.tcss",
        "browser.tcss",
        "answer.tcss",
    ]  # one sheet per screen (default screens skip their own CSS_PATH)
    BINDINGS = keys.APP_BINDINGS
    COMMANDS = App.COMMANDS | {InspectorCommands}

    now: reactive[float] = reactive(0.0, init=False, always_update=True, repaint=False)
    """The time every countdown is drawn at: fed by one timer from ``clock`` (or a replay's clock)."""

    def __init__(
        self,
        options: UiOptions | None = None,
        *,
        clock: Clock | None = None,
        config: Config | None = None,
        warnings: list[str] | None = None,
        source: Source | None = None,
        label: str = "",
    ) -> None:
        share_one_heap()  # before any thread starts: the file is read in one (see share_one_heap)
        self.options = options or UiOptions()
        self.config = config or Config()
        self.clock: Clock = clock or SystemClock()
        self.export_dir = self.options.export_dir
        self.keymap_overrides: dict[str, str] = {}
        self.theme_names: list[str] = []
        self._startup_warnings = list(warnings or [])
        self._source = source  # what the command line opened (else options.paths, or the browser)
        self._label = label
        super().__init__()
        self.set_reactive(InspectorApp.now, self.clock.now())
        self._setup_themes()
        self._setup_keys()

    # -- themes ----------------------------------------------------------------------------------
    def get_theme_variable_defaults(self) -> dict[str, str]:
        return _variable_defaults(True)

    def _setup_themes(self) -> None:
        dirs = self.options.theme_dirs
        for name in available_themes(dirs):
            try:
                theme = to_textual_theme(load_theme(name, dirs))
            except ThemeError as exc:
                self._startup_warnings.append(str(exc))
                continue
            self.register_theme(theme)
            self.theme_names.append(theme.name)
        wanted = self.options.theme or self.config.theme
        spec, problems = load_theme_or_default(wanted, dirs)
        self._startup_warnings += problems
        try:
            theme = to_textual_theme(spec)
        except ThemeError as exc:
            self._startup_warnings.append(f"{exc}; using the default theme")
            theme = to_textual_theme(load_theme("dark"))
        self.register_theme(theme)
        if theme.name not in self.theme_names:
            self.theme_names.append(theme.name)
        self.theme = theme.name

    def switch_theme(self, name: str) -> None:
        self.theme = name
        self.notify(f"Theme {name}.", timeout=2)

    def action_cycle_theme(self) -> None:
        names = self.theme_names
        if names:
            index = names.index(self.theme) if self.theme in names else -1
            self.switch_theme(names[(index + 1) % len(names)])

    # -- keys ------------------------------------------------------------------------------------
    def _setup_keys(self) -> None:
        usable, problems = keys.check_keymap(dict(self.config.keys))
        self._startup_warnings += [f"config [keys]: {problem}; ignored" for problem in problems]
        self.keymap_overrides = usable
        if usable:
            self.set_keymap(usable)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            # one help screen, kept: opening it again is a repaint, not a new layout of every binding
            if not self.is_screen_installed("help"):
                self.install_screen(HelpScreen(), "help")
            self.push_screen("help")

    # -- start -----------------------------------------------------------------------------------
    def get_default_screen(self) -> Screen:
        if self._source is not None:
            return MainScreen(self._source, label=self._label, hide_messages=self.hide_messages)
        if self.options.paths:
            return MainScreen(self.file_source(self.options.paths), hide_messages=self.hide_messages)
        from inspector.ui.screens.browser import BrowserScreen

        return BrowserScreen(self.options.claude_dir, self.options.codex_dir, self.options.gemini_dir)

    @property
    def hide_messages(self) -> bool:
        return self.options.hide_messages or self.config.hide_messages

    def file_source(self, paths: list[str], notes: list[str] | None = None) -> Source:
        """The source reading ``paths`` as the options ask (raises UnusableInput when one cannot be opened);
        what a folder's files are, when it should be said (subagents whose session is missing), to ``notes``."""
        options = self.options
        return feed_for(
            opened=open_paths(paths, options.format, [], notes),  # a folder's unreadable file: said at start
            follow=options.follow or self.config.follow,
            replay=options.replay,
            speed=options.speed,
            folders=[path for path in paths if os.path.isdir(path)],
            forced=options.format,
        )

    def open_paths(self, paths: list[str], said: list[str] | None = None) -> None:
        """Open session files on a new main screen (from the session browser); ``said``: what to tell of
        them besides what opening them finds (subagent files whose session is missing)."""
        from inspector.sources.session import UnusableInput

        notes: list[str] = []
        try:
            source = self.file_source(paths, notes)
        except UnusableInput as exc:
            self.notify(one_line(str(exc), 300), severity="error", timeout=6)
            return
        self.push_screen(MainScreen(source, hide_messages=self.hide_messages))
        for note in dict.fromkeys([*(said or []), *notes]):  # subagents shown without their missing session
            self.notify(one_line(note, 400), severity="warning", timeout=8)

    def on_mount(self) -> None:
        for warning in self._startup_warnings:
            self.notify(one_line(warning, 400), title="Settings", severity="warning", timeout=8)
        for note in self.options.opening:
            self.notify(one_line(note, 400), title="Opening", severity="warning", timeout=8)
        self.set_interval(self.options.tick, self._timer_tick, name="clock")
        source = self._source
        if source is not None and source.is_live:
            self._quit_on_sigint()
        if not self.is_headless:  # a real terminal: quit when it goes (SIGHUP, or a hang-up without one)
            from inspector.ui.hangup import HangupWatch

            self._hangup = HangupWatch(self, self._hung_up)
            self._hangup.start()

    def on_unmount(self) -> None:
        hangup = getattr(self, "_hangup", None)
        if hangup is not None:
            hangup.stop()

    def _hung_up(self) -> None:
        """The terminal is gone: leave a live room, then quit (exit status 129, as after SIGHUP)."""
        from inspector.ui.hangup import EXIT_HANGUP

        self.run_worker(self._leave_then_exit(EXIT_HANGUP), group="quit", exclusive=True)

    def _quit_on_sigint(self) -> None:
        """SIGINT (a stop the supervisor forwards, or its death: ``kill -9`` of ``inspector live``) quits as
        ``q`` does, so the room is left: a real LiveKit server keeps a participant whose connection just
        ended for about 30 s, in case it resumes. The terminal's Ctrl+C stays a key (raw mode)."""
        import asyncio
        import signal

        def leave() -> None:
            self.run_worker(self._leave_then_exit(), group="quit", exclusive=True)

        try:
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, leave)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no such signal
            pass

    async def _leave_then_exit(self, return_code: int = 0) -> None:
        """Leave the room first, then quit: left to the teardown, leaving raced the cancelled workers and
        the process's end, and a real server kept the participant ~20 s one time in two."""
        screen = self._main_screen()
        if screen is not None and screen.source is not None and screen.source.is_live:
            await screen.stop_source()
        self.exit(return_code=return_code)

    async def action_quit(self) -> None:
        """``q``: a live room is left before the app closes."""
        await self._leave_then_exit()

    # -- the clock -------------------------------------------------------------------------------
    def _main_screen(self) -> MainScreen | None:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, MainScreen):
                return screen
        return None

    def _timer_tick(self) -> None:
        """Every ``tick`` seconds: move ``now`` when a countdown is near its end, else about once a second."""
        self.tick(force=False)

    def tick(self, force: bool = True) -> None:
        """Read the clock into ``now`` (the timer calls this; tests call it after moving a FakeClock)."""
        screen = self._main_screen()
        clock: Any = screen.clock if screen is not None else self.clock
        now = clock.now()
        if (
            not force
            and abs(now - self.now) < SLOW_TICK
            and not (screen is not None and screen.wants_fast_ticks)
        ):
            return
        self.now = now

    # -- notifications ---------------------------------------------------------------------------
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Notifications carry paths, ids and errors from sessions and settings: never read as markup, and
        made inert here, the one way every notice goes (an export folder or a path named with ESC or bidi
        controls reached the terminal through 'Wrote ... to PATH')."""
        super().notify(
            clean(message), title=one_line(title, 120), severity=severity, timeout=timeout, markup=False
        )

    def action_help_quit(self) -> None:
        """ctrl+c does not quit: say which key does, in plain words (Textual's own notice is markup)."""
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(f"Press {key} to quit the app", title="Do you want to quit?")
                return

    # -- failures --------------------------------------------------------------------------------
    def worker_failed(self, worker: Worker) -> None:
        """The one place a failed worker becomes a message to the person."""
        error = worker.error
        what = worker.description or worker.name or "a background task"
        self.notify(
            f"{one_line(what, 80)} failed: {one_line(str(error) or type(error).__name__, 300)}",
            title="Error",
            severity="error",
            timeout=10,
        )


def run_open(
    options: UiOptions,
    config: Config | None = None,
    warnings: list[str] | None = None,
    source: Source | None = None,
) -> int:
    """Run the app on ``source`` (the files the command line opened), else on ``options.paths``, or the
    session browser when there are none."""
    app = InspectorApp(options, config=config, warnings=warnings, source=source)
    app.run()
    return app.return_code or 0


def show_session(session: LiveSession) -> int:
    """The UI on a live session's source and store, until the user quits (``live``, ``demo``, the hub)."""
    return run_live(session.source, session.store, UiOptions())


def run_live(
    source: Source,
    store: CallStore,
    options: UiOptions | None = None,
    config: Config | None = None,
    warnings: list[str] | None = None,
) -> int:
    """Run the app on a live source (``inspector live``); ``store`` is the one it feeds (``source.store``).
    Reads the config when not given."""
    if config is None:
        from inspector.config import load_config

        config, found = load_config()
        warnings = [*(warnings or []), *found]
    room = source.state.room
    label = f"room {room}" if room else source.label or source.name or "live"
    app = InspectorApp(options, config=config, warnings=warnings, source=source, label=label)
    app.run()
    return app.return_code or 0
