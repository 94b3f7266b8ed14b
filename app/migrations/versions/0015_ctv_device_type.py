"""ctv: the campaign targeting's device type "connected_tv" becomes "ctv", the name the statistics store, the
simulator and the traffic-type reference list (CTV) already use, so one name means connected TV everywhere

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-24
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None

_CAMPAIGNS = sa.table('campaigns', sa.column('id', sa.Integer), sa.column('targeting', sa.JSON))


def _rename(old: str, new: str) -> None:
    connection = op.get_bind()
    for campaign_id, targeting in connection.execute(sa.select(_CAMPAIGNS.c.id, _CAMPAIGNS.c.targeting)).all():
        value = json.loads(targeting) if isinstance(targeting, str) else targeting
        devices = (value or {}).get('device_types') or []
        if old in devices:
            value['device_types'] = sorted({new if d == old else d for d in devices})
            connection.execute(sa.update(_CAMPAIGNS).where(_CAMPAIGNS.c.id == campaign_id).values(targeting=value))


def upgrade() -> None:
    _rename('connected_tv', 'ctv')


def downgrade() -> None:
    _rename('ctv', 'connected_tv')
