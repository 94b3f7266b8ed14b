"""Which campaigns use a list or an audience. Campaigns sit above supply (a list or an audience exists without
campaigns; a campaign targets them), so supply does not read campaigns itself: the campaigns package registers
how to find them (app/campaigns/list_usage.py) when it loads. The "campaigns" finder must be registered before a
use is read: a missing one fails loudly, never as "unused" (a list in use could then be deleted)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from sqlmodel import Session

from app.kernel.hooks import Hook
from app.supply.schemas import CampaignUse


class CampaignFinder(Protocol):
    def __call__(self, db: Session, key: str, ids: Sequence[int], *, advertiser_ids: set[int] | None,
                 live_only: bool) -> dict[int, list[dict[str, Any]]]:
        """{id: [{id, name, status, side}]} of the campaigns whose targeting[key] allows or blocks each id (a
        plain list of ids allows them), by name; only those of `advertiser_ids` when given, only those not
        archived when `live_only`."""
        ...


FINDERS: Hook[CampaignFinder] = Hook("campaigns using lists and audiences", needed=("campaigns",))


def campaigns_using(db: Session, key: str, ids: Sequence[int], *, advertiser_ids: set[int] | None = None,
                    live_only: bool = False) -> dict[int, list[CampaignUse]]:
    """{id: [CampaignUse]}: the campaigns whose targeting under `key` (list_targeting's keys) allows or blocks
    each of these lists or audiences, as every registered finder answers."""
    finders = FINDERS.handlers()
    found: dict[int, list[CampaignUse]] = {i: [] for i in ids}
    if not found:
        return found
    for finder in finders:
        for list_id, rows in finder(db, key, list(found), advertiser_ids=advertiser_ids, live_only=live_only).items():
            found[list_id].extend(CampaignUse.model_validate(row) for row in rows)
    return found
