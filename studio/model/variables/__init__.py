"""The studio's variables feature: its models, no Qt."""
