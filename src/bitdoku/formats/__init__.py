"""Text in and out: one module a format, and a reader that streams puzzle files."""
