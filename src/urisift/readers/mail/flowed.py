"""``text/plain; format=flowed`` (RFC 3676): soft line breaks undone before
scanning, so that a URI the sender's client wrapped is one URI again.

A line that ends in a space is flowed into the next line of the same quote
depth (§4.2); with ``DelSp=yes`` that space was inserted by the wrapping and
is removed (§4.3), else it is kept.  The signature separator ``-- `` is never
flowed.  Space-stuffing (§4.4) is undone; quote markers (``>``) are written
once at the start of each rejoined paragraph.
"""

from __future__ import annotations

from collections.abc import Iterator

#: a piece of a rejoined line: its content, the line it came from (0-based) and where it starts there
Piece = tuple[str, int, int]


def _split_quotes(line: str) -> tuple[int, str]:
    depth = len(line) - len(line.lstrip(">"))
    content = line[depth:]
    if content.startswith(" "):
        content = content[1:]  # space-stuffed (or the space after the quote markers)
    return depth, content


def _paragraphs(text: str, delsp: bool) -> Iterator[tuple[int, list[Piece]]]:
    """Each line of the rejoined text: its quote depth and the pieces it is
    joined from (see the module doc)."""
    paragraph: list[Piece] = []
    paragraph_depth = 0
    lines = text.split("\n")
    for index, raw in enumerate(lines):
        line = raw[:-1] if raw.endswith("\r") else raw
        depth, content = _split_quotes(line)
        start = len(line) - len(content)  # where the content starts on its line (past markers and stuffing)
        if paragraph and depth != paragraph_depth:
            # a flowed line followed by a line of another depth ends its paragraph (§4.5)
            yield paragraph_depth, paragraph
            paragraph = []
        flowed = content.endswith(" ") and content != "-- " and index != len(lines) - 1
        if flowed and delsp:
            content = content[:-1]
        paragraph.append((content, index, start))
        paragraph_depth = depth
        if not flowed:
            yield depth, paragraph
            paragraph = []
    if paragraph:
        yield paragraph_depth, paragraph


def _prefix(depth: int) -> str:
    """The quote markers written once at the start of a rejoined line."""
    return ">" * depth + (" " if depth else "")


def unflow(text: str, *, delsp: bool = False) -> str:
    """The text with its soft line breaks removed (see the module doc)."""
    return "\n".join(_prefix(depth) + "".join(piece[0] for piece in pieces)
                     for depth, pieces in _paragraphs(text, delsp))


def rejoined(text: str, delsp: bool) -> list[list[tuple[int, int, int]]]:
    """For each line of ``unflow(text)``: where each of its pieces starts in
    it (0-based column), and the line (0-based) and column of ``text`` it
    came from (a location names the line of the file)."""
    lines = []
    for depth, pieces in _paragraphs(text, delsp):
        column = len(_prefix(depth))
        found = [(0, pieces[0][1], 0)] if column else []
        for content, line, start in pieces:
            found.append((column, line, start))
            column += len(content)
        lines.append(found)
    return lines
