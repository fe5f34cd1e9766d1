"""The chat UI in a real browser (Debian's chromium through Playwright)."""
