"""The URI core (ARCHITECTURE.md, Code map): RFC 3986 and 3987's grammar, references,
resolution (§5.2), normalization (§6), URNs, the §7 risks, the IANA registry, what a
browser fetches, and the argument checks at the library's door.

Pure functions of their arguments: no I/O and no module of the pipeline (the
import-linter contracts in pyproject.toml hold it).
"""
