"""Choosing the campaigns that use an audience over the API (the audience page's "use in campaigns"): it saves
those campaigns' targeting, so it is the campaigns domain's; its paths stay with the audiences'
(PUT /audiences/{id}/campaigns and the spec's associate-audience)."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import Field
from sqlmodel import Session

from app.access.policy import Actor
from app.campaigns import audience_targeting
from app.history.schemas import RowVersions
from app.kernel.schema_examples import example
from app.supply.schemas import AudienceRead
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["audiences"])
spec_router = APIRouter(tags=["audiences (spec call names)"])


class AssociationBody(RowVersions):
    model_config = example({"allow": [101, 102], "block": [103], "versions": {"101": 4}})

    allow: list[int] = Field(default_factory=list, description="Campaigns that target the audience")
    block: list[int] = Field(default_factory=list, description="Campaigns that exclude it")


@router.put("/audiences/{audience_id}/campaigns", description="Make these exactly the campaigns that use the "
                                                              "audience (allow: target it; block: exclude it), of "
                                                              "its own advertiser. All or nothing; a refusal names "
                                                              "the campaign and why; `versions` (each campaign's, "
                                                              "as you read it) refuses the change with 409 when one "
                                                              "of them was saved since.")
def associate(audience_id: int, body: AssociationBody, actor: Actor = Depends(get_actor),
              db: Session = DB) -> Envelope[AudienceRead]:
    return reply(audience_targeting.associate_campaigns(db, actor=actor, audience_id=audience_id, allow=body.allow,
                                                        block=body.block, read=body.versions), "Campaigns saved")


spec_router.add_api_route("/associate-audience/{audience_id}", associate, methods=["PUT"],
                          summary="associate-audience: the campaigns using an audience (as PUT /audiences/{id}/campaigns)")
