"""Files in the app: side by side, a quick first screen while loading, follow, replay, command-line errors."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

from screen_text import screen_text, wait_for
from ui_factories import SIZE, T0, file_app, request, result

from inspector.cli import main as cli_main
from inspector.config import Config
from inspector.model import CallStore, FakeClock
from inspector.protocols.format import Format
from inspector.sources.feeds import FileSource
from inspector.sources.files import Opened, Progress, read_into
from inspector.ui.app import InspectorApp
from inspector.ui.options import UiOptions
from inspector.ui.widgets.call_list import CallList
from inspector.ui.widgets.position_bar import PositionBar
from inspector.ui.widgets.status_bar import StatusBar

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"
DEMO = SAMPLES / "demo.recording.jsonl"


def rows(app) -> list:
    return app.screen.query_one(CallList).view.items


def status(app) -> str:
    return str(app.screen.query_one(StatusBar).render())


async def test_two_files_open_side_by_side_with_a_source_column():
    app = file_app([SAMPLES / "rap.jsonl", SAMPLES / "lmkit.jsonl"])
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        assert await wait_for(pilot, lambda: "get_weather" in screen_text(app))  # the list drawn on its beat
        text = screen_text(app)
        assert any("rap.jsonl" in line and "edit_file" in line for line in text.splitlines())
        assert any("lmkit.jsonl" in line and "get_weather" in line for line in text.splitlines())
        assert "(lmkit, rap)" in status(app)


async def test_the_first_calls_show_while_the_rest_is_still_loading(tmp_path):
    gate = threading.Event()
    path = tmp_path / "slow.jsonl"
    path.write_bytes(b"x" * 1000)

    def read(_path):
        for index in range(50):
            yield request(f"a{index}", ts=T0 + index)
        gate.wait(10)
        for index in range(50):
            yield result(f"a{index}", ts=T0 + index + 0.5)

    module = Format("slow", "", lambda p, h: 0, read, lambda r: [])
    source = FileSource([Opened(str(path), module, "", 1000)])
    app = InspectorApp(UiOptions(theme_dirs=[]), clock=FakeClock(T0 + 60), config=Config(), source=source)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: len(rows(app)) == 50)
        assert app.screen.has_class("-loading")  # the progress bar stands under the first screen of calls
        bar = app.screen.query_one("#loading")
        assert await wait_for(pilot, lambda: bar.display and bar.region.height == 1)
        assert "pending" in screen_text(app)
        gate.set()
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        assert await wait_for(pilot, lambda: not bar.display and bar.region.height == 0)  # and goes
        assert "succeeded 50" in status(app)


def test_read_into_reports_progress_in_time_boxed_batches(tmp_path):
    path = tmp_path / "demo.jsonl"
    shutil.copy(DEMO, path)
    from inspector.protocols import recording

    ticks = iter(i * 0.01 for i in range(10**6))
    reports: list[Progress] = []
    store = CallStore()
    read_into(
        store,
        [Opened(str(path), recording.FORMAT, "", path.stat().st_size)],
        progress=reports.append,
        clock=lambda: next(ticks),
    )
    assert reports[-1].finished and reports[-1].fraction == 1.0
    assert len(reports) <= 3  # a small file: at most a report per 0.1 s of (fake) time, plus the last
    assert store.call_count > 5


def test_read_into_lets_other_threads_run_between_slices_without_touching_the_switch_interval(
    tmp_path, monkeypatch
):
    """The app's load (breathe > 0) gives the interpreter lock up between slices of reading, so the UI's
    loop is not kept waiting; the process's switch interval, which every thread shares, stays as it was."""
    import sys
    import time

    from inspector.protocols import recording

    path = tmp_path / "demo.jsonl"
    lines = DEMO.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + "".join(lines[1:]) * 20)
    interval = sys.getswitchinterval()
    slept: list[float] = []
    real_sleep = time.sleep

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        assert sys.getswitchinterval() == interval
        real_sleep(seconds)

    monkeypatch.setattr(time, "sleep", sleep)
    for breathe in (0.0, 0.005):
        ticks = iter(i * 0.001 for i in range(10**6))
        store = CallStore()
        opened = [Opened(str(path), recording.FORMAT, "", path.stat().st_size)]
        read_into(store, opened, clock=ticks.__next__, breathe=breathe)
        # every copy's envelopes come again with their stanzaIds: a replay, threaded once and counted
        assert store.call_count + store.retransmitted > 100
        if not breathe:
            assert slept == []  # a headless read (dump, stats) runs flat out
    assert slept and set(slept) == {0}
    assert sys.getswitchinterval() == interval


async def test_follow_shows_lines_appended_to_the_file(tmp_path):
    path = tmp_path / "growing.jsonl"
    lines = DEMO.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:6]))
    app = file_app([path], follow=True)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: app.screen.following)
        before = len(rows(app))
        assert "follow on" in status(app)
        with path.open("a") as fh:
            fh.write("".join(lines[6:12]))
        assert await wait_for(pilot, lambda: len(rows(app)) > before)
        await pilot.press("F")  # F turns following off
        assert not app.screen.following and "follow off" in status(app)


async def test_replay_plays_steps_and_changes_speed_on_the_replay_clock():
    clock = FakeClock(T0)
    app = file_app([DEMO], clock=clock, replay=True)
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: app.screen.replay is not None)
        control = app.screen.replay
        assert control.replayer.playing
        assert await wait_for(pilot, lambda: "space Play/pause" in screen_text(app))
        first = len(rows(app))
        clock.advance(5)  # five seconds of the recording at 1x
        assert await wait_for(pilot, lambda: len(rows(app)) > first)
        await pilot.press("space")  # pause
        assert not control.replayer.playing
        app.tick()
        assert app.now == control.clock.now()  # countdowns follow the replay clock, not the wall
        shown = len(rows(app))
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert len(rows(app)) >= shown and control.replayer.index > 0
        index = control.replayer.index
        await pilot.press("left_square_bracket", "left_square_bracket")
        await pilot.pause()
        assert control.replayer.index < index
        await pilot.press("plus")
        assert control.replayer.speed == 2.0
        await pilot.press("plus", "plus")
        assert "instant" in status(app)
        await pilot.press("space")
        assert await wait_for(pilot, lambda: control.replayer.finished)
        assert f"{control.replayer.total}/{control.replayer.total}" in screen_text(app)
        bar = app.screen.query_one(PositionBar)
        bar.post_message(PositionBar.Seek(0.5))  # a click on the middle of the position bar
        assert await wait_for(pilot, lambda: control.replayer.index == round(control.replayer.total / 2))
        assert await wait_for(pilot, lambda: 0 < len(rows(app)) < control.replayer.total)


def test_open_with_an_unusable_path_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("INSPECTOR_CONFIG", str(tmp_path / "no-config.toml"))
    assert cli_main(["open", str(tmp_path / "missing.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.jsonl: no such file" in err
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x00\x01 not a session")
    assert cli_main([str(garbage)]) == 2
    assert "not a format the inspector reads" in capsys.readouterr().err
    assert cli_main(["open", "--replay", "--speed", "fast", str(DEMO)]) == 2


def test_follow_after_a_load_starts_where_the_load_stopped(tmp_path):
    """Lines written between the end of the load and the start of following are not missed."""
    from inspector.protocols import recording
    from inspector.sources.tail import FileTail

    path = tmp_path / "growing.jsonl"
    lines = DEMO.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:6]))
    opened = Opened(str(path), recording.FORMAT, "", path.stat().st_size)
    read_into(CallStore(), [opened])
    assert opened.reached == path.stat().st_size
    with path.open("a") as fh:  # written after the load, before following starts
        fh.write("".join(lines[6:9]))
    tail = FileTail.at_offset(str(path), opened.reached)
    got = tail.read()
    assert got.lines == [line.encode() for line in lines[6:9]]
    assert got.first_line == 7 and got.offset == opened.reached  # numbering goes on from the loaded part
