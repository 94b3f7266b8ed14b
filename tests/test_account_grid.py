"""Account lists in their grid: what one row action sends over the websocket."""

from __future__ import annotations

import json

from components.accounts.users.user_list import UsersPage
from tests.helpers import user_by_email
from tests.render import handler_target, render_and_deliver, signed_in_console, text_of, walk


def test_asking_to_disable_a_user_shows_the_question_without_resending_the_list(db):
    advertiser = user_by_email(db, "advertiser@demo.example")
    db.commit()
    first, update = render_and_deliver(
        UsersPage, signed_in_console("admin@demo.example"), "/admin/users",
        lambda model: (handler_target(model, "onAction"), ["disable", advertiser.id]))
    assert "advertiser@demo.example" in json.dumps(first)  # the grid got the rows once
    sent = json.dumps(update)
    assert "Arlo Advertiser" in text_of(update["model"])  # the confirmation names the account
    assert any(n.get("attributes", {}).get("data-confirm") == "yes" for n in walk(update["model"]))
    assert "advertiser@demo.example" not in sent  # ...and the rows did not cross the wire again
    assert len(sent) < 5_000
