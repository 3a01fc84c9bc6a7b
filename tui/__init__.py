"""Parlour's terminal UI (Textual) and its command line."""
