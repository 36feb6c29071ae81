"""`python -m supervisor.cli`: the `rendervisor` command, for a checkout without the console
script (the tests run it this way, with the interpreter they run under)."""

import sys

from supervisor.cli.main import main

sys.exit(main())
