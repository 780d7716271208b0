"""``python -m phlegyas.cli`` is the ``phlegyas`` command, as ``python -m phlegyas`` is."""
import sys

from phlegyas.cli.main import main

sys.exit(main())
