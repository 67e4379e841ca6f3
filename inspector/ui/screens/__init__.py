"""The inspector's screens: the main view, the session browser, help, menus and the answer screen."""
