"""THE permission table: entity -> action -> roles allowed. Row scope is decided in policy.py.

Co-admin rights are admin rights minus ADMIN_ONLY, so the two cannot drift apart.
"""

from __future__ import annotations

from app.access.roles import Role

A, C, G, V = Role.ADMIN, Role.CO_ADMIN, Role.AGENCY, Role.ADVERTISER
EVERYONE = frozenset({A, C, G, V})

# (entity, action) pairs of admin that co-admin does not get; co-admin gets everything else admin has.
ADMIN_ONLY: frozenset[tuple[str, str]] = frozenset(
    {
        ("user", "create_any"),  # /admin/addUser
        ("user", "create_advertiser"),  # co-admin has no addUser page at all
        ("dsp", "view"),
        ("dsp", "manage"),
        ("company_config", "manage"),  # branding and the maintenance switch
        ("agency", "create"),
        ("statistics", "ingest"),
    }
)

_ADMIN_AND_CLIENTS: dict[str, dict[str, frozenset[Role]]] = {
    "profile": {"view": EVERYONE, "update": EVERYONE},
    "preferences": {"update": EVERYONE},
    "notification": {"view": EVERYONE, "update": EVERYONE},
    # Alerts of what the actor may see (app/alerts/service.py: the owner's row scope); each user's own settings.
    "alert": {"view": EVERYONE, "subscribe": EVERYONE},
    "user": {
        "view": frozenset({A, G}),
        "create_any": frozenset({A}),
        "create_advertiser": frozenset({A, G}),
        "update": frozenset({A, G}),
        "impersonate": frozenset({A, G}),
        "reset_password": frozenset({A, G}),
        "reset_second_factor": frozenset({A, G}),  # remove a lost authenticator app (app/accounts/second_factor.py)
        "config": frozenset({A}),  # /admin/user-config: feature switches, margin, exchanges
        "margin": frozenset({A, G}),  # an agency sets its margin on its own advertisers
    },
    "agency": {"view": frozenset({A}), "create": frozenset({A}), "update": frozenset({A})},
    "company_config": {"manage": frozenset({A})},
    "dsp": {"view": frozenset({A}), "manage": frozenset({A})},
    # add: /admin/addfund (deposits, refunds, adjustments); card: start a card top-up (Stripe Checkout) for an
    # advertiser in scope. Spend and margin are charged by the system (statistics ingestion), never by a person.
    # transfer: move money between two advertisers of one agency (app/funds/transfers.py).
    "funds": {"view": frozenset({A, G, V}), "add": frozenset({A}), "card": frozenset({A, G, V}),
              "transfer": frozenset({A, G})},
    # Campaigns of the advertisers in the actor's row scope (services/campaigns.py).
    "campaign": {"view": frozenset({A, G, V}), "create": frozenset({A, G, V}), "update": frozenset({A, G, V}),
                 "status": frozenset({A, G, V}), "bulk_status": frozenset({A})},
    # Creatives of the advertisers in the actor's row scope (services/creatives.py); bulk status is the admin page.
    "creative": {"view": frozenset({A, G, V}), "create": frozenset({A, G, V}), "update": frozenset({A, G, V}),
                 "status": frozenset({A, G, V}), "bulk_status": frozenset({A})},
    # Inventory lists (the spec's app lists) of the advertisers in the actor's row scope (services/app_lists.py).
    "app_list": {"view": frozenset({A, G, V}), "create": frozenset({A, G, V}), "update": frozenset({A, G, V}),
                 "delete": frozenset({A, G, V})},
    # Smart-app lists: staff curate them; every role reads the active ones to target them (services/smart_apps.py).
    "smart_app_list": {"view": EVERYONE, "manage": frozenset({A})},
    # Audiences of the advertisers in the actor's row scope (services/audiences.py): device-id lists and
    # retargeting audiences; "delete" only while no campaign uses one.
    "audience": {"view": frozenset({A, G, V}), "create": frozenset({A, G, V}), "update": frozenset({A, G, V}),
                 "status": frozenset({A, G, V}), "delete": frozenset({A, G, V})},
    "dashboard": {"view": EVERYONE},
    # Staff decide which exchanges each campaign may run on (services/exchange_approvals.py); clients read the
    # state of their own campaigns' requests through the campaign.
    "exchange_approval": {"view": frozenset({A}), "decide": frozenset({A})},
    # Delivery statistics of the advertisers in the actor's row scope (services/statistics.py). Ingestion is
    # the delivery pipeline's job, signed in as an admin (API keys are clients' only), not a page's.
    "statistics": {"view": frozenset({A, G, V}), "ingest": frozenset({A})},
    # Saved reports of the users in the actor's row scope (services/reports.py); their rows follow "statistics".
    "report": {"view": frozenset({A, G, V}), "create": frozenset({A, G, V}), "update": frozenset({A, G, V}),
               "delete": frozenset({A, G, V})},
    # Change logs (app/history/change_log.py CHANGE_LOGS): one record's under "view"; every campaign of one
    # advertiser at once is a staff page.
    "audit": {"view": frozenset({A, G, V}), "advertiser_campaigns": frozenset({A})},
    "reference": {"view": EVERYONE, "manage": frozenset({A})},  # /admin/metadata lists; every picker reads them
    # Keys of users whose settings have api_access: their own, an agency's advertisers', any for staff.
    "api_credential": {"view": frozenset({A, G, V}), "manage": frozenset({A, G, V})},
    # The acting user's own postback URL and events, while an admin has postbacks ENABLED for them.
    "postback": {"view": frozenset({G, V}), "update": frozenset({G, V})},
}


# Whose sign-in each role manages on other accounts in its row scope (policy.can_manage_credentials): the e-mail they
# sign in with, a password-reset code, removing their second factor, enabling or disabling them. A co-admin does not
# manage another co-admin's (nor an admin's): one co-admin could otherwise take another's account over. Admins manage
# everyone's. An install that wants co-admins to manage each other adds C to C's set here.
CREDENTIALS_MANAGED: dict[Role, frozenset[Role]] = {
    A: frozenset({A, C, G, V}),
    C: frozenset({G, V}),
    G: frozenset({V}),
    V: frozenset(),
}


def _with_co_admin(table: dict[str, dict[str, frozenset[Role]]]) -> dict[str, dict[str, frozenset[Role]]]:
    derived: dict[str, dict[str, frozenset[Role]]] = {}
    for entity, actions in table.items():
        derived[entity] = {}
        for action, roles in actions.items():
            if A in roles and (entity, action) not in ADMIN_ONLY:
                roles = roles | {C}
            derived[entity][action] = frozenset(roles)
    return derived


PERMISSIONS: dict[str, dict[str, frozenset[Role]]] = _with_co_admin(_ADMIN_AND_CLIENTS)


def allowed_roles(entity: str, action: str) -> frozenset[Role]:
    try:
        return PERMISSIONS[entity][action]
    except KeyError as missing:
        # A typo in a check must fail loudly, not deny silently forever.
        raise KeyError(f"no permission declared for {entity}.{action}") from missing
