"""The config file: where it lives, what it sets, and that a bad one only warns and falls back to defaults."""

from __future__ import annotations

import subprocess
import sys

import pytest

from inspector.config import (
    DEFAULT_CONFIG_TEXT,
    ENV_CONFIG,
    Config,
    config_path,
    load_config,
    themes_dir,
    write_default_config,
)
from inspector.model.replay import INSTANT


def write(tmp_path, text: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_env_overrides_the_platform_location(tmp_path):
    target = str(tmp_path / "c.toml")
    assert config_path({ENV_CONFIG: target}) == target
    assert themes_dir({ENV_CONFIG: target}) == str(tmp_path / "themes")
    assert config_path({}).endswith("config.toml")


def test_missing_file_gives_defaults_without_warnings(tmp_path):
    config, warnings = load_config(str(tmp_path / "none.toml"))
    assert warnings == []
    assert config.theme == "dark" and config.follow is False and config.replay_speed == 1.0


def test_every_setting_is_read(tmp_path):
    path = write(
        tmp_path,
        """
theme = "light"
hide_messages = true
follow = true
replay_speed = "instant"
claude_dir = "~/elsewhere"

[keys]
filter = "/, ctrl+f"
"app.quit" = "q"
""",
    )
    config, warnings = load_config(path)
    assert warnings == []
    assert (config.theme, config.hide_messages, config.follow) == ("light", True, True)
    assert config.replay_speed == INSTANT
    assert config.claude_dir.endswith("elsewhere") and "~" not in config.claude_dir
    assert config.key_list("filter") == ["/", "ctrl+f"]
    assert config.key_list("app.quit") == ["q"]
    assert config.key_list("other") is None
    assert config.path == path


def test_env_variable_selects_the_file(tmp_path, monkeypatch):
    path = write(tmp_path, "replay_speed = 10\n")
    monkeypatch.setenv(ENV_CONFIG, path)
    assert load_config()[0].replay_speed == 10.0


def test_broken_toml_is_a_warning_and_the_defaults(tmp_path):
    path = write(tmp_path, "theme = \n")
    config, warnings = load_config(path)
    assert config == Config(path=path)
    assert len(warnings) == 1 and "not valid TOML" in warnings[0] and path in warnings[0]


def test_invalid_settings_fall_back_one_by_one(tmp_path):
    path = write(
        tmp_path,
        """
theme = "high-contrast"
follow = "yes"
replay_speed = 3
hide_messages = true
colour = "red"

[keys]
filter = 5
search = "ctrl+s,,x"
help = "?"
""",
    )
    config, warnings = load_config(path)
    assert config.theme == "high-contrast" and config.hide_messages is True
    assert config.follow is False and config.replay_speed == 1.0
    assert config.keys == {"help": "?"}
    joined = "\n".join(warnings)
    for fragment in (
        "follow: must be true or false",
        "replay_speed: must be one of",
        "unknown setting 'colour'",
        "keys.filter",
        "keys.search",
    ):
        assert fragment in joined
    assert len(warnings) == 5


@pytest.mark.parametrize("text", ["keys = 3\n", "theme = 7\n", "claude_dir = ''\n"])
def test_wrong_types_never_raise(tmp_path, text):
    config, warnings = load_config(write(tmp_path, text))
    assert len(warnings) == 1 and isinstance(config, Config)


def test_unreadable_paths_are_warnings(tmp_path):
    config, warnings = load_config(str(tmp_path))
    assert "is a folder" in warnings[0] and config.theme == "dark"
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b"theme = '\xe9'\n")
    assert load_config(str(bad))[1]


def test_default_config_text_is_valid_and_written_once(tmp_path):
    path = str(tmp_path / "sub" / "config.toml")
    assert write_default_config(path) == path
    config, warnings = load_config(path)
    assert warnings == [] and config.theme == "dark"
    (tmp_path / "sub" / "config.toml").write_text("theme = 'light'\n")
    write_default_config(path)
    assert load_config(path)[0].theme == "light"
    assert "[keys]" in DEFAULT_CONFIG_TEXT


def test_config_and_themes_import_without_textual():
    code = (
        "import sys, inspector.config, inspector.themes, inspector.model.filter, inspector.model.replay, "
        "inspector.sources.tail; inspector.themes.load_theme('dark'); "
        "print(any(m.split('.')[0] == 'textual' for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
