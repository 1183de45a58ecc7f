"""The ``emucore`` command: :mod:`~emucore.cli.dispatch` hands each subcommand to its module."""

from emucore.cli.dispatch import main

__all__ = ["main"]
