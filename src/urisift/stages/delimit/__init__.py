"""Delimiting URI references in running text (url-syntax-05 Appendix E; rfc2396bis-01
Appendices E and F; rfc2141bis-urn-03 §2.5.3; ARCHITECTURE.md, Delimiting running text).

The scanner walks the text once, left to right.  One trigger pattern finds
the next place a reference may start; the rule whose branch matched
delimits it (a named-rule table dispatched on ``m.lastindex``):

==========================  ==============================================
trigger                     rule
==========================  ==============================================
``<``                       :class:`~.angle.AngleRule`: ``<...>``, ``<URL:...>``
``http://`` ... ``ftp://``  :meth:`~.bare.SchemeRule.body`, the body already matched
``:`` + a URI character     :class:`~.bare.SchemeRule`: bare ``scheme:...``, ``urn:``
``www.`` / ``ftp.``         :class:`~.bare.AbbreviatedRule`
==========================  ==============================================

Every branch begins with its literal and has an empty group after it, so
the engine still skips ahead with its fast first-character search instead
of trying each branch at every position, and the group says which rule to
run (``_TABLE`` below).  The web rows are the commonest reference of all,
a lower-case web URI; matching its scheme and body in the trigger itself
saves the look back for the scheme and a second match for the body
(measured: link-dense text 1.6x faster).  Not at a word start, or in any
other spelling, it is the scheme rule's.

The scanner and what depends on its rules (:func:`safe_cut`: where a long
text may be cut into chunks so that no reference spans the cut) are in
:mod:`.scanner`; :func:`find_references` is the library's door to it.
"""

from __future__ import annotations

from ...model import Found
from ...uri import arguments as check
from .scanner import Scanner, may_hold_absolute, may_hold_reference, registered_schemes, safe_cut, safe_line_start

__all__ = ["Found", "Scanner", "find_references", "may_hold_absolute", "may_hold_reference", "registered_schemes",
           "safe_cut", "safe_line_start"]


def find_references(text: str, *, abbreviated: bool = True, refang: bool = False) -> list[Found]:
    """Every URI reference in ``text``, in order (ARCHITECTURE.md, Delimiting running text).
    ``refang``: defanged references (``hxxps://evil[.]example``) read back, each
    as written with its refanged URI as ``expanded`` (:mod:`.refang`)."""
    check.text("find_references", "text", text)
    check.flag("find_references", "abbreviated", abbreviated)
    check.flag("find_references", "refang", refang)
    return list(Scanner(text, abbreviated=abbreviated, refang=refang))
