"""An image written in a ``data:`` URI (RFC 2397), as the bytes the image reader decodes (``--qr``): an
HTML ``<img src="data:image/png;base64,...">`` is how a mail puts a code in its body without an attachment."""

from __future__ import annotations

import base64
import binascii
from urllib.parse import unquote_to_bytes

from ..model import Kind
from .media import kind_of

#: the most bytes a data: image is decoded to (a page's worth of image; what is larger is passed over)
MAX_BYTES = 16 << 20


def data_image(uri: str) -> tuple[str, bytes] | None:
    """The media type and bytes of a ``data:`` URI that holds an image of a kind the image reader takes
    (RFC 2397 §3: ``data:[<mediatype>][;base64],<data>``), else None (another type, a broken encoding)."""
    if uri[:11].lower() != "data:image/":
        return None
    comma = uri.find(",", 5)
    if comma == -1:
        return None
    head, payload = uri[5:comma], uri[comma + 1:]
    media = head.split(";", 1)[0].strip().lower()
    if kind_of(media) is not Kind.IMAGE or len(payload) > MAX_BYTES * 4 // 3 + 4:
        return None
    try:
        if head.lower().endswith(";base64"):
            # (white space and percent-encoding are what mail and editors put in one: both undone)
            data = base64.b64decode("".join(unquote_to_bytes(payload).decode("ascii", "replace").split()) + "==",
                                    validate=False)
        else:
            data = unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None
    return media, data


__all__ = ["MAX_BYTES", "data_image"]
