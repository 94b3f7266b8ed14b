"""What campaigns count as uses of reference values: the exchanges they asked to run on, the values their
targeting names, their traffic type. Registered with the reference lists (app/reference/metadata.py
register_usage_counter) when the campaigns package loads, so a value a campaign uses is retired, never deleted."""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import Session, col, func, select

from app.campaigns.models import TARGETING_REFERENCE_KEYS, Campaign, ExchangeApproval
from app.reference.metadata import json_list_counter, register_usage_counter, traffic_type_code
from app.reference.models import ReferenceValue


def _exchange_requests(db: Session, value_ids: Sequence[int]) -> dict[int, int]:
    """Campaigns' requests to run on the exchange (exchange_approvals.exchange_id references the value: deleting
    it failed on that foreign key with a 500)."""
    rows = db.exec(select(ExchangeApproval.exchange_id, func.count())
                   .where(col(ExchangeApproval.exchange_id).in_(value_ids)).group_by(col(ExchangeApproval.exchange_id)))
    return {int(value_id): int(count) for value_id, count in rows}


def _traffic_type_users(db: Session, value_ids: Sequence[int]) -> dict[int, int]:
    """Campaigns whose traffic type is the value's code."""
    codes = {traffic_type_code(name): value_id for value_id, name in db.exec(
        select(col(ReferenceValue.id), ReferenceValue.name).where(col(ReferenceValue.id).in_(value_ids))) if value_id}
    rows = db.exec(select(Campaign.traffic_type, func.count()).where(col(Campaign.traffic_type).in_(codes))
                   .group_by(Campaign.traffic_type))
    return {codes[code]: int(count) for code, count in rows}


register_usage_counter("traffic_type", "campaigns", _traffic_type_users)
register_usage_counter("exchange", "campaign approval requests", _exchange_requests)
for _key, _kind in TARGETING_REFERENCE_KEYS.items():  # campaigns whose targeting names the value under _key
    register_usage_counter(_kind, "campaigns", json_list_counter(Campaign.targeting, _key))
