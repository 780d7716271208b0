"""What every ``phlegyas`` subcommand shares: the usage-error exception and its exit status."""

EXIT_ERROR = 3  # argparse's 2 would read as deny in ``phlegyas check``


class CliError(Exception):
    """A usage or configuration problem: printed as one line, exit status 3."""
