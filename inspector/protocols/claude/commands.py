"""Slash commands as Claude Code writes them into a user record, as the person typed and saw them.

A command is written as markup (``<command-name>/context</command-name><command-message>context
</command-message><command-args></command-args>``) and its output as ``<local-command-stdout>…
</local-command-stdout>``; a row showed that markup raw. :func:`command_text` gives ``/context`` (with
its arguments) and the output's own text; the raw record keeps the markup.
"""

from __future__ import annotations

import re

_NAME = re.compile(r"<command-name>\s*([^<]{1,200}?)\s*</command-name>")
_ARGS = re.compile(r"<command-args>([^<]*)</command-args>", re.DOTALL)
_OUTPUT = re.compile(r"^\s*<local-command-(stdout|stderr)>(.*?)</local-command-\1>\s*$", re.DOTALL)


def command_text(text: str) -> str | None:
    """``/name args`` for a slash command's markup, the output for a local command's; None for any
    other text (left as it is)."""
    if "<command-name>" in text:
        name = _NAME.search(text)
        if name is None:
            return None
        shown = name.group(1)
        if not shown.startswith("/"):
            shown = "/" + shown
        args = _ARGS.search(text)
        if args is not None and args.group(1).strip():
            shown += " " + args.group(1).strip()
        return shown
    if "<local-command-" in text:
        output = _OUTPUT.match(text)
        if output is not None:
            said = output.group(2).strip()
            return said if said else "(no output)"
    return None
