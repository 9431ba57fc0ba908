"""The ``urisift`` command (ARCHITECTURE.md, Code map): ``command`` runs it,
``parser`` is the one source of its options (``--help``, the manual page and the
completions, made by ``docs``), ``usage`` says what a wrong option is, ``pick`` is
``--pick``'s list.

Nothing below the front ends imports it.
"""
