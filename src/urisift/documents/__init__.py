"""Documents that carry links inside a container format (issue 21): PDF
(link annotations, its /URI /Base, its text layer) and office files (OOXML
and ODF ZIP packages)."""

from .office import read_office
from .pdf import read_pdf

__all__ = ["read_office", "read_pdf"]
