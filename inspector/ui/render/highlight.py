"""Syntax highlighting with Pygments tokens turned into rich Text spans (no markup, no rich.syntax)."""

from __future__ import annotations

import os
import threading
from functools import lru_cache
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Span, Text

from inspector.textsafe import clean
from inspector.ui.render.safe import DEFAULT_LIMITS, MARKER_STYLE, Limits, safe_line, split_lines

if TYPE_CHECKING:
    from pygments.lexer import Lexer

MAX_HIGHLIGHT_CHARS = 400_000
"""Above this many characters a block is shown plain: Pygments lexers can be slow on huge inputs."""

_SPECIAL_NAMES = {
    "justfile": "Makefile",
    "vagrantfile": "Ruby",
    "gemfile": "Ruby",
    "rakefile": "Ruby",
    "go.mod": "Text only",
    "go.sum": "Text only",
}
"""Lower-case file names Pygments has no pattern for -> the lexer's name."""


def lexer_for_path(path: str | None) -> Lexer | None:
    """The Pygments lexer for a file path, chosen by its name alone (cached per name, one object per
    language); None for plain text or an unknown kind of file."""
    if not path:
        return None
    name = os.path.basename(str(path).replace("\\", "/"))
    return _lexer_for_name(name) if name else None


@lru_cache(maxsize=1024)
def _lexer_for_name(name: str) -> Lexer | None:
    try:
        lexer_class = _builtin_lexer_class(name) or _builtin_lexer_class(name.lower())
    except Exception:  # noqa: BLE001 - a broken lexer module means no highlighting, never an error
        return None
    if lexer_class is None or lexer_class.name == "Text only":
        return None
    return _lexer_instance(lexer_class)


def _builtin_lexer_class(name: str):
    """The best Pygments built-in lexer class for a file name, the way Pygments ranks them.

    Only built-in lexers are considered: Pygments' own lookup also loads plugin lexers, which imports
    whole packages (IPython, jedi: ~0.3 s and a changed recursion limit) on the first call.
    """
    from fnmatch import fnmatchcase

    from pygments.lexers import find_lexer_class

    try:
        from pygments.lexers._mapping import LEXERS
    except ImportError:  # pragma: no cover - a Pygments without its mapping table
        from pygments.lexers import find_lexer_class_for_filename

        return find_lexer_class_for_filename(name)
    special = _SPECIAL_NAMES.get(name.lower())
    if special:
        return find_lexer_class(special)
    ranked = []
    for _module, lexer_name, _aliases, patterns, _mimes in LEXERS.values():
        pattern = next((p for p in patterns if fnmatchcase(name, p)), None)
        lexer_class = find_lexer_class(lexer_name) if pattern is not None else None
        if lexer_class is not None and pattern is not None:
            exact = 0.5 if "*" not in pattern else 0.0  # an exact file name beats a wildcard
            ranked.append((lexer_class.priority + exact, lexer_class.__name__, lexer_class))
    return max(ranked, key=lambda item: item[:2])[2] if ranked else None


@lru_cache(maxsize=128)
def _lexer_instance(lexer_class) -> Lexer:
    """One lexer object per language, shared by every path of that language."""
    return lexer_class(stripnl=False, ensurenl=False)


@lru_cache(maxsize=8)
def _style_class(style_name: str):
    from pygments.styles import get_style_by_name
    from pygments.util import ClassNotFound

    try:
        return get_style_by_name(style_name)
    except ClassNotFound:
        return get_style_by_name("default")


@lru_cache(maxsize=4096)
def token_style(style_name: str, token_type) -> Style:
    """The Rich style (foreground, bold, italic, underline; never a background) of a Pygments token."""
    try:
        info = _style_class(style_name).style_for_token(token_type)
    except KeyError:
        return Style.null()
    color = info.get("color")
    return Style(
        color=f"#{color}" if color else None,
        bold=info.get("bold") or None,
        italic=info.get("italic") or None,
        underline=info.get("underline") or None,
    )


def highlight_lines(
    lines: list[str], lexer: Lexer | None, style_name: str, limits: Limits = DEFAULT_LIMITS
) -> list[Text]:
    """Highlight consecutive source lines as one block (so strings and comments spanning lines work).

    Each line is cut at ``limits.line_chars`` and cleaned *before* lexing, so the lexer only ever sees
    inert text; cut lines get a visible marker. The result has exactly one Text per input line, fresh
    objects the caller may change (the work behind them is cached, so a redraw does not lex again).
    """
    if lexer is None or not lines or sum(map(len, lines)) > MAX_HIGHLIGHT_CHARS:
        return [safe_line(line, limits=limits) for line in lines]
    key = (tuple(lines), type(lexer), style_name, limits)
    cached = _CACHE.get(key)
    if cached is None:
        cached = _highlight(lines, lexer, style_name, limits)
        with _CACHE_LOCK:
            while len(_CACHE) >= _CACHE_SIZE:
                _CACHE.pop(next(iter(_CACHE)))
            _CACHE[key] = cached
    return [text.copy() for text in cached]


_CACHE: dict[tuple, list[Text]] = {}
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 32
"""Highlighted blocks kept, oldest dropped first (a block is one hunk side or one file view)."""


def _highlight(lines: list[str], lexer: Lexer, style_name: str, limits: Limits) -> list[Text]:
    cleaned = [clean(line[: limits.line_chars], keep_newlines=False) for line in lines]
    try:
        texts = _lexed_lines(cleaned, lexer, style_name)
    except Exception:  # noqa: BLE001 - a lexer bug must never break the view
        texts = None
    if texts is None:
        return [safe_line(line, limits=limits) for line in lines]
    for text, line in zip(texts, lines, strict=True):
        extra = len(line) - limits.line_chars
        if extra > 0:
            text.append(f" … ({extra:,} more chars)", MARKER_STYLE)
    return texts


def _lexed_lines(cleaned: list[str], lexer: Lexer, style_name: str) -> list[Text] | None:
    """One Text per cleaned line, styled by the lexer's tokens; None if the tokens do not match the input."""
    texts: list[Text] = []
    spans: list[Span] = []
    position = 0
    for token_type, value in lexer.get_tokens("\n".join(cleaned) + "\n"):
        style = token_style(style_name, token_type)
        if "\n" not in value:
            end = position + len(value)
            if style and end > position:
                spans.append(Span(position, end, style))
            position = end
            continue
        for index, part in enumerate(value.split("\n")):
            if index:
                if len(texts) >= len(cleaned) or position != len(cleaned[len(texts)]):
                    return None  # the tokens do not add up to the input: show it plain
                texts.append(Text(cleaned[len(texts)], spans=spans))
                spans, position = [], 0
            if part:
                if style:
                    spans.append(Span(position, position + len(part), style))
                position += len(part)
    if position or spans or len(texts) != len(cleaned):
        return None
    return texts


def highlight_code(
    code: str, path: str | None, style_name: str, limits: Limits = DEFAULT_LIMITS
) -> tuple[list[Text], int]:
    """A file's text as highlighted lines (lexer from ``path``) and how many lines were cut."""
    lines, cut = split_lines(code, limits)
    return highlight_lines(lines, lexer_for_path(path), style_name, limits), cut


def warm_up() -> None:
    """Do the one-off cost of the first lookup (Pygments scans its plugins, ~0.3 s) ahead of time.

    Safe to call from a worker thread at start-up, so the first call shown does not stall.
    """
    lexer_for_path("warm_up.py")
    token_style("monokai", _keyword())


def _keyword():
    from pygments.token import Keyword

    return Keyword
