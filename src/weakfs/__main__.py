from weakfs.cli import main

raise SystemExit(main())
