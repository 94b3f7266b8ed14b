"""What an operator runs beside the server: backups and their restores (python -m app backup / restore)."""
