import sys

from lit.cli import main

sys.exit(main())
