"""The studio's scenario feature: its models, no Qt."""
