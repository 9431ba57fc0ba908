"""The optional packages an option needs (the extras of ``pyproject.toml``), looked for without importing
a reader: the command says a missing one before any input is read, and the reader says it again for the
library, as a ``missing-extra`` defect."""

from __future__ import annotations

from functools import cache
from importlib.util import find_spec

#: what --qr needs: the decoder of two-dimensional codes, and the decoder of the images they are drawn in
QR_MODULES = ("zxingcpp", "PIL")
QR_MISSING = "reading codes in images (--qr) needs zxing-cpp and Pillow: pip install 'urisift[qr]'"


@cache
def qr_missing() -> str | None:
    """Why ``--qr`` cannot read images here (the ``qr`` extra is not installed), or None when it can."""
    for module in QR_MODULES:
        try:
            if find_spec(module) is None:
                return QR_MISSING
        except (ImportError, ValueError):
            return QR_MISSING
    return None


__all__ = ["QR_MISSING", "QR_MODULES", "qr_missing"]
