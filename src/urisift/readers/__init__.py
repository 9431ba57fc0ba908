"""The readers (ARCHITECTURE.md, Code map): one package or module a format,
each a function from a ``Content`` to records, defects and nested content.

A reader imports no other format's reader (two exceptions, named in pyproject.toml),
no unit of work, no plan, no scan.
"""
