"""``python -m urisift``: the command line."""

from .cli import run

run()
