"""The user's config file: theme, key overrides and defaults; a bad file gives warnings and defaults, never a crash.

The file is TOML at ``platformdirs.user_config_dir("inspector")/config.toml`` (``INSPECTOR_CONFIG``
names another file)::

    theme = "dark"            # a built-in name (dark, light, high-contrast), a file in themes/, or a path
    hide_messages = false     # start with conversation messages hidden
    follow = false            # follow files as they grow
    list_header = false       # a header row above the list (H shows or hides it)
    replay_speed = 1          # 1, 2, 10 or "instant"
    claude_dir = "~/somewhere/.claude"   # where Claude Code sessions are looked for (INSPECTOR_CLAUDE_DIR wins)

    [keys]
    # action id = "key1,key2" (Textual key names); replaces the default keys of that action
    "filter" = "/,ctrl+f"
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector.model.replay import SPEEDS, parse_speed
from inspector.smallfile import loads_toml, read_settings_bytes
from inspector.userpath import create_new

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

ENV_CONFIG = "INSPECTOR_CONFIG"
APP_NAME = "inspector"

_KEY_NAME = re.compile(r"^\S+$")

DEFAULT_CONFIG_TEXT = """\
# inspector configuration (TOML). Every setting is optional.

# theme: a built-in name (dark, light, high-contrast), the name of a file in the themes/ folder
# next to this file, or a path to a .toml theme file.
theme = "dark"

# Start with conversation messages hidden.
hide_messages = false

# Follow session files as they grow.
follow = false

# A header row above the list naming its columns (H shows or hides it).
list_header = false

# Replay speed: 1, 2, 10 or "instant".
replay_speed = 1

# Where Claude Code sessions are looked for (the INSPECTOR_CLAUDE_DIR environment variable wins).
# claude_dir = "/path/to/.claude"

[keys]
# action id = "key1,key2" replaces the default keys of that action, e.g.:
# filter = "/,ctrl+f"
"""


@dataclass
class Config:
    """Settings after validation; every field has a usable value."""

    theme: str = "dark"
    hide_messages: bool = False
    follow: bool = False
    list_header: bool = False
    replay_speed: float = 1.0
    claude_dir: str | None = None
    keys: dict[str, str] = field(default_factory=dict)
    path: str | None = None

    def key_list(self, action: str) -> list[str] | None:
        """The keys configured for ``action`` as a list, or None to keep the defaults."""
        value = self.keys.get(action)
        return None if value is None else [k.strip() for k in value.split(",") if k.strip()]


def config_path(env: Mapping[str, str] | None = None) -> str:
    """Where the config file is read from: ``$INSPECTOR_CONFIG`` or the platform's config folder."""
    env = os.environ if env is None else env
    override = env.get(ENV_CONFIG)
    if override:
        return os.path.expanduser(override)
    import platformdirs

    return os.path.join(platformdirs.user_config_dir(APP_NAME), "config.toml")


def themes_dir(env: Mapping[str, str] | None = None) -> str:
    """The folder of user theme files: ``themes/`` next to the config file."""
    return os.path.join(os.path.dirname(config_path(env)), "themes")


def load_config(path: str | None = None, env: Mapping[str, str] | None = None) -> tuple[Config, list[str]]:
    """Read the config; returns the settings and warnings to show (a missing file is not a warning).

    Settings that are invalid are reported and replaced by their defaults; the others still apply.
    """
    path = path or config_path(env)
    config = Config(path=path)
    try:
        data = loads_toml(read_settings_bytes(path).decode("utf-8"))
    except FileNotFoundError:
        return config, []
    except IsADirectoryError:
        return config, [f"{path}: is a folder, not a config file; using the defaults"]
    except OSError as exc:
        return config, [f"{path}: cannot be read ({exc.strerror or exc}); using the defaults"]
    except tomllib.TOMLDecodeError as exc:
        return config, [f"{path}: not valid TOML ({exc}); using the defaults"]
    except UnicodeDecodeError:
        return config, [f"{path}: not UTF-8 text; using the defaults"]
    return config, apply_settings(config, data, path)


def apply_settings(config: Config, data: Mapping[str, Any], where: str = "config") -> list[str]:
    """Copy the valid settings of a parsed TOML table into ``config``; returns a warning per bad one."""
    warnings: list[str] = []

    def bad(key: str, reason: str) -> None:
        warnings.append(f"{where}: {key}: {reason}; using the default")

    for key, value in data.items():
        if key == "theme":
            if isinstance(value, str) and value.strip():
                config.theme = value.strip()
            else:
                bad(key, "must be a theme name or a path")
        elif key in ("hide_messages", "follow", "list_header"):
            if isinstance(value, bool):
                setattr(config, key, value)
            else:
                bad(key, f"must be true or false, not {value!r}")
        elif key == "replay_speed":
            speed = _speed(value)
            if speed is None:
                bad(key, f'must be one of 1, 2, 10, "instant", not {value!r}')
            else:
                config.replay_speed = speed
        elif key == "claude_dir":
            if isinstance(value, str) and value.strip():
                config.claude_dir = os.path.expanduser(value.strip())
            else:
                bad(key, "must be a folder path")
        elif key == "keys":
            warnings.extend(_apply_keys(config, value, where))
        else:
            warnings.append(f"{where}: unknown setting {key!r} ignored")
    return warnings


def _speed(value: Any) -> float | None:
    """A replay speed the player offers (1, 2, 10 or instant), else None."""
    try:
        speed = parse_speed(value)
    except ValueError:
        return None
    return speed if speed in SPEEDS else None


def _apply_keys(config: Config, table: Any, where: str) -> list[str]:
    if not isinstance(table, dict):
        return [f'{where}: [keys] must be a table of action = "key1,key2"; ignored']
    warnings = []
    for action, value in table.items():
        if not isinstance(value, str):
            warnings.append(f'{where}: keys.{action}: must be a string like "ctrl+f,/"; ignored')
            continue
        keys = [k.strip() for k in value.split(",")]
        bad = [k for k in keys if not k or not _KEY_NAME.match(k) or not k.isprintable()]  # no ESC, no BEL
        if bad or not keys:
            warnings.append(f"{where}: keys.{action}: {value!r} is not a comma-separated key list; ignored")
            continue
        config.keys[action] = ",".join(keys)
    return warnings


def write_default_config(path: str | None = None) -> str:
    """Create a commented config file if none exists; returns its path."""
    path = path or config_path()
    if not os.path.lexists(path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with contextlib.suppress(FileExistsError), create_new(path) as fh:
            fh.write(DEFAULT_CONFIG_TEXT)
    return path
