"""``python -m weakfs.cli``."""

from weakfs.cli._main import main

raise SystemExit(main())
