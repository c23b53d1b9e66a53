"""scorepad: score keeper and settlement calculator for Sheepshead and Schafkopf."""

__version__ = "0.1.0"
