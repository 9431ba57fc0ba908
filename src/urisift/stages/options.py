"""The options of a scan (ARCHITECTURE.md, Pushdown; Budgets): what the scan of an input needs
besides the input, picklable so that worker processes and Spark tasks get
the same options as a serial run, and checked before any input is read."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Kind
from ..model.needs import KEYS, POSITIONS, needs_of
from ..uri import arguments as check
from ..uri.errors import UriError, UsageError
from .base import as_base
from .charset_labels import normalize_label
from .containment import Limits
from .publishing import MODES


@dataclass(frozen=True, slots=True)
class ScanOptions:
    """What a scan of one input needs besides the input: picklable, so that
    worker processes get the same options as a serial run."""

    base: str | None = None  # the retrieval URI (RFC 3986 §5.1.3)
    kind: Kind = Kind.AUTO  # AUTO sniffs the content, then the name
    abbreviated: bool = True  # www./ftp. forms (rfc2396bis-01 Appendix F)
    charset: str | None = None  # a declared charset, below a BOM and above everything else
    strict: bool = False  # the first defect ends the scan (InputError)
    chunk_size: int = 1 << 20  # text streams through in pieces of this many bytes
    comments: bool = False  # HTML: scan the text of comments too
    # HTML: find where each attribute value stands in the source (span, line,
    # column); the tree keeps no positions, so this is a search, ~20% of the scan
    positions: bool = True
    # WARC: an HTTP response's Content-Location as the base of its body (RFC 2616
    # had it, RFC 7231 removed it): off unless asked for
    content_location: bool = False
    context: int = 0  # records carry this many characters either side of them (their span's text)
    # text and mail: records also carry what a browser fetches (browser_target,
    # the WHATWG URL parser's result); HTML and WARC always do
    browser: bool = False
    # what any one document may cost (ARCHITECTURE.md, Budgets): time, and bytes inflated
    limits: Limits = Limits()
    # the record keys the output writes (None: every one); what no key asked for
    # is not computed, and reads False on the record (ARCHITECTURE.md, Pushdown)
    fields: frozenset[str] | None = None
    # remote inputs: seconds to connect, for an answer, and for each stretch of a
    # body (urisift.pipeline.web, urisift.pipeline.remote): a server that never answers or trickles is cut off
    timeout: float = 30.0
    # text output's location: records in mail carry where they stand in the file
    # (Record.in_file, Origin.line): the parts are looked for in the message's bytes
    locations: bool = False
    # URLs in code (a Markdown code span or block): found, with the code flag; False leaves them out
    code: bool = True
    # a documentation tree as its generator publishes it (stages/publishing.py): html, dir, bare; None: as it is
    published_as: str | None = None
    # defanged indicators (hxxp:, [.], (at) ...) read back, and bare defanged hosts found (stages/delimit/refang.py)
    refang: bool = False
    # Markdown: wikilinks ([[Page]], [[Page|label]], ![[file.png]]) as relative references (readers/markup/wikilinks.py)
    wikilinks: bool = False
    # images (files, attachments, archive members, data: URIs, a PDF's pages, codes drawn in text or a table)
    # read for the two-dimensional codes drawn in them (readers/image/): off, since decoding costs per image
    qr: bool = False

    @property
    def needs(self) -> frozenset[str]:
        """What the records must have computed (:func:`needs_of` the fields)."""
        needs = needs_of(self.fields)
        return needs if self.positions else needs - {POSITIONS}

    @property
    def located(self) -> bool:
        """Whether records carry where they stand (span, line, column)."""
        return POSITIONS in self.needs

    def __post_init__(self) -> None:
        """Each field checked at construction: a wrong type or value
        raises here, naming it, not deep inside a scan.  ``kind`` may be
        given by its name (``"html"``)."""
        if type(self.kind) is not Kind:
            check.one_of("ScanOptions", "kind", self.kind, [k.value for k in Kind])
            object.__setattr__(self, "kind", Kind(self.kind))
        for name in _FLAGS:
            check.flag("ScanOptions", name, getattr(self, name))
        if self.kind is Kind.IMAGE and not self.qr:
            raise ValueError("ScanOptions(): kind 'image' reads the codes drawn in images: give qr=True too")
        check.text("ScanOptions", "base", self.base, none=True)
        check.text("ScanOptions", "charset", self.charset, none=True)
        if self.published_as is not None:
            check.one_of("ScanOptions", "published_as", self.published_as, list(MODES))
        # what the command refuses as a usage error is refused here too, by the same words
        wrong = refusal(self.base, self.charset)
        if wrong is not None:
            raise ValueError(f"ScanOptions(): {wrong}")
        check.number("ScanOptions", "chunk_size", self.chunk_size, least=1, integer=True)
        check.number("ScanOptions", "context", self.context, least=0, integer=True)
        check.number("ScanOptions", "timeout", self.timeout, least=0)
        if not self.timeout > 0:
            raise ValueError(f"ScanOptions(): timeout must be above 0, not {self.timeout!r}")
        check.instance("ScanOptions", "limits", self.limits, Limits, "a Limits")
        if self.fields is not None:
            if isinstance(self.fields, str) or not all(isinstance(key, str) for key in self.fields):
                raise TypeError(f"ScanOptions(): fields must be record keys (str), not {self.fields!r}")
            unknown = sorted(set(self.fields) - set(KEYS))
            if unknown:
                raise ValueError(f"ScanOptions(): fields: no record key {', '.join(map(repr, unknown))} "
                                 f"(the keys: {', '.join(KEYS)})")
            if type(self.fields) is not frozenset:
                object.__setattr__(self, "fields", frozenset(self.fields))
            if not self.fields.isdisjoint(("file_line", "file_column")):
                object.__setattr__(self, "locations", True)  # where each part stands in the file: looked for


_FLAGS = ("abbreviated", "strict", "comments", "positions", "content_location", "browser", "locations", "code",
          "refang", "wikilinks", "qr")


def refusal(base: str | None, charset: str | None) -> str | None:
    """Why ``base`` or ``charset`` cannot be used, in one line naming the
    option (``base 'x' cannot serve ...``), or None: a retrieval URI must
    serve as a base by the rule every layer follows (:func:`~urisift.stages.base.as_base`:
    absolute, RFC 3986 §5.1, not ``data:``/``javascript:``, with a
    hierarchy), and a charset label must name a codec."""
    if base is not None:
        try:
            as_base(base, None)
        except UriError as exc:
            return f"base {base!r} cannot serve as a base (RFC 3986 §5.1): {exc}"
    if charset is not None and normalize_label(charset) is None:
        return f"charset {charset!r}: no such charset (try utf-8, latin-1, windows-1252, shift_jis ...)"
    return None


def usage_refusal(base: str | None, charset: str | None) -> None:
    """Raises :class:`~urisift.uri.errors.UsageError` (one line, naming
    ``--base`` or ``--charset``) for what :func:`refusal` refuses: the
    command's check, before any input is read and before the options are built."""
    wrong = refusal(base, charset)
    if wrong is not None:
        raise UsageError(f"--{wrong}")


def checked(options: ScanOptions) -> ScanOptions:
    """``options``, once they are known to make sense: raises
    :class:`~urisift.uri.errors.UsageError` (one line) for a record key that
    does not exist (the base and the charset were checked when the options
    were built: :func:`refusal`)."""
    if options.fields is not None:
        unknown = sorted(set(options.fields) - set(KEYS))
        if unknown:
            raise UsageError(f"no record key {', '.join(map(repr, unknown))} (the keys: {', '.join(KEYS)})")
    return options


#: the options of a scan nobody configured
DEFAULTS = ScanOptions()
