"""``text/plain; format=flowed`` (RFC 3676): soft line breaks undone before
scanning, so that a URI the sender's client wrapped is one URI again.

A line that ends in a space is flowed into the next line of the same quote
depth (§4.2); with ``DelSp=yes`` that space was inserted by the wrapping and
is removed (§4.3), else it is kept.  The signature separator ``-- `` is never
flowed.  Space-stuffing (§4.4) is undone; quote markers (``>``) are written
once at the start of each rejoined paragraph.
"""

from __future__ import annotations


def _split_quotes(line: str) -> tuple[int, str]:
    depth = len(line) - len(line.lstrip(">"))
    content = line[depth:]
    if content.startswith(" "):
        content = content[1:]  # space-stuffed (or the space after the quote markers)
    return depth, content


def unflow(text: str, *, delsp: bool = False) -> str:
    """The text with its soft line breaks removed (see the module doc)."""
    out: list[str] = []
    paragraph: list[str] = []
    paragraph_depth = 0
    lines = text.split("\n")
    for index, raw in enumerate(lines):
        line = raw[:-1] if raw.endswith("\r") else raw
        depth, content = _split_quotes(line)
        if paragraph and depth != paragraph_depth:
            # a flowed line followed by a line of another depth ends its paragraph (§4.5)
            out.append(">" * paragraph_depth + (" " if paragraph_depth else "") + "".join(paragraph))
            paragraph = []
        flowed = content.endswith(" ") and content != "-- " and index != len(lines) - 1
        if flowed and delsp:
            content = content[:-1]
        paragraph.append(content)
        paragraph_depth = depth
        if not flowed:
            out.append(">" * depth + (" " if depth else "") + "".join(paragraph))
            paragraph = []
    if paragraph:
        out.append(">" * paragraph_depth + (" " if paragraph_depth else "") + "".join(paragraph))
    return "\n".join(out)
