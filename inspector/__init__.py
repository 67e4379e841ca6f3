"""inspector: a terminal UI for the tool calls of AI agents."""

__version__ = "0.1.0"
