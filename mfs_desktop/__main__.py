from mfs_desktop.cli import main

raise SystemExit(main())
