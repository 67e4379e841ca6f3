"""Theme files: load and check a TOML theme into a ThemeSpec; turn it into a Textual Theme only when asked.

A theme file has ``name``, ``dark``, a ``[colors]`` table (Textual's base colours; ``primary`` is
required) and a ``[variables]`` table (the inspector's colours per call state and diff line, and
``syntax-style``, a Pygments style name). The built-in themes live in ``inspector/themes_data/`` and a
copy of each stands in the top-level ``themes/`` folder for users to copy. This module never imports
textual at import time; ``to_textual_theme`` does, inside.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from inspector.smallfile import loads_toml, read_settings_bytes

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

if TYPE_CHECKING:
    from textual.theme import Theme

BUILTIN_THEMES = ("dark", "light", "high-contrast")
DEFAULT_THEME = "dark"

BASE_COLORS = (
    "primary",
    "secondary",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "warning",
    "error",
    "success",
    "boost",
)

COLOR_VARIABLES = (
    "call-pending",
    "call-overdue",
    "call-succeeded",
    "call-failed",
    "call-timed-out",
    "call-canceled",
    "call-denied",
    "call-orphan",
    "call-violation",
    "timeline-deadline",
    "timeline-mark",
    "timeline-gap",
    "timeline-now",
    "diff-added",
    "diff-removed",
    "diff-added-bg",
    "diff-removed-bg",
)
VARIABLES = COLOR_VARIABLES + ("syntax-style",)
"""Every variable the inspector's stylesheets and widgets use (``$call-pending`` in .tcss)."""

_TOP_KEYS = {"name", "dark", "colors", "variables"}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
_FUNCTION = re.compile(r"^(?:rgb|rgba|hsl|hsla)\([^()]*\)$")
_WORD = re.compile(r"^[a-z][a-z0-9_]*$")


class ThemeError(Exception):
    """A theme that cannot be used: ``path`` says which file, ``reason`` what is wrong."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class ThemeSpec:
    """A checked theme. ``colors`` holds the base colours given; ``variables`` every inspector variable."""

    name: str
    dark: bool
    colors: dict[str, str]
    variables: dict[str, str]
    path: str = ""
    warnings: tuple[str, ...] = field(default=())

    @property
    def syntax_style(self) -> str:
        """The Pygments style for highlighted code."""
        return self.variables.get("syntax-style", "monokai" if self.dark else "default")


# -- finding theme files -------------------------------------------------------------------------
def builtin_path(name: str) -> str:
    """The packaged file of a built-in theme."""
    return str(resources.files("inspector").joinpath("themes_data").joinpath(f"{name}.toml"))


def user_themes_dir() -> str:
    from inspector.config import themes_dir

    return themes_dir()


def available_themes(search_dirs: list[str] | None = None) -> list[str]:
    """Built-in theme names, then the names of ``*.toml`` files in the user's themes folder."""
    names = list(BUILTIN_THEMES)
    for folder in search_dirs if search_dirs is not None else [user_themes_dir()]:
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            continue
        names += [e[:-5] for e in entries if e.endswith(".toml") and e[:-5] not in names]
    return names


def resolve_theme(name_or_path: str, search_dirs: list[str] | None = None) -> str:
    """The file a theme name or path refers to; raises ThemeError when there is none."""
    if name_or_path in BUILTIN_THEMES:
        return builtin_path(name_or_path)
    expanded = os.path.expanduser(name_or_path)
    if (
        "/" in name_or_path
        or os.sep in name_or_path
        or name_or_path.endswith(".toml")
        or os.path.isfile(expanded)
    ):
        if not os.path.isfile(expanded):
            raise ThemeError(expanded, "no such theme file")
        return expanded
    folders = search_dirs if search_dirs is not None else [user_themes_dir()]
    for folder in folders:
        candidate = os.path.join(folder, f"{name_or_path}.toml")
        if os.path.isfile(candidate):
            return candidate
    known = ", ".join(available_themes(folders))
    raise ThemeError(name_or_path, f"no theme of that name (known: {known}; or give a path to a .toml file)")


# -- loading and checking ------------------------------------------------------------------------
def load_theme(name_or_path: str, search_dirs: list[str] | None = None) -> ThemeSpec:
    """Load a built-in theme by name, a user theme by name (from the themes folder) or a file by path.

    Raises ThemeError with the file and the reason when it is missing or invalid. Variables the file
    leaves out are taken from the built-in dark or light theme.
    """
    path = resolve_theme(name_or_path, search_dirs)
    try:
        data = loads_toml(read_settings_bytes(path).decode("utf-8"))
    except OSError as exc:
        raise ThemeError(path, f"cannot be read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ThemeError(path, f"not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise ThemeError(path, "not UTF-8 text") from None
    return theme_from_data(data, path)


def theme_from_data(data: dict[str, Any], path: str = "<theme>") -> ThemeSpec:
    """Check a parsed theme table and build its ThemeSpec (see load_theme)."""
    warnings = [f"{path}: unknown key {key!r} ignored" for key in data if key not in _TOP_KEYS]
    name = data.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise ThemeError(path, "'name' must be a word of letters, digits, '-', '_' or '.' (e.g. \"my-dark\")")
    dark = data.get("dark", True)
    if not isinstance(dark, bool):
        raise ThemeError(path, f"'dark' must be true or false, not {dark!r}")
    colors = _colors(data.get("colors"), path)
    builtin = os.path.abspath(path) in _builtin_paths()
    variables, more = _variables(data.get("variables", {}), path, builtin)
    warnings += more
    missing = [v for v in VARIABLES if v not in variables]
    if missing and not builtin:
        base = load_theme("dark" if dark else "light")
        variables = {**{v: base.variables[v] for v in missing}, **variables}
    return ThemeSpec(
        name=name, dark=dark, colors=colors, variables=variables, path=path, warnings=tuple(warnings)
    )


def _builtin_paths() -> set[str]:
    return {os.path.abspath(builtin_path(name)) for name in BUILTIN_THEMES}


def is_color(value: str) -> bool:
    """True for the colour syntaxes a theme may use (names are checked by Textual in to_textual_theme)."""
    value = value.strip()
    return bool(_HEX.match(value) or _FUNCTION.match(value) or _WORD.match(value))


def _colors(table: Any, path: str) -> dict[str, str]:
    if not isinstance(table, dict):
        raise ThemeError(path, "needs a [colors] table with at least 'primary'")
    colors: dict[str, str] = {}
    for key, value in table.items():
        if key not in BASE_COLORS:
            hint = _hint(key, BASE_COLORS)
            raise ThemeError(path, f"[colors] has an unknown colour {key!r}{hint}")
        if not isinstance(value, str) or not is_color(value):
            raise ThemeError(path, f'[colors] {key} = {value!r} is not a colour (e.g. "#4ea1ff")')
        colors[key] = value.strip()
    if "primary" not in colors:
        raise ThemeError(path, "[colors] needs 'primary'")
    return colors


def _variables(table: Any, path: str, builtin: bool = False) -> tuple[dict[str, str], list[str]]:
    """The ``[variables]`` table checked; a built-in theme's syntax style is not looked up (a test checks
    each one: the look-up imports Pygments' styles, 1 MB of the app's memory before any detail shows)."""
    if not isinstance(table, dict):
        raise ThemeError(path, '[variables] must be a table of name = "value"')
    variables: dict[str, str] = {}
    warnings: list[str] = []
    for key, value in table.items():
        if not isinstance(value, str):
            raise ThemeError(path, f"[variables] {key} must be a string, not {value!r}")
        value = value.strip()
        if key == "syntax-style":
            if not builtin and not _pygments_style_exists(value):
                raise ThemeError(path, f"[variables] syntax-style {value!r} is not a Pygments style")
        elif key in COLOR_VARIABLES:
            if not is_color(value):
                raise ThemeError(path, f'[variables] {key} = {value!r} is not a colour (e.g. "#4ea1ff")')
        else:
            warnings.append(
                f"{path}: [variables] {key!r} is not used by the inspector{_hint(key, VARIABLES)}"
            )
        variables[key] = value
    return variables, warnings


def _hint(word: str, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _pygments_style_exists(name: str) -> bool:
    from pygments.styles import get_style_by_name
    from pygments.util import ClassNotFound

    try:
        get_style_by_name(name)
    except ClassNotFound:
        return False
    return True


def load_theme_or_default(
    name_or_path: str | None, search_dirs: list[str] | None = None
) -> tuple[ThemeSpec, list[str]]:
    """The theme asked for, or the default theme plus a message saying why (for a notification)."""
    try:
        spec = load_theme(name_or_path or DEFAULT_THEME, search_dirs)
    except ThemeError as exc:
        return load_theme(DEFAULT_THEME), [f"{exc}; using the {DEFAULT_THEME} theme"]
    return spec, list(spec.warnings)


def variable_defaults(dark: bool = True) -> dict[str, str]:
    """The inspector's variables from the built-in dark or light theme (for App.get_theme_variable_defaults)."""
    return dict(load_theme("dark" if dark else "light").variables)


# -- Textual -------------------------------------------------------------------------------------
def to_textual_theme(spec: ThemeSpec) -> Theme:
    """A ``textual.theme.Theme`` with the spec's colours and variables (imports textual here).

    Raises ThemeError when Textual cannot parse one of the colours.
    """
    from textual.color import Color, ColorParseError
    from textual.theme import Theme

    to_check = [(f"[colors] {k}", v) for k, v in spec.colors.items()]
    to_check += [(f"[variables] {k}", spec.variables[k]) for k in COLOR_VARIABLES if k in spec.variables]
    for label, value in to_check:
        try:
            Color.parse(value)
        except ColorParseError:
            raise ThemeError(
                spec.path or spec.name, f"{label} = {value!r} is not a colour Textual knows"
            ) from None
    colors: dict[str, Any] = dict(spec.colors)
    return Theme(name=spec.name, dark=spec.dark, variables=dict(spec.variables), **colors)
