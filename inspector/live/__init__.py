"""``inspector live``: join a LiveKit room, thread what arrives, record it, answer; headless or with the UI."""
