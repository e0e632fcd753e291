"""Command-line tools (``python -m mxnet.tools.im2rec``)."""
