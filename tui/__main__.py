"""``python -m tui``: the same as the ``parlour`` command (its exit status included)."""

from tui.launch import run

if __name__ == "__main__":
    run()
