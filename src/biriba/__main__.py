"""``python -m biriba``: the command line."""

from biriba.cli import main

raise SystemExit(main())
