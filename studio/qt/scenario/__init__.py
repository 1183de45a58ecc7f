"""The studio's scenario feature: its views."""
