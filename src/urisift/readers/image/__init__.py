"""Images (ARCHITECTURE.md, readers/: the readers): the two-dimensional codes drawn in them, with ``--qr``."""

from .reader import read_image

__all__ = ["read_image"]
