"""/admin/dsp/changelog/{id}: one DSP connection's history (created, edited, tested, its status moved, pushes to
it), field by field, with who did it; its API key shows only as changed. Admin only, like every DSP page."""

from __future__ import annotations

from app.history.change_log import CHANGE_LOGS
from components.dsps.common import DSPS, back_to_list, not_found
from components.ui.change_log import ChangeLogFrame, change_log_page

DspChangeLogPage = change_log_page("dsp", ChangeLogFrame(
    "dsp-change-log", back_to_list, not_found,
    tabs=lambda console, dsp_id, _dsp: DSPS.record_tabs(console, dsp_id, current=CHANGE_LOGS["dsp"].page)))
