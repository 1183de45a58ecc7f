"""The studio's play feature: its views."""
