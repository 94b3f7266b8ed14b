"""The demo install: seed data, demo campaigns and creatives, and the delivery simulator."""
