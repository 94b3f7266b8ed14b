"""Alerts (issue 27): what needs a buyer's attention, raised once by scheduled checks and cleared when its cause
is gone. models (rows), kinds (the kinds, declared once), checks (what is wrong now), service (raise / clear /
read / subscriptions), jobs (the scheduled check on the job queue), api (GET /api/alerts, subscriptions)."""
