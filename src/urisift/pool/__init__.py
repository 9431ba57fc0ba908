"""The process pool (ARCHITECTURE.md, Code map): ``parallel`` hands units to workers,
``turns`` lets them write the output themselves in input order, ``pieces`` is the buffer
between two writes.

It maps units through the scan and knows no format, no base and no output.
"""
