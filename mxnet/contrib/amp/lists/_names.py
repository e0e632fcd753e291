"""Helper of the AMP lists: a whitespace-separated block of names -> list."""

__all__ = ["names"]


def names(block: str) -> list[str]:
    """Split ``block`` on whitespace, keeping the order.

    Examples
    --------
    >>> names('''FullyConnected
    ... Convolution''')
    ['FullyConnected', 'Convolution']
    """
    return block.split()
