"""``python -m phlegyas`` is the ``phlegyas`` command."""
import sys

from phlegyas.cli.main import main

sys.exit(main())
