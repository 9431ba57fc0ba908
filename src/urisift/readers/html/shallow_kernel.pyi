"""The depth guard's first pass in C (shallow_kernel.c): :func:`urisift.readers.html.tokens.shallow_twin` for bytes."""

MAX_DEPTH: int
ITEMS: int
WITHHELD: int

def shallow(markup: bytes, end: int | None = None, comments: list[tuple[int, int]] | None = None, /) -> bool | None: ...
