"""Attachments as text: encodings people use, real PDF and Word files, plain refusals."""

from __future__ import annotations

import io
import random

import pytest

from mfs_desktop.errors import InvalidInput
from mfs_desktop.services.conversation.composer import attach_document
from mfs_desktop.services.conversation.documents import document_text
from mfs_desktop.store.attachments import AttachmentStore

CHINESE = "你好，世界。这是一份关于上下文压缩的说明文档，里面记录了每一次会议的结论和下一步的计划。" * 4
JAPANESE = "こんにちは。これは文書の添付についての試験です。東京タワーに行きました。" * 4
GERMAN = "Grüße aus Köln! Die Straße ist gesperrt, wir nehmen die Fähre über den Rhein. " * 4


@pytest.mark.parametrize("text, encoding", [
    (CHINESE, "gbk"), (CHINESE, "gb18030"), ("繁體中文的說明文件，記錄會議的結論與下一步計畫。" * 4, "big5"),
    (JAPANESE, "shift_jis"), (CHINESE, "utf-16"), (GERMAN, "cp1252"), (GERMAN, "utf-8"),
])
def test_text_in_common_encodings_becomes_the_same_words(text: str, encoding: str) -> None:
    document = document_text(text.encode(encoding), "notes.txt")
    assert document.text.strip("\ufeff") == text and document.media_type == "text/plain"


def _pdf(pages: list[str | None], password: str | None = None) -> bytes:
    """A real PDF written with pypdf: one page per entry, its text drawn in Helvetica (None: a
    page without a text layer, as a scan is)."""
    from pypdf import PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    writer = PdfWriter()
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica"),
                             NameObject("/Encoding"): NameObject("/WinAnsiEncoding")})
    for text in pages:
        page = writer.add_blank_page(612, 792)
        if text is None:
            continue
        stream = DecodedStreamObject()
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        stream.set_data(b"BT /F1 12 Tf 72 720 Td (" + escaped.encode("cp1252") + b") Tj ET")
        page[NameObject("/Contents")] = writer._add_object(stream)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject(
            {NameObject("/F1"): writer._add_object(font)})})
    if password:
        writer.encrypt(password)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_pdf_gives_its_text_page_by_page() -> None:
    document = document_text(_pdf(["Quarterly report: revenue 4,210 EUR", None, "Grüße aus Köln"]), "report.pdf")
    assert document.media_type == "application/pdf" and document.detail == "PDF, 3 pages"
    assert "[page 1]\nQuarterly report: revenue 4,210 EUR" in document.text
    assert "[page 3]\nGrüße aus Köln" in document.text and "[page 2]" not in document.text


def test_scanned_encrypted_and_damaged_pdfs_are_refused_plainly() -> None:
    with pytest.raises(InvalidInput, match="no text layer"):
        document_text(_pdf([None, None]), "scan.pdf")
    with pytest.raises(InvalidInput, match="encrypted PDF"):
        document_text(_pdf(["secret"], password="hunter2"), "locked.pdf")
    with pytest.raises(InvalidInput, match="damaged PDF|no text layer"):
        document_text(b"%PDF-1.7\n" + random.Random(1).randbytes(4000), "broken.pdf")


def test_a_word_document_gives_its_paragraphs_and_tables() -> None:
    from docx import Document

    made = Document()
    made.add_paragraph("会议纪要：下周三发布 1.2 版本。")
    made.add_paragraph("Zuständig: Jürgen")
    table = made.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "port", "8443"
    out = io.BytesIO()
    made.save(out)
    document = document_text(out.getvalue(), "minutes.docx")
    assert document.text == "会议纪要：下周三发布 1.2 版本。\nZuständig: Jürgen\nport | 8443"
    assert document.media_type.endswith("wordprocessingml.document")


@pytest.mark.parametrize("data, message", [
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, "binary file"),
    (random.Random(2).randbytes(5000), "binary file"),
    (b"PK\x03\x04" + b"\x00" * 100, "damaged archive"),
    (b"   \n\n ", "is empty"),
    (b"x" * (4 * 1024 * 1024 + 1), "at most 4 MB"),
])
def test_what_is_no_document_is_refused_plainly(data: bytes, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        document_text(data, "thing")


def test_a_zip_that_is_not_word_is_named_as_such() -> None:
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("photo.jpg", b"\xff\xd8")
    with pytest.raises(InvalidInput, match="not a Word document"):
        document_text(out.getvalue(), "photos.zip")


def test_an_attached_gbk_file_is_kept_as_its_bytes_and_sent_as_its_text(session) -> None:
    data = CHINESE.encode("gbk")
    outgoing = attach_document(session.database, data, "说明.txt")
    assert outgoing.text == f"[document: 说明.txt]\n{CHINESE}" and outgoing.origin == "document"
    assert AttachmentStore(session.database).data(outgoing.attachment_sha256) == data
