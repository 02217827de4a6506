"""What a JSON import must be before anything is stored (issue 27 item 6, issue 34).

An import file is untrusted: every record is checked field by field against the store's
dataclasses — exact keys, exact types (a bool is not a number), finite times within the
years a clock can show, integers SQLite can hold, ids that are safe as file names (exports
name files by id) and text that is valid Unicode. The first problem found is the message.
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any, TypeVar

from mfs_desktop.errors import InvalidInput
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

MAX_IMPORT_BYTES = 100 * 1024 * 1024  # far above a long chat's export; a bigger file is not one of ours
LATEST_TIME = 253402300799.0  # 9999-12-31 23:59:59 UTC: anything later is not a time a clock showed
SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
ID_FIELDS = {"id", "conversation_id", "lineage_id", "generation_id"}
_INT64 = 2**63

Record = TypeVar("Record")


def checked_record(cls: type[Record], item: object, where: str, **given: Any) -> Record:
    """`item` as a `cls`, or InvalidInput naming `where` and the field. `given` fills fields
    the export leaves out (for example a conversation's trash state)."""
    if not isinstance(item, dict):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The export's {where} is not an object."), where=where)
    names = {field.name: field for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(item) - set(names))
    # A field with a default may be absent: exports written before it existed leave it out.
    required = {name for name, field in names.items()
                if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING}
    missing = sorted(required - set(item) - set(given))
    if unknown or missing:
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The export's {where} has unknown field {field!r}.")
                                  if unknown else QT_TRANSLATE_NOOP("", "The export's {where} has no field {field!r}."),
                                  where=where, field=(unknown or missing)[0])
    for name, value in item.items():
        _check_value(value, str(names[name].type), f"{where}'s {name}", is_id=name in ID_FIELDS)
    return cls(**item, **given)  # type: ignore[call-arg]


def checked_value(value: object, kind: str, where: str) -> Any:
    _check_value(value, kind, where, is_id=False)
    return value


def _check_value(value: object, kind: str, where: str, *, is_id: bool) -> None:
    if kind.endswith(" | None"):
        if value is None:
            return
        kind = kind.removesuffix(" | None")
    if kind == "str":
        if not isinstance(value, str):
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The export's {where} is not text."), where=where)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The export's {where} holds text that is not valid "
                                                            "Unicode (a lone surrogate)."), where=where) from None
        if is_id and not SAFE_ID.fullmatch(value):
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The export's {where} is not a valid id (letters, digits, "
                                                            "- and _, at most 64)."), where=where)
    elif kind == "int":
        if type(value) is not int or not -_INT64 <= value < _INT64:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The export's {where} is not a whole number in range."),
                                      where=where)
    elif kind == "float":
        if type(value) not in (int, float) or not math.isfinite(value) or not 0 <= value <= LATEST_TIME:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The export's {where} is not a time (seconds since 1970, "
                                                            "up to the year 9999)."), where=where)
    else:  # a field type this checker does not know is a bug here, not in the file
        raise TypeError(f"no check for {kind}")


def checked_list(document: dict, key: str, *, required: bool = True) -> list:
    value = document.get(key, None if required else [])
    if not isinstance(value, list):
        raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "The export's {key} is missing.") if value is None
                                  else QT_TRANSLATE_NOOP("", "The export's {key} is not a list."), key=key)
    return value
