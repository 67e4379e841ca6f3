"""The main screen: it shows a Source, the presenter keeps it current.

It composes the filter bar, the calls pane (list, timeline, figures), the load's progress bar, the detail,
the replay bar, the status bar and the keys; each widget handles what it owns, and the screen keeps what
crosses them: the source's lifecycle (read, follow, replay's store, live state), the store's changes
flushed to the widgets, the status line, the focus, and its keys passed on to their widgets. Following's
workers run in ui/following.py, the --otlp stream in ui/spans_out.py, taking the hub's role back in the
answer screen's module.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from textual import on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from inspector.model import CallStore
from inspector.model.clock import Clock
from inspector.sources.base import Source
from inspector.sources.feeds import stop_quietly
from inspector.sources.files import Progress, source_labels
from inspector.sources.payloads import FilePayloads
from inspector.sources.replaying import ReplayControl
from inspector.textsafe import one_line
from inspector.ui import following, keys, spans_out
from inspector.ui.calls_out import CallsOut
from inspector.ui.host import host_of
from inspector.ui.presenter import MainPresenter
from inspector.ui.screens.main_messages import (
    CallsChanged,
    LoadProgress,
    SourceChanged,
)
from inspector.ui.view import RowView
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.call_rows import CallRows
from inspector.ui.widgets.calls_pane import CallsPane
from inspector.ui.widgets.detail import DetailPane
from inspector.ui.widgets.filter_bar import FilterBar
from inspector.ui.widgets.footer import SteadyFooter
from inspector.ui.widgets.loading_bar import LoadingBar
from inspector.ui.widgets.replay_bar import ReplayBar
from inspector.ui.widgets.status_bar import StatusBar

LOAD_SLICE = 0.0005
"""Seconds a file load reads before it lets the UI thread run (sources/files.py read_into)."""

FILTER_HINT = (
    'filter: tool:web_* state:failed,timed_out exec:client param:x result:y error:z -id:ab "free text"'
)


class MainScreen(Screen[None]):
    """Calls on top, the selected call below, then the replay bar, the status bar and the keys.

    Its keys work wherever the focus is on it: each is passed to the widget that owns what it changes
    (the calls pane, the detail, the replay bar, the filter bar); the screen itself keeps what crosses
    them: the source's lifecycle and following, the store's changes, the status line, the focus.
    """

    BINDINGS = keys.MAIN_BINDINGS

    def __init__(self, source: Source, *, label: str = "", hide_messages: bool = False) -> None:
        """Show ``source`` (files, a replay, a live room or hub, a store: built by the command line or the
        app); ``label`` names it in the status bar (else the files' names)."""
        super().__init__()
        self.source = source
        self.source_label = label
        self.files = source.files
        self.replaying = source.replaying
        read = self.files or self.replaying
        opened = list(read.opened) if read is not None else []
        paths = [o.path for o in opened]
        self.sources = source_labels(paths) if paths else {}
        self.view = RowView(source.store)
        self.view.hide_messages = hide_messages
        self.view.seen = 0  # rows show what the feed has taken in, never what a loader added since
        self.presenter = MainPresenter(
            self.source,
            self.view,
            self._post_changed,
            label=label,
            labels=self.sources,
            opened=opened,
        )
        self._source_stop = asyncio.Event()  # set when the screen goes: a live source stops rejoining
        self._warned = ""  # the source warning last told in a notice
        self._flush_timer: Timer | None = None
        self._otlp: Any = None  # the --otlp stream of the files' calls

    # -- layout ----------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield FilterBar(self._payloads, placeholder=FILTER_HINT, id="filter-bar")
        yield CallsPane(self.view, sources=self.sources, filtering=self._show_filtering, id="calls-pane")
        yield LoadingBar(id="loading")
        yield DetailPane(id="detail")
        yield ReplayBar(self.replaying, id="position")
        yield StatusBar(id="status")
        yield SteadyFooter()

    @property
    def calls(self) -> CallsPane:
        return self.query_one(CallsPane)

    @property
    def call_list(self) -> CallList:
        return self.calls.call_list

    @property
    def detail(self) -> DetailPane:
        return self.query_one(DetailPane)

    @property
    def calls_out(self) -> CallsOut:
        return CallsOut(self.app, host_of(self).export_dir)

    def clock_changed(self) -> None:
        """Read the (new) clock now, and show the status it gives."""
        host_of(self).tick()
        self._update_status()

    @property
    def store(self) -> CallStore:
        return self.view.store

    @property
    def replay(self) -> ReplayControl | None:
        return self.replaying.control if self.replaying is not None else None

    @property
    def following(self) -> bool:
        return self.files is not None and self.files.following

    @property
    def clock(self) -> Clock:
        """The clock this screen's countdowns follow: the source's (a replay's, a finished recording's
        end), given the app's."""
        return self.source.clock(host_of(self).clock)

    @property
    def now(self) -> float | None:
        return host_of(self).now

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys of another mode (replay transport, follow, answer) are hidden from the footer and palette."""
        return keys.means_something(action, self.source)

    @property
    def wants_fast_ticks(self) -> bool:
        """True while a visible countdown is in its last seconds or a replay is playing."""
        replay = self.replay
        playing = replay is not None and replay.replayer.playing
        panes = self.query(CallsPane)  # none while the screen is being built or torn down
        return playing or any(pane.fast_ticks for pane in panes)

    def on_mount(self) -> None:
        self.set_class(self.source.can_seek, "-replay")
        self.set_class(self.source.is_live, "-live")
        self.call_list.follow = self.source.is_live
        self.detail.now = self.now
        # now, not at the next idle moment (Widget.focus): a deferred focus would take it back from the
        # filter box when / and the keys behind it came first
        self.set_focus(self.call_list)
        self.watch(self.app, "now", self._on_tick, init=False)
        if self.replaying is not None:
            self._set_loading(True)
            self.replaying.breathe = LOAD_SLICE  # see the files' below
            self.replaying.wall = host_of(self).clock.now
        elif self.files is not None:
            self.presenter.watch(self.store)
            self._otlp = spans_out.start(self.app, self.store, self.source)  # --otlp URL
            self._set_loading(True)
            # Left alone, the loader would hold the interpreter lock 5 ms at a time (the switch
            # interval): each time the UI's loop wakes from its selector it would queue behind it (a
            # convoy). It reads in short slices and lets the lock go between them instead.
            self.files.breathe = LOAD_SLICE
        else:
            self.presenter.watch(self.store)
            self.post_message(CallsChanged())
        self._run_source()
        self._update_status()

    def _run_source(self) -> None:
        """One worker runs the source's lifecycle, whatever it is (read files, join a room...)."""
        self.source.watch_state(self._post_source_changed)
        self.source.watch_progress(self._post_progress)
        name = one_line(self.source_label or self.source.label, 60)
        self.run_worker(  # a room that goes away is joined again, with backoff
            self.source.run(self._source_stop),
            group="source",
            exit_on_error=False,
            description=f"connecting to {name}"
            if self.source.is_live
            else "reading a replay"
            if self.replaying is not None
            else "reading session files",
        )

    def _post_source_changed(self, state: object) -> None:
        self.post_message(SourceChanged())

    def on_source_changed(self, message: SourceChanged) -> None:
        replay = self.replay
        if replay is not None:  # a batch read or a pump: show the replay's store at its first batch
            if self.presenter.feed is None:
                self.presenter.watch(replay.store)
                self._set_loading(False)  # the position bar says '+' while the rest is read
            self._show_position()
        warning = self.source.state.warning
        if warning and warning != self._warned:
            self.app.notify(
                f"{warning}. Press R to take it back.", title="Hub assistant", severity="warning", timeout=15
            )
        self._warned = warning
        self._update_status()

    async def on_unmount(self) -> None:
        await self.stop_source()
        if self._otlp is not None:  # what is left goes out: unfinished calls, each conversation's span
            stream, self._otlp = self._otlp, None
            await spans_out.finish(stream)

    async def stop_source(self) -> None:
        """Stop the source (a live room is left) and its rejoining; safe to call more than once."""
        await stop_quietly(self.source, self._source_stop)

    def _post_changed(self) -> None:
        self.post_message(CallsChanged())

    # -- loading ---------------------------------------------------------------------------------
    def _post_progress(self, progress: Progress) -> None:
        self.post_message(LoadProgress(progress))

    def on_load_progress(self, message: LoadProgress) -> None:
        progress = message.progress
        self.presenter.load_progress = None if progress.finished else progress
        if not progress.finished and (self._flush_timer is not None or self.loading_bar.drawn_lately):
            return  # drawn with the list's flush, due soon, or by a later report: one frame, not two
        self._draw_progress()
        if progress.finished:
            self._loaded()
        self._update_status()

    def _set_loading(self, loading: bool) -> None:
        for bar in self.query(LoadingBar):  # none while the screen is torn down
            bar.show(loading)

    @property
    def loading_bar(self) -> LoadingBar:
        return self.query_one(LoadingBar)

    def _draw_progress(self) -> None:
        """The progress bar at the load's last report (the status bar's share is drawn with it)."""
        self.loading_bar.draw(self.presenter.load_progress)

    def _loaded(self) -> None:
        if self._flush_timer is not None:
            self._flush_timer.stop()
        self._flush_changes()  # the file's last calls show with the end of the load, not a repaint later
        self._set_loading(False)
        if self.files is not None and self.files.follow_asked and not self.following:
            self.action_toggle_follow()
        host_of(self).tick()  # judge the calls at the recording's end (or the live clock when following)

    @on(Worker.StateChanged)
    def _worker_done(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            host_of(self).worker_failed(event.worker)
        if event.worker.group in ("load", "source") and event.state in (
            WorkerState.ERROR,
            WorkerState.CANCELLED,
        ):
            self.presenter.load_progress = None
            self._set_loading(False)
            self._update_status()

    # -- replay: the bar works the replay; the screen shows the store it made and the clock ------
    @property
    def replay_bar(self) -> ReplayBar:
        return self.query_one(ReplayBar)

    def replay_apply(self, rebuilt: bool | None) -> None:
        """After a replay step or seek: follow a rebuilt store and redraw (None: there was no replay)."""
        replay = self.replay
        if replay is None or rebuilt is None:
            return
        if rebuilt:
            self.presenter.watch(replay.store)
        host_of(self).tick()
        self._show_position()

    def _show_position(self) -> None:
        if self.replay is not None:
            self.replay_bar.show_position()
            self._update_status()

    def on_replay_bar_moved(self, message: ReplayBar.Moved) -> None:
        self.replay_apply(message.rebuilt)

    def action_play_pause(self) -> None:
        self.replay_apply(self.replay_bar.play_pause())

    def action_step(self, direction: int) -> None:
        self.replay_apply(self.replay_bar.step(direction))

    def action_speed(self, direction: int) -> None:
        self.replay_apply(self.replay_bar.speed(direction))

    # -- changes ---------------------------------------------------------------------------------
    def on_calls_changed(self, message: CallsChanged) -> None:
        if self._flush_timer is not None:
            return
        wait = self.presenter.flush_wait(time.monotonic())
        if wait > 0:  # a big file loading or a flood of live packets: not as fast as they come
            self._flush_timer = self.set_timer(wait, self._flush_changes)
            return
        self._flush_changes()

    def _flush_changes(self) -> None:
        self._flush_timer = None
        redraw = self.presenter.take_changes(self.now, time.monotonic())
        if redraw is None:
            return
        selected = self.calls.show_changes(redraw)
        if selected is not None:  # the selected call changed: its detail shows what it is now
            self.detail.item = selected
        if self.presenter.load_progress is not None:
            self._draw_progress()
        self._update_status()

    def _on_tick(self, now: float) -> None:
        """The clock moved (the calls pane follows it on its own)."""
        if not self.query(DetailPane):
            return
        self.detail.tick(now)
        self._update_status()

    def _update_status(self) -> None:
        if not self.is_mounted:
            return
        replay = self.replay
        status = self.presenter.status(
            self.now,
            following=self.following if self.files is not None else None,
            replay=replay.describe() if replay is not None else None,
            waiting=self.files is not None and bool(self.files.problems),
        )
        self.query_one(StatusBar).show(status)

    # -- selection -------------------------------------------------------------------------------
    def on_call_rows_highlighted(self, message: CallRows.Highlighted) -> None:
        self.detail.now = self.now
        self.detail.item = message.item

    def on_call_rows_activated(self, message: CallRows.Activated) -> None:
        self.set_class(True, "-detail-open")
        self.detail.focus()

    # -- filter: the bar parses it, the calls pane judges the rows --------------------------------
    @property
    def filter_bar(self) -> FilterBar:
        return self.query_one(FilterBar)

    def _payloads(self) -> FilePayloads:
        """What a filter's free text and param:/result: terms search: the payloads, read again from the
        session files when the store did not keep them."""
        return FilePayloads()

    def action_filter(self) -> None:
        """Open the filter box with the focus in it at once, so the keys typed right behind ``/`` (a
        paste, a macro, a fast typist) go into the box, not to list commands.

        The key is a priority binding: the app runs it as the key arrives, before it hands the next
        keys to the focused widget (a normal binding runs once the key has gone through the list, and
        the keys behind it were already handed to the list). In the box, ``/`` is a character of the
        filter."""
        bar = self.filter_bar
        if self.focused is bar.box:
            raise SkipAction()
        bar.open()

    def apply_filter(self, text: str) -> bool:
        """Parse and apply a filter; on a mistake show where it is and keep the current filter."""
        flt = self.filter_bar.parse(text)
        if flt is None:
            return False
        self.calls.show_filter(flt)
        return True

    def on_filter_bar_chosen(self, message: FilterBar.Chosen) -> None:
        self.calls.show_filter(message.filter)
        if message.submitted:
            self.filter_bar.close()
            self.call_list.focus()

    def _show_filtering(self) -> None:
        """The detail marks what the filter shown searches for; the status bar says how far a new one is."""
        calls = self.calls
        self.presenter.judging = calls.judging
        self.detail.mark(calls.marks)
        self._update_status()

    # -- keys: each goes to the widget that owns what it changes ---------------------------------
    def action_jump(self, kind: str) -> None:
        self.calls.jump(kind)

    def action_next_match(self) -> None:
        self.calls.match(True)

    def action_prev_match(self) -> None:
        self.calls.match(False)

    def action_toggle_header(self) -> None:
        self.calls.toggle_header()

    def action_toggle_messages(self) -> None:
        self.calls.toggle_messages()
        self._update_status()

    def action_toggle_timeline(self) -> None:
        self.calls.toggle_area()

    def action_toggle_figures(self) -> None:
        self.calls.toggle_figures()

    def action_toggle_raw(self) -> None:
        self.detail.toggle_raw()

    def action_toggle_full_text(self) -> None:
        self.detail.toggle_full_text()

    def action_back(self) -> None:
        """Escape: close the filter input, then the open detail, then go back to the session browser."""
        focused = self.focused
        if isinstance(focused, Input):
            self.filter_bar.close()
            self.call_list.focus()
        elif self.has_class("-detail-open"):
            self.set_class(False, "-detail-open")
            self.call_list.focus()
        elif focused is self.detail:
            self.call_list.focus()
        elif len(self.app.screen_stack) > 1:
            self.dismiss()

    def action_focus_detail(self) -> None:
        if self.has_class("-detail-open"):  # the list is hidden: show it again rather than move it unseen
            self.set_class(False, "-detail-open")
            self.call_list.focus()
        elif self.focused is self.detail:
            self.call_list.focus()
        else:
            self.detail.focus()

    # -- copy, export, pager, answer: services and the answer screen do the work ----------------
    def action_copy(self) -> None:
        item = self.call_list.item
        if item is not None:
            self.calls_out.copy(item, self.now)

    def action_export(self) -> None:
        now = self.now
        title = f"inspector export: {self.presenter.sources_text()}"
        self.calls_out.export(self.call_list.item, lambda: self.view.matched_items(now), title, now)

    def action_pager(self) -> None:
        item = self.call_list.item
        if item is not None:
            self.calls_out.pager(item, self.now)

    def action_reclaim(self) -> None:
        from inspector.ui.screens.answer import reclaim_role

        reclaim_role(self, self.source)

    def action_answer(self) -> None:
        from inspector.ui.screens.answer import AnswerScreen

        AnswerScreen.open_for(self.app, self.source, self.call_list.item)

    # -- following: the source's files capability follows, ui/following.py runs it ---------------
    def action_toggle_follow(self) -> None:
        files = self.files
        if files is None or not files.can_follow:
            self.notify("Follow works on session files (not in a replay).", severity="warning", timeout=3)
            return
        following.toggle(self, files, self._follow_restarted, self._update_status)
        self.call_list.follow = files.following
        if files.following:
            self.calls.to_newest()
        self.clock_changed()  # a followed file is judged at the live clock, a finished one at its end

    def _follow_restarted(self) -> None:
        if self.files is not None:
            self.presenter.watch(self.files.store)  # a fresh store: the cursor and the filter stay
