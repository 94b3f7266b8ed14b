import pytest

from app.access import preferences
from app.accounts import user_config
from app.kernel.errors import Forbidden, Invalid
from app.messaging import notifications
from components.shell.theme_panel import layout_classes
from tests.helpers import actor_of


def test_theme_choices_are_checked_stored_and_applied(db):
    actor = actor_of(db, "agency@demo.example")
    with pytest.raises(Invalid) as error:
        preferences.update_preferences(db, actor=actor, values={"layout": "diagonal", "colour": "x"})
    assert set(error.value.fields) == {"layout", "colour"}
    preferences.update_preferences(db, actor=actor, values={"layout": "horizontal", "sidebar": "icon"})
    db.flush()
    row = preferences.preferences_of(db, actor.id)
    assert (row.layout, row.sidebar, row.width) == ("horizontal", "icon", "fluid")
    classes = layout_classes({"layout": row.layout, "sidebar": row.sidebar})
    assert "dsp-layout-horizontal" in classes and "dsp-sidebar-icon" in classes and "dsp-width-fluid" in classes


def test_insight360_is_honoured_only_while_the_config_allows_it(db, demo_ids):
    """Issue 21: with insight_dashboard switched off, a stored 'new' view shows the classic dashboard and cannot
    be chosen again; admin and co-admin may always switch."""
    advertiser = actor_of(db, "advertiser@demo.example")
    preferences.update_preferences(db, actor=advertiser, values={"dashboard_view": "new"})
    settings = preferences.settings_of(db, advertiser.id)
    assert preferences.dashboard_view(advertiser.role, settings, "new") == "new"
    user_config.update_config(db, actor=actor_of(db, "admin@demo.example"), user_id=advertiser.id,
                              insight_dashboard=False)
    db.flush()
    settings = preferences.settings_of(db, advertiser.id)
    assert preferences.preferences_of(db, advertiser.id).dashboard_view == "new"  # stored, but not honoured
    assert preferences.dashboard_view(advertiser.role, settings, "new") == "old"
    with pytest.raises(Forbidden):
        preferences.update_preferences(db, actor=advertiser, values={"dashboard_view": "new"})
    preferences.update_preferences(db, actor=advertiser, values={"dashboard_view": "old"})
    admin = actor_of(db, "admin@demo.example")
    assert preferences.dashboard_view(admin.role, preferences.settings_of(db, admin.id), "new") == "new"


def test_notifications_are_per_user_and_mark_read(db, demo_ids):
    advertiser = actor_of(db, "advertiser@demo.example")
    agency = actor_of(db, "agency@demo.example")
    notifications.notify(db, user_id=advertiser.id, title="Budget low")
    db.flush()
    assert notifications.unread_count(db, actor=advertiser) == 2
    assert notifications.unread_count(db, actor=agency) == 1
    mine = notifications.recent(db, actor=advertiser)
    assert [n.title for n in mine] == ["Budget low", "Welcome to the console"]
    other_users = notifications.recent(db, actor=agency)[0].id
    assert notifications.mark_read(db, actor=advertiser, notification_id=other_users) == 0  # not theirs
    assert notifications.mark_read(db, actor=advertiser, notification_id=mine[0].id) == 1
    db.flush()
    assert notifications.unread_count(db, actor=advertiser) == 1
    assert notifications.mark_read(db, actor=advertiser) == 1
    db.flush()
    assert notifications.unread_count(db, actor=advertiser) == 0
    assert notifications.unread_count(db, actor=agency) == 1
