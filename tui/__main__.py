"""``python -m tui``: the same as the ``parlour`` command."""

from tui.cli import main

if __name__ == "__main__":
    main()
