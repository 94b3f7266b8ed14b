"""What a client configures: the company brand and its theme, postbacks and API keys."""
