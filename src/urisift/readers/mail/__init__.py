"""Reading mail (ARCHITECTURE.md, readers/: the readers): so far the mbox splitter
(:mod:`.mbox`), which streams an archive into messages."""

from .mbox import MboxMessage, split_mbox

__all__ = ["MboxMessage", "split_mbox"]
