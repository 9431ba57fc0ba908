"""What the output asks the scan to compute (pay only for what is
asked; ARCHITECTURE.md, Pushdown).  The keys a run writes (``--fields``, the format, the options that
read a key) travel down to the readers as a set of *needs*; work whose result
no written key holds is not done, and a record's field that was not computed
reads ``False`` (never a None or an empty tuple that would read as "none").
What is computed is the same whatever was asked.

Vocabulary: it imports nothing of the pipeline, so that every reader and the
record step can ask it.
"""

from __future__ import annotations

#: what making a record may do beyond finding the reference and resolving it
#: (RFC 3986 §5.2), each done only when a key the output writes needs it
POSITIONS = "positions"  # where it stands: span, line, column (HTML searches the source for them)
BROWSER = "browser"  # what the WHATWG URL parser gives (ada-url), where the kind computes it
RISKS = "risks"  # the invalid flag, RFC 3986 §7, differs, deceptive text, broken wrappers
UNWRAP = "unwrap"  # the URL behind a wrapper
ANCHOR = "anchor"  # an HTML link's visible text
POINTS_TO = "points-to"  # the part of a message a target names (mail)
REGION = "region"  # where on an HTML page a link stands (costs a walk of the whole tree)
#: what every key of the contract needs; ``region``, like ``context`` and ``normalized``,
#: is a key a run adds when asked (--fields naming it, --region), never by default
EVERYTHING = frozenset({POSITIONS, BROWSER, RISKS, UNWRAP, ANCHOR, POINTS_TO})

#: the keys of a record (urisift.output.RECORD_KEYS, which a test holds equal) and
#: those a run may add, in output order
KEYS = (
    "uri", "target", "alternatives", "base", "base_source", "style", "where", "element", "attribute",
    "header", "file", "message", "message_id", "part", "offset", "warc_record_id", "warc_target_uri",
    "warc_date", "rel", "text", "span", "line", "column", "flags", "charset", "charset_source", "risks",
    "points_to", "browser_target", "unwrapped", "wrapper", "effective_target", "effective_hops", "effective_status",
    "effective_loop", "page", "member", "region", "context", "normalized", "file_line", "file_column",
)
#: key -> what writing it needs done (the other keys need nothing beyond the scan itself)
KEY_NEEDS: dict[str, frozenset[str]] = {
    "span": frozenset({POSITIONS}), "line": frozenset({POSITIONS}), "column": frozenset({POSITIONS}),
    "context": frozenset({POSITIONS}),
    # where the reference stands in the file itself: its line and column there (ScanOptions.locations)
    "file_line": frozenset({POSITIONS}), "file_column": frozenset({POSITIONS}),
    "browser_target": frozenset({BROWSER}),
    # differs needs the browser's URL, deceptive text the link's text, broken-wrapper the unwrapping
    "risks": frozenset({RISKS, BROWSER, ANCHOR, UNWRAP}),
    "unwrapped": frozenset({UNWRAP}), "wrapper": frozenset({UNWRAP}),
    "text": frozenset({ANCHOR}),
    "points_to": frozenset({POINTS_TO}),
    "region": frozenset({REGION}),
}


def needs_of(fields: frozenset[str] | None) -> frozenset[str]:
    """What a record must have computed for the keys ``fields`` (None: every
    key of the contract, not the ones a run adds: region, context, normalized)."""
    if fields is None:
        return EVERYTHING
    return frozenset().union(*(KEY_NEEDS.get(key, frozenset()) for key in fields))


__all__ = ["ANCHOR", "BROWSER", "EVERYTHING", "KEYS", "KEY_NEEDS", "POINTS_TO", "POSITIONS", "REGION", "RISKS",
           "UNWRAP", "needs_of"]
