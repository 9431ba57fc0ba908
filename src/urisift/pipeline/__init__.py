"""Orchestration (ARCHITECTURE.md, Code map): inputs walked and opened (``walking``,
``listing``, ``compressed``, ``remote``, ``web``), their kind sniffed (``sniff``), planned
into units of work (``plan``, ``units``), and ``scan``, the one module that knows the
whole pipeline.

It imports neither output nor the pool above it.
"""
