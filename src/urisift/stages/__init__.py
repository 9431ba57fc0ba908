"""The stages every reader shares (ARCHITECTURE.md, Code map): decoding
(``charset``, ``charset_labels``, ``detect``), delimiting running text (``delimit/``),
the record step (``found_to_record``, ``base``), the nesting boundary and budgets
(``containment``), the options, where text stands in a file (``placing``), media types
and the opened input (``sources``).

They know content and records, never a reader, a unit of work or the scan above them.
"""
