"""The ``--help`` layout shared by the ``emucore`` commands: each option's default, where it says something."""

from __future__ import annotations

import argparse


class DefaultsHelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """argparse's defaults formatter, less "(default: None)", "(default: False)" and "(default: [])" on options
    without a default worth saying (their help says what happens without them)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        default = action.default
        if default is None or default is False or default is argparse.SUPPRESS or default == []:
            return action.help
        return super()._get_help_string(action)


def exit_status_epilog(findings: str | None, bad: str) -> str:
    """The exit status paragraph of a parser's help."""
    ones = f"1 when {findings}; " if findings else ""
    return f"Exit status: 0 on success; {ones}2 on bad arguments ({bad}), said in one line on stderr."
