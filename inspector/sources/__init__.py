"""Where events come from: files, recordings, live rooms."""
