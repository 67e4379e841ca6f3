"""The main screen: the call list over the detail pane, fed by a file load, a follow, a replay or a live source."""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, ProgressBar, Static
from textual.worker import Worker, WorkerState, get_current_worker

from inspector.model import CallStore
from inspector.model.clock import EndOfRecording
from inspector.model.events import Event
from inspector.model.filter import FilterError, parse_filter
from inspector.textsafe import one_line
from inspector.ui import keys
from inspector.ui.feed import StoreFeed, Tally
from inspector.ui.host import host_of
from inspector.ui.loading import Opened, Progress, keep_payloads_for, read_all, read_into, source_labels
from inspector.ui.replaying import ReplayControl
from inspector.ui.screens.main_actions import MainActions
from inspector.ui.screens.main_timeline import TimelineActions
from inspector.ui.view import RowView
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.detail import DetailPane
from inspector.ui.widgets.position_bar import PositionBar
from inspector.ui.widgets.status_bar import Status, StatusBar
from inspector.ui.widgets.timeline import Timeline
from inspector.ui.widgets.tool_panel import ToolFiguresPanel

LOADING_SWITCH_INTERVAL = 0.0005
"""The interpreter's thread switch interval while a file loads in a thread (seconds)."""

LOADING_REPAINT = 0.25
LIVE_REPAINT = 0.1
"""While a file loads, the list takes in new calls at most this often (seconds)."""

FILTER_HINT = 'filter: tool:web_* state:failed,timeout exec:client id:ab -group:x "free text"'


@dataclass
class Session:
    """What a main screen shows: files (``opened``), or a live ``source`` feeding ``store``."""

    opened: list[Opened] = field(default_factory=list)
    follow: bool = False
    replay: bool = False
    speed: float = 1.0
    source: Any = None
    store: CallStore | None = None
    label: str = ""


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


class ReplayReady(Message, bubble=False):
    def __init__(self, events: list[Event], namespaces: dict[int, str]) -> None:
        super().__init__()
        self.events = events
        self.namespaces = namespaces


class MainScreen(MainActions, TimelineActions, Screen):
    """Calls on top, the selected call below, then the replay bar, the status bar and the keys."""

    BINDINGS = keys.MAIN_BINDINGS

    def __init__(self, session: Session, *, hide_messages: bool = False) -> None:
        super().__init__()
        self.session = session
        paths = [o.path for o in session.opened]
        self.sources = source_labels(paths) if paths else {}
        keep = keep_payloads_for(session.opened)
        self.replay: ReplayControl | None = None
        self.store = session.store or CallStore(keep_payloads=keep)
        self.view = RowView(self.store)
        self.view.hide_messages = hide_messages
        self.view.seen = 0  # rows show what the feed has taken in, never what a loader added since
        self.tally = Tally()
        self.feed: StoreFeed | None = None
        self.following = False
        self._source_stop = asyncio.Event()  # set when the screen goes: a live source stops rejoining
        self.load_progress: Progress | None = None
        self._filter_timer: Timer | None = None
        self._flush_timer: Timer | None = None
        self._last_flush = 0.0

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Input(placeholder=FILTER_HINT, id="filter")
        yield Static("", id="filter-error")
        yield CallList(self.view, sources=self.sources, id="calls")
        yield Timeline(self.view, sources=self.sources, id="timeline")
        yield ToolFiguresPanel(id="figures")
        yield ProgressBar(total=100, show_eta=False, id="loading")
        yield DetailPane(id="detail")
        yield PositionBar(id="position")
        yield StatusBar(id="status")
        yield Footer()

    @property
    def call_list(self) -> CallList:
        return self.query_one(CallList)

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    @property
    def clock(self):
        """The clock this screen's countdowns follow: the replay's in a replay, the end of the recording for
        files that are read but not followed (a finished recording does not age), else the app's."""
        if self.replay is not None:
            return self.replay.clock
        if self.session.opened and not self.following and not self.session.replay:
            return EndOfRecording(lambda: self.store.last_ts, host_of(self).clock)
        return host_of(self).clock

    @property
    def now(self) -> float | None:
        return host_of(self).now

    @property
    def mode(self) -> str:
        """``replay``, ``live``, ``files`` or ``store`` (handed over in memory): which mode keys apply."""
        if self.session.replay:
            return "replay"
        return "live" if self.session.source is not None else "files" if self.session.opened else "store"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys of another mode (replay transport, follow, answer) are hidden from the footer and palette."""
        wanted = keys.MODE_ACTIONS.get(action)
        return wanted is None or wanted == self.mode

    @property
    def wants_fast_ticks(self) -> bool:
        """True while a visible countdown is in its last seconds or a replay is playing."""
        playing = self.replay is not None and self.replay.replayer.playing
        lists = self.query(CallList)  # none while the screen is being built or torn down
        return playing or any(call_list.fast_ticks for call_list in lists)

    def on_mount(self) -> None:
        self.set_class(self.session.replay, "-replay")
        self.set_class(bool(self.session.source), "-live")
        self.call_list.follow = bool(self.session.source)
        self.call_list.now = self.detail.now = self.now
        self.call_list.focus()
        self.watch(self.app, "now", self._on_tick, init=False)
        if self.session.replay:
            self.set_class(True, "-loading")
            self._read_replay()
        elif self.session.opened:
            self._watch_store(self.store)
            self.set_class(True, "-loading")
            self._load()
        else:
            self._watch_store(self.store)
            self.post_message(CallsChanged())
        if self.session.source is not None:
            self._start_source()
        self._update_status()

    def _start_source(self) -> None:
        source = self.session.source
        watch = getattr(source, "watch_state", None)
        if callable(watch):
            watch(lambda state: self.post_message(SourceChanged()))
        run = getattr(source, "run", None)  # a room that goes away is joined again, with backoff
        if callable(run):
            self.run_worker(
                run(self._source_stop),
                group="source",
                exit_on_error=False,
                description=f"connecting to {one_line(self.session.label, 60)}",
            )

    def on_source_changed(self, message: SourceChanged) -> None:
        self._update_status()

    async def on_unmount(self) -> None:
        self._source_stop.set()
        stop = getattr(self.session.source, "stop", None)
        if callable(stop):
            try:
                await asyncio.wait_for(stop(), 5)
            except Exception:  # noqa: BLE001 - leaving must not fail because a source would not stop
                pass

    def _watch_store(self, store: CallStore) -> None:
        self.store = store
        self.view.store = store  # a rebuild (nesting, filter, fold) flattens this store, not the first one
        if self.feed is None:
            self.feed = StoreFeed(store, self._post_changed)
        else:
            self.feed.replace_store(store)

    def _post_changed(self) -> None:
        self.post_message(CallsChanged())

    # -- loading ---------------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="load", exit_on_error=False, description="reading session files")
    def _load(self) -> None:
        worker = get_current_worker()
        # The loader holds the GIL in 5 ms slices by default: every time the UI thread's event loop waits
        # on its selector it queues behind one (a convoy), and the first screen can take seconds to come.
        # Shorter slices while loading keep the UI responsive at a small cost in throughput.
        interval = sys.getswitchinterval()
        sys.setswitchinterval(min(interval, LOADING_SWITCH_INTERVAL))
        try:
            read_into(
                self.store,
                self.session.opened,
                progress=self._post_progress,
                cancelled=lambda: worker.is_cancelled,
            )
        finally:
            sys.setswitchinterval(interval)

    def _post_progress(self, progress: Progress) -> None:
        self.post_message(LoadProgress(progress))

    @work(thread=True, exclusive=True, group="load", exit_on_error=False, description="reading a replay")
    def _read_replay(self) -> None:
        events, namespaces = read_all(self.session.opened)
        self.post_message(ReplayReady(events, namespaces))

    def on_load_progress(self, message: LoadProgress) -> None:
        progress = message.progress
        self.load_progress = None if progress.finished else progress
        self.query_one("#loading", ProgressBar).update(progress=progress.fraction * 100)
        if progress.finished:
            self._loaded()
        self._update_status()

    def _loaded(self) -> None:
        if self._flush_timer is not None:
            self._flush_timer.stop()
        self._flush_changes()  # the file's last calls show with the end of the load, not a repaint later
        self.set_class(False, "-loading")
        if self.session.follow and not self.following:
            self.action_toggle_follow()
        host_of(self).tick()  # judge the calls at the recording's end (or the live clock when following)

    @on(Worker.StateChanged)
    def _worker_done(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            host_of(self).worker_failed(event.worker)
        if event.worker.group == "load" and event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
            self.load_progress = None
            self.set_class(False, "-loading")
            self._update_status()

    def on_replay_ready(self, message: ReplayReady) -> None:
        keep = keep_payloads_for(self.session.opened)
        self.replay = ReplayControl(
            message.events,
            message.namespaces,
            host_of(self).clock.now,
            speed=self.session.speed,
            keep_payloads=keep,
        )
        self._watch_store(self.replay.store)
        self.set_class(False, "-loading")
        self.replay.play()
        self.set_interval(0.05, self._replay_pump, name="replay")
        self._update_status()

    def _replay_pump(self) -> None:
        if self.replay is not None and self.replay.replayer.playing:
            self.replay.pump()
            self._show_position()

    def replay_apply(self, rebuilt: bool) -> None:
        """After a replay step or seek: follow a rebuilt store and redraw."""
        if self.replay is None:
            return
        if rebuilt:
            self._watch_store(self.replay.store)
        host_of(self).tick()
        self._show_position()

    def _show_position(self) -> None:
        if self.replay is not None:
            replayer = self.replay.replayer
            self.query_one(PositionBar).show(replayer.position, replayer.playing, replayer.speed)
            self._update_status()

    def on_position_bar_seek(self, message: PositionBar.Seek) -> None:
        if self.replay is not None:
            self.replay_apply(self.replay.apply(self.replay.replayer.seek_fraction(message.fraction)))

    # -- changes ---------------------------------------------------------------------------------
    def on_calls_changed(self, message: CallsChanged) -> None:
        if self.feed is None or self._flush_timer is not None:
            return
        since = time.monotonic() - self._last_flush
        # a big file loading is taken a few times a second; a flood of live packets at most ten times a second
        # (a lone packet after a quiet spell shows at once), so key presses are never stuck behind repaints
        wait = (LOADING_REPAINT if self.load_progress is not None else LIVE_REPAINT) - since
        if wait > 0:
            self._flush_timer = self.set_timer(wait, self._flush_changes)
            return
        self._flush_changes()

    def _flush_changes(self) -> None:
        self._flush_timer = None
        self._last_flush = time.monotonic()
        if self.feed is None:
            return
        changes = self.feed.drain()
        self.view.seen = self.feed.seen_top
        if changes.empty:
            return
        now = self.now
        if changes.reset:
            self.tally = Tally()
            self.view.store = self.store
            self.view.folded.clear()
            self.tally.add(self.store.items)
        else:
            self.tally.add(changes.new_top)
            self.tally.add(changes.updated)
        if self.view.apply(changes, now) or changes.reset:
            self.call_list.rows_changed(reset=changes.reset)
        elif changes.updated:
            self.call_list.refresh()
        selected = self.call_list.item
        if selected is not None and any(item is selected for item in changes.updated):
            self.detail.item = selected
        self._update_status()

    def _on_tick(self, now: float) -> None:
        if not self.query(CallList):
            return
        self.call_list.now = now
        self.detail.tick(now)
        if self.view.filter is not None and self.view.filter.time_dependent:
            self.view.rebuild(now)
            self.call_list.rows_changed()
        self._update_status()

    def _update_status(self) -> None:
        if not self.is_mounted:
            return
        store = self.store
        status = Status(
            sources=self._sources_text(),
            connection=self._connection(),
            counts=self.tally.counts(self.now),
            orphans=len(store.orphans),
            malformed=len(store.malformed),
            messages=store.message_count,
            rows=len(self.view),
            follow=self.following if self.session.opened and not self.session.replay else None,
            replay=self.replay.describe() if self.replay is not None else None,
            loading=self.load_progress.fraction if self.load_progress is not None else None,
            filter=self.view.filter.text if self.view.filter is not None else "",
        )
        self.query_one(StatusBar).show(status)

    def _connection(self) -> str | None:
        state = getattr(self.session.source, "state", None)
        if state is None:
            return None
        return str(getattr(state, "label", state))

    def _sources_text(self) -> str:
        if self.session.label:
            return self.session.label
        names = list(self.sources.values())
        formats = sorted({o.module.NAME for o in self.session.opened})
        text = ", ".join(names[:3]) + (f" +{len(names) - 3}" if len(names) > 3 else "")
        return f"{text} ({', '.join(formats)})" if formats else text

    # -- selection -------------------------------------------------------------------------------
    def on_call_list_highlighted(self, message: CallList.Highlighted) -> None:
        self.detail.now = self.now
        self.detail.item = message.item

    def on_call_list_activated(self, message: CallList.Activated) -> None:
        self.set_class(True, "-detail-open")
        self.detail.focus()

    # -- filter ----------------------------------------------------------------------------------
    def action_filter(self) -> None:
        self.set_class(True, "-filtering")
        self.query_one("#filter", Input).focus()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(0.2, lambda: self.apply_filter(event.value))

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        if self._filter_timer is not None:
            self._filter_timer.stop()
        if self.apply_filter(event.value):
            self.set_class(False, "-filtering")
            self.call_list.focus()

    def apply_filter(self, text: str) -> bool:
        """Parse and apply a filter; on a mistake show where it is and keep the current filter."""
        error = self.query_one("#filter-error", Static)
        try:
            flt = parse_filter(text)
        except FilterError as exc:
            error.update(Text(f"{' ' * (exc.position + 3)}^ column {exc.position + 1}: {exc.message}"))
            self.set_class(True, "-filter-error")
            return False
        error.update("")
        self.set_class(False, "-filter-error")
        self.view.filter = None if flt.empty else flt
        self.view.rebuild(self.now)
        self.call_list.rows_changed()
        self._update_status()
        return True
