"""A text buffer made of the pieces written to it: ``write`` is a list's
append and the text is joined once, when taken (a pool worker's batch, the
command's output between two writes to its stream).  ``io.StringIO`` is not
used: once truncated for the next batch it copies every write into a UCS-4
buffer, measured a third of a link-dense run."""

from __future__ import annotations


class Pieces:
    """Text written as pieces, joined when taken (see the module doc)."""

    __slots__ = ("parts", "write", "size", "counted")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.write = self.parts.append
        self.size = 0  # characters in the parts counted so far
        self.counted = 0  # how many parts that is

    def holds(self, characters: int) -> bool:
        """Whether the buffer holds at least ``characters`` (each part counted once)."""
        parts = self.parts
        if self.counted < len(parts):
            self.size += sum(map(len, parts[self.counted:]))
            self.counted = len(parts)
        return self.size >= characters

    def take(self) -> str:
        """The text written since the last take."""
        text = "".join(self.parts)
        self.parts.clear()
        self.size = self.counted = 0
        return text
