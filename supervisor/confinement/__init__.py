"""Where a confined session may read and write (--read-root, --write-root): the one rule, and
opening files so that a link swapped in after the check cannot redirect a read or a write."""
