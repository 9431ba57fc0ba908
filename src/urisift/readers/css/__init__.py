"""CSS: the one URL scanner for style sheets, inline (``style``, ``<style>``)
and files of their own (``text/css``), and the reader of the latter."""
