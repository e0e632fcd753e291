"""Network definitions of the benchmark tool, built with ``mx.sym``."""
