"""Theme files: built-ins complete and identical to the user copies, clear errors, inheritance, Textual conversion."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from textual.app import App

from inspector.themes import (
    BUILTIN_THEMES,
    VARIABLES,
    ThemeError,
    available_themes,
    builtin_path,
    load_theme,
    load_theme_or_default,
    to_textual_theme,
    variable_defaults,
)

ROOT = Path(__file__).resolve().parents[1]

GOOD = """
name = "mine"
dark = false
[colors]
primary = "#112233"
background = "rgb(250, 250, 250)"
[variables]
call-failed = "#ff0000"
"""


@pytest.mark.parametrize("name", BUILTIN_THEMES)
def test_builtin_themes_define_every_variable_and_match_the_user_copies(name):
    spec = load_theme(name)
    assert set(VARIABLES) <= set(spec.variables)
    assert spec.warnings == ()
    assert {"primary", "background", "foreground", "error", "success", "warning"} <= set(spec.colors)
    packaged = Path(builtin_path(name)).read_bytes()
    assert (ROOT / "themes" / f"{name}.toml").read_bytes() == packaged


def test_user_copies_and_packaged_themes_are_the_same_set():
    assert sorted(p.name for p in (ROOT / "themes").glob("*.toml")) == sorted(
        f"{n}.toml" for n in BUILTIN_THEMES
    )


def test_a_theme_by_path_inherits_missing_variables(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(GOOD)
    spec = load_theme(str(path))
    assert spec.name == "mine" and spec.dark is False
    assert spec.variables["call-failed"] == "#ff0000"
    assert spec.variables["call-pending"] == load_theme("light").variables["call-pending"]
    assert spec.syntax_style == load_theme("light").syntax_style


def test_a_theme_by_name_is_found_in_the_user_folder(tmp_path):
    (tmp_path / "mine.toml").write_text(GOOD)
    assert load_theme("mine", search_dirs=[str(tmp_path)]).name == "mine"
    assert available_themes([str(tmp_path)]) == [*BUILTIN_THEMES, "mine"]


@pytest.mark.parametrize("name", BUILTIN_THEMES)
def test_each_builtin_syntax_style_is_a_pygments_style_and_is_not_looked_up_when_loaded(name, tmp_path):
    """A built-in theme's style is checked here, not at each start (the look-up imports Pygments'
    styles); the same file as a user theme is still checked, and a wrong style still refused."""
    from pygments.styles import get_style_by_name

    spec = load_theme(name)
    get_style_by_name(spec.syntax_style)  # raises ClassNotFound for a style Pygments does not have
    script = f"import sys; from inspector.themes import load_theme; load_theme({name!r}); print(sorted(m for m in sys.modules if m.startswith('pygments')))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    copy = tmp_path / f"{name}.toml"
    copy.write_text(Path(builtin_path(name)).read_text().replace(spec.syntax_style, "no-such-style"))
    with pytest.raises(ThemeError, match="not a Pygments style"):
        load_theme(str(copy))


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("name = 'x'\n[colors]\nprimary = ", "not valid TOML"),
        ("dark = true\n[colors]\nprimary = '#fff'", "'name'"),
        ("name = 'x'\ndark = 'yes'\n[colors]\nprimary = '#fff'", "'dark' must be true or false"),
        ("name = 'x'", "[colors] table"),
        ("name = 'x'\n[colors]\nsecondary = '#fff'", "needs 'primary'"),
        ("name = 'x'\n[colors]\nprimary = '#ggg'", "is not a colour"),
        ("name = 'x'\n[colors]\nprimary = '#fff'\nbackgrund = '#000'", "did you mean 'background'"),
        (
            "name = 'x'\n[colors]\nprimary = '#fff'\n[variables]\nsyntax-style = 'nope'",
            "not a Pygments style",
        ),
        ("name = 'x'\n[colors]\nprimary = '#fff'\n[variables]\ncall-failed = 3", "must be a string"),
        ("name = 'x'\n[colors]\nprimary = '#fff'\n[variables]\ndiff-added = 'not a colour!'", "not a colour"),
    ],
)
def test_invalid_theme_files_say_which_file_and_why(tmp_path, text, fragment):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ThemeError) as info:
        load_theme(str(path))
    assert info.value.path == str(path)
    assert fragment in info.value.reason
    assert str(path) in str(info.value)


def test_unknown_variables_are_warnings_with_a_suggestion(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text(GOOD + 'call-pendng = "#00ff00"\n')
    spec = load_theme(str(path))
    assert any("did you mean 'call-pending'" in w for w in spec.warnings)


def test_missing_theme_falls_back_with_a_message(tmp_path):
    spec, messages = load_theme_or_default("nothing-here", search_dirs=[str(tmp_path)])
    assert spec.name == load_theme("dark").name
    assert len(messages) == 1 and "nothing-here" in messages[0] and "dark" in messages[0]
    with pytest.raises(ThemeError, match="no such theme file"):
        load_theme(str(tmp_path / "absent.toml"))


def test_named_colours_textual_does_not_know_are_caught_on_conversion(tmp_path):
    path = tmp_path / "named.toml"
    path.write_text("name = 'named'\n[colors]\nprimary = 'notacolourname'\n")
    spec = load_theme(str(path))
    with pytest.raises(ThemeError, match="primary"):
        to_textual_theme(spec)


async def test_textual_theme_carries_the_variables_into_an_app():
    from textual.color import Color
    from textual.widgets import Static

    spec = load_theme("high-contrast")
    theme = to_textual_theme(spec)

    class Probe(App):
        CSS = "Static { color: $call-violation; background: $diff-added-bg; }"

        def get_theme_variable_defaults(self) -> dict[str, str]:
            return variable_defaults(dark=True)

        def compose(self):
            yield Static("x")

    app = Probe()
    async with app.run_test(size=(40, 10)) as pilot:
        app.register_theme(theme)
        app.theme = spec.name
        await pilot.pause()
        assert app.theme_variables["call-violation"] == spec.variables["call-violation"]
        assert app.theme_variables["syntax-style"] == "github-dark"
        assert app.query_one(Static).styles.color == Color.parse(spec.variables["call-violation"])
        app.theme = "textual-light"  # a theme of Textual's own gets the defaults
        await pilot.pause()
        assert app.theme_variables["call-pending"] == variable_defaults()["call-pending"]
