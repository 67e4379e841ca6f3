"""The Textual app of the inspector: the call list, the detail pane, the screens and their keys."""
