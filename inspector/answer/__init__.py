"""Answering client-executed tool requests: composing and checking answers, rules and the auto-responder.

Pure Python: nothing here imports textual or livekit. The UI uses :mod:`inspector.answer.compose`
for its answer screen; a live source sends what it returns.
"""
