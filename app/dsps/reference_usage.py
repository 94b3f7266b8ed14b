"""What DSP connections count as uses of reference values: the exchanges a connection supports. Registered with
the reference lists (app/reference/metadata.py register_usage_counter) when the dsps package loads, so an
exchange a DSP names is retired, never deleted."""

from __future__ import annotations

from app.dsps.models import Dsp
from app.reference.metadata import json_list_counter, register_usage_counter

# DSPs that list the exchange as supported: such an exchange can be retired, not deleted.
register_usage_counter("exchange", "dsps", json_list_counter(Dsp.exchange_ids))
