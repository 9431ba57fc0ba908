"""The images drawn on a PDF page (PDF 32000-1 §8.9: image XObjects, named in the page's /Resources
/XObject dictionary), handed to the image reader as nested content for the codes drawn in them (``--qr``):
an invoice whose only link is a QR code is an image on its page.

Each image's size is read from its dictionary (/Width, /Height, §8.9.5) before pypdf decodes it: one that
claims more than :data:`MAX_PIXELS` pixels is a defect and is not decoded, and a page's first
:data:`MAX_IMAGES` images are read.  The image is named by its resource name (``Im0``) in ``part``, and its
page stands in the records' ``page``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...model import Content, Defect, DefectKind, Kind, Origin, origin_with
from ...stages.base import BaseLayer
from ...stages.containment import Budget

#: the most pixels an image may claim to be decoded (as the image reader's own bound)
MAX_PIXELS = 40_000_000
#: the images of one page read at most
MAX_IMAGES = 32


def page_images(page: Any, number: int, origin: Origin, layer: BaseLayer, budget: Budget | None
                ) -> Iterator[Content | Defect]:
    """The images of one page, as nested content of kind image; a defect for what cannot be decoded."""
    resources = page.get("/Resources")
    resources = resources.get_object() if resources is not None else None
    objects = resources.get("/XObject") if resources is not None and hasattr(resources, "get") else None
    if objects is None:
        return
    objects = objects.get_object()
    names = [name for name in objects if _is_image(objects[name])]
    if len(names) > MAX_IMAGES:
        yield Defect(DefectKind.BOMB, f"page {number} draws {len(names)} images: its first {MAX_IMAGES} are read",
                     origin, None)
        names = names[:MAX_IMAGES]
    for name in names:
        shown = str(name).lstrip("/")
        image = objects[name].get_object()
        width, height = image.get("/Width", 0), image.get("/Height", 0)
        if not isinstance(width, int) or not isinstance(height, int) or width * height > MAX_PIXELS:
            yield Defect(DefectKind.BOMB, f"page {number}: image {shown} claims {width} × {height} pixels (bound: "
                         f"{MAX_PIXELS}): not decoded", origin, None)
            continue
        if budget is not None and not budget.inflate(width * height):
            yield budget.over_inflation(f"page {number}'s image {shown}", width * height, origin)
            return
        try:
            data = page.images[str(name)].data
        except Exception as exc:  # noqa: BLE001 - pypdf's image decoding raises what its filters raise
            yield Defect(DefectKind.BROKEN_DOCUMENT, f"page {number}: image {shown} cannot be decoded "
                         f"({type(exc).__name__}: {exc})", origin, None)
            continue
        if data:
            part = shown if origin.part is None else f"{origin.part}!/{shown}"
            yield Content(data, Kind.IMAGE, origin_with(origin, part=part), layer, budget=budget, page=number)


def _is_image(ref: Any) -> bool:
    try:
        subtype: object = ref.get_object().get("/Subtype")
        return subtype == "/Image"
    except Exception:  # noqa: BLE001 - a broken XObject is no image to read
        return False


__all__ = ["MAX_IMAGES", "MAX_PIXELS", "page_images"]
