"""Money on an advertiser's account: the append-only ledger, funds added by staff or card, and
delivery charges."""
