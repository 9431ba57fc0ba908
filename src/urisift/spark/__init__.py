"""``urisift-spark`` (ARCHITECTURE.md, Code map): ``driver`` plans the
command's units on the driver and runs the scan in Spark's tasks; ``job`` is the file
handed to ``spark-submit``.

It shares units with the command, not its face: no CLI module, no pool.
"""
