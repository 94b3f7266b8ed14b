"""Funds pages: an advertiser's balance and ledger (/funds), the agency's and staff's balances of every
advertiser in scope (/agency/funds, /admin/funds) and the staff form adding funds (/admin/addfund)."""
