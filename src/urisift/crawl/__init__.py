"""What a crawl's links really point at, and what it missed.

- :mod:`.index`: the capture index (pure): the captures of the WARCs read,
  and the chain a target follows through them (3xx ``Location``,
  ``<meta http-equiv=refresh>``, ``rel=canonical``) to where it ends.
- :mod:`.captures`: the first pass that fills it from WARC and ARC inputs
  (serially, or over a pool of processes).
- :mod:`.audit`: the capture audit of each page: its outlinks by style
  (link, embed, redirect), which were captured, which were not.

This is orchestration, beside :mod:`urisift.pipeline.scan`: it reads WARCs through
the WARC reader and pages through the scan's HTML reader; output and the
readers never import it.
"""
