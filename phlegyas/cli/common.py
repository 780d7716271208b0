"""What every ``phlegyas`` subcommand shares: the usage-error exception and its exit status, and the
settings that apply where the command runs."""
from __future__ import annotations

import os

EXIT_ERROR = 3  # argparse's 2 would read as deny in ``phlegyas check``


class CliError(Exception):
    """A usage or configuration problem: printed as one line, exit status 3."""


def settings_here():
    """The settings in the working directory: the environment's over the user policy's ``[settings]`` and
    ``[slack]`` (where the shared database and Slack may be named); a bad one is a CliError."""
    from phlegyas.policy.settings import ConfigError  # the gate's modules: only for the commands that need them
    from phlegyas.runtime import load_runtime

    cwd = os.getcwd()
    try:
        return load_runtime(os.environ, cwd).settings_for(cwd)
    except ConfigError as exc:
        raise CliError(f"configuration error: {exc}") from None
