import sys

from .benchmarks import main

sys.exit(main())
