"""Every snapshot file belongs to a test, and every snapshot test has its file.

This is the project's unused-snapshot check. syrupy's own (under pytest-textual-snapshot) is a warning
(``--snapshot-warn-unused`` in the addopts) because it cannot tell here: under pytest-xdist it does not
run at all, and without xdist syrupy 4.8 counts the snapshot of a test that skipped (the corpus snapshots
on a clone without ../shared) as unused and fails the whole run. This test asks pytest for the snapshot
tests of each module (skipped or not, selected or not) and compares them with the files on disk.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_textual_snapshot import SVGImageExtension
from syrupy.location import PyTestLocation

SNAPSHOTS = Path(__file__).resolve().parent / "__snapshots__"


def _items(collector: pytest.Collector):
    for node in collector.collect():
        if isinstance(node, pytest.Item):
            yield node
        elif isinstance(node, pytest.Collector):
            yield from _items(node)


def expected_files(session: pytest.Session, module: Path) -> set[Path]:
    """Where each snapshot test of ``module`` keeps its file, as pytest-textual-snapshot names it."""
    if not module.is_file():
        return set()
    found = set()
    for item in _items(pytest.Module.from_parent(session, path=module)):
        if "snap_compare" in getattr(item, "fixturenames", ()):
            location = PyTestLocation(item)
            folder = Path(SVGImageExtension.dirname(test_location=location))
            name = SVGImageExtension.get_snapshot_name(test_location=location, index=0)
            found.add(folder / f"{name}.svg")
    return found


def test_every_snapshot_file_belongs_to_a_test_and_every_snapshot_test_has_one(request):
    folders = sorted(path for path in SNAPSHOTS.iterdir() if path.is_dir())
    assert folders, f"no snapshot folders under {SNAPSHOTS}"
    on_disk = {path for folder in folders for path in folder.iterdir()}
    expected: set[Path] = set()
    for folder in folders:
        expected |= expected_files(request.session, SNAPSHOTS.parent / f"{folder.name}.py")
    orphans = sorted(str(path.relative_to(SNAPSHOTS)) for path in on_disk - expected)
    assert not orphans, f"snapshot files no test uses (delete them or rename them with their test): {orphans}"
    missing = sorted(str(path.relative_to(SNAPSHOTS)) for path in expected - on_disk)
    assert not missing, f"snapshot tests without a file (pytest --snapshot-update writes it): {missing}"
