"""The account calls under the names the spec gives them (section 7, "Admin": singleUserData, updateUser,
addAdvertiser; the agency pages make the same calls for their advertisers). Each is an alias of a REST call in
users_api.py and runs the same service function, so answers, permission and row-scope checks are identical; new
clients should prefer the REST paths.

Bare paths, as the spec writes these names (like dsp/list of the same list): the spec's client sends GET
parameters in the query and POST bodies as JSON (or its `encryptedData` envelope, app/web/client_envelope.py),
so the account's id travels as `user_id` there instead of in the path."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Response
from pydantic import BaseModel, Field
from sqlmodel import Session

from app.access.policy import Actor
from app.access.roles import Role
from app.accounts import users_api
from app.accounts.schemas import UserCreate, UserRead, UserUpdate
from app.kernel.schema_examples import example
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, spec_call

router = APIRouter(tags=["users: spec call names"])


class UpdateUserBody(UserUpdate):
    model_config = example({"user_id": 12, "email": "ada@example.com", "companyName": "Acme Apps Ltd"})

    user_id: int


class AddAdvertiserBody(BaseModel):
    """An advertiser's account (an agency's own advertiser; staff may name its agency)."""

    model_config = example({
        "email": "buyer@example.com", "password": "s3cret-Pass", "firstName": "Ada", "lastName": "Lovelace",
        "companyName": "Acme Apps"})

    email: str
    password: str
    firstName: str
    lastName: str
    companyName: str = ""
    agencyId: int | None = Field(None, description="Staff: the advertiser's agency; null: a direct advertiser. "
                                                   "An agency's advertisers are its own whatever this says.")


@router.get("/singleUserData")
def single_user_data(user_id: int, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[UserRead]:
    """One account you manage (as GET /users/{user_id})."""
    return users_api.single_user(user_id, actor, db)


@router.post("/updateUser")
def update_user(body: UpdateUserBody, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[UserRead]:
    """Change an account's e-mail, names or company; fields left out keep their values (as PATCH
    /users/{user_id})."""
    return users_api.update_user(body.user_id, body, actor, db)


@router.post("/addAdvertiser")
@spec_call  # a compatibility route: answers 200, where POST /users answers 201
def add_advertiser(body: AddAdvertiserBody, response: Response, actor: Actor = Depends(get_actor),
                   db: Session = DB) -> Envelope[UserRead]:
    """Create an advertiser's account (as POST /users with role ADVERTISER)."""
    return users_api.add_user(UserCreate(role=Role.ADVERTISER.value, **body.model_dump()), response, actor, db)
