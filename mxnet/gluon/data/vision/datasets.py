"""Vision datasets."""
__all__ = []
