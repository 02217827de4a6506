"""Hostile documents for issue 46, built cheaply in the test: a stream that inflates to
hundreds of megabytes is written from one compressed megabyte repeated (deflate blocks ended
with a full flush carry no back-references, so their bytes can be repeated as they are)."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

WORD = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_TYPES = (b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
          b'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
          b'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" '
          b'ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.'
          b'openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
_RELS = (b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
         b'2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
         b'relationships/officeDocument" Target="word/document.xml"/></Relationships>')
_IMAGE_RELS = (b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
               b'2006/relationships"><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/'
               b'2006/relationships/image" Target="media/image1.png"/></Relationships>')
HEAD = f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{WORD}"><w:body>'.encode()
TAIL = b"</w:body></w:document>"
PARAGRAPH = b"<w:p><w:r><w:t>a</w:t></w:r></w:p>"


def docx(body: bytes, extra: dict[str, bytes] | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", _TYPES)
        archive.writestr("_rels/.rels", _RELS)
        archive.writestr("word/document.xml", body)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return out.getvalue()


def docx_bomb(inflated: int, member: str = "word/document.xml", unit: bytes = PARAGRAPH) -> bytes:
    """A .docx whose `member` inflates to `inflated` bytes of `unit` repeated, streamed into the
    archive a megabyte at a time (a referenced image, when the member is not the body)."""
    out = io.BytesIO()
    body = member == "word/document.xml"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", _TYPES)
        archive.writestr("_rels/.rels", _RELS)
        if not body:
            archive.writestr("word/document.xml", HEAD + PARAGRAPH + TAIL)
            archive.writestr("word/_rels/document.xml.rels", _IMAGE_RELS)
        chunk = unit * ((1 << 20) // len(unit))
        with archive.open(member, "w") as handle:
            handle.write(HEAD if body else b"")
            for _ in range(inflated // len(chunk)):
                handle.write(chunk)
            handle.write(TAIL if body else b"")
    return out.getvalue()


def lying(data: bytes, member: str = "word/document.xml", claimed: int = 4096) -> bytes:
    """The zip's headers claim `member` holds `claimed` bytes (with the CRC of that prefix, so
    the zip module finds nothing wrong); its stream still inflates to all it held."""
    patched = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        info = archive.getinfo(member)
        with archive.open(info) as handle:
            crc = zlib.crc32(handle.read(claimed))
    struct.pack_into("<I", patched, info.header_offset + 14, crc)  # the local header
    struct.pack_into("<I", patched, info.header_offset + 22, claimed)
    entry = struct.unpack_from("<I", patched, patched.rfind(b"PK\x05\x06") + 16)[0]
    while patched[entry:entry + 4] == b"PK\x01\x02":
        name_length, extra_length, comment_length = struct.unpack_from("<HHH", patched, entry + 28)
        if bytes(patched[entry + 46:entry + 46 + name_length]).decode() == member:
            struct.pack_into("<I", patched, entry + 16, crc)
            struct.pack_into("<I", patched, entry + 24, claimed)
        entry += 46 + name_length + extra_length + comment_length
    return bytes(patched)


def many_members(count: int) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("word/document.xml", HEAD + PARAGRAPH + TAIL)
        for number in range(count):
            archive.writestr(f"word/media/{number:08x}", b"")
    return out.getvalue()


BILLION_LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa">'
                  + b"".join(b'<!ENTITY %s "%s">' % (bytes([98 + level]), b"&%s;" % bytes([97 + level]) * 10)
                             for level in range(9))
                  + f'<w:document xmlns:w="{WORD}"><w:body><w:p><w:r><w:t>&j;</w:t></w:r></w:p></w:body>'
                    f'</w:document>'.encode())


def raw_pdf(objects: list[bytes]) -> bytes:
    """A PDF of `objects` numbered from 1 (1 the catalog), with a correct cross-reference table."""
    out, offsets = bytearray(b"%PDF-1.7\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _repeated_flate(block: bytes, times: int) -> bytes:
    """A zlib stream of `block` repeated `times` times, compressed once."""
    compressor = zlib.compressobj(9)
    whole = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    adler = 1
    for _ in range(times):
        adler = zlib.adler32(block, adler)
    return whole[:2] + whole[2:] * times + b"\x03\x00" + struct.pack(">I", adler)  # an empty final block


def _stream(data: bytes, flate: bool = True) -> bytes:
    return b"<< /Length %d%s >>\nstream\n" % (len(data), b" /Filter /FlateDecode" if flate else b"") + data \
        + b"\nendstream"


def _flate_stream(unit: bytes, inflated: int) -> bytes:
    block = unit * ((1 << 20) // len(unit))
    return _stream(_repeated_flate(block, inflated // len(block)))


_CATALOG = b"<< /Type /Catalog /Pages 2 0 R >>"
_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def _page(contents: bytes, font: int) -> bytes:
    return (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %s /Resources << /Font << /F1 %d 0 R"
            b" >> >> >>" % (contents, font))


def _pages(kids: list[int], count: int | None = None) -> bytes:
    return b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % kid for kid in kids),
                                                         len(kids) if count is None else count)


def pdf_flate_contents(inflated: int = 1 << 30) -> bytes:
    """One page whose contents inflate to `inflated` bytes (a gigabyte from a megabyte)."""
    return raw_pdf([_CATALOG, _pages([3]), _page(b"4 0 R", 5), _flate_stream(b"0 0 m\n", inflated), _FONT])


def pdf_font_cmap(inflated: int = 1 << 30) -> bytes:
    """A page whose font maps its codes through a /ToUnicode CMap inflating to `inflated` bytes."""
    text = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET"
    return raw_pdf([_CATALOG, _pages([3]), _page(b"4 0 R", 5), _stream(text, flate=False),
                    b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
                    _flate_stream(b"% cmap\n", inflated)])


def pdf_page_count(pages: int, declared: int | None = None) -> bytes:
    """`pages` pages, each its own object, sharing one short line of text; /Count says `declared`."""
    text = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET"
    return raw_pdf([_CATALOG, _pages([5 + n for n in range(pages)], declared), _stream(text, flate=False), _FONT]
                   + [_page(b"3 0 R", 4)] * pages)


def pdf_parse_work(pages: int, inflated: int = 15 << 20) -> bytes:
    """`pages` pages drawing one shared stream of `inflated` bytes of tiny operators: each page
    is parsed anew up to pypdf's parsing budget, ~65 ms a page."""
    return raw_pdf([_CATALOG, _pages([5 + n for n in range(pages)]), _flate_stream(b"0 0 m\n", inflated), _FONT]
                   + [_page(b"3 0 R", 4)] * pages)


def pdf_cached_streams(pages: int = 300, inflated: int = 15 << 20) -> bytes:
    """`pages` pages, each with its own content stream of `inflated` bytes: every stream is
    within every per-stream limit, and pypdf keeps each decoded one cached on its reader."""
    stream = _flate_stream(b"% fill\n", inflated)
    objects = [_CATALOG, _pages([4 + 2 * n for n in range(pages)]), _FONT]
    for number in range(pages):
        objects += [_page(b"%d 0 R" % (5 + 2 * number), 3), stream]
    return raw_pdf(objects)


def pdf_text_pages(pages: int, characters: int) -> bytes:
    """`pages` pages, each showing one line of `characters` letters (one shared stream)."""
    text = b"BT /F1 12 Tf 72 720 Td (" + b"word " * (characters // 5) + b") Tj ET"
    return raw_pdf([_CATALOG, _pages([5 + n for n in range(pages)]), _stream(text, flate=False), _FONT]
                   + [_page(b"3 0 R", 4)] * pages)
