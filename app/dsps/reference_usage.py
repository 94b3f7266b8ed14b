"""What DSP connections count as uses of reference values: the exchanges a connection supports. Registered with
the reference lists (app/reference/metadata.py register_usage_counter) when the dsps package loads, so an
exchange a DSP names is retired, never deleted."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from app.dsps.models import Dsp
from app.reference.metadata import register_usage_counter


def _exchange_dsps(db: Session, value_ids: Any) -> dict[int, int]:
    """DSPs that list the exchange as supported: such an exchange can be retired, not deleted."""
    wanted, counts = set(value_ids), dict[int, int]()
    for chosen in db.exec(select(Dsp.exchange_ids)):
        for value_id in set(chosen or ()) & wanted:
            counts[value_id] = counts.get(value_id, 0) + 1
    return counts


register_usage_counter("exchange", "dsps", _exchange_dsps)
