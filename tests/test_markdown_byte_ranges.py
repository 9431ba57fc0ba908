"""pulldown-cmark's UTF-8 byte offsets as a Markdown document's character
offsets (markup/byte_ranges.py), against the plain count they stand for: a
byte offset less the continuation bytes (10xxxxxx) before it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from urisift.readers.markup.byte_ranges import byte_offsets, same_offset


def _counted(text: str, at: int) -> int:
    encoded = text.encode("utf-8")
    return at - sum(1 for byte in encoded[:at] if byte & 0xC0 == 0x80)


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from("ab \n[]’—é😀З\u00a0"), max_size=60))
def test_each_byte_offset_is_the_characters_before_it(text: str) -> None:
    offset = byte_offsets(text)
    for at in range(len(text.encode("utf-8")) + 1):
        assert offset(at) == _counted(text, at)


def test_offsets_exactly() -> None:
    text = "a’b😀c"  # (bytes: a, three of ’, b, four of 😀, c)
    offset = byte_offsets(text)
    assert [offset(at) for at in (0, 1, 4, 5, 9, 10)] == [0, 1, 2, 3, 4, 5]
    assert offset(2) == 2  # (inside ’: its lead byte counted, as the code points before the next)
    assert byte_offsets("plain ASCII") is same_offset
