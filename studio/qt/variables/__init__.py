"""The studio's variables feature: its views."""
