"""The app's screens: main menu, table, reveal, results, rules."""
