"""Helpers the format readers share: JSON documents and heads, deep values, re-reading records, nesting files."""
