"""The test suite, in rooms that mirror the code (README "Layout"): mining/, storage/,
activities/, workflows/, api/, browser/ and e2e/, with shared helpers in support/."""
