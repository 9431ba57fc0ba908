"""A Compound File (MS-CFB), read for its streams: the container an Outlook ``.msg`` is.

A linear reader of the specification rather than olefile, measured first: olefile opened each of the
shared samples' messages in more time than python-oxmsg takes to read their bodies (the target is
twice its speed: bench/bench_kept_mail.py), it took bytes under 1,536 for a file's name, it followed a
sector chain that loops round and round as far as the stream's size said (a 512 MB read from an 8 KB file, found by the
fuzzer), and it said nothing of either.  Here every chain is followed once with the sectors it has
visited, and each damage is said (:attr:`CompoundFile.damage`) while the rest is read:

- the header (§2.2): the signature, the sector sizes (512 or 4,096 bytes; 64-byte mini sectors),
  the first sectors of the directory, the mini FAT and the DIFAT, and the first 109 DIFAT entries;
- the FAT (§2.3), from the DIFAT (§2.5); the mini FAT (§2.4) and the mini stream (§2.6.3: the root
  entry's stream), which hold the streams under the cutoff of 4,096 bytes;
- the directory (§2.6): 128-byte entries, each storage's children a tree of siblings (§2.6.4),
  walked with a list and the entries it has met, so that a cycle is said and not followed.

A chain that loops, runs past the file or names a sector that is no sector ends there; a stream whose
size says more than its chain holds is read as far as the chain goes.  Nothing is read twice, so the
work is linear in the file's size whatever its tables say.
"""

from __future__ import annotations

import struct
import sys
from array import array
from codecs import utf_16_le_decode
from dataclasses import dataclass
from mmap import mmap

#: the signature of §2.2
SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_END, _FREE, _NOSTREAM = 0xFFFFFFFE, 0xFFFFFFFF, 0xFFFFFFFF
_MAX_REGULAR = 0xFFFFFFFA  # (MAXREGSECT: the numbers past it say what a sector is, not where)
_STORAGE, _STREAM, _ROOT = 1, 2, 5
_HEADER = struct.Struct("<8s16sHHHHH6sIIIIIIIII")
_ENTRY = struct.Struct("<64sHBBIII16sIQQIQ")


class NotCompoundFile(Exception):
    """Bytes that are no Compound File (a wrong signature, a header no writer makes)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """A directory entry (§2.6.1): its name, whether a stream, its first sector and its size."""

    name: str
    kind: int
    start: int
    size: int
    left: int
    right: int
    child: int


def _table(data: bytes) -> array[int]:
    """32-bit little-endian sector numbers as an array."""
    table = array("I")
    table.frombytes(data[: len(data) // 4 * 4])
    if sys.byteorder == "big":
        table.byteswap()
    return table


class CompoundFile:
    """The streams and storages of a Compound File (see the module doc)."""

    def __init__(self, data: bytes | mmap) -> None:
        signed = data[:len(SIGNATURE)] == SIGNATURE  # (a file mapped has no startswith)
        if len(data) < 512 or not signed:
            raise NotCompoundFile("no Compound File signature (MS-CFB §2.2)" if not signed
                                  else f"{len(data)} bytes: shorter than a Compound File's header")
        (_, _, _, major, order, shift, mini_shift, _, _, fat_sectors, first_directory, _, cutoff,
         first_minifat, minifat_sectors, first_difat, difat_sectors) = _HEADER.unpack_from(data)
        if order != 0xFFFE or shift not in (9, 12) or mini_shift != 6:
            raise NotCompoundFile(f"its header says byte order 0x{order:04X}, sectors of 2^{shift} bytes and mini "
                                  f"sectors of 2^{mini_shift}: no Compound File has those (MS-CFB §2.2)")
        self.data = data
        # what all the chains may read together: a file whose streams share their sectors (a hostile FAT) is
        # read this far and no further, so that the work stays linear in the file's size
        self.allowance = 4 * len(data) + (1 << 20)
        self.sector = 1 << shift
        self.cutoff = cutoff if cutoff else 4096
        self.damage: list[str] = []
        self.sectors = max(0, (len(data) - self.sector) // self.sector + (1 if len(data) % self.sector else 0))
        if major not in (3, 4):
            self.damage.append(f"its header says major version {major} (MS-CFB §2.2: 3 or 4); read as version 3")
        # the DIFAT: 109 entries in the header, then a chain of sectors of them, each ending with the next's number
        difat = list(_table(data[76:512]))
        sector = first_difat
        seen: set[int] = set()
        while sector <= _MAX_REGULAR and len(seen) < difat_sectors and sector not in seen:
            seen.add(sector)
            block = self._sector(sector)
            if block is None:
                self.damage.append(f"its DIFAT names sector {sector}, past the file's end")
                break
            entries = _table(block)
            difat.extend(entries[:-1])
            sector = entries[-1] if entries else _END
        fat_numbers = [s for s in difat if s <= _MAX_REGULAR][:fat_sectors or None]
        fat = array("I")
        for number in fat_numbers:
            block = self._sector(number)
            if block is None:
                self.damage.append(f"its FAT names sector {number}, past the file's end: the FAT is cut short")
                break
            fat.extend(_table(block))
        self.fat = fat
        self.entries = self._directory(first_directory)
        root = self.entries[0] if self.entries and self.entries[0].kind == _ROOT else None
        if root is None:
            raise NotCompoundFile("its directory has no root entry (MS-CFB §2.6.2)")
        self.minifat = _table(self._chain_bytes(first_minifat, self.fat, self.sector, "the mini FAT")) \
            if minifat_sectors and first_minifat <= _MAX_REGULAR else array("I")
        self.mini_stream = self._chain_bytes(root.start, self.fat, self.sector, "the mini stream") \
            if root.size and root.start <= _MAX_REGULAR else b""

    def _sector(self, number: int) -> bytes | None:
        at = (number + 1) * self.sector
        if number > _MAX_REGULAR or at >= len(self.data):
            return None
        return self.data[at:at + self.sector]

    def _chain(self, start: int, table: array[int], what: str) -> list[int]:
        """The sectors of the chain that starts at ``start`` (§2.3), each once."""
        chain: list[int] = []
        seen: set[int] = set()
        sector = start
        while sector <= _MAX_REGULAR:
            if sector in seen:
                self.damage.append(f"the chain of sectors of {what} loops back to sector {sector} (MS-CFB §2.3)")
                break
            if sector >= len(table):
                self.damage.append(f"the chain of sectors of {what} names sector {sector}, which its FAT does not "
                                   "hold")
                break
            seen.add(sector)
            chain.append(sector)
            sector = table[sector]
        return chain

    def _chain_bytes(self, start: int, table: array[int], size: int, what: str, source: bytes | None = None) -> bytes:
        blocks = []
        chain = self._chain(start, table, what)
        cost = len(chain) * size
        if cost > self.allowance:
            self.damage.append(f"{what}: its streams' chains of sectors, taken together, say more than four times "
                               "the file's bytes (they share sectors): not read")
            return b""
        self.allowance -= cost
        data = self.data if source is None else source
        skip = 1 if source is None else 0  # (the file's first sector is its header)
        # the last sector there is: one past the bytes (a sector cut short by the end is read as far as it goes)
        last = (len(data) - 1) // size - skip
        at, count = 0, len(chain)
        while at < count:
            # a run of sectors one after another (most of a stream's), read in one slice: a stream of 100 MB is
            # a few copies, not 200,000 blocks of 512 bytes and their join
            first = chain[at]
            after = at + 1
            while after < count and chain[after] == chain[after - 1] + 1:
                after += 1
            end = min(chain[after - 1], last)
            if end >= first:
                blocks.append(data[(first + skip) * size:(end + 1 + skip) * size])
            if end < chain[after - 1]:
                self.damage.append(f"{what} runs past the end of the file: cut short")
                break
            at = after
        return b"".join(blocks)

    def _directory(self, first: int) -> list[Entry]:
        raw = self._chain_bytes(first, self.fat, self.sector, "the directory")
        entries = []
        wide = self.sector == 4096
        for (name, length, kind, _, left, right, child, _, _, _, _, start, size) in _ENTRY.iter_unpack(
                raw[:len(raw) - len(raw) % 128]):
            # the codec's own function: bytes.decode looks "utf-16-le" up again for each of a file's entries
            text = utf_16_le_decode(name[:max(0, min(length, 64) - 2)], "replace")[0] if kind else ""
            entries.append(Entry(text, kind, start, size if wide else size & 0xFFFFFFFF, left, right, child))
        return entries

    def children(self, storage: int) -> dict[str, int]:
        """The entries a storage holds, by name: its child's tree of siblings (§2.6.4), walked once."""
        found: dict[str, int] = {}
        seen: set[int] = set()
        pending = [self.entries[storage].child] if storage < len(self.entries) else []
        while pending:
            index = pending.pop()
            if index == _NOSTREAM:
                continue
            if index >= len(self.entries):
                self.damage.append(f"a directory entry names entry {index}, past the directory's end")
                continue
            if index in seen:
                self.damage.append(f"directory entry {index} is met twice: the directory has a cycle (MS-CFB §2.6.4)")
                continue
            seen.add(index)
            self.allowance -= 128
            if self.allowance < 0:
                self.damage.append("the directory's trees, taken together, hold more entries than the file has: "
                                   "read no further")
                break
            entry = self.entries[index]
            if entry.kind in (_STORAGE, _STREAM):
                found.setdefault(entry.name, index)
            pending.extend((entry.right, entry.left))
        return found

    def is_stream(self, index: int) -> bool:
        return self.entries[index].kind == _STREAM

    def is_storage(self, index: int) -> bool:
        return self.entries[index].kind == _STORAGE

    def read(self, index: int) -> bytes:
        """The bytes of stream ``index``: as many as its size says, or as its chain holds."""
        entry = self.entries[index]
        if entry.size == 0:
            return b""
        what = f"stream {entry.name}"
        if entry.size < self.cutoff:
            data = self._chain_bytes(entry.start, self.minifat, 64, what, self.mini_stream)
        else:
            if entry.size > len(self.data):
                self.damage.append(f"{what} says it holds {entry.size} bytes, more than the whole file's "
                                   f"{len(self.data)}: read as far as its chain goes")
            data = self._chain_bytes(entry.start, self.fat, self.sector, what)
        if len(data) < entry.size and entry.size <= len(self.data):
            self.damage.append(f"{what} says it holds {entry.size} bytes, and its chain of sectors {len(data)}: "
                               "read as far as it goes")
        return data[:entry.size]
