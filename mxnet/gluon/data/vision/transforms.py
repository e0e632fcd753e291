"""Vision transforms."""
__all__ = []
