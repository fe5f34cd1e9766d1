"""What the `kminer` command modules share: the usage error (one line, exit 2) and the
settings of the data dir a command names."""

from __future__ import annotations

import argparse

from kminer.config import Settings, load_settings


class UsageError(Exception):
    """A user mistake: printed as one line, exit code 2."""


def command_settings(args: argparse.Namespace) -> Settings:
    try:
        return load_settings(getattr(args, "data_dir", None))
    except ValueError as exc:  # a malformed KM_* variable
        raise UsageError(str(exc)) from None
