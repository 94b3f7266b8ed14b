import pytest

from app.access.permissions import ADMIN_ONLY, PERMISSIONS, allowed_roles
from app.access.policy import can, can_see_user, require, require_user_in_scope
from app.access.roles import Role
from app.kernel.errors import Forbidden, NotAuthenticated, NotFound
from tests.helpers import actor_of, other_tenant, user_by_email


def test_co_admin_mirrors_admin_minus_admin_only():
    for entity, actions in PERMISSIONS.items():
        for action, roles in actions.items():
            if Role.ADMIN in roles:
                assert (Role.CO_ADMIN in roles) == ((entity, action) not in ADMIN_ONLY), (entity, action)


def test_unknown_permission_fails_loudly():
    with pytest.raises(KeyError):
        allowed_roles("campaign", "fly")


def test_require_without_actor_is_401(db):
    with pytest.raises(NotAuthenticated):
        require(None, "profile", "view")


def test_company_config_is_admin_only(db):
    assert can(actor_of(db, "admin@demo.example"), "company_config", "manage")
    for email in ("coadmin@demo.example", "agency@demo.example", "advertiser@demo.example"):
        with pytest.raises(Forbidden):
            require(actor_of(db, email), "company_config", "manage")


def test_agency_sees_only_its_advertisers(db):
    rival_agency, rival_advertiser = other_tenant(db)
    agency = actor_of(db, "agency@demo.example")
    own = user_by_email(db, "advertiser@demo.example")
    assert can_see_user(agency, own)
    assert not can_see_user(agency, rival_advertiser)
    assert not can_see_user(agency, rival_agency)
    assert not can_see_user(agency, user_by_email(db, "admin@demo.example"))
    with pytest.raises(NotFound):  # out of scope looks exactly like missing
        require_user_in_scope(agency, rival_advertiser)


def test_advertiser_sees_only_itself_and_coadmin_not_admins(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    assert not can_see_user(advertiser, user_by_email(db, "agency@demo.example"))
    coadmin = actor_of(db, "coadmin@demo.example")
    assert not can_see_user(coadmin, user_by_email(db, "admin@demo.example"))
    assert can_see_user(coadmin, user_by_email(db, "advertiser@demo.example"))
