"""Widgets of the inspector: the call list (line API), the detail pane and the status bars."""
