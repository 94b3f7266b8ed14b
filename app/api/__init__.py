"""JSON adapters over the services, mounted at /api."""
