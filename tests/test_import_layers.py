"""The import layers of docs/architecture.md hold: import-linter's contracts in setup.cfg, checked
by its own command on the code as it stands, so an upward import fails the suite."""

import os
import subprocess
import sys

# Not tests.helpers.cli_projects.ROOT: importing project code here would fail on the very
# circle an upward import makes, before the contracts could say where it is.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_import_layer_contracts_are_kept():
    linter = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    result = subprocess.run([linter, "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout
