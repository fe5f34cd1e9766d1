"""What the tests of every room share: stand-ins for the remote APIs, helpers that start
and watch runs, workers and `kminer` processes, and the paths of the repository.

Fixtures live in tests/conftest.py, the one conftest; a module here that defines pytest
fixtures is registered there as a plugin (`pytest_plugins`). Recorded API answers are in
tests/fixtures/.
"""
