"""Pin a message of the user's as a standing instruction, or unpin it (DESIGN section 5,
zone 2): it then stays verbatim in the knowledge slot of every later send view, whatever its
language, until unpinned. The slot changes only at such an event, so ordinary turns keep
their prefix; the next reply re-reads the context once."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from mfs_desktop.errors import InvalidInput
from mfs_desktop.profile import ContextProfile
from mfs_desktop.runtime.estimate import estimate_text_tokens
from mfs_desktop.services.conversation.compaction import pinned_messages, render_slot
from mfs_desktop.services.session import Session
from mfs_desktop.store.pins import set_pinned
from mfs_desktop.translatable import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PinChange:
    uid: int
    pinned: bool
    pinned_tokens: int  # what every pinned message together now takes
    budget_tokens: int

    @property
    def note(self) -> str:
        """What the stream says: the slot moved, so the next reply prefills the context again."""
        return f"{'pinned' if self.pinned else 'unpinned'}: the next reply re-reads the context"


def change_pin(session: Session, conversation_id: str, uid: int, pinned: bool, window: int) -> PinChange:
    """Pin (or unpin) message `uid`; the pins together may take `pinned_share` of `window`."""
    profile = ContextProfile(window=window)
    budget = profile.tokens(profile.pinned_share)
    used = 0

    def slot() -> str:
        nonlocal used
        used = sum(estimate_text_tokens(m.text) for m in pinned_messages(session, conversation_id))
        if pinned and used > budget:
            raise InvalidInput.worded(QT_TRANSLATE_NOOP("", "Message {uid} cannot be pinned: pinned messages would "
                                                            "take about {used:,} tokens, more than the {budget:,} they "
                                                            "may use ({share:.0%} of the {window:,}-token window). "
                                                            "Unpin one, or pin a shorter message."),
                                      uid=uid, used=used, budget=budget, share=profile.pinned_share,
                                      window=profile.window)
        return render_slot(session, conversation_id)

    set_pinned(session.database, conversation_id, uid, pinned, slot)
    log.info("conversation %s: uid %d %s, pinned tokens %d of %d", conversation_id, uid,
             "pinned" if pinned else "unpinned", used, budget)
    return PinChange(uid, pinned, used, budget)
