"""A document's text, whatever it came as: plain text in any common encoding (charset-normalizer:
UTF-8, UTF-16, GBK, Big5, Shift-JIS, Latin-1 …), PDF (pypdf) and Word .docx (its body read
straight from the archive with lxml). What cannot give text — a binary, a scanned PDF without a
text layer, an encrypted PDF — is refused in plain words, before anything is stored.

Every file here may be hostile (issue 46): a 7 MB .docx can inflate to gigabytes, a PDF can
claim a million pages. The limits below bound each in time, memory and disk; each refusal is
an InvalidInput (exit 10) naming the file, raised before the composer stores a byte."""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import IO, Any

from mfs_desktop.errors import InvalidInput
from mfs_desktop.runtime.budget import OutOfMemory, OutOfTime, bounded
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

MB = 1024 * 1024
# The limits, in one place (docs/faults.md names them).
MAX_TEXT_BYTES = 4 * MB  # a plain-text file: four times what the largest window can use
MAX_PACKED_BYTES = 32 * MB  # a PDF or .docx as a file: mostly layout and images around the text
# The most text any model can take: the largest window (131,072 tokens, WINDOW_RANGE) times the
# share one message may fill (ContextProfile.message_max, 0.5) times 16 characters a token —
# services.intake refuses a longer message outright for every window, so a document past this
# could be stored but never sent. Extraction stops here instead of reading on.
MAX_DOCUMENT_CHARS = 131_072 // 2 * 16
# Pages a PDF may have, read from its page tree before any text is extracted. Real pages carry
# 1,000–3,000 characters, so a longer PDF passes MAX_DOCUMENT_CHARS unless nearly empty.
MAX_PDF_PAGES = 2_000
# What pypdf may inflate from one stream (page contents, fonts' CMaps, object streams): a dense
# page's contents take well under 1 MB; pypdf's own default is 75 MB.
MAX_PDF_STREAM_BYTES = 16 * MB
# A .docx's word/document.xml, inflated. Word spends some tens of bytes of markup on a run of
# text, so MAX_DOCUMENT_CHARS of text lies well inside; lxml reads 32 MB of the densest markup
# (an empty element every 5 bytes) in 2–4 s on 2 busy cores, keeping no tree. Checked against
# the zip's central directory first, then counted while inflating, since the directory can lie.
MAX_DOCX_XML_BYTES = 32 * MB
# A zip's central directory, which the zip module reads whole into ~550 bytes an entry: a .docx
# lists tens of parts in a few KB; 1 MB is some 20,000 entries and 12 MB of memory.
MAX_ZIP_DIRECTORY_BYTES = 1 * MB
# What one reading may spend at most, whatever the file (runtime.budget): a file no limit
# above foresaw is still stopped within the 10 s and 500 MB of issue 46. 8 s leaves room to read
# the file and store it; 320 MB of growth leaves room for the interpreter, the file itself and
# the overshoot until the watchdog's next look.
MAX_READ_SECONDS = 8.0
MAX_READ_MEMORY = 320 * MB

_CONTROL_SHARE = 0.01  # more control characters than this: a binary that happened to decode
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_CHUNK = 64 * 1024
_WORD = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_TEXT, _PARAGRAPH, _ROW, _CELL = (f"{_WORD}{tag}" for tag in ("t", "p", "tr", "tc"))
_TABS, _BREAKS = {f"{_WORD}tab", f"{_WORD}ptab"}, {f"{_WORD}br", f"{_WORD}cr"}


@dataclass(frozen=True)
class DocumentText:
    text: str
    media_type: str
    detail: str  # what a person is told: "PDF, 12 pages", "GBK text"


def read_limit(data_head: bytes) -> int:
    """How many bytes of a file to read, from its first bytes."""
    return MAX_PACKED_BYTES if data_head.startswith((b"%PDF-", b"PK\x03\x04")) else MAX_TEXT_BYTES


def document_text(data: bytes, name: str) -> DocumentText:
    reader = _pdf_text if data.startswith(b"%PDF-") else _docx_text if data.startswith(b"PK\x03\x04") else _plain_text
    try:
        with bounded(MAX_READ_SECONDS, MAX_READ_MEMORY):
            document = reader(data, name)
    except OutOfTime:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} takes longer than {seconds:.0f} s to read; it cannot "
                                                        "be attached. Save its text as a .txt file and attach that."),
                                  name=name, seconds=MAX_READ_SECONDS) from None
    except OutOfMemory:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} needs more than {limit} MB of memory to read; it "
                                                        "cannot be attached. Save its text as a .txt file and attach "
                                                        "that."), name=name, limit=MAX_READ_MEMORY // MB) from None
    if len(document.text) > MAX_DOCUMENT_CHARS:
        raise _too_long(name)
    return document

_BINARY = QT_TRANSLATE_NOOP("", "{name} is a binary file; attach text, PDF or Word (.docx) documents.")
_EMPTY = QT_TRANSLATE_NOOP("", "{name} is empty.")
_BODY_INFLATES = QT_TRANSLATE_NOOP("", "{name} unpacks to more than {limit} MB of text markup; it cannot be attached. "
                                       "Save its text as a .txt file and attach that.")
_PART_INFLATES = QT_TRANSLATE_NOOP("", "{name} holds a part that unpacks to more than {limit} MB; it cannot be "
                                       "attached. Save its text as a .txt file and attach that.")


def _too_long(name: str) -> InvalidInput:
    return InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} holds more than {limit:,} characters of text, more than "
                                                     "the largest model window can take; attach a part of it."),
                               name=name, limit=MAX_DOCUMENT_CHARS)


def _checked_size(data: bytes, name: str, limit: int) -> None:
    if len(data) > limit:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is {size:.1f} MB; documents like it can be at most "
                                                        "{limit} MB."), name=name, size=len(data) / 1e6,
                                  limit=limit // MB)


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


@contextmanager
def _pypdf_limits() -> Iterator[None]:
    """pypdf's own limits set to ours for this reading only (a context variable, so other
    threads keep theirs). pypdf before 7 has no Configuration: its defaults and the read
    budget hold there."""
    import pypdf

    apply: Callable[..., Any] | None = getattr(pypdf, "apply_configuration", None)
    stream = MAX_PDF_STREAM_BYTES
    with (nullcontext() if apply is None else apply(
            maximum_declared_stream_length=MAX_PACKED_BYTES,  # a stream longer than the file is a lie
            zlib_maximum_output_length=stream, lzw_maximum_output_length=stream,
            run_length_maximum_output_length=stream, array_based_stream_maximum_output_length=stream,
            brotli_maximum_output_length=stream, jbig2_maximum_output_length=stream, image_maximum_buffer_size=stream,
            stream_decoding_work_maximum_length=4 * stream,
            # the tree's nodes besides its pages are a small share: twice the pages is ample
            page_tree_maximum_entries=2 * MAX_PDF_PAGES)):
        yield


def _too_many_pages(name: str, pages: int) -> InvalidInput:
    return InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} has {pages:,} pages; a PDF can have at most {limit:,}. "
                                                     "Attach the part you need."),
                               name=name, pages=pages, limit=MAX_PDF_PAGES)


def _declared_pages(reader: Any) -> int:
    """The page count the PDF's page tree states (/Count), read before the tree is walked."""
    count = reader.trailer["/Root"].get_object()["/Pages"].get_object().get("/Count", 0)
    return int(count) if isinstance(count, int) else 0


def _pdf_text(data: bytes, name: str) -> DocumentText:
    from pypdf import PdfReader
    from pypdf.errors import LimitReachedError

    _checked_size(data, name, MAX_PACKED_BYTES)
    texts: list[str] = []
    try:
        with _pypdf_limits():
            reader = PdfReader(io.BytesIO(data))
            if reader.is_encrypted and not reader.decrypt(""):
                raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is an encrypted PDF; open it, save a copy "
                                                                "without a password, and attach that."), name=name)
            if (declared := _declared_pages(reader)) > MAX_PDF_PAGES:
                raise _too_many_pages(name, declared)
            pages = reader.pages  # walking the tree: pypdf's entry limit stops one that lies about /Count
            if len(pages) > MAX_PDF_PAGES:
                raise _too_many_pages(name, len(pages))
            characters = 0
            for number, page in enumerate(pages, 1):
                if text := (page.extract_text() or "").strip():
                    texts.append(f"[page {number}]\n{text}")
                    characters += len(texts[-1]) + 2
                    if characters > MAX_DOCUMENT_CHARS:  # the rest could never be sent: stop reading
                        raise _too_long(name)
    except InvalidInput:
        raise
    except LimitReachedError as error:
        if any(word in str(error) for word in ("decompress", "output", "decoding")):
            raise InvalidInput.worded(_PART_INFLATES, name=name, limit=MAX_PDF_STREAM_BYTES // MB) from None
        if "page tree entry" in str(error):  # more pages than its /Count admitted
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} has more than {limit:,} pages; attach the part "
                                                            "you need."), name=name, limit=MAX_PDF_PAGES) from None
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is built larger than a PDF can be read safely "
                                                        "({detail}); it cannot be attached."),
                                  name=name, detail=str(error).rstrip(".")) from None
    except Exception as error:  # noqa: BLE001 — whatever pypdf trips over in a hostile file is the file's fault
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is a damaged PDF ({kind}); it cannot be read."),
                                  name=name, kind=type(error).__name__) from None
    if not texts:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} has no text layer (a scanned PDF?); run text "
                                                        "recognition on it first, or attach the text."), name=name)
    return DocumentText("\n\n".join(texts), "application/pdf", f"PDF, {len(pages)} pages")


def _docx_text(data: bytes, name: str) -> DocumentText:
    """Only word/document.xml is inflated, in 64 KB steps and counted, and parsed as it arrives
    without building a tree: no other part (images, fonts: other bombs) is ever unpacked, and
    memory holds the text alone. python-docx, which this replaced, inflated every part whole
    and built a tree of the body, some 3 bytes of memory per byte of markup."""
    _checked_size(data, name, MAX_PACKED_BYTES)
    damaged = QT_TRANSLATE_NOOP("", "{name} is a damaged archive; it cannot be read.")
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 22 - 0xFFFF))
    if end < 0 or end + 22 > len(data):
        raise InvalidInput.worded(damaged, name=name)
    if data[max(0, end - 20):end - 16] == b"PK\x06\x07" or struct.unpack_from("<I", data, end + 12)[0] > \
            MAX_ZIP_DIRECTORY_BYTES:  # zip64 records are for archives far past our size cap
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} lists more parts than a Word document has (its "
                                                        "directory is over {limit} MB); it cannot be attached."),
                                  name=name, limit=MAX_ZIP_DIRECTORY_BYTES // MB)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            try:
                info = archive.getinfo("word/document.xml")
            except KeyError:
                raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is a zip archive, not a Word document; "
                                                                "attach text, PDF or .docx."), name=name) from None
            if info.file_size > MAX_DOCX_XML_BYTES:
                raise InvalidInput.worded(_BODY_INFLATES, name=name, limit=MAX_DOCX_XML_BYTES // MB)
            # bzip2 and LZMA inflate a whole step at once (zipfile passes them no output bound);
            # Word writes deflate only
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) or info.flag_bits & 1:
                raise InvalidInput.worded(damaged, name=name)
            with archive.open(info) as member:
                text = _word_body(member, name)
    except InvalidInput:
        raise
    except zipfile.BadZipFile:
        raise InvalidInput.worded(damaged, name=name) from None
    except Exception as error:  # noqa: BLE001 — zlib, lxml and zipfile errors of a hostile file alike
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is a damaged Word document ({kind})."), name=name,
                                  kind=type(error).__name__) from None
    if not text:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} holds no text."), name=name)
    return DocumentText(text, "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                        "Word document")


def _word_body(member: IO[bytes], name: str) -> str:
    from lxml import etree

    body = _WordBody(name)
    # No DTD is loaded or expanded (_WordBody refuses one outright), nothing fetched, no
    # libxml2 "huge" mode: the billion-laughs and external-entity paths stay closed.
    parser = etree.XMLParser(target=body, resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    inflated = 0
    while chunk := member.read(_CHUNK):
        inflated += len(chunk)
        if inflated > MAX_DOCX_XML_BYTES:  # the directory understated it
            raise InvalidInput.worded(_BODY_INFLATES, name=name, limit=MAX_DOCX_XML_BYTES // MB)
        parser.feed(chunk)
    return str(parser.close())


class _WordBody:
    """An lxml parser target: the body's paragraphs in reading order, a table row as its cells
    joined by " | ", built from events without keeping a tree."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[str] = []
        self.paragraph: list[str] | None = None
        self.cells: list[list[str]] = []  # the open cells, innermost last: their paragraphs
        self.rows: list[list[str]] = []  # the open rows: their finished cells
        self.in_text = False
        self.characters = 0

    def doctype(self, *_: object) -> None:
        # Word never writes one; a DTD is where entity-expansion bombs live
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "{name} is a damaged Word document ({kind})."),
                                  name=self.name, kind="DTD")

    def start(self, tag: str, _attributes: object) -> None:
        if tag == _TEXT:
            self.in_text = True
        elif tag == _PARAGRAPH:
            self.paragraph = []
        elif tag in _TABS:
            self.data("\t", always=True)
        elif tag in _BREAKS:
            self.data("\n", always=True)
        elif tag == _ROW:
            self.rows.append([])
        elif tag == _CELL:
            self.cells.append([])

    def data(self, text: str, always: bool = False) -> None:
        if (self.in_text or always) and self.paragraph is not None:
            self.paragraph.append(text)
            self.characters += len(text)
            if self.characters > MAX_DOCUMENT_CHARS:
                raise _too_long(self.name)

    def end(self, tag: str) -> None:
        if tag == _TEXT:
            self.in_text = False
        elif tag == _PARAGRAPH and self.paragraph is not None:
            self._line("".join(self.paragraph))
            self.paragraph = None
        elif tag == _CELL and self.cells:
            cell = "\n".join(self.cells.pop()).strip()
            if self.rows:
                self.rows[-1].append(cell)
        elif tag == _ROW and self.rows:
            if any(cells := self.rows.pop()):  # a row of empty cells (a layout grid) says nothing
                self._line(" | ".join(cells))

    def _line(self, line: str) -> None:
        (self.cells[-1] if self.cells else self.lines).append(line)

    def close(self) -> str:
        return "\n".join(self.lines).strip()
