"""Message catalogs (en, sp, gr, it, rs) and formatters."""
