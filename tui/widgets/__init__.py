"""Widgets: the card face, the seat boxes, the event log."""
