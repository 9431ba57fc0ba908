"""Documents that carry links inside a container format of their own (issue
21): PDF (link annotations, its /URI /Base, its text layer).  Office files,
ZIP packages of XML, are the XML reader's (:mod:`urisift.readers.xml.office`)."""

from .pdf import read_pdf

__all__ = ["read_pdf"]
