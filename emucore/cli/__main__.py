"""``python -m emucore.cli``."""

import sys

from emucore.cli.dispatch import main

sys.exit(main())
