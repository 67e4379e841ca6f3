"""Following a folder opened (``inspector FOLDER --follow``): a session file created there after the open
is found and followed from its top, as are the files found at the open (FileSource.follow_folders)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from claude20_factory import claude_lines

from inspector.sources import feeds
from inspector.sources.feeds import FileSource
from inspector.sources.files import open_paths

FIRST = "aaaaaaaa-0000-4000-8000-000000000001"
LATER = "bbbbbbbb-0000-4000-8000-000000000002"


async def wait_until(condition) -> bool:
    for _ in range(400):  # a condition, not a fixed sleep
        if condition():
            return True
        await asyncio.sleep(0.05)
    return False


def test_a_session_file_created_in_a_followed_folder_is_followed_from_its_top(tmp_path, monkeypatch):
    monkeypatch.setattr(feeds, "FOLDER_POLL", 0.05)
    project = tmp_path / "-w"
    project.mkdir()
    (project / f"{FIRST}.jsonl").write_text(claude_lines(FIRST, range(1)))
    files = FileSource(open_paths([str(tmp_path)]), folders=[str(tmp_path)])
    files.load(lambda progress: None)
    assert files.store.call_count == 1
    found: list[str] = []

    async def scenario() -> None:
        able, _ = files.followable()
        tasks = [asyncio.create_task(files.follow(o, lambda path: None)) for o in able]
        tasks.append(
            asyncio.create_task(files.follow_folders(lambda path: None, None, lambda o: found.append(o.path)))
        )
        try:
            later = project / f"{LATER}.jsonl"
            later.write_text("")  # created empty, as Claude Code creates it: told by the folder's layout
            assert await wait_until(lambda: found == [str(later)])
            with later.open("a") as fh:
                fh.write(claude_lines(LATER, range(2)))
            assert await wait_until(lambda: files.store.call_count == 3), files.store.call_count
            assert found == [str(later)]
            with later.open("a") as fh:  # it grows: followed like the others
                fh.write(claude_lines(LATER, range(2, 3)))
            assert await wait_until(lambda: files.store.call_count == 4)
            with (project / f"{FIRST}.jsonl").open("a") as fh:  # and the first still is
                fh.write(claude_lines(FIRST, range(1, 2)))
            assert await wait_until(lambda: files.store.call_count == 5)
            # a subagent file of the new session, written later: nested there, not a session of its own
            agents = project / LATER / "subagents"
            agents.mkdir(parents=True)
            (agents / "agent-a1.jsonl").write_text(
                claude_lines(LATER, range(7, 8)).replace('"isSidechain": false', '"isSidechain": true')
            )
            assert await wait_until(lambda: files.store.call_count == 6)
            await asyncio.sleep(0.2)
            assert found == [str(later)] and len(files.opened) == 2
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(scenario())
    assert {o.ns for o in files.opened} == {"", "1"}


def test_files_opened_by_name_are_not_a_folder_to_watch(tmp_path, monkeypatch):
    monkeypatch.setattr(feeds, "FOLDER_POLL", 0.05)
    path = tmp_path / f"{FIRST}.jsonl"
    path.write_text(claude_lines(FIRST, range(1)))
    files = feeds.feed_for(opened=open_paths([str(path)]), follow=True)
    assert isinstance(files, FileSource) and files.folders == []

    async def scenario() -> None:
        task = asyncio.create_task(files.follow_folders(lambda path: None))
        (tmp_path / f"{LATER}.jsonl").write_text(claude_lines(LATER, range(1)))
        await asyncio.sleep(0.3)
        assert task.done()  # nothing to watch
        assert len(files.opened) == 1

    files.load(lambda progress: None)
    asyncio.run(scenario())
    assert files.store.call_count == 1


@pytest.mark.parametrize("forced", [None, "claude"])
def test_the_command_line_hands_the_folders_and_the_format_to_the_source(tmp_path, forced):
    from inspector.sources.feeds import feed_for

    (tmp_path / f"{FIRST}.jsonl").write_text(claude_lines(FIRST, range(1)))
    source = feed_for(opened=open_paths([str(tmp_path)], forced), folders=[str(tmp_path)], forced=forced)
    assert isinstance(source, FileSource) and source.folders == [str(tmp_path)] and source.forced == forced
    assert isinstance(Path(source.opened[0].path), Path)
