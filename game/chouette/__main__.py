import sys

from game.chouette.cli import main

sys.exit(main())
