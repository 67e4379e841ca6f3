"""Config, theme and rules files that never end or never open (issue 9 item 5): refused, never read."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from inspector.answer import rules
from inspector.config import load_config
from inspector.themes import ThemeError, load_theme

ENDLESS = ["/dev/zero", "/dev/urandom"]


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "config.fifo"
    os.mkfifo(path)
    return str(path)


def _fast(fn):
    """Run ``fn`` and fail if it took long (a blocked open or an endless read never returns)."""
    started = time.monotonic()
    value = fn()
    assert time.monotonic() - started < 10
    return value


@pytest.mark.parametrize("where", [*ENDLESS, "fifo", "big"])
def test_config_that_is_not_a_small_regular_file_is_a_notice_and_the_defaults(tmp_path, fifo, where):
    path = {"fifo": fifo, "big": str(tmp_path / "big.toml")}.get(where, where)
    if where == "big":
        (tmp_path / "big.toml").write_text('theme = "light"\n' + "# padding\n" * 200_000)
    config, notes = _fast(lambda: load_config(path))
    assert config.theme == load_config(str(tmp_path / "missing.toml"))[0].theme
    assert len(notes) == 1 and path in notes[0]
    assert "regular file" in notes[0] or "larger than" in notes[0]


@pytest.mark.parametrize("where", [*ENDLESS, "fifo"])
def test_theme_that_is_not_a_regular_file_is_a_theme_error(fifo, where):
    path = fifo if where == "fifo" else where
    with pytest.raises(ThemeError):  # refused before it is read (no such theme file, or not regular)
        _fast(lambda: load_theme(path))


@pytest.mark.parametrize("where", [*ENDLESS, "fifo"])
def test_rules_that_are_not_a_regular_file_are_a_rules_error(fifo, where):
    path = fifo if where == "fifo" else where
    with pytest.raises(rules.RulesError, match="regular file"):
        _fast(lambda: rules.load(path))


def test_answer_rules_dev_zero_exits_2_with_one_line(tmp_path):
    env = {**os.environ, "INSPECTOR_CONFIG": "/dev/zero", "LIVEKIT_URL": "ws://127.0.0.1:9"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "inspector",
            "live",
            "--no-ui",
            "--room",
            "r",
            "--api-key",
            "k",
            "--api-secret",
            "s" * 32,
            "--answer-rules",
            "/dev/zero",
            "--no-record",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "regular file" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


NESTED = {
    "array": "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
    "table": "x = " + "{a = " * 50_000 + "1" + "}" * 50_000 + "\n",
}


@pytest.mark.parametrize("shape", sorted(NESTED))
def test_toml_nested_past_the_parser_is_a_mistake_in_the_file_not_a_traceback(tmp_path, shape):
    """The TOML parser recurses: a settings file nested 100,000 deep is said to be invalid, in the
    words each kind of file uses for a mistake, like any other bad TOML (it was a RecursionError)."""
    from inspector.live import hub_tools
    from inspector.live.errors import SetupError

    path = tmp_path / "deep.toml"
    path.write_text(NESTED[shape])
    config, notes = load_config(str(path))
    assert config.theme == load_config(str(tmp_path / "missing.toml"))[0].theme
    assert len(notes) == 1 and "not valid TOML" in notes[0] and "nested too deeply" in notes[0]
    with pytest.raises(ThemeError, match="nested too deeply"):
        load_theme(str(path))
    with pytest.raises(rules.RulesError, match="nested too deeply"):
        rules.load(str(path))
    with pytest.raises(SetupError, match="nested too deeply"):
        hub_tools.load(str(path))


def test_answer_rules_nested_past_the_parser_exit_2_with_one_line(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text(NESTED["array"])
    env = {**os.environ, "INSPECTOR_CONFIG": str(path), "LIVEKIT_URL": "ws://127.0.0.1:9"}
    args = ["live", "--no-ui", "--room", "r", "--api-key", "k", "--api-secret", "s" * 32]
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", *args, "--answer-rules", str(path), "--no-record"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "nested too deeply" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_no_toml_is_parsed_but_through_loads_toml():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "inspector"
    direct = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if path.name != "smallfile.py"
        and ("tomllib.load" in path.read_text() or "tomli.load" in path.read_text())
    ]
    assert direct == []  # each would raise RecursionError on a file nested past the parser
