"""A document's text, whatever it came as: plain text in any common encoding (charset-normalizer:
UTF-8, UTF-16, GBK, Big5, Shift-JIS, Latin-1 …), PDF (pypdf) and Word .docx (python-docx).
What cannot give text — a binary, a scanned PDF without a text layer, an encrypted PDF — is
refused in plain words, before anything is stored."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from mfs_desktop.errors import InvalidInput
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

MAX_TEXT_BYTES = 4 * 1024 * 1024  # a plain-text file
MAX_PACKED_BYTES = 32 * 1024 * 1024  # a PDF or .docx: mostly layout and images around the text
_CONTROL_SHARE = 0.01  # more control characters than this: a binary that happened to decode
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


@dataclass(frozen=True)
class DocumentText:
    text: str
    media_type: str
    detail: str  # what a person is told: "PDF, 12 pages", "GBK text"


def read_limit(data_head: bytes) -> int:
    """How many bytes of a file to read, from its first bytes."""
    return MAX_PACKED_BYTES if data_head.startswith((b"%PDF-", b"PK\x03\x04")) else MAX_TEXT_BYTES


def document_text(data: bytes, name: str) -> DocumentText:
    if data.startswith(b"%PDF-"):
        return _pdf_text(data, name)
    if data.startswith(b"PK\x03\x04"):
        return _docx_text(data, name)
    return _plain_text(data, name)

_BINARY = QT_TRANSLATE_NOOP("", "{name} is a binary file; attach text, PDF or Word (.docx) documents.")
_EMPTY = QT_TRANSLATE_NOOP("", "{name} is empty.")


def _checked_size(data: bytes, name: str, limit: int) -> None:
    if len(data) > limit:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is {size:.1f} MB; documents like it can be at most "
                                                        "{limit} MB."), name=name, size=len(data) / 1e6,
                                  limit=limit // (1024 * 1024))


def _plain_text(data: bytes, name: str) -> DocumentText:
    _checked_size(data, name, MAX_TEXT_BYTES)
    if not data.strip():
        raise InvalidInput.worded(_EMPTY, name=name)
    try:
        text, encoding = data.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError:
        if b"\x00" in data[:8192] and not data.startswith(_UTF16_BOMS):
            raise InvalidInput.worded(_BINARY, name=name) from None
        from charset_normalizer import from_bytes

        best = from_bytes(data).best()
        if best is None:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is a binary file or an unknown encoding; attach "
                                                            "text, PDF or Word (.docx) documents."),
                                      name=name) from None
        text, encoding = str(best), best.encoding.upper().replace("_", "-")
    controls = sum(1 for char in text if ord(char) < 32 and char not in "\n\r\t\f")
    if "\x00" in text or controls > max(4, len(text) * _CONTROL_SHARE):
        raise InvalidInput.worded(_BINARY, name=name)
    if not text.strip():
        raise InvalidInput.worded(_EMPTY, name=name)
    return DocumentText(text, "text/plain", f"{encoding} text")


def _pdf_text(data: bytes, name: str) -> DocumentText:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    _checked_size(data, name, MAX_PACKED_BYTES)
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is an encrypted PDF; open it, save a copy "
                                                            "without a password, and attach that."), name=name)
        pages = [page.extract_text() or "" for page in reader.pages]
    except InvalidInput:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is a damaged PDF ({kind}); it cannot be read."),
                                  name=name, kind=type(error).__name__) from None
    if not any(page.strip() for page in pages):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} has no text layer (a scanned PDF?); run text "
                                                        "recognition on it first, or attach the text."), name=name)
    text = "\n\n".join(f"[page {number}]\n{page.strip()}" for number, page in enumerate(pages, 1) if page.strip())
    return DocumentText(text, "application/pdf", f"PDF, {len(pages)} pages")


def _docx_text(data: bytes, name: str) -> DocumentText:
    _checked_size(data, name, MAX_PACKED_BYTES)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if "word/document.xml" not in archive.namelist():
                raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is a zip archive, not a Word document; "
                                                                "attach text, PDF or .docx."), name=name)
    except zipfile.BadZipFile:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is a damaged archive; it cannot be read."),
                                  name=name) from None
    from docx import Document

    try:
        document = Document(io.BytesIO(data))
    except Exception as error:  # python-docx raises lxml's and its own types for a broken file
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is a damaged Word document ({kind})."), name=name,
                                  kind=type(error).__name__) from None
    lines = [paragraph.text for paragraph in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            lines.append(" | ".join(cell.text.strip() for cell in row.cells))
    text = "\n".join(lines).strip()
    if not text:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} holds no text."), name=name)
    return DocumentText(text, "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                        "Word document")
