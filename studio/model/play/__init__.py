"""The studio's play feature: its models, no Qt."""
