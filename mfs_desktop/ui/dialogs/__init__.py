"""The dialogs outside Settings: unlocking, exporting."""
