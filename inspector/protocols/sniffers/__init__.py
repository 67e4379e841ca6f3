"""Format sniffers kept apart from their readers: detecting a file's format imports these small modules
only, and a format's reader is imported when a file of that format is read."""
